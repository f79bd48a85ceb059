"""The studio's doors: only its own page, in the browser of whoever started it, drives it.

A local server that runs work on request can be reached by every page its user opens: a
form or a `fetch` from another site, or a site whose name is rebound to 127.0.0.1 (DNS
rebinding). So, as Jupyter does, every request passes these checks before any route runs:

- its `Host` must be the studio's address (`127.0.0.1:PORT`, `localhost:PORT`, the
  `--host` name): a rebound name is 400;
- an API request or a write whose `Origin` (or, lacking one, `Referer`) is another origin,
  or that Chromium marks as coming from another site, is 403;
- an API request must carry the start's secret (the cookie the token address set, or an
  `Authorization: Bearer` header for scripts), else 401;
- a body must be `application/json` (a form or a no-cors `fetch` cannot send that), else 415;
- a WebSocket (or any other protocol upgrade) is refused: the studio speaks only plain
  HTTP, and a socket opened from another site would carry no `Origin` check of its own.

Every answer carries headers that keep it out of other pages' frames and scripts. A refusal
is one line of JSON, as every other error of the API.
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

WRITES = ("POST", "PUT", "PATCH", "DELETE")
WILDCARDS = ("0.0.0.0", "::")
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
# a job's files (the report, SVGs) are shown in the page's frame and tabs: no script at all
FILE_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'self'"
)


def new_token() -> str:
    return secrets.token_urlsafe(24)


def bracketed(host: str) -> str:
    """A host as it stands in a URL or a Host header (IPv6 in brackets)."""
    return f"[{host}]" if ":" in host else host


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Doors:
    """What the checks hold a request against: the address served and the start's secret
    (None: `--no-token`)."""

    host: str
    port: int
    token: str | None

    @property
    def cookie(self) -> str:
        # cookies ignore ports: two studios on one machine each keep their own
        return f"pnp-studio-{self.port}"

    def allowed(self, value: str) -> bool:
        """Whether a Host header names this studio."""
        parsed = split_host(value.lower())
        if parsed is None or parsed[1] != self.port:
            return False
        name = parsed[0]
        names = {"127.0.0.1", "localhost", bracketed(self.host.lower())}
        if self.host in ("::1", "::"):
            names.add("[::1]")
        if name in names:
            return True
        # bound to every interface: an address (never a rebound name) or this machine's name
        return self.host in WILDCARDS and (_is_ip(name) or name == socket.gethostname().lower())

    def url(self) -> str:
        """The address to open: with the token, which sets the page's cookie (bound to every
        interface, this machine's own address)."""
        host = "127.0.0.1" if self.host in WILDCARDS else self.host
        base = f"http://{bracketed(host)}:{self.port}/"
        return base + (f"?token={self.token}" if self.token else "")


def split_host(value: str) -> tuple[str, int] | None:
    """A Host header's name and port (80 when it names none), None when it is malformed."""
    if value.startswith("["):
        name, sep, rest = value.partition("]")
        name += sep
    else:
        name, sep, rest = value.partition(":")
        rest = sep + rest
    if not name or not sep and value.startswith("["):
        return None
    if not rest:
        return name, 80
    if rest[0] != ":" or not rest[1:].isdigit() or len(rest) > 6:
        return None
    return name, int(rest[1:])


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def refusal(doors: Doors, method: str, path: str, headers: Headers) -> tuple[int, str] | None:
    """Why a request is refused (status, one line), or None when it may go on."""
    host = headers.get("host", "")
    if not doors.allowed(host):
        return 400, f"the Host header '{host[:80]}' is not this studio's address"
    if "upgrade" in headers:
        return 400, "the studio takes no WebSocket or other protocol upgrade: plain HTTP only"
    if not path.startswith("/api/") and method not in WRITES:
        return None  # the page, its script and its style: nothing to protect
    own = f"http://{host}".lower()
    sent = headers.get("origin") or headers.get("referer")
    if sent is not None and _origin(sent) != own:
        return 403, f"a request from another site ({sent[:80]}) may not use this studio"
    if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        return 403, "a request from another site may not use this studio"
    if doors.token is not None and not _has_token(doors, headers):
        return 401, (
            "this studio needs its key: open the address `pnp studio` printed "
            "(…/?token=…), or send the header 'Authorization: Bearer TOKEN'"
        )
    if method in ("POST", "PUT", "PATCH"):
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            return 415, f"the request body must be application/json, not '{kind[:60]}'"
    return None


def _has_token(doors: Doors, headers: Headers) -> bool:
    assert doors.token is not None
    given = ""
    scheme, _, value = headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer":
        given = value.strip()
    else:
        for part in headers.get("cookie", "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == doors.cookie:
                given = value
    return secrets.compare_digest(given.encode(), doors.token.encode())


def security_headers(path: str) -> list[tuple[bytes, bytes]]:
    """What every answer carries; a job's files may be framed by the page, nothing else."""
    files = path.startswith("/api/jobs/") and "/files/" in path
    return [
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"SAMEORIGIN" if files else b"DENY"),
        (b"referrer-policy", b"no-referrer"),
        (b"content-security-policy", (FILE_POLICY if files else PAGE_POLICY).encode()),
    ]


class Guard:
    """ASGI middleware: the checks above on every HTTP request, the headers on every answer,
    and the token address (`/?token=...`), which sets the cookie and drops the token from
    the address. A WebSocket is closed before it is accepted (the server answers 403)."""

    def __init__(self, app: ASGIApp, doors: Doors) -> None:
        self.app = app
        self.doors = doors

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})  # policy violation
            return
        if scope["type"] != "http":  # the lifespan: the studio's start and stop
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        extra = security_headers(path)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                message["headers"] = [
                    *message.get("headers", []),
                    *(h for h in extra if h[0] not in names),
                ]
            await send(message)

        headers = Headers(scope=scope)
        why = refusal(self.doors, scope["method"], path, headers)
        answer: Response | None = None
        if why is not None:
            answer = JSONResponse({"error": why[1]}, status_code=why[0])
        elif path == "/" and self.doors.token is not None:
            query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
            given = query.get("token", [""])[0]
            if given and secrets.compare_digest(given.encode(), self.doors.token.encode()):
                answer = RedirectResponse("/", status_code=303)
                answer.set_cookie(
                    self.doors.cookie, self.doors.token, httponly=True, samesite="strict"
                )
        if answer is not None:
            await answer(scope, receive, send_with_headers)
        else:
            await self.app(scope, receive, send_with_headers)
