"""The venue laptop's push to the league's site: a durable local queue of numbered TOM
saves of one event, sent in order, kept until the site has taken each one.

The laptop runs the event on its own copy of the site (docs/venue.md). `manage.py
venue_push EVENT --url … --token …` (or `VENUE_PUSH_URL` / `VENUE_PUSH_TOKEN`) then:

1. every few seconds writes the event as a TOM save (`services.export_text`, the same file
   `export_tdf` writes) and, when it differs from the newest one queued (a round paired or
   published, a result entered or corrected, a drop), adds it to the queue as the next
   numbered file: `<spool>/event-<id>/000007.tdf`, written to a temporary name, flushed to
   disk and renamed, so a file in the queue is always whole;
2. sends the queue's files in number order to the league site's TOM endpoint (the one
   `scripts/tom_push.py` posts to: `POST /api/tom/events/<id>/saves/` with the event's
   upload token), and records the last number the site took in `<spool>/event-<id>/sent`
   (written the same way) only after the site answered 2xx.

So nothing is lost and nothing is reordered: a file is only ever added after the newest,
it is only marked sent after the site took it, and it is sent only after every file
before it was. While the internet is down the files wait (tried again with a backoff of
up to a minute); a pusher killed at any point starts again from `sent`, and a file sent
twice is applied once by the site (it keeps each save's SHA-256). A file the site refuses
(400 or 409: not a save, or one that contradicts the event there) cannot succeed on a
retry: it is logged in `<spool>/event-<id>/refused.log` and the next one is sent (each file
is the whole event, so the next carries everything). A refused token stops the pusher.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import requests

#: TOM's timestamps ("11/26/2026 20:57:51"): a drop's is "now" when no TOM save ever gave
#: one, so they are left out when two saves are compared.
_STAMP = re.compile(rb"\d\d/\d\d/\d{4} \d\d:\d\d:\d\d")
NAME = re.compile(r"^(\d{6})\.tdf$")


def fingerprint(data: bytes) -> str:
    """What must differ for a save to be queued: the save without its timestamps."""
    return hashlib.sha256(_STAMP.sub(b"", data)).hexdigest()


def _write_atomically(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


class Spool:
    """One event's queue on disk: numbered saves and the last number sent."""

    def __init__(self, root: Path, event_id: int):
        self.dir = Path(root) / f"event-{event_id}"
        self.dir.mkdir(parents=True, exist_ok=True)

    def numbers(self) -> list[int]:
        return sorted(int(m.group(1)) for p in self.dir.iterdir() if (m := NAME.match(p.name)))

    def path(self, number: int) -> Path:
        return self.dir / f"{number:06d}.tdf"

    @property
    def sent(self) -> int:
        try:
            return int((self.dir / "sent").read_text().strip() or 0)
        except FileNotFoundError:
            return 0

    def mark_sent(self, number: int) -> None:
        _write_atomically(self.dir / "sent", f"{number}\n".encode())

    def pending(self) -> list[int]:
        sent = self.sent
        return [n for n in self.numbers() if n > sent]

    def add(self, data: bytes) -> int | None:
        """Queue `data` as the next number, unless it is the newest save already queued.
        Returns its number, or None."""
        numbers = self.numbers()
        if numbers and fingerprint(self.path(numbers[-1]).read_bytes()) == fingerprint(data):
            return None
        number = (numbers[-1] if numbers else 0) + 1
        _write_atomically(self.path(number), data)
        return number

    def refused(self, number: int, status: int, detail: str) -> None:
        with open(self.dir / "refused.log", "a", encoding="utf-8") as log:
            log.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {number:06d}.tdf {status} {detail}\n")


class TokenRefused(Exception):
    """The league site refused the upload token (401/403): no retry can help."""


@dataclass
class Pusher:
    """Queue and send one event's saves. `export` returns the event's save as bytes."""

    spool: Spool
    url: str
    token: str
    export: Callable[[], bytes]
    timeout: float = 30.0
    log: Callable[[str], None] = print
    session: requests.Session | None = None

    def snapshot(self) -> int | None:
        number = self.spool.add(self.export())
        if number is not None:
            self.log(f"queued {number:06d}.tdf")
        return number

    def send_pending(self) -> bool:
        """Send what waits, in order; stop at the first that cannot be sent now. True when
        nothing is left waiting."""
        session = self.session or requests.Session()
        for number in self.spool.pending():
            data = self.spool.path(number).read_bytes()
            try:
                response = session.post(
                    self.url,
                    data=data,
                    timeout=self.timeout,
                    headers={
                        "Authorization": f"Bearer {self.token}",
                        "Content-Type": "application/xml",
                        "X-Filename": f"venue-{number:06d}.tdf",
                    },
                )
            except requests.RequestException as exc:
                self.log(f"{number:06d}.tdf waits: {exc.__class__.__name__}")
                return False
            status = response.status_code
            if 200 <= status < 300:
                self.spool.mark_sent(number)
                self.log(f"sent {number:06d}.tdf ({status})")
                continue
            if status in (401, 403):
                raise TokenRefused(_detail(response))
            if status in (400, 409, 413, 422):
                self.spool.refused(number, status, _detail(response))
                self.spool.mark_sent(number)
                self.log(f"refused {number:06d}.tdf ({status}): {_detail(response)}")
                continue
            self.log(f"{number:06d}.tdf waits: the site answered {status}")
            return False
        return True

    def run(self, *, every: float = 3.0, once: bool = False) -> None:
        """Snapshot and send until stopped; `once`: until the queue is empty."""
        delay = every
        while True:
            self.snapshot()
            done = self.send_pending()
            if once and done:
                return
            delay = every if done else min(max(delay * 2, every), 60.0)
            time.sleep(delay)


def _detail(response) -> str:
    try:
        body = response.json()
    except ValueError:
        return response.text[:200]
    return f"{body.get('code', '')}: {body.get('detail', '')}".strip(": ")
