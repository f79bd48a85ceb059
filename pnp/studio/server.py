"""Serve the studio with uvicorn until Ctrl-C (or SIGTERM), which stops it and its jobs.

Its connections are `pnp.studio.connections`' (a time limit to read a request, a cap on
how many are open), and what uvicorn and the event loop log is one line per cause
(`pnp.studio.terminal`).
"""

from __future__ import annotations

import ipaddress
import re
import socket
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path

from pnp.runtime.errors import PnpError
from pnp.studio.app import Settings, create_app
from pnp.studio.connections import connection_cap, open_file_limit, protocol
from pnp.studio.guard import new_token
from pnp.studio.terminal import one_line_per_cause

LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)", re.IGNORECASE)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_host(host: str) -> None:
    """An IP address or a host name (RFC 1123): never '' (which would serve on every
    interface) nor anything a browser could not put in an address."""
    try:
        ipaddress.ip_address(host)
        return
    except ValueError:
        pass
    labels = host[:-1].split(".") if host.endswith(".") else host.split(".")
    if (
        not host
        or len(host) > 253
        or not all(LABEL.fullmatch(label) for label in labels)
        or labels[-1].isdigit()  # '127.1', '0': shorthands some resolvers read as addresses
    ):
        raise PnpError(f"--host must be an IP address or a host name, got {host[:80]!r}")


def check_port(host: str, port: int) -> None:
    """One line, before uvicorn starts, for a port that is taken or a host that is not ours."""
    if not 1 <= port <= 65535:
        raise PnpError(f"--port must be from 1 to 65535, got {port}")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, port))
    except OSError as exc:
        raise PnpError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None


def serve(
    settings: Settings,
    open_browser: bool = False,
    say: Callable[[str], None] = print,
) -> None:
    """Run the studio on the settings' host and port; returns once it is stopped."""
    import uvicorn

    host, port = settings.host, settings.port
    check_host(host)
    check_port(host, port)
    url = settings.doors.url()
    app = create_app(settings)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=protocol(connection_cap(open_file_limit())),
        ws="none",  # the guard refuses an upgrade: no WebSocket library is even looked for
        log_config=None,  # `one_line_per_cause` below, not uvicorn's handlers
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=0.5,  # type: ignore[arg-type]  # a float works: asyncio.wait_for
        lifespan="on",
    )
    server = uvicorn.Server(config)
    say(f"pnp studio: {url}  (Ctrl-C stops it)")
    if settings.token is None:
        say(
            "warning: --no-token: the studio asks for no key, so any program on this machine "
            "can run jobs on it"
        )
    if not is_loopback(host):
        say(
            f"warning: serving on {host}: anyone on that network can use this studio "
            "and run jobs on this machine"
        )
    if open_browser:
        threading.Timer(0.5, lambda: webbrowser.open(url)).start()
    with one_line_per_cause(say):
        server.run()


def default_settings(
    cache: Path | None,
    slots: int | None,
    cache_limit: int,
    host: str,
    port: int,
    token: bool = True,
) -> Settings:
    from pnp.sim.runner import default_jobs
    from pnp.studio.cache import default_root

    return Settings(
        cache or default_root(),
        slots or default_jobs(),
        cache_limit,
        host,
        port,
        new_token() if token else None,
    )
