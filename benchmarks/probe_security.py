"""Issue 27's probe over real HTTP, as production runs the site: gunicorn with
`DJANGO_ENV=production`, a private Redis for the cache, behind the TLS proxy's headers
(`X-Forwarded-Proto: https`, and `X-Forwarded-For` as the proxy writes it: whatever the
client claimed, then the address the proxy saw). Each family of the issue is attacked and
counted; prints a table, asserts nothing.

    .venv/bin/python benchmarks/probe_security.py [--root DIR] [--port 18301]

`--root` serves another checkout's code (e.g. /work/main, for the "before" figures) with
this checkout's virtualenv. Uses the database `league_probe27` (PROBE_DATABASE_URL).
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import http.client
import json
import os
import subprocess
import sys
import time
import zlib
from pathlib import Path
from urllib.parse import urlencode

HERE = Path(__file__).resolve().parents[1]
URL = os.environ.get("PROBE_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/league_probe27")
CSRF = "p" * 32
NOTE_A = "League A private judge note"


def site_env(root: Path, redis: str) -> dict:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PYTHONPATH": f"{root}:{HERE}",
        "DATABASE_URL": URL,
        "DJANGO_ENV": "production",
        "SECRET_KEY": "probe-27-" + "y" * 50,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "CELERY_BROKER_URL": "",
        "CACHE_URL": f"{redis}/0",
        "CACHE_KEY_PREFIX": "probe27",
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
        "LOG_LEVEL": "ERROR",
        "VAR_DIR": "/tmp/probe27-var",
    }


# --- the data (built inside the served checkout) -------------------------------------


def build() -> dict:
    """League A: an event of 5 (a bye) with private lists, round 1 played and closed
    (standings published), round 2 paired but not published with one result entered by
    staff; a scorekeeper, a judge, players with sessions and a token; an event open for
    lists. League B: its organiser, an event where Ash plays and a table to look at;
    Ash has a penalty with a judge's note in league A. A paused webhook of league A records
    every delivery."""
    import django

    django.setup()
    from django.contrib.sessions.backends.db import SessionStore
    from django.utils import timezone

    from floor import services as floor_services
    from insights import selectors as insight_selectors
    from league import services as league_services
    from league.models import Event, StaffRole
    from league.services.tokens import create_api_token
    from matches import services
    from tests import factories as f
    from webhooks import events as hook_events
    from webhooks.models import WebhookEndpoint

    def session(user) -> str:
        store = SessionStore()
        store["_auth_user_id"] = str(user.pk)
        store["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
        store["_auth_user_hash"] = user.get_session_auth_hash()
        store.create()
        return store.session_key

    f.sample_cards()
    org_a, org_b = f.UserFactory(username="probe-org-a"), f.UserFactory(username="probe-org-b")
    league_a = f.LeagueFactory(organisers=[org_a])
    league_b = f.LeagueFactory(organisers=[org_b])
    WebhookEndpoint.objects.create(
        league=league_a,
        url="https://hooks.example.org/probe",
        events=sorted(hook_events.NAMES),
        paused_at=timezone.now(),
    )
    season = f.SeasonFactory(league=league_a)
    event = f.EventFactory(
        season=season, name="Probe Open", decklists_open=Event.DecklistsOpen.NEVER
    )
    users = [f.UserFactory(username=f"probe-player-{i}") for i in range(5)]
    regs = [
        f.RegistrationFactory(event=event, player=f.PlayerFactory(user=u, name=f"Probe {i}"))
        for i, u in enumerate(users)
    ]
    for reg in regs:
        league_services.submit_deck(registration=reg, text=f.sample_deck_text(), by_user=org_a)
    round_1 = services.pair_next_round(event=event, by_user=org_a)
    services.publish_round(round_=round_1, by_user=org_a)
    wins = {"games": [{"outcome": "a"}] * (event.best_of // 2 + 1)}
    for m in round_1.matches.filter(player_b__isnull=False):
        services.set_result(match=m, by_user=org_a, payload=wins)
    services.close_round(round_=round_1, by_user=org_a)
    services.recompute_standings(event_id=event.pk, publish_round=1)
    round_2 = services.pair_next_round(event=event, by_user=org_a)
    hidden = round_2.matches.filter(player_b__isnull=False).first()
    services.set_result(match=hidden, by_user=org_a, payload=wins)

    ash_reg = regs[0]
    ash = users[0]
    ash_match = next(
        m for m in round_1.matches.all() if ash_reg.pk in (m.player_a_id, m.player_b_id)
    )
    floor_services.issue_penalty(
        match=ash_match,
        side=ash_match.side_of(ash_reg.pk),
        by_user=org_a,
        infraction="tardiness",
        penalty="warning",
        note=NOTE_A,
    )
    event_b = f.EventFactory(season=f.SeasonFactory(league=league_b), name="Probe B Cup")
    f.RegistrationFactory(event=event_b, player=ash_reg.player)
    f.RegistrationFactory(event=event_b)
    round_b = services.pair_next_round(event=event_b, by_user=org_b)
    services.publish_round(round_=round_b, by_user=org_b)

    roles = {}
    for role in (StaffRole.Role.SCOREKEEPER, StaffRole.Role.JUDGE):
        user = f.UserFactory(username=f"probe-{role}")
        StaffRole.objects.create(league=league_a, user=user, role=role)
        roles[role] = session(user)
    open_event = f.EventFactory(season=season, name="Probe Later Cup")
    open_reg = f.RegistrationFactory(event=open_event, player=ash_reg.player)
    token, key = create_api_token(user=ash, name="probe")
    deck = insight_selectors.latest_decks_of([ash_reg])[ash_reg.pk]
    archetype = insight_selectors.archetype_of(
        ash_reg, deck, insight_selectors.league_rules(league_a)
    )
    try:
        from notifications.unsubscribe import make_token
    except ImportError:
        from notifications.delivery import unsubscribe_token as make_token
    ids = {"event": event, "ash_reg": ash_reg, "ash_user": ash, "open_reg": open_reg}
    first = {"match_b": round_b, "round_1_match": round_1}
    return {
        **{k: v.pk for k, v in ids.items()},
        **{k: r.matches.filter(player_b__isnull=False).first().pk for k, r in first.items()},
        **{k: session(u) for k, u in {"ash": ash, "org_b": org_b}.items()},
        "player_ids": sorted(r.player.player_id for r in regs),
        "scorekeeper": roles[StaffRole.Role.SCOREKEEPER],
        "judge": roles[StaffRole.Role.JUDGE],
        "archetype": archetype,
        **{"token_id": token.pk, "token": key},
        "unsubscribe": make_token(ash.pk, "pairings_published"),
    }


def count_deliveries(data: dict) -> dict:
    """What league A's webhook recorded about round 2, which is not public."""
    import django

    django.setup()
    from webhooks.models import WebhookDelivery

    about = [
        d.event
        for d in WebhookDelivery.objects.all()
        if (d.payload.get("data", {}).get("round") or {}).get("number") == 2
    ]
    return {"round_2_deliveries": len(about), "result_final": about.count("result-final")}


# --- HTTP -------------------------------------------------------------------------------


def call(port, method, path, *, session=None, headers=None, body=None, client="203.0.113.50"):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    head = {
        "X-Forwarded-Proto": "https",
        "X-Forwarded-For": client,
        "Referer": f"https://127.0.0.1:{port}/",
        "Accept-Encoding": "identity",
        **(headers or {}),
    }
    head["Cookie"] = f"csrftoken={CSRF}" + (f"; sessionid={session}" if session else "")
    head["X-CSRFToken"] = CSRF
    if isinstance(body, dict):
        body = json.dumps(body)
        head.setdefault("Content-Type", "application/json")
    conn.request(method, path, body=body, headers=head)
    resp = conn.getresponse()
    data = resp.read()
    conn.close()
    return resp.status, dict(resp.getheaders()), data.decode("utf-8", "replace")


def probe(port: int, data: dict) -> list[tuple[str, str, str]]:
    rows = []
    e = data["event"]

    def add(family: str, attack: str, figure) -> None:
        rows.append((family, attack, str(figure)))

    # 1. The anonymous deck check: 30 a minute promised; a forged first X-Forwarded-For.
    check = {"format": "standard", "decklist_text": "4 Pikachu\n"}
    codes = [
        call(port, "POST", "/api/decks/check/", body=check, client=f"198.51.100.{n}, 203.0.113.7")[
            0
        ]
        for n in range(40)
    ]
    page = call(
        port,
        "POST",
        "/decks/check/",
        body=urlencode(check),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        client="198.51.100.99, 203.0.113.7",
    )[0]
    add(
        "throttle",
        "40 deck checks, forged first X-Forwarded-For: answered 200 (30 promised)",
        f"{codes.count(200)} (page after: {page})",
    )

    # 2. Player ids in the standings (5 players; the public page shows none).
    _, _, api = call(port, "GET", f"/api/events/{e}/standings/")
    shown = [r.get("player_id") for r in json.loads(api).get("rows", []) if r.get("player_id")]
    _, _, csv_text = call(port, "GET", f"/events/{e}/standings.csv")
    in_csv = sum(pid in csv_text for pid in data["player_ids"])
    add(
        "player ids",
        "Play! Pokémon ids an anonymous visitor reads: API / CSV",
        f"{len(shown)} / {in_csv}",
    )

    # 3. Bad input: NUL and superscript digits.
    bad = [
        "/api/cards/?name=%00",
        "/api/formats/%00/",
        f"/api/events/{e}/standings/?round=%C2%B2",
        f"/events/{e}/standings/?round=%C2%B2",
        f"/events/{e}/standings.csv?round=%C2%B2",
        f"/events/{e}/decks/{data['ash_reg']}/?version=%C2%B2",
        "/api/rounds/?event=%C2%B2",
        "/events/%00/",
        f"/events/{e}/overlay/?table=%C2%B2",
        "/api/cards/?set_code=%00",
    ]
    answers = [call(port, "GET", u, session=data["ash"])[0] for u in bad]
    add(
        "bad input",
        f"{len(bad)} NUL / superscript URLs: 500s",
        f"{answers.count(500)} ({', '.join(map(str, answers))})",
    )

    # 4. A revoked token and its stored answer.
    idem = {"Authorization": f"Token {data['token']}", "Idempotency-Key": "probe-1"}
    body = {"decklist_text": "4 Pikachu\n"}
    deck_url = f"/api/registrations/{data['open_reg']}/decks/"
    first = call(port, "POST", deck_url, headers=idem, body=body)[0]
    call(
        port,
        "POST",
        "/accounts/profile/tokens/",
        session=data["ash"],
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        body=urlencode({"revoke": data["token_id"]}),
    )
    replay = call(port, "POST", deck_url, headers=idem, body=body)
    add(
        "idempotency",
        "revoked token, same key and body: first / after revoking",
        f"{first} / {replay[0]} (replayed: {replay[1].get('Idempotent-Replayed', 'no')})",
    )

    # 5. Webhooks of a round that is not public (counted by the caller from the database).
    round_page = call(port, "GET", f"/events/{e}/rounds/2/")[0]
    add("webhooks", "public page of round 2 (paired, not published)", str(round_page))

    # 6. Penalty notes across leagues.
    floor_b = call(port, "GET", f"/matches/{data['match_b']}/floor/", session=data["org_b"])
    add(
        "penalties",
        "league B's organiser: league A's penalty shown / its note shown",
        f"{'Tardiness' in floor_b[2]} / {NOTE_A in floor_b[2]} ({floor_b[0]})",
    )

    # 7. Archetypes of private lists for a scorekeeper.
    card = call(
        port,
        "GET",
        f"/events/{e}/registrations/{data['ash_reg']}/card/",
        session=data["scorekeeper"],
    )
    meta = call(port, "GET", f"/events/{e}/metagame/", session=data["scorekeeper"])
    deck = call(port, "GET", f"/events/{e}/decks/{data['ash_reg']}/", session=data["scorekeeper"])
    arch = data["archetype"]
    add(
        "private lists",
        f"scorekeeper: list page / archetype '{arch}' on card / on metagame",
        f"{deck[0]} / {arch in card[2]} / {arch in meta[2]}",
    )

    # 8. Also: the unsubscribe link, the new-token page, a judge's disqualification.
    token = data["unsubscribe"]
    readable = False
    try:
        payload = token.split(":")[0].lstrip(".")
        raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
        with contextlib.suppress(zlib.error):
            raw = zlib.decompress(raw)
        readable = f"[{data['ash_user']}," in raw.decode("latin-1")
    except ValueError:
        pass
    add("unsubscribe", "the link shows the user id", f"{readable} ({token[:24]}…)")
    made = call(
        port,
        "POST",
        "/accounts/profile/tokens/",
        session=data["ash"],
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        body=urlencode({"name": "probe 2"}),
    )
    add(
        "token page",
        "Cache-Control of the page showing a new key",
        made[1].get("Cache-Control", "(none)"),
    )
    dq = call(
        port,
        "POST",
        f"/matches/{data['round_1_match']}/floor/",
        session=data["judge"],
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        body=urlencode(
            {
                "action": "penalty",
                "side": "b",
                "infraction": "cheating",
                "penalty": "disqualification",
                "note": "probe",
            }
        ),
    )
    add("judge", "a judge disqualifies from the floor: status", str(dq[0]))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", type=Path, default=HERE)
    parser.add_argument("--port", type=int, default=18301)
    parser.add_argument("--step", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.step == "build":
        print(json.dumps(build()))
        return
    if args.step == "count":
        print(json.dumps(count_deliveries({})))
        return
    root = args.root.resolve()
    redis_port = args.port + 1
    redis = subprocess.Popen(
        ["redis-server", "--port", str(redis_port), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    env = site_env(root, f"redis://127.0.0.1:{redis_port}")
    py = str(HERE / ".venv/bin/python")
    web = None
    try:
        import psycopg

        base, name = URL.rsplit("/", 1)
        with psycopg.connect(base + "/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        subprocess.run([py, "manage.py", "migrate", "-v0"], cwd=root, env=env, check=True)
        subprocess.run(
            [py, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=root, env=env, check=True
        )
        dev = {**env, "DJANGO_ENV": "development"}
        me = str(Path(__file__).resolve())
        built = subprocess.run(
            [py, me, "--step", "build"], cwd=root, env=dev, capture_output=True, text=True
        )
        if built.returncode:
            sys.exit(built.stderr[-3000:])
        data = json.loads(built.stdout.strip().splitlines()[-1])
        gunicorn = f"-m gunicorn config.wsgi -w 2 -b 127.0.0.1:{args.port} --log-level warning"
        web = subprocess.Popen(
            [py, *gunicorn.split()], cwd=root, env=env, stderr=subprocess.DEVNULL
        )
        for _ in range(150):
            try:
                call(args.port, "GET", "/api/")
                break
            except OSError:
                time.sleep(0.2)
        rows = probe(args.port, data)
        counted = subprocess.run(
            [py, me, "--step", "count"], cwd=root, env=dev, capture_output=True
        )
        hooks = json.loads(counted.stdout.decode().strip().splitlines()[-1])
        what = "deliveries about round 2 (not public) / of them result-final"
        rows.insert(
            4, ("webhooks", what, f"{hooks['round_2_deliveries']} / {hooks['result_final']}")
        )
        print(f"\nProbe of issue 27 against {root} (gunicorn, DJANGO_ENV=production)\n")
        print("| family | attack | figure |")
        print("| --- | --- | --- |")
        for family, attack, figure in rows:
            print(f"| {family} | {attack} | {figure} |")
    finally:
        if web is not None:
            web.terminate()
            web.wait(timeout=30)
        redis.terminate()
        redis.wait(timeout=10)


if __name__ == "__main__":
    main()
