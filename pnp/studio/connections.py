"""The studio's HTTP connections: a time limit for reading each request, and a cap on how
many are open at once.

uvicorn's HTTP/1.1 protocol waits for a request's headers as long as its client takes and
accepts every connection, so a few hundred clients that send half a request hold the
studio's file descriptors until `accept()` itself fails. This protocol (uvicorn's own,
with three changes) keeps a slow or idle client from starving the others:

- a request must arrive whole, headers and body, within `READ_LIMIT` seconds of its first
  byte (a new connection: of its opening); else it is answered 408 with one line of JSON
  and the connection is closed;
- at most `cap` connections are open: one more takes the place of the open connection
  that has waited longest without a request being answered (a half-sent request: 503 in
  one line; a kept-alive one with no request: closed quietly, as keep-alive ends); when
  every open one is being answered, the newcomer gets the 503;
- an `Upgrade` request (a WebSocket) is passed to the app without uvicorn's two warnings:
  the studio's guard refuses it, in one line.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

READ_LIMIT = 10.0  # seconds for a whole request to arrive
MOST_CONNECTIONS = 256  # open at once; a browser opens six to a host
LINGER = 1.0  # seconds a refused client has to read its answer before it is cut off


def _answer(status: int, reason: str, message: str) -> bytes:
    """A whole HTTP answer of one JSON line that closes the connection."""
    body = json.dumps({"error": message}).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nx-content-type-options: nosniff\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode() + body


TOO_MANY = _answer(
    503, "Service Unavailable", "the studio has too many connections open: try again"
)


class Connection(H11Protocol):
    """One client connection (see the module's docstring); `cap` is set by `protocol`."""

    cap = MOST_CONNECTIONS
    read_limit = READ_LIMIT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._read_timer: asyncio.TimerHandle | None = None
        self._idle_since = time.monotonic()  # when it last had no request being answered
        self._partial = False  # bytes of a request not yet whole
        self._leaving = False  # answered by `_close`, its end on its way

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._idle_since = time.monotonic()
        self._arm()
        if len(self.connections) > self.cap and not self._make_room():
            self._close(TOO_MANY)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._leaving:  # answered and closing: what else it sends is not read
            return
        super().data_received(data)
        if self.transport.is_closing():
            return
        state = self.conn.their_state
        if state in (h11.IDLE, h11.SEND_BODY):  # still reading a request
            self._partial = True
            if self._read_timer is None:
                self._arm()
        else:
            self._partial = False
            self._disarm()

    def on_response_complete(self) -> None:
        self._idle_since = time.monotonic()
        super().on_response_complete()  # arms uvicorn's keep-alive wait for the next one

    def _unsupported_upgrade_warning(self) -> None:
        """Said by the guard's refusal instead (uvicorn prints two lines per request)."""

    # --- the limits -----------------------------------------------------------------

    @property
    def idle(self) -> bool:
        """No request of this connection is being answered (none came, or it is half-sent)."""
        answered = self.cycle is not None and not self.cycle.response_complete
        return not answered and self.conn.their_state in (h11.IDLE, h11.DONE)

    @property
    def _waited_on(self) -> bool:
        """Does its client wait for an answer? It sent part of a request, or it has just
        connected (its request may still be unread); an idle keep-alive waits for none."""
        return self._partial or self.cycle is None

    def _arm(self) -> None:
        self._disarm()
        self._read_timer = self.loop.call_later(self.read_limit, self._too_slow)

    def _disarm(self) -> None:
        if self._read_timer is not None:
            self._read_timer.cancel()
            self._read_timer = None

    def _too_slow(self) -> None:
        self._read_timer = None
        if self._leaving or self.transport.is_closing():
            return
        late = _answer(
            408, "Request Timeout", f"the request did not arrive whole within {self.read_limit:g} s"
        )
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete:  # its body is late
            if cycle.response_started:
                self.transport.close()
                return
            cycle.disconnected = True  # the app, waiting for the body, hears the client left
            cycle.message_event.set()  # and what it would answer is not sent
            self._close(late)
        else:
            self._close(late if self._waited_on else b"")

    def _close(self, answer: bytes) -> None:
        """Send `answer` and end the connection. Closing a socket whose client's bytes are
        still unread resets it, and the reset can overtake the answer: so the studio stops
        writing, lets the client read and close first (a second at most), and no longer
        counts the connection as open."""
        self._leaving = True
        self._disarm()
        self.connections.discard(self)
        if answer:
            self.transport.write(answer)
        if not self.transport.can_write_eof():
            self.transport.close()
            return
        self.transport.write_eof()
        self.loop.call_later(LINGER, self.transport.close)

    def _make_room(self) -> bool:
        """Close the open connection idle the longest (not this one); False if none is."""
        others = [c for c in self.connections if c is not self and isinstance(c, Connection)]
        waiting = [c for c in others if c.idle and not c._leaving]
        if not waiting:
            return False
        oldest = min(waiting, key=lambda c: c._idle_since)
        oldest._disarm()
        oldest._close(TOO_MANY if oldest._waited_on else b"")
        return True


def protocol(cap: int) -> type[Connection]:
    """The connection class for a server that keeps at most `cap` connections open."""

    class Capped(Connection):
        pass

    Capped.cap = cap
    return Capped


def open_file_limit() -> int:
    """This process's limit of open files (`ulimit -n`); -1 where there is none to read."""
    try:
        import resource
    except ImportError:  # not a POSIX system
        return -1
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def connection_cap(open_files: int) -> int:
    """How many connections the studio keeps open, given its limit of open files: a
    quarter of them at most, so its jobs' pipes and cache files always have room (a
    negative limit is none)."""
    if open_files < 0:
        return MOST_CONNECTIONS
    return max(8, min(MOST_CONNECTIONS, open_files // 4))
