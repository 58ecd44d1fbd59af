"""Fault injection for the delivery tests and `benchmarks/bench_mail_faults.py`: a private
Redis broker that can be stopped, restarted empty or replaced by a hung one, a real SMTP
server (aiosmtpd) that records Message-IDs and can rate-limit or refuse, and a real
`celery worker -B` (with the relay on a short beat) on that broker.

Time is compressed, not faked: the worker runs with the relay every 2 s, leases of 5 s and
a retry base of 1 s; the SMTP server's "minute" is `window` seconds and the sender's rate
is set to match (e.g. 30 messages per 2 s window = 900 a minute).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from email import message_from_bytes
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Settings the fault worker runs with (compressed time, see the module docstring).
FAST_ENV = {
    "NOTIFICATION_RELAY_SECONDS": "2",
    "NOTIFICATION_LEASE_SECONDS": "5",
    "NOTIFICATION_RELAY_GRACE_SECONDS": "2",
    "NOTIFICATION_RETRY_BASE_SECONDS": "1",
    "NOTIFICATION_RETRY_MAX_SECONDS": "4",
    "NOTIFICATION_SEND_RATE_PER_MINUTE": "0",
    "BROKER_BACKOFF_SECONDS": "1",
    "LOG_LEVEL": "WARNING",
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(condition, timeout: float, step: float = 0.2) -> float:
    """Wait until `condition()`; return the seconds it took. AssertionError on timeout."""
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"timed out after {timeout} s")
        time.sleep(step)
    return time.monotonic() - start


class RedisBroker:
    """A redis-server of our own on a free port, without persistence: a restart is empty."""

    def __init__(self):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--loglevel", "warning"],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        wait_for(self._answers, 10, 0.05)

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def queued(self) -> int:
        """Messages waiting in every list (queues) of the broker."""
        import redis

        client = redis.Redis(port=self.port, socket_timeout=2)
        return sum(client.llen(k) for k in client.keys("*") if client.type(k) == b"list")


class HungServer:
    """Accepts TCP connections and never answers (a broker that hangs)."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.clients: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            self.clients.append(client)

    def close(self):
        for client in self.clients:
            client.close()
        self.sock.close()


class RecordingHandler:
    """An SMTP server's DATA handler: records (recipient, Message-ID) of every accepted
    message; optionally accepts at most `limit` messages per `window` seconds (421 beyond)
    and refuses everything (421) until `refuse_until` (a `time.monotonic()` value)."""

    def __init__(self, *, limit: int = 0, window: float = 60.0, refuse_until: float = 0.0):
        self.limit, self.window, self.refuse_until = limit, window, refuse_until
        self.received: list[tuple[str, str]] = []
        self.refused = 0
        self._window_start, self._in_window = time.monotonic(), 0
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            now = time.monotonic()
            if now < self.refuse_until:
                self.refused += 1
                return "421 4.3.2 Service not available, try again later"
            if self.limit:
                if now - self._window_start >= self.window:
                    self._window_start, self._in_window = now, 0
                if self._in_window >= self.limit:
                    self.refused += 1
                    return "421 4.7.0 Rate limit exceeded, try again later"
                self._in_window += 1
            message = message_from_bytes(envelope.content)
            self.received.append(
                ((envelope.rcpt_tos[0], str(message["Subject"])), message["Message-ID"])
            )
        return "250 2.0.0 OK"

    def tally(self, expected: set[tuple[str, str]]) -> dict:
        """Figures against the expected (recipient, subject) pairs: delivered once, lost, copies (extra
        messages), copies with a different Message-ID than the first."""
        with self.lock:
            received = list(self.received)
        by_address: dict[tuple[str, str], list[str]] = {}
        for address, message_id in received:
            by_address.setdefault(address, []).append(message_id)
        return {
            "expected": len(expected),
            "delivered_once": sum(1 for a in expected if len(by_address.get(a, [])) == 1),
            "lost": sum(1 for a in expected if a not in by_address),
            "copies": sum(len(ids) - 1 for ids in by_address.values()),
            "copies_with_other_message_id": sum(
                1 for ids in by_address.values() for i in ids[1:] if i != ids[0]
            ),
            "unexpected": len(set(by_address) - expected),
        }


def start_smtp(handler: RecordingHandler):
    from aiosmtpd.controller import Controller

    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    return controller


def worker_env(*, database_url: str, broker_url: str, queue: str, smtp_port: int, **extra):
    return {
        **os.environ,
        **FAST_ENV,
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker_url,
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(smtp_port),
        "EMAIL_HOST_USER": "",
        "EMAIL_HOST_PASSWORD": "",
        **{k: str(v) for k, v in extra.items()},
    }


def start_worker(env: dict, queue: str, *, beat: bool = True) -> subprocess.Popen:
    """`celery worker` (solo pool) with an embedded beat, on `queue`. Not waited for: the
    broker may be down on purpose."""
    schedule = ROOT / "var" / f"beat-{queue}"
    schedule.parent.mkdir(parents=True, exist_ok=True)
    args = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-Q", queue,
            "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=WARNING"]  # fmt: skip
    if beat:
        args += ["-B", f"--schedule={schedule}"]
    return subprocess.Popen(args, cwd=ROOT, env=env, start_new_session=True)


def stop_worker(proc: subprocess.Popen, *, kill: bool = False) -> None:
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGKILL if kill else signal.SIGTERM)
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
