"""Where a request's time goes: a cProfile of the pairings by name (cache warm) and of the
result-report path, page form and API,
on the event `bench_load.py` builds (PostgreSQL, production settings, a private Redis for
cache and broker). Prints, for each path, the CPU a request in the web process, the
queries it runs, and the functions that take the most of it; then the standings
recompute the reports ask for (the worker's share of the same CPU). Asserts nothing.

    .venv/bin/python benchmarks/profile_report.py [--players 512] [--reports 120] [--top 25]

Issue 16 asks for a profile where a figure is not met: this is it. `bench_load.py` measures
the same paths over HTTP under concurrency; this one runs them one after another in one
process, so the CPU figures carry no gunicorn, socket or contention cost.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_load

HERE = bench_load.HERE
CPU_CLOCK = False


def profile(label: str, calls, top: int) -> None:
    """Time the first half of `calls` as they run (CPU of this process, queries), then run
    the second half under cProfile for the breakdown (the profiler slows Python down, so
    its own totals are not the figure)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    calls = list(calls)
    timed, profiled = calls[: max(1, len(calls) // 2)], calls[max(1, len(calls) // 2) :]
    statuses: dict[int, int] = {}
    with CaptureQueriesContext(connection) as ctx:
        cpu0, wall0 = time.process_time(), time.perf_counter()
        for call in timed:
            status = call()
            statuses[status] = statuses.get(status, 0) + 1
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    n = len(timed)
    print(f"\n## {label}: {n} requests timed, {len(profiled)} profiled; statuses {statuses}")
    print(f"CPU {cpu / n * 1000:.1f} ms a request, wall {wall / n * 1000:.1f} ms, "
          f"{len(ctx.captured_queries) / n:.1f} queries a request; load {os.getloadavg()[0]:.1f}")  # fmt: skip
    if not profiled:
        return
    # `--cpu`: the profiler's clock is this process's CPU, so time waiting for PostgreSQL
    # or Redis (a busy machine's noise) is left out of the breakdown.
    prof = cProfile.Profile(time.process_time) if CPU_CLOCK else cProfile.Profile()
    for call in profiled:
        prof.enable()
        call()
        prof.disable()
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out).strip_dirs().sort_stats("cumulative")
    # Python's work counted, not timed: the same on a quiet machine and a busy one.
    print(
        f"Python function calls a request (profiled half): {stats.total_calls / len(profiled):.0f}"
    )
    stats.print_stats(top)
    print("```\n" + "\n".join(out.getvalue().strip().splitlines()[4:]) + "\n```")
    out = io.StringIO()
    pstats.Stats(prof, stream=out).strip_dirs().sort_stats("tottime").print_stats(top)
    print("By own time:\n```\n" + "\n".join(out.getvalue().strip().splitlines()[4:]) + "\n```")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=512)
    parser.add_argument("--reports", type=int, default=120)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--sql", action="store_true", help="list one report's queries")
    parser.add_argument("--keep", action="store_true", help="as bench_load.py --keep")
    parser.add_argument("--cpu", action="store_true", help="profile CPU time, not wall time")
    parser.add_argument("--only", choices=["reports"], help="profile only the reports")
    parser.add_argument(
        "--cold",
        action="store_true",
        help="with --only reports: each phone reports without having loaded anything first "
        "(its session, user and token read from the database), as bench_load.py --warm cold",
    )
    parser.add_argument(
        "--first",
        choices=["page", "api"],
        default="page",
        help="whose players report first, the page's or the API's (as bench_load.py)",
    )
    args = parser.parse_args()
    global CPU_CLOCK
    CPU_CLOCK = args.cpu
    redis_port = bench_load.free_port()
    redis = subprocess.Popen(["redis-server", "--port", str(redis_port), "--save", "",
                              "--appendonly", "no"], stdout=subprocess.DEVNULL)  # fmt: skip
    bench_load.REDIS = f"redis://127.0.0.1:{redis_port}"
    try:
        run(args)
    finally:
        redis.terminate()
        redis.wait(timeout=10)


def run(args) -> None:
    env = bench_load.site_env(HERE)
    data = bench_load.prepare(HERE, args.players, keep=args.keep)
    # Production settings name the static files by their manifest, as the web processes do.
    py = str(HERE / ".venv/bin/python")
    subprocess.run(
        [py, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=HERE, env=env, check=True
    )
    os.environ.update(env)
    # This checkout's packages, not an editable install's (a shared virtualenv).
    sys.path.insert(0, str(HERE))
    import django

    django.setup()
    from django.conf import settings
    from django.test import Client

    settings.ALLOWED_HOSTS = ["*"]
    matches = data["matches"][: args.reports]
    half = len(matches) // 2
    page_client = Client(enforce_csrf_checks=False)
    form = {"game_1": "me", "reason_1": "played", "game_2": "me", "reason_2": "played"}

    def page(m):
        # A phone of its own: no cookie but the session (the test client keeps every
        # cookie an answer sets; the messages cookie of every earlier report would grow).
        page_client.cookies.clear()
        page_client.cookies["sessionid"] = m["a"]
        return page_client.post(f"/matches/{m['id']}/report/", form, secure=True).status_code

    api_client = Client()
    body = json.dumps({"games": [{"outcome": "a"}, {"outcome": "a"}]})

    def api(m):
        auth = f"Token {data['tokens'][m['b_user']]}"
        return api_client.post(
            f"/api/matches/{m['id']}/report/", body, content_type="application/json",
            secure=True, HTTP_AUTHORIZATION=auth,
        ).status_code  # fmt: skip

    reader = Client()
    by_name = f"/events/{data['event']}/rounds/{data['round']}/?by=name"

    def read(m):
        reader.cookies["sessionid"] = m["a"]
        return reader.get(by_name, secure=True, HTTP_ACCEPT_ENCODING="gzip").status_code

    me = f"/events/{data['event']}/me.json?round={data['round']}"

    def read_me(m):
        reader.cookies["sessionid"] = m["a"]
        return reader.get(me, secure=True, HTTP_ACCEPT_ENCODING="gzip").status_code

    read(matches[0])  # the page's first render, outside the profile
    if args.only != "reports":
        readers(read, read_me, matches, args.top)
    elif not args.cold:  # the state after the readers: each player's session and user cached
        for m in matches:
            read_me(m)
    page(matches[-1])  # warm imports, caches and connections outside the profile
    api(matches[-2])
    ways = [("the page form", page), ("the API", api)]
    for i, (way, call) in enumerate(ways[::-1] if args.first == "api" else ways):
        if call is api and not args.cold:  # each token used a moment before
            for m in matches[:half]:
                token = data["tokens"][m["b_user"]]
                auth = f"Token {token}"
                api_client.get(f"/api/matches/{m['id']}/", secure=True, HTTP_AUTHORIZATION=auth)
        what = "the opponents confirming" if i else "first reports"
        profile(f"results reported through {way} ({what})",
                [lambda m=m, call=call: call(m) for m in matches[:half]], args.top)  # fmt: skip
    standings(data, args)
    if args.sql:
        sql(data, args, read, page, api)


def readers(read, read_me, matches, top) -> None:
    profile(
        "pairings by name, a signed-in player (page cache warm)",
        [lambda m=m: read(m) for m in matches],
        top,
    )
    profile(
        "me.json, a signed-in player (the personal part of the page)",
        [lambda m=m: read_me(m) for m in matches],
        top,
    )
    profile(
        "me.json again, the same players (a phone polling: what is cached is cached)",
        [lambda m=m: read_me(m) for m in matches],
        top,
    )


def drain(top: int) -> None:
    """The worker's part of the reports above: their batched outbox rows (no worker runs
    beside this script, so all are still due), drained once, profiled: CPU and queries a
    row (a report)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from notifications import batches
    from notifications.models import OutboxTask

    due = OutboxTask.objects.filter(done_at__isnull=True, task__startswith=batches.PREFIX)
    rows = due.count()
    prof = cProfile.Profile(time.process_time) if CPU_CLOCK else cProfile.Profile()
    with CaptureQueriesContext(connection) as ctx:
        cpu0 = time.process_time()
        prof.enable()
        done = batches.drain()
        prof.disable()
        cpu = time.process_time() - cpu0
    print(f"\n## the worker's drain of those reports' outbox rows: {rows} rows, {done} done")
    queries, load = len(ctx.captured_queries), os.getloadavg()[0]
    print(f"CPU {cpu / max(1, done) * 1000:.1f} ms a row (profiled), {queries} queries in all")
    print(f"load {load:.1f}")
    stats = pstats.Stats(prof, stream=io.StringIO()).strip_dirs()
    print(f"Python function calls a row: {stats.total_calls / max(1, done):.0f}")
    out = io.StringIO()
    pstats.Stats(prof, stream=out).strip_dirs().sort_stats("cumulative").print_stats(top)
    print("```\n" + "\n".join(out.getvalue().strip().splitlines()[4:]) + "\n```")


def standings(data, args) -> None:
    drain(args.top)
    from league.models import Event
    from matches.services.standings import recompute_standings, request_standings

    event = Event.objects.get(pk=data["event"])

    def recompute():
        request_standings(event=event, round_number=data["round"])  # as a report marks it
        recompute_standings(event_id=event.pk)
        return 200

    profile("one standings recompute (the worker's share)", [recompute] * 6, args.top)


def sql(data, args, read, page, api) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    m = data["matches"][args.reports]
    for label, call in (("pairings by name", read), ("page form", page), ("API", api)):
        with CaptureQueriesContext(connection) as ctx:
            call(m)
        print(f"\n## The queries of one request: {label}")
        for q in ctx.captured_queries:
            print("-", q["sql"][:220])


if __name__ == "__main__":
    main()
