"""A real HTTP receiver for the webhook tests, on a free port of 127.0.0.1, in a thread.

`Receiver(fail_first=n)` answers 500 to its first `n` requests and 200 after; with
`hold_first=True` it keeps the first request open until `release()` (so a test can kill the
worker that is waiting for the answer). Every request is kept: headers, body, and whether
its signature checks out with `secret`.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from webhooks import signing


@dataclass
class Received:
    headers: dict
    body: bytes
    answered: int

    @property
    def delivery_id(self) -> str:
        return self.headers.get("Webhook-Id", "")

    def verifies(self, secret: str) -> bool:
        return signing.verify(
            secret=secret,
            body=self.body,
            timestamp=self.headers.get("Webhook-Timestamp", ""),
            signature_header=self.headers.get("Webhook-Signature", ""),
        )


class Receiver:
    def __init__(self, *, fail_first: int = 0, always_fail: bool = False, hold_first=False):
        self.fail_first = fail_first
        self.always_fail = always_fail
        self.hold_first = hold_first
        self.requests: list[Received] = []
        self.first_arrived = threading.Event()
        self._released = threading.Event()
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with receiver._lock:
                    n = len(receiver.requests)
                    fail = receiver.always_fail or n < receiver.fail_first
                    code = 500 if fail else 200
                    receiver.requests.append(Received(dict(self.headers), body, code))
                if n == 0 and receiver.hold_first:
                    receiver.first_arrived.set()
                    receiver._released.wait(30)
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", "text/plain")
                    self.end_headers()
                    self.wfile.write(b"no thanks" if fail else b"ok")
                except OSError:
                    pass  # the worker is gone

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def release(self) -> None:
        self._released.set()

    def __enter__(self) -> Receiver:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.release()
        self.server.shutdown()
        self.server.server_close()


class RawReceiver:
    """A bare TCP receiver on a free port of 127.0.0.1, for answers no HTTP server would
    give: `answer(sock)` is called in a thread for each connection, after the request has
    been read. `trickle(...)` and `cut_off(...)` make the usual ones. Counts connections."""

    def __init__(self, answer):
        import socket

        self.answer = answer
        self.connections = 0
        self.stopped = threading.Event()
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/hook"
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self):
        while not self.stopped.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn):
        try:
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            lines = head.split(b"\r\n")
            sizes = [
                int(x.split(b":")[1]) for x in lines if x.lower().startswith(b"content-length:")
            ]
            length = sizes[0] if sizes else 0
            while len(body) < length:
                body += conn.recv(65536)
            self.answer(conn, self)
        except OSError:
            pass  # the sender hung up
        finally:
            conn.close()

    def __enter__(self) -> RawReceiver:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopped.set()
        self.sock.close()


def trickle(every: float, *, until: threading.Event | None = None):
    """An answer that sends `HTTP/1.1 200 OK` and then header lines, one byte every `every`
    seconds, for as long as the sender listens (hours); once `until` is set, the next
    connection gets a whole 200 at once."""
    answer = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok"
    slow = b"HTTP/1.1 200 OK\r\n" + b"X-Slow: a\r\n" * 10_000

    def send(conn, receiver):
        if until is not None and until.is_set():
            conn.sendall(answer)
            return
        for i in range(len(slow)):
            conn.sendall(slow[i : i + 1])
            if receiver.stopped.wait(every):
                return

    return send


def cut_off(text: bytes):
    """An answer of exactly `text`, then the connection closed."""

    def send(conn, receiver):
        conn.sendall(text)

    return send
