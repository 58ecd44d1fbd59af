"""One webhook POST under a total deadline, to the addresses the target check approved.

`requests` (and `http.client` under it) time out per socket operation: a receiver that
sends one byte every few seconds keeps a worker for as long as it likes. Here every read
and write of the attempt waits at most for what is left of one monotonic deadline
(`_DeadlineIO`), so the attempt ends by the deadline whatever the receiver does, and the
worker is free for other work.

- The connection goes to an address `targets.resolve_url` checked (TLS still verifies the
  host name), so DNS cannot answer one address to the check and another to the connection.
- An answer counts only when it is complete: a status line, headers ended by their blank
  line, and a body as long as it said (read up to `BODY_READ_LIMIT`). An answer cut off
  after `HTTP/1.1 200 OK` is an error, not a delivery.
- Redirects are never followed (the 3xx is the answer).
"""

from __future__ import annotations

import functools
import http.client
import io
import socket
import ssl
import time
from dataclasses import dataclass

from rules.i18n import Text, gettext_noop, say, verbatim

from .targets import Target

#: Bytes of the body read to see that the answer is complete; the rest is not waited for.
BODY_READ_LIMIT = 64 * 1024


@dataclass(frozen=True)
class Answer:
    """`error` is the English ('' for a delivery); `error_text` the same as a
    `rules.i18n.Text`, kept to word it in the organiser's language when shown."""

    status: int | None
    text: str
    error: str
    error_text: Text | None = None


def _failed(text: Text, status: int | None = None, body: str = "") -> Answer:
    return Answer(status, body, str(text), text)


def _cut_off(status) -> Answer:
    return _failed(
        say(
            gettext_noop("The answer was cut off before it was complete (HTTP %(status)s)."),
            status=status,
        )
    )


class DeadlineExceeded(TimeoutError):
    pass


class _DeadlineIO(io.RawIOBase):
    """A socket's reads, each waiting at most until the deadline. Holds the socket open as
    `makefile` does, so `http.client` closing the connection leaves the answer readable."""

    def __init__(self, sock: socket.socket, deadline: float):
        self.sock, self.deadline = sock, deadline
        self._file = sock.makefile("rb", buffering=0)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise DeadlineExceeded("no complete answer before the deadline")
        self.sock.settimeout(left)
        try:
            return self._file.readinto(buffer)
        except TimeoutError as exc:
            raise DeadlineExceeded("no complete answer before the deadline") from exc

    def close(self) -> None:
        self._file.close()
        super().close()


class _WatchedReader:
    """A buffered reader that remembers the last line read: the headers are complete only
    if they ended with an empty line, not with the connection closing."""

    def __init__(self, raw: io.BufferedReader):
        self._raw = raw
        self.last_line = b""

    def readline(self, limit: int = -1) -> bytes:
        self.last_line = self._raw.readline(limit)
        return self.last_line

    def __getattr__(self, name):
        return getattr(self._raw, name)


class _Response(http.client.HTTPResponse):
    def __init__(self, sock, *args, deadline: float, **kwargs):
        super().__init__(sock, *args, **kwargs)
        self.fp.close()  # the plain `makefile` of `http.client`: ours replaces it
        self.fp = _WatchedReader(io.BufferedReader(_DeadlineIO(sock, deadline)))

    def begin(self) -> None:
        super().begin()
        self.headers_complete = self.fp.last_line in (b"\r\n", b"\n")


def _connect(target: Target, deadline: float, connect_timeout: float) -> socket.socket:
    error: OSError | None = None
    for address in target.addresses:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        try:
            return socket.create_connection((address, target.port), min(connect_timeout, left))
        except OSError as exc:
            error = exc
    raise error or DeadlineExceeded("no connection before the deadline")


@functools.cache
def _tls_context() -> ssl.SSLContext:
    try:
        import certifi  # noqa: PLC0415 (optional: the system store without it)
    except ImportError:  # pragma: no cover - requests brings certifi
        return ssl.create_default_context()
    return ssl.create_default_context(cafile=certifi.where())


def post(
    target: Target, *, body: bytes, headers: dict, deadline_seconds: float, connect_timeout: float
) -> Answer:
    """POST `body` to `target` and read the answer, all within `deadline_seconds`. Returns
    the status (None when there is no complete answer), the start of the body and an error
    ('' for a complete 2xx answer)."""
    deadline = time.monotonic() + deadline_seconds
    sock = response = None
    try:
        sock = _connect(target, deadline, connect_timeout)
        if target.scheme == "https":
            sock.settimeout(max(deadline - time.monotonic(), 0.001))  # the whole handshake
            sock = _tls_context().wrap_socket(sock, server_hostname=target.host)
        connection = http.client.HTTPConnection(target.host, target.port)
        connection.sock = sock
        connection.response_class = lambda s, **kw: _Response(s, deadline=deadline, **kw)
        connection.putrequest("POST", target.path, skip_host=True, skip_accept_encoding=True)
        connection.putheader("Host", _host_header(target))
        for name, value in {**headers, "Content-Length": str(len(body))}.items():
            connection.putheader(name, value)
        sock.settimeout(max(deadline - time.monotonic(), 0.001))  # sendall: a total timeout
        connection.endheaders(body)
        response = connection.getresponse()
        if not response.headers_complete:
            return _cut_off(response.status)
        data = b""
        while len(data) < BODY_READ_LIMIT:
            chunk = response.read(BODY_READ_LIMIT - len(data))
            if not chunk:
                break
            data += chunk
        if response.length and len(data) < BODY_READ_LIMIT:  # closed before Content-Length
            return _cut_off(response.status)
    except DeadlineExceeded:
        return _failed(
            say(
                gettext_noop("No complete answer within %(seconds)s s."),
                seconds=f"{deadline_seconds:g}",
            )
        )
    except http.client.IncompleteRead:
        return _cut_off(response.status if response else "?")
    except (OSError, http.client.HTTPException, ValueError) as exc:
        return _failed(verbatim(f"{type(exc).__name__}: {exc}"[:1000]))
    finally:
        if response is not None:
            response.close()
        if sock is not None:
            sock.close()
    charset = response.headers.get_content_charset() or "utf-8"
    text = data.decode(charset if _known(charset) else "utf-8", "replace")
    if 200 <= response.status < 300:
        return Answer(response.status, text, "")
    if 300 <= response.status < 400:
        return _failed(
            say(
                gettext_noop("HTTP %(status)s (redirects are not followed)"),
                status=response.status,
            ),
            response.status,
            text,
        )
    return _failed(verbatim(f"HTTP {response.status}"), response.status, text)


def _host_header(target: Target) -> str:
    host = f"[{target.host}]" if ":" in target.host else target.host
    default_port = 443 if target.scheme == "https" else 80
    return host if target.port == default_port else f"{host}:{target.port}"


def _known(charset: str) -> bool:
    try:
        "".encode(charset)
    except LookupError:
        return False
    return True
