"""Site benchmarks on PostgreSQL: card import, bulk deck checks, deck submission through the
API, and whole simulated events. Prints figures; asserts nothing.

    .venv/bin/python benchmarks/bench_site.py [import] [check] [api] [simulate] [--players 512 2048]

Uses the database `league_bench` on 127.0.0.1 (created when missing; override with
BENCH_DATABASE_URL) and the card data in ../shared/data/pokemon-tcg.
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT.parent / "shared" / "data" / "pokemon-tcg"
URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/league_bench")
ENV = {
    **os.environ,
    "DATABASE_URL": URL,
    "CELERY_BROKER_URL": "",
    "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
}
sys.path.insert(0, str(ROOT))


def manage(*args, stdin=None) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=ENV,
        input=stdin,
        capture_output=True,
        text=True,
        check=True,
    )
    return time.perf_counter() - started, done.stdout


def fresh_database() -> None:
    import psycopg

    base, name = URL.rsplit("/", 1)
    with psycopg.connect(base + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    manage("migrate", "-v0")


def bench_import() -> None:
    fresh_database()
    for label in ("first run (empty database)", "second run (nothing to change)"):
        seconds, out = manage("import_cards", str(CARDS))
        print(f"import_cards {label}: {seconds:.1f} s wall, incl. Django start — {out.strip()}")


def setup_django():
    os.environ.update(ENV)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def decklists(count: int, seed: int = 1) -> list[str]:
    """Precon decks from the data, some with a line dropped or doubled to vary verdicts."""
    from decks.models import PreconDeck

    rng = random.Random(seed)
    texts = [p.as_decklist_text() for p in PreconDeck.objects.order_by("id")]
    out = []
    for i in range(count):
        lines = texts[i % len(texts)].splitlines()
        if rng.random() < 0.3:
            lines.pop(rng.randrange(len(lines)))
        if rng.random() < 0.2:
            lines.append(rng.choice(lines))
        out.append("\n".join(lines))
    return out


def bench_check() -> None:
    setup_django()
    lists = decklists(10_000)
    fmts = ["standard", "expanded", "unlimited"]
    stdin = "".join(
        json.dumps({"id": i, "format": fmts[i % 3], "decklist_text": t}) + "\n"
        for i, t in enumerate(lists)
    )
    seconds, out = manage("check_decks", stdin=stdin)
    results = [json.loads(line) for line in out.splitlines()]
    legal = sum(r["legal"] for r in results)
    print(
        f"check_decks: {len(results)} lists in {seconds:.2f} s wall (one process, incl. Django start "
        f"and the card index), {legal} legal"
    )


def bench_api(n: int = 200) -> None:
    """As in production: the deck-verdict notification goes to the broker (Redis, a queue
    nobody reads, purged afterwards) instead of running in the request."""
    ENV.update(CELERY_BROKER_URL="redis://127.0.0.1:6379/0", CELERY_TASK_DEFAULT_QUEUE="bench-api")
    setup_django()
    from datetime import date

    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient

    from decks.models import Format
    from league.models import Event, League, Player, Registration, Season

    user = get_user_model().objects.create(username=f"bench-{time.time_ns()}")
    league = League.objects.create(name="Bench", slug=f"bench-{time.time_ns()}")
    season = Season.objects.create(
        league=league, name="S", starts_on=date(2026, 1, 1), ends_on=date(2026, 12, 31)
    )
    event = Event.objects.create(
        season=season, name="Bench", slug="bench", format=Format.objects.get(key="expanded")
    )
    player = Player.objects.create(
        name="Bench", player_id=f"B{time.time_ns()}"[-20:], birth_date=date(1990, 1, 1), user=user
    )
    reg = Registration.objects.create(event=event, player=player, division="masters")
    client = APIClient()
    client.force_authenticate(user)
    lists = decklists(n, seed=2)
    url = f"/api/registrations/{reg.pk}/decks/"
    client.post(url, {"decklist_text": lists[0]}, format="json")  # builds the card index once
    timings = []
    for text in lists:
        started = time.perf_counter()
        response = client.post(url, {"decklist_text": text}, format="json")
        timings.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 201, response.content
    from config.celery import app

    with app.connection_for_write() as conn:
        conn.default_channel.queue_purge("bench-api")
    timings.sort()
    print(
        f"deck submission through the API (parse → verdict stored), {n} posts: median "
        f"{statistics.median(timings):.1f} ms, p95 {timings[int(0.95 * n)]:.1f} ms"
    )


def bench_simulate(sizes: list[int]) -> None:
    setup_django()
    from league.models import Event
    from matches.services import standings_rows
    from matches.simulation import simulate_event

    for players in sizes:
        started = time.perf_counter()
        report = simulate_event(players=players, seed=players)
        total = time.perf_counter() - started
        swiss = report.pairing_ms
        event = Event.objects.get(pk=report.event.pk)
        t = time.perf_counter()
        rows = standings_rows(event)
        standings_ms = (time.perf_counter() - t) * 1000
        print(
            f"simulate_event {players} players: {report.rounds} rounds in {total:.0f} s; pairing per round "
            f"ms: median {statistics.median(swiss):.0f}, max {max(swiss):.0f}; close round + standings task "
            f"ms: median {statistics.median(report.round_close_ms):.0f}, max {max(report.round_close_ms):.0f}; "
            f"results entry per round ms: median {statistics.median(report.results_ms):.0f}; "
            f"final standings ({len(rows)} rows) {standings_ms:.0f} ms; rematches {report.rematches}"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("parts", nargs="*", default=["import", "check", "api", "simulate"])
    parser.add_argument("--players", type=int, nargs="*", default=[512, 2048])
    args = parser.parse_args()
    if "import" in args.parts:
        bench_import()
    if "check" in args.parts:
        bench_check()
    if "api" in args.parts:
        bench_api()
    if "simulate" in args.parts:
        bench_simulate(args.players)


if __name__ == "__main__":
    main()
