"""The readers of `bench_load.py`: wrk (not Python threads, so the load client costs little
of the machine) plays phones against the site and against the ceiling
(`benchmarks/ceiling.py`) measured before and after them in the same run."""

from __future__ import annotations

import http.client
import json
import os
import resource
import subprocess
import tempfile
from pathlib import Path

CSRF = "b" * 32


def cpu_seconds(pids: list[int]) -> float:
    """CPU of `pids` and of their children that have exited (a PostgreSQL backend that
    closes its connection moves its time to the postmaster's), so the sum only grows."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
    return total / tick


def pids_of(name: str) -> list[int]:
    out = subprocess.run(["pgrep", "-x", name], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def request(port, method, path, *, cookie=None, headers=None, body=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    head = {"Accept-Encoding": "gzip, br", "X-Forwarded-Proto": "https",
            "Referer": f"https://127.0.0.1:{port}/", **(headers or {})}  # fmt: skip
    if cookie:
        head["Cookie"] = f"sessionid={cookie}; csrftoken={CSRF}"
        head["X-CSRFToken"] = CSRF
    conn.request(method, path, body=body, headers=head)
    resp = conn.getresponse()
    data = resp.read()
    conn.close()
    return resp.status, len(data)


def event_version(port, path) -> str:
    """The event version a public page names (`X-Event-Version`)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", path, headers={"X-Forwarded-Proto": "https"})
    resp = conn.getresponse()
    resp.read()
    conn.close()
    return resp.getheader("X-Event-Version", "?")


def get(port, path, **kw):
    return request(port, "GET", path, **kw)


WRK_SCRIPT = """
local reqs = {%s}
local i = 0
-- Each thread starts at its own share of the list (thread 0 at 0, thread 1 halfway): two
-- threads never ask the same phone's page at once. (They used to start at math.random's
-- first number, the same in every thread's Lua state: each first view was asked twice
-- at the same moment, as no phone does.)
local threads = 0
setup = function(thread) thread:set("id", threads); threads = threads + 1 end
init = function(args) i = math.floor(id * #reqs / 2) end
request = function()
  i = i + 1
  local r = reqs[(i % #reqs) + 1]
  local h = {["Accept-Encoding"] = "gzip", ["X-Forwarded-Proto"] = "https"}
  -- A phone that has seen one page with a form (or me.json) carries its CSRF cookie.
  if r[2] ~= "" then h["Cookie"] = "sessionid=" .. r[2] .. "; csrftoken=%CSRF%" end
  return wrk.format("GET", r[1], h)
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("WRK %d %d %d %d %d %d %d\\n", summary.requests, summary.duration,
    summary.bytes, latency:percentile(50), latency:percentile(95), latency:percentile(99),
    e.status + e.connect + e.read + e.write + e.timeout))
end
"""


def wrk(port: int, reqs: list[tuple[str, str]], connections: int, seconds: float, cpu=None) -> dict:
    """`reqs` ((path, session key or "") pairs, cycled) from wrk's `connections` at once for
    `seconds`: wrk, not Python threads, so the load client costs little of the two cores."""
    table = ", ".join("{" + json.dumps(p) + ", " + json.dumps(c) + "}" for p, c in reqs)
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(WRK_SCRIPT.replace("%s", table, 1).replace("%CSRF%", CSRF))
    cpu0 = cpu() if cpu else 0
    own0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    db0 = cpu_seconds(pids_of("postgres"))
    out = subprocess.run(
        [
            "wrk",
            "-t2",
            f"-c{connections}",
            f"-d{seconds:.0f}s",
            "--timeout",
            "10s",
            "-s",
            f.name,
            f"http://127.0.0.1:{port}{reqs[0][0]}",
        ],
        capture_output=True,
        text=True,
    )
    os.unlink(f.name)
    own1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    line = next(x for x in out.stdout.splitlines() if x.startswith("WRK "))
    n, duration, size, p50, p95, p99, errors = (int(v) for v in line.split()[1:])
    web = (cpu() - cpu0) if cpu else 0
    client = own1.ru_utime + own1.ru_stime - own0.ru_utime - own0.ru_stime
    db = cpu_seconds(pids_of("postgres")) - db0
    wall = duration / 1e6
    return {
        "n": n,
        "rps": n / wall,
        "p50": p50 / 1000,
        "p95": p95 / 1000,
        "p99": p99 / 1000,
        "cpu_ms": web / max(1, n) * 1000,
        "kb": size / max(1, n) / 1024,
        "errors": errors,
        "db_ms": db / max(1, n) * 1000,
        "client_ms": client / max(1, n) * 1000,
        "rest_ms": 0.0,
        "cores": (web + client + db) / wall,
    }


def readers(stack, data: dict, seconds: float) -> list[tuple[str, dict]]:
    """The concurrent readers, each against the ceiling measured in the same run (before and
    after them; the mean is the ceiling)."""
    port, ev, rn = stack.port, data["event"], data["round"]
    ms = data["matches"]
    by_name = f"/events/{ev}/rounds/{rn}/?by=name"
    me = f"/events/{ev}/me.json?round={rn}"
    from urllib.parse import quote
    from urllib.request import Request, urlopen

    page = quote(f"http://127.0.0.1:{port}{by_name}", safe="")
    load = Request(
        f"http://127.0.0.1:{stack.ceiling_port}/ceiling/load/?url={page}",
        headers={"X-Forwarded-Proto": "https"},  # production settings redirect plain HTTP
    )
    with urlopen(load) as answer:
        print(f"ceiling body: the pairings by name, gzipped: {answer.read().decode()}", flush=True)
    paths = [
        f"/events/{ev}/",
        f"/events/{ev}/rounds/{rn}/",
        by_name,
        f"/events/{ev}/rounds/{rn}/projector/",
        f"/events/{ev}/standings/",
    ]
    for path in paths:
        get(port, path)  # warm
    players = [m["a"] for m in ms[:100]] + [m["b"] for m in ms[:100]]  # 200 signed in
    mix = []
    for m in ms[:200]:
        mix += [
            (paths[0], m["a"]),
            (f"/matches/{m['id']}/", m["a"]),
            (paths[1], m["b"]),
            (by_name, m["a"]),
            (paths[3], ""),
            (paths[4], m["b"]),
        ]
    ceiling = [("/ceiling/", "")]
    out = [
        (
            "ceiling (bare view, same bytes), 50",
            wrk(stack.ceiling_port, ceiling, 50, seconds, stack.ceiling_cpu),
        )
    ]
    web = stack.web_cpu
    out.append(("pairings by name, anonymous, 50", wrk(port, [(by_name, "")], 50, seconds, web)))
    out.append(
        (
            "pairings by name, 200 signed-in players, 50",
            wrk(port, [(by_name, c) for c in players], 50, seconds, web),
        )
    )
    out.append(
        (
            "me.json alone, 200 signed-in players, 50",
            wrk(port, [(me, c) for c in players], 50, seconds, web),
        )
    )
    view = wrk(port, [r for c in players for r in ((by_name, c), (me, c))], 50, seconds, web)
    view["views"] = view["rps"] / 2
    out.append(("a phone's whole view (page + me.json), views, 50", view))
    version = event_version(port, paths[1])
    out.append(("round posted (mixed pages), 200", wrk(port, mix, 200, seconds, web)))
    after = event_version(port, paths[1])
    print(f"event version: {version} before the round posted, {after} after", flush=True)
    # The same phones a moment later: each one's own pages are kept now (`own_pages`).
    out.append(("round posted, the same phones again, 200", wrk(port, mix, 200, seconds, web)))
    # Every player's own event page and match page, each asked once (a phone's first view
    # after the round went up; the mix above repeats 200 players' pages).
    first = [
        r
        for m in ms
        for c in (m["a"], m["b"])
        for r in ((paths[0], c), (f"/matches/{m['id']}/", c))
    ]
    out.append(
        ("each player's first event and match page, 200", wrk(port, first, 200, seconds, web))
    )
    if stack.nginx is not None:
        out.append(
            (
                "pairings by name, signed in, through nginx micro-cache, 50",
                wrk(stack.nginx_port, [(by_name, c) for c in players], 50, seconds),
            )
        )
    out.append(
        ("ceiling again, 50", wrk(stack.ceiling_port, ceiling, 50, seconds, stack.ceiling_cpu))
    )
    return out
