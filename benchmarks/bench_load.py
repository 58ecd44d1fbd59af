"""Tournament day over real HTTP: the production stack (gunicorn, `DJANGO_ENV=production`,
PostgreSQL, Redis cache, a Celery worker) under the phones of an N-player event. Prints the
table of issue 16 (req/s, p50/p95/p99, web CPU a request, bytes a response); asserts nothing.
Beside the web processes' CPU it prints where the rest of the two cores went, a request:
PostgreSQL (every backend on the machine), the Celery worker and the private Redis, and this
load client itself (its 30-50 threads parse every answer), and how many cores were busy.

    .venv/bin/python benchmarks/bench_load.py --players 512 2048 [--root DIR] [--seconds 15]

For each size it builds an event (`bench_build.py`: in bulk where nothing is measured;
pairing, publishing and closing round 1 through the services; round 2 posted), starts
gunicorn (5 sync workers) and a Celery worker, then plays:
  - "pairings by name", 50 readers at once;
  - "round posted": 200 readers mixing the event page, the match page, the pairings by table
    and by name, the projector and the standings;
  - single requests alone (pairings by name, the results grid, the dashboard, round JSON);
  - "everyone reports": 30 players at once through the page form, then 30 at once through
    the API (the opponents, confirming): `load_reports.py`. `--warm warm` has each phone
    load its match page first (untimed), `--warm both` plays half the matches each way;
    `--first api` has the API's players report first and the page's confirm, `--first
    turns` both ways in turns, blocks of matches in the order ABBA (a fair comparison of
    the two ways on a noisy machine); `--only reports` plays only this part (`--only
    readers`, only the readers). Beside PostgreSQL's CPU on the whole machine,
    the table gives that of this benchmark's own database's backends.
`--root` serves another checkout's code (e.g. main's, for a "before" figure) with this
checkout's virtualenv. Uses the database `league_bench16` (BENCH_DATABASE_URL) and its own
redis-server (cache in DB 0, broker in DB 1) on a free port, so it touches no one's Redis.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load_readers
import load_reports
from load_readers import children, cpu_seconds, get, pids_of

HERE = Path(__file__).resolve().parents[1]
URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/league_bench16")
REDIS = ""  # a private redis-server on a free port, started by main()
REDIS_PID = 0


def site_env(root: Path) -> dict:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PYTHONPATH": str(root),
        "DATABASE_URL": URL,
        "DJANGO_ENV": "production",
        "SECRET_KEY": "bench-" + "x" * 50,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "CELERY_BROKER_URL": f"{REDIS}/1",
        "CACHE_URL": f"{REDIS}/0",
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
        "LOG_LEVEL": "WARNING",
        "VAR_DIR": os.environ.get("BENCH_VAR_DIR", "/tmp/bench16-var"),
    }


# --- building the event (runs inside the served checkout) -----------------------------


def build(players: int) -> dict:
    """Round 1 played and closed, round 2 posted; sessions for every player and the staff;
    API tokens (`bench_build.py`: in bulk, where nothing is measured)."""
    import bench_build

    return bench_build.build(players)


# --- the stack --------------------------------------------------------------------------


#: The ports this benchmark may take (BENCH_PORTS="first-last"); each run takes free ones.
PORTS = range(
    *(int(p) + i for i, p in enumerate(os.environ.get("BENCH_PORTS", "18400-18499").split("-")))
)


_GIVEN: set[int] = set()


def free_port() -> int:
    """A port of `PORTS` nobody listens on, and not handed out before by this run."""
    for port in PORTS:
        if port in _GIVEN:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        _GIVEN.add(port)
        return port
    raise RuntimeError(f"no free port in {PORTS}")


def gunicorn(py: str, app: str, port: int) -> list[str]:
    """The same gunicorn configuration for the site and its ceiling, without the periodic
    worker recycling (`max_requests`): at these rates all five workers would restart at
    once in the middle of a measurement (seen: a 10-second run with no answer at all)."""
    return [
        py,
        "-m",
        "gunicorn",
        app,
        "-c",
        "config/gunicorn.py",
        "-w",
        "5",
        "-b",
        f"127.0.0.1:{port}",
        "--log-level",
        "warning",
        "--max-requests",
        "0",
    ]


class Stack:
    def __init__(self, root: Path, port: int):
        env = site_env(root)
        py = str(HERE / ".venv/bin/python")
        subprocess.run([py, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=root, env=env,
                       check=True)  # fmt: skip
        self.web = subprocess.Popen(gunicorn(py, "config.wsgi", port), cwd=root, env=env)
        self.ceiling_port = free_port()
        ceiling_env = {
            **env,
            "DJANGO_SETTINGS_MODULE": "ceiling",
            "PYTHONPATH": f"{root}:{HERE / 'benchmarks'}",
        }
        self.ceiling = subprocess.Popen(
            gunicorn(py, "ceiling:application", self.ceiling_port), cwd=root, env=ceiling_env
        )
        self.worker = subprocess.Popen(
            [py, "-m", "celery", "-A", "config", "worker", "-c", "1", "--loglevel=WARNING"],
            cwd=root, env=env, stdout=subprocess.DEVNULL)  # fmt: skip
        self.port, self.url = port, URL
        self.nginx = None
        for p in (port, self.ceiling_port):
            for _ in range(150):
                try:
                    get(p, "/ceiling/" if p == self.ceiling_port else "/api/")
                    break
                except OSError:
                    time.sleep(0.2)
        nginx_conf = root / "deploy/nginx/micro-cache.conf"
        if nginx_conf.exists() and Path("/usr/sbin/nginx").exists():
            sys.path.insert(0, str(root))
            from deploy.nginx import start_nginx

            self.nginx_port = free_port()
            self.nginx = start_nginx(
                conf=nginx_conf,
                listen=self.nginx_port,
                upstream=port,
                prefix=Path(f"/tmp/bench-nginx-{port}"),
            )

    def web_cpu(self) -> float:
        return cpu_seconds(children(self.web.pid))

    def ceiling_cpu(self) -> float:
        return cpu_seconds(children(self.ceiling.pid))

    def rest_cpu(self) -> float:
        """The worker's processes and the private Redis (cache and broker)."""
        worker = [self.worker.pid, *children(self.worker.pid)]
        return cpu_seconds(worker + [p for p in pids_of("redis-server") if p == REDIS_PID])

    def stop(self) -> None:
        if self.nginx is not None:
            self.nginx.stop()
        for proc in (self.web, self.ceiling, self.worker):
            proc.terminate()
        for proc in (self.web, self.ceiling, self.worker):
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:  # a busy machine: stop waiting for grace
                for pid in children(proc.pid):
                    os.kill(pid, 9)
                proc.kill()
                proc.wait(timeout=30)


def own_backends() -> dict[int, float]:
    """CPU seconds so far of each PostgreSQL backend connected to this benchmark's database
    (the site, its worker): PostgreSQL's share of the work without the rest of the machine's
    (other checkouts' tests on the same server). A backend that closes during a run takes
    its time with it, so this can only undercount; the site keeps its connections
    (`DATABASE_CONN_MAX_AGE`)."""
    import psycopg

    base, name = URL.rsplit("/", 1)
    with psycopg.connect(base + "/postgres", autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [name],
        ).fetchall()
    return {pid: cpu_seconds([pid]) for (pid,) in rows}


def run(stack: Stack, jobs, concurrency: int, seconds: float | None = None) -> dict:
    """Run `jobs` (callables returning (status, bytes)) from `concurrency` threads, in turn,
    until they run out (or `seconds` pass, cycling)."""
    lock = threading.Lock()
    times, sizes, errors = [], [], []
    it = iter(jobs)
    deadline = time.perf_counter() + seconds if seconds else None

    def worker():
        while True:
            with lock:
                if deadline and time.perf_counter() > deadline:
                    return
                job = next(it, None)
            if job is None:
                return
            started = time.perf_counter()
            status, size = job()
            took = time.perf_counter() - started
            with lock:
                times.append(took)
                sizes.append(size)
                if status >= 400:
                    errors.append(status)

    backends0 = own_backends()
    cpu0, t0 = stack.web_cpu(), time.perf_counter()
    own0, db0, rest0 = time.process_time(), cpu_seconds(pids_of("postgres")), stack.rest_cpu()
    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall, cpu = time.perf_counter() - t0, stack.web_cpu() - cpu0
    own, db = time.process_time() - own0, cpu_seconds(pids_of("postgres")) - db0
    rest = stack.rest_cpu() - rest0
    backends = own_backends()
    db_own = sum(cpu - backends0.get(pid, 0) for pid, cpu in backends.items())
    times.sort()

    def pct(p):
        return times[min(len(times) - 1, int(len(times) * p))] * 1000

    return {"n": len(times), "rps": len(times) / wall, "p50": pct(0.5), "p95": pct(0.95),
            "p99": pct(0.99), "cpu_ms": cpu / max(1, len(times)) * 1000, "times": times,
            "kb": statistics.mean(sizes) / 1024 if sizes else 0, "errors": len(errors),
            "db_ms": db / max(1, len(times)) * 1000, "client_ms": own / max(1, len(times)) * 1000,
            "db_own_ms": db_own / max(1, len(times)) * 1000,
            "rest_ms": rest / max(1, len(times)) * 1000,
            "cores": (cpu + own + db + rest) / wall}  # fmt: skip


def cycle(items):
    while True:
        yield from items


def scenarios(stack: Stack, data: dict, seconds: float, *, only=None, warm="cold", first="page"):
    port, ev, rn = stack.port, data["event"], data["round"]
    ms = data["matches"]
    if only == "reports":
        return load_reports.reports(stack, data, warm, run, first=first)
    out = load_readers.readers(stack, data, seconds)
    if only == "readers":
        return out
    by_name = f"/events/{ev}/rounds/{rn}/?by=name"
    round_id = None
    alone = [
        ("pairings by name, alone", by_name, ms[0]["a"]),
        ("organiser results grid, alone", f"/events/{ev}/rounds/{rn}/results/", data["staff"]),
        ("organiser dashboard, alone", f"/events/{ev}/manage/", data["staff"]),
    ]
    for label, path, cookie in alone:
        out.append((label, run(stack, [lambda p=path, c=cookie: get(port, p, cookie=c)] * 15, 1)))
    conn = http.client.HTTPConnection("127.0.0.1", port)
    # Production redirects plain HTTP: say what the TLS proxy would.
    conn.request("GET", f"/api/rounds/?event={ev}", headers={"X-Forwarded-Proto": "https"})
    listing = json.loads(conn.getresponse().read())
    rows = listing.get("results", listing) if isinstance(listing, dict) else listing
    round_id = next((r["id"] for r in rows if r.get("number") == rn), None)
    if round_id:
        api = f"/api/rounds/{round_id}/"
        out.append(("API round JSON, alone", run(stack, [lambda: get(port, api)] * 15, 1)))
    return out + load_reports.reports(stack, data, warm, run, first=first)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, nargs="+", default=[512])
    parser.add_argument("--root", type=Path, default=HERE)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument(
        "--keep", action="store_true", help="keep each built event and start from it next time"
    )
    parser.add_argument("--only", choices=["reports", "readers"], help="run only this part")
    parser.add_argument(
        "--warm",
        choices=["cold", "warm", "both"],
        default="cold",
        help="reports: each phone loads its match page first (untimed), or not, or half and half",
    )
    parser.add_argument(
        "--first",
        choices=["page", "api", "turns"],
        default="page",
        help="reports: the page's players report first and the API's confirm, or the other "
        "way, or both ways in turns (blocks of matches, page first and API first, in the "
        "order ABBA): each way measured first and confirming under the same noise",
    )
    parser.add_argument("--build", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.build:
        sys.path.insert(0, str(Path.cwd()))
        print(json.dumps(build(args.build)))
        return
    global REDIS
    redis_port = free_port()
    redis = subprocess.Popen(["redis-server", "--port", str(redis_port), "--save", "",
                              "--appendonly", "no"], stdout=subprocess.DEVNULL)  # fmt: skip
    REDIS = f"redis://127.0.0.1:{redis_port}"
    global REDIS_PID
    REDIS_PID = redis.pid
    try:
        _main(args)
    finally:
        redis.terminate()
        redis.wait(timeout=10)


def prepare(root: Path, players: int, *, keep: bool) -> dict:
    """A fresh database with the event built: by the services, or with `--keep` copied
    from the copy a previous run kept (PostgreSQL's CREATE DATABASE ... TEMPLATE, seconds
    instead of minutes), then migrated to this checkout's schema."""
    import psycopg

    py = str(HERE / ".venv/bin/python")
    env = site_env(root)
    base, name = URL.rsplit("/", 1)
    template, kept_data = f"{name}_built_{players}", Path(f"/tmp/{name}_built_{players}.json")
    with psycopg.connect(base + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [template]).fetchone()
        if keep and exists and kept_data.exists():
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
            reused = True
        else:
            reused = False
            conn.execute(f'CREATE DATABASE "{name}"')
    # A kept event is brought to this checkout's schema (a new migration since it was kept).
    subprocess.run([py, "manage.py", "migrate", "-v0"], cwd=root, env=env, check=True)
    if reused:
        # The posted round's clock runs from now, as when it was built: a copy kept longer
        # than a round has its time called, and a player's pages (the clock's overtime
        # text) are then never kept (`own_pages.not_kept`), which no fresh event shows.
        with psycopg.connect(URL, autocommit=True) as conn:
            conn.execute(
                "UPDATE matches_round SET ends_at = now() + (ends_at - clock_started_at), "
                "clock_started_at = now() WHERE status = 'running' AND ends_at IS NOT NULL"
            )
        return json.loads(kept_data.read_text())
    built = subprocess.run(
        [py, str(Path(__file__).resolve()), "--build", str(players)],
        cwd=root,
        env={**env, "DJANGO_ENV": "development", "CELERY_BROKER_URL": ""},
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(built.stdout.strip().splitlines()[-1])
    if keep:
        with psycopg.connect(base + "/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{template}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{template}" TEMPLATE "{name}"')
        kept_data.write_text(json.dumps(data))
    return data


def _main(args) -> None:
    root = args.root.resolve()
    for players in args.players:
        started = time.perf_counter()
        data = prepare(root, players, keep=args.keep)
        print(f"\n## {players} players (built in {time.perf_counter() - started:.0f} s); "
              f"load before: {os.getloadavg()[0]:.2f}")  # fmt: skip
        subprocess.run(["redis-cli", "-u", f"{REDIS}/0", "flushdb"], capture_output=True)
        stack = Stack(root, free_port())
        try:
            results = scenarios(
                stack, data, args.seconds, only=args.only, warm=args.warm, first=args.first
            )
        finally:
            stack.stop()
        ceilings = [r["rps"] for label, r in results if label.startswith("ceiling")]
        ceiling = statistics.mean(ceilings) if ceilings else float("nan")
        print(f"ceiling: {' and '.join(f'{c:.0f}' for c in ceilings)} req/s, mean {ceiling:.0f}")
        print(
            "| what | n | req/s | share of the ceiling | p50 ms | p95 ms | p99 ms "
            "| web CPU ms/req | KB | errors | PostgreSQL CPU ms/req "
            "| of which this database's backends | worker + Redis CPU ms/req "
            "| load client CPU ms/req | cores busy |"
        )
        print("| --- " * 15 + "|")
        for label, r in results:
            rate = r.get("views", r["rps"])
            print(
                f"| {label} | {r['n']} | {rate:.0f} | {rate / ceiling:.2f} | {r['p50']:.0f} | "
                f"{r['p95']:.0f} | {r['p99']:.0f} | {r['cpu_ms']:.1f} | {r['kb']:.1f} | "
                f"{r['errors']} | {r['db_ms']:.1f} | {r.get('db_own_ms', float('nan')):.1f} | "
                f"{r['rest_ms']:.1f} | "
                f"{r['client_ms']:.1f} | {r['cores']:.2f} |"
            )
        print(f"load after: {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
