#!/usr/bin/env python3
"""Send every TOM save to the league site as TOM writes it (the live mirror).

Runs on the TOM laptop with nothing but Python 3 (standard library only). It watches one
save file, or the newest `.tdf` in a folder, and posts it whenever its content changes:

    python tom_push.py --url https://league.example/api/tom/events/42/saves/ \\
        --token tom_42_... "C:/Users/TO/Documents/TOM/26-10-000123.tdf"

The token comes from the event's TOM page on the site ("Make an upload token"); it can
only post saves to that event. The site applies each distinct file once (by its SHA-256),
so sending one twice is harmless; on a network error the script tries again at the next
poll. The site stores a save and applies it in the background (202): the script reads the
outcome at the address the site answers with and prints it. A save the site refuses (not
a TOM file, or one that contradicts the event) is reported and not retried until the file
changes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path


def newest_save(path: Path) -> Path | None:
    if path.is_file():
        return path
    saves = sorted(path.glob("*.tdf"), key=lambda p: p.stat().st_mtime)
    return saves[-1] if saves else None


def post(url: str, token: str, data: bytes, filename: str, timeout: float) -> tuple[int, dict]:
    request = urllib.request.Request(
        url,
        data=data,
        method="POST",
        headers={
            "Authorization": f"Bearer {token}",
            "Content-Type": "application/xml",
            "X-Filename": filename,
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as exc:
        try:
            return exc.code, json.loads(exc.read() or b"{}")
        except ValueError:
            return exc.code, {}


def get(url: str, token: str, timeout: float) -> tuple[int, dict]:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as exc:
        try:
            return exc.code, json.loads(exc.read() or b"{}")
        except ValueError:
            return exc.code, {}


def outcome(args, body: dict) -> dict:
    """The save's outcome: the site answers 202 while its worker applies the save; read
    the status address until it is no longer pending (at most `--wait` seconds)."""
    deadline = time.monotonic() + args.wait
    while body.get("status") == "pending" and body.get("status_url"):
        if time.monotonic() > deadline:
            return body
        time.sleep(min(1.0, args.every))
        try:
            status, answer = get(body["status_url"], args.token, args.timeout)
        except (urllib.error.URLError, TimeoutError, OSError):
            continue
        if status == 200:
            body = {**answer, "status_url": body["status_url"]}
    return body


def report(name: str, body: dict) -> str:
    """One line about a save's outcome, in words."""
    state = body.get("status")
    if state == "pending":
        return f"{name}: sent; the site is still applying it (see the event's TOM page)"
    if state == "refused":
        return f"{name}: refused: {body.get('detail')}"
    if body.get("duplicate"):
        return f"{name}: already there"
    changes = ", ".join(f"{k} {v}" for k, v in body.get("summary", {}).items() if v)
    return f"{name}: {changes or 'applied, nothing new'}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path, help="the TOM save, or the folder TOM saves into")
    parser.add_argument("--url", required=True, help="the event's endpoint, from its TOM page")
    parser.add_argument("--token", required=True, help="the event's upload token")
    parser.add_argument("--every", type=float, default=2.0, help="seconds between checks (2)")
    parser.add_argument("--once", action="store_true", help="send the current save and stop")
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument(
        "--wait", type=float, default=120.0, help="seconds to wait for a save's outcome (120)"
    )
    args = parser.parse_args(argv)
    sent: str | None = None
    while True:
        save = newest_save(args.path)
        if save is not None:
            try:
                data = save.read_bytes()
            except OSError:
                data = b""  # TOM is writing it: next time
            digest = hashlib.sha256(data).hexdigest()
            if data and digest != sent:
                try:
                    status, body = post(args.url, args.token, data, save.name, args.timeout)
                except (urllib.error.URLError, TimeoutError, OSError) as exc:
                    print(f"{time.strftime('%H:%M:%S')} not sent ({exc}); trying again", flush=True)
                else:
                    if status in (200, 201, 202):
                        # Stored by the site: a refused save is refused again until TOM's next
                        # save, so it is not sent twice either way.
                        sent = digest
                        line = report(save.name, outcome(args, body))
                        print(f"{time.strftime('%H:%M:%S')} {line}", flush=True)
                    elif status in (400, 409):
                        sent = (
                            digest  # the same file will be refused again: wait for TOM's next save
                        )
                        print(
                            f"{time.strftime('%H:%M:%S')} refused: {body.get('code')}: {body.get('detail')}",
                            flush=True,
                        )
                    elif status in (401, 403):
                        print(
                            f"{time.strftime('%H:%M:%S')} the site refused the token: {body.get('detail')}",
                            file=sys.stderr,
                        )
                        return 2
                    else:
                        print(
                            f"{time.strftime('%H:%M:%S')} the site answered {status}; trying again",
                            flush=True,
                        )
        if args.once:
            return 0 if sent is not None else 1
        time.sleep(args.every)


if __name__ == "__main__":
    sys.exit(main())
