"""Bad input against the site as production runs it (issue 17): gunicorn with
`DJANGO_ENV=production`, requests sent as the TLS proxy forwards them. Prints how long each
bad request takes to be answered and each gunicorn worker's peak memory (VmHWM); asserts
nothing.

    BENCH_DATABASE_URL=postgres://... .venv/bin/python benchmarks/bench_bad_input.py

The database must be migrated and hold the card data (`manage.py import_cards`): the slow
paste is slow because of fuzzy matching against the whole card index.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import random
import socket
import string
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/league_bench")
WORKERS = 2


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def worker_pids(master: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def vm(pid: int, field: str) -> int:
    """A /proc/PID/status field in kB (VmHWM: the peak resident set)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def request(port, method, path, body=b"", headers=None, declared_length=None):
    """Send one request; returns (status, seconds, first bytes of the answer)."""
    headers = {"X-Forwarded-Proto": "https", "Host": "127.0.0.1", **(headers or {})}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    start = time.perf_counter()
    try:
        if declared_length is not None:
            # A body announced as huge: only the first MB is sent; the server must answer
            # from the Content-Length, not by reading it.
            conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            for k, v in {**headers, "Content-Length": str(declared_length)}.items():
                conn.putheader(k, v)
            conn.endheaders()
            with contextlib.suppress(OSError):
                conn.send(body)
        else:
            conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        data = response.read()
        return response.status, time.perf_counter() - start, data[:90]
    finally:
        conn.close()


def unknown_names(chars: int) -> str:
    rng = random.Random(17)
    lines, size = [], 0
    while size < chars:
        name = " ".join(
            "".join(rng.choices(string.ascii_lowercase, k=rng.randint(4, 9)))
            for _ in range(rng.randint(1, 3))
        )
        line = f"{rng.randint(1, 4)} {name.title()}\n"
        lines.append(line)
        size += len(line)
    return "".join(lines)[:chars]


def main() -> None:
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_ENV": "production",
        "SECRET_KEY": "bench-" + "x" * 60,
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": URL,
        "CELERY_BROKER_URL": "",
        "LOG_LEVEL": "WARNING",
    }
    master = subprocess.Popen(
        [
            str(ROOT / ".venv/bin/gunicorn"),
            "config.wsgi",
            "-w",
            str(WORKERS),
            "-b",
            f"127.0.0.1:{port}",
            "--timeout",
            "120",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        for _ in range(100):
            try:
                request(port, "GET", "/api/formats/")
                break
            except OSError:
                time.sleep(0.2)
        pids = worker_pids(master.pid)
        base = {pid: vm(pid, "VmRSS") for pid in pids}
        peak = dict(base)
        stop = threading.Event()

        def watch():
            while not stop.is_set():
                for pid in pids:
                    with contextlib.suppress(FileNotFoundError):
                        peak[pid] = max(peak[pid], vm(pid, "VmRSS"))
                time.sleep(0.02)

        threading.Thread(target=watch, daemon=True).start()
        json_h = {"Content-Type": "application/json"}
        paste = unknown_names(20_000)
        import json as _json

        cases = [
            (
                "paste: 20,000 chars of unknown names, API check",
                "POST",
                "/api/decks/check/",
                _json.dumps({"format": "standard", "decklist_text": paste}).encode(),
                json_h,
                None,
            ),
            (
                "paste: 20,001 chars (over the paste limit), API check",
                "POST",
                "/api/decks/check/",
                _json.dumps({"format": "standard", "decklist_text": paste + "x"}).encode(),
                json_h,
                None,
            ),
            (
                "JSON nested 100,000 deep",
                "POST",
                "/api/decks/check/",
                b"[" * 100_000 + b"]" * 100_000,
                json_h,
                None,
            ),
            (
                "JSON objects nested 40,000 deep",
                "POST",
                "/api/decks/check/",
                b'{"a":' * 40_000 + b"1" + b"}" * 40_000,
                json_h,
                None,
            ),
            (
                "body at the limit (256 KiB string)",
                "POST",
                "/api/decks/check/",
                _json.dumps({"format": "standard", "decklist_text": "a" * 262_000})[
                    :262_144
                ].encode(),
                json_h,
                None,
            ),
            (
                "body declared 10 MB",
                "POST",
                "/api/decks/check/",
                b"x" * 1_000_000,
                json_h,
                10_000_000,
            ),
            (
                "body declared 200 MB",
                "POST",
                "/api/decks/check/",
                b"x" * 1_000_000,
                json_h,
                200_000_000,
            ),
            (
                "form body declared 200 MB (page)",
                "POST",
                "/decks/check/",
                b"x" * 1_000_000,
                {"Content-Type": "application/x-www-form-urlencoded"},
                200_000_000,
            ),
            (
                "a query of 20,000 parameters",
                "GET",
                "/api/cards/?" + "&".join(f"q{i}=1" for i in range(20_000)),
                b"",
                {},
                None,
            ),
        ]
        worst = 0.0
        print(f"gunicorn, {WORKERS} workers, DJANGO_ENV=production; load: {os.getloadavg()}")
        for label, method, path, body, headers, declared in cases:
            for _ in range(2):
                status, seconds, head = request(port, method, path, body, headers, declared)
            worst = max(worst, seconds)
            print(f"{seconds * 1000:8.0f} ms  {status}  {label}: {head[:70]!r}")
        time.sleep(0.3)
        stop.set()
        print(f"worst answer: {worst * 1000:.0f} ms")
        for pid in pids:
            print(
                f"worker {pid}: RSS at start {base[pid] / 1024:.0f} MB, peak {peak[pid] / 1024:.0f} MB"
                f" (VmHWM {vm(pid, 'VmHWM') / 1024:.0f} MB)"
            )
    finally:
        master.terminate()
        master.wait(timeout=30)


if __name__ == "__main__":
    sys.exit(main())
