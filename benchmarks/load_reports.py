"""The reports of `bench_load.py` ("everyone reports"): players at once through the page
form, then their opponents through the API, confirming; each phone cold (it reports
without having loaded anything: its session and user are read from the database) or warm
(it first loads its match page, untimed, as a real phone reporting from the page it just
loaded). `run` is `bench_load.run`."""

from __future__ import annotations

import json
import time

from load_readers import cpu_seconds, get, pids_of, request


def _auth(data: dict, m: dict) -> tuple[str, str]:
    if data["tokens"]:
        return f"Token {data['tokens'][m['b_user']]}", "token"
    import base64

    raw = f"{m['b_user']}:{data['password']}".encode()
    return "Basic " + base64.b64encode(raw).decode(), "Basic"


def reports(stack, data: dict, warm: str, run, *, first: str = "page", turn: int = 128):
    """The "everyone reports" part: 30 players at once through the page form, then their
    opponents 30 at once through the API, confirming (`first="api"`: the API's players
    report first and the page's confirm, so each way is measured doing the other's work;
    `first="turns"`: both, in blocks of `turn` matches (half the part when that is
    smaller: a 512-player event) taken in the order page-first, API-first, API-first,
    page-first, ..., each kind's blocks then counted as one run (`merged`), so a drift
    in the machine's load falls on both ways alike).
    `warm`: "cold" (every phone reports without having loaded anything first: its
    session and user are read from the database), "warm" (each phone first loads its
    match page, or the match's JSON with its token, untimed, as a real phone reporting
    from the page it just loaded), or "both" (the first half of the matches cold, the
    second half warm)."""
    port = stack.port
    # Reported untimed before anything is measured, each way first and confirming.
    spare, ms = data["matches"][-20:], data["matches"][:-20]
    if warm == "both":
        half = len(ms) // 2
        parts = [("cold", ms[:half]), ("warm", ms[half:])]
    else:
        parts = [(warm, ms)]
    # Every web process past its first requests (imports, templates, URL and API set-up),
    # as after the readers of a whole run, untimed; by the staff and anonymously, so no
    # reporter's session or user is read.
    staff_page = f"/matches/{spare[-1]['id']}/"
    staff_get = lambda: get(port, staff_page, cookie=data["staff"])  # noqa: E731
    api_get = lambda: get(port, f"/api/matches/{spare[-1]['id']}/")  # noqa: E731
    warm_up = [staff_get, api_get] * 25
    run(stack, warm_up, 10)
    # ...and past their first reports (the report's code, the event's frame), so the way
    # measured first does not pay for them: spare matches, never measured.
    for ways, matches in (([_page, _api], spare[:10]), ([_api, _page], spare[10:])):
        for way in ways:
            way(stack, data, matches, run, warm=False, confirming=False)
    settle(stack)
    out = []
    for mode, part in parts:
        if first == "turns":
            size = min(turn, max(1, len(part) // 2))  # two blocks at least: both ways
            blocks = [part[i : i + size] for i in range(0, len(part), size)]
            orders = [
                [_page, _api] if i % 4 in (0, 3) else [_api, _page] for i in range(len(blocks))
            ]
        else:
            blocks, orders = [part], [[_api, _page] if first == "api" else [_page, _api]]
        runs: dict[str, list[dict]] = {}
        for block, ways in zip(blocks, orders, strict=True):
            for i, way in enumerate(ways):
                label, got = way(stack, data, block, run, warm=mode == "warm", confirming=i == 1)
                # What the run left the worker is counted with it: PostgreSQL's and the
                # worker's CPU a request include the tail (req/s and latencies do not, nor
                # the CPU of this database's backends, which is the run's alone).
                tail = settle(stack)
                got["db_ms"] += tail["db"] / got["n"] * 1000
                got["rest_ms"] += tail["rest"] / got["n"] * 1000
                runs.setdefault(label, []).append(got)
        out.extend((label, merged(got)) for label, got in sorted(runs.items()))
    return out


#: What `merged` sums over its runs, weighted by their requests.
_PER_REQUEST = ("cpu_ms", "kb", "db_ms", "db_own_ms", "rest_ms", "client_ms")


def merged(results: list[dict]) -> dict:
    """Runs of the same kind taken in turns with another kind (`--first turns`) as one:
    their requests over their summed wall time, their latencies together."""
    n = sum(r["n"] for r in results)
    walls = [r["n"] / r["rps"] for r in results if r["rps"]]
    times = sorted(t for r in results for t in r["times"])

    def pct(p):
        return times[min(len(times) - 1, int(len(times) * p))] * 1000

    wall = sum(walls)
    out = {
        **{"n": n, "rps": n / wall, "p50": pct(0.5), "p95": pct(0.95), "p99": pct(0.99)},
        "times": times,
        "errors": sum(r["errors"] for r in results),
        "cores": sum(r["cores"] * r["n"] / r["rps"] for r in results if r["rps"]) / wall,
    }
    for key in _PER_REQUEST:
        out[key] = sum(r.get(key, float("nan")) * r["n"] for r in results) / max(1, n)
    return out


def settle(stack, timeout: float = 60) -> dict:
    """Wait until the worker has done what earlier requests left it (no outbox row due
    and its processes idle), so a measurement does not pay for the one before it: the
    standings recomputes that confirmations ask for would otherwise fall on whichever
    run comes next (twice as often on one way's runs as on the other's, with
    `--first turns`). Returns the CPU seconds the worker and Redis (`rest`) and
    PostgreSQL (`db`) spent meanwhile: the run's tail, its work done after it."""
    import psycopg

    # Work due within seconds counts too: a standings recompute waits a second to
    # gather its requests (`STANDINGS_COALESCE_SECONDS`), a drain its rows.
    due = (
        "SELECT count(*) FROM notifications_outboxtask "
        "WHERE done_at IS NULL AND due_at <= now() + interval '10 seconds'"
    )
    rest0, db0 = stack.rest_cpu(), cpu_seconds(pids_of("postgres"))
    deadline = time.monotonic() + timeout
    with psycopg.connect(stack.url, autocommit=True) as conn:
        while time.monotonic() < deadline:
            before = stack.rest_cpu()
            time.sleep(0.3)
            if not conn.execute(due).fetchone()[0] and stack.rest_cpu() - before < 0.01:
                break
    return {"rest": stack.rest_cpu() - rest0, "db": cpu_seconds(pids_of("postgres")) - db0}


def _page(stack, data, part, run, *, warm: bool, confirming: bool):
    port = stack.port
    two_nil = "game_1=me&reason_1=played&game_2=me&reason_2=played"
    if warm:
        run(stack, [lambda m=m: get(port, f"/matches/{m['id']}/", cookie=m["a"]) for m in part], 30)
    page = [
        lambda m=m: request(port, "POST", f"/matches/{m['id']}/report/", cookie=m["a"],
                            body=two_nil,
                            headers={"Content-Type": "application/x-www-form-urlencoded"})
        for m in part
    ]  # fmt: skip
    what = ", confirming" if confirming else ""
    tag = ", after loading the match page" if warm else ""
    return (f"results reported through the page form{what}, 30 at once{tag}", run(stack, page, 30))


def _api(stack, data, part, run, *, warm: bool, confirming: bool):
    port = stack.port
    body = json.dumps({"games": [{"outcome": "a"}, {"outcome": "a"}]})
    if warm:
        warmers = [
            lambda m=m: request(
                port,
                "GET",
                f"/api/matches/{m['id']}/",
                headers={"Authorization": _auth(data, m)[0]},
            )
            for m in part
        ]
        run(stack, warmers, 30)
    jobs = [
        lambda m=m: request(port, "POST", f"/api/matches/{m['id']}/report/", body=body,
                            headers={"Content-Type": "application/json",
                                     "Authorization": _auth(data, m)[0]})
        for m in part
    ]  # fmt: skip
    label = _auth(data, part[0])[1]
    what = ", confirming" if confirming else ", first"
    tag = ", after loading the match page" if warm else ""
    return (
        f"results reported through the API ({label}){what}, 30 at once{tag}",
        run(stack, jobs, 30),
    )
