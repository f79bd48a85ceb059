"""`pnp studio`: the command line over `pnp.studio.server`."""

from __future__ import annotations

import atexit
import os
import sys
import threading
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console

from pnp.cli.simulate import whole_number
from pnp.runtime import interrupt
from pnp.runtime.errors import PnpError


def studio(
    host: Annotated[
        str, typer.Option(help="Address to serve on (only this machine by default).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to serve on.", parser=whole_number)] = 8765,
    open_browser: Annotated[
        bool, typer.Option("--open", help="Open the page in the default browser.")
    ] = False,
    cache: Annotated[
        Path | None,
        typer.Option(help="Cache folder (default: the user's cache folder, pnp/studio)."),
    ] = None,
    cache_size: Annotated[
        int,
        typer.Option(help="Cache limit in MB; the oldest entries go first.", parser=whole_number),
    ] = 2000,
    token: Annotated[
        bool,
        typer.Option(
            "--token/--no-token",
            help="Ask for the key printed in the address (--no-token: for scripts on a "
            "trusted machine).",
        ),
    ] = True,
    jobs: Annotated[
        int | None,
        typer.Option(help="Jobs run at once (default: one per core).", parser=whole_number),
    ] = None,
) -> None:
    """Serve a local web page to edit, see, check, play and download a kit."""
    from pnp.studio.cache import claim_root
    from pnp.studio.server import check_host, default_settings, serve

    if cache_size < 10:
        raise PnpError(f"--cache-size must be at least 10 MB, got {cache_size}")
    if jobs is not None and not 1 <= jobs <= 64:
        raise PnpError(f"--jobs must be from 1 to 64, got {jobs}")
    check_host(host)
    err = Console(stderr=True)
    settings = default_settings(cache, jobs, cache_size * 1_000_000, host, port, token)
    # a folder of the user's is refused; the default one is pnp's own (an earlier pnp
    # made it without the tag)
    claim_root(settings.cache, adopt=cache is None)
    try:
        serve(
            settings,
            open_browser,
            say=lambda line: err.print(line, highlight=False, soft_wrap=True, markup=False),
        )
    except KeyboardInterrupt:
        stop_now()


def stop_now() -> NoReturn:
    """End a stopped studio as every stopped command ends (one line, exit 130 or 143), but
    at once: its server and jobs have stopped, and the interpreter's own teardown of a
    process with all of pnp loaded would take longer than the stop itself (`make bench`
    times it). Threads still finish and exit handlers still run (multiprocessing removes
    its folders); only the teardown of the modules is skipped."""
    try:
        interrupt.finish()
    except SystemExit as end:
        code = end.code if isinstance(end.code, int) else 1
    for thread in threading.enumerate():
        if thread is not threading.current_thread() and not thread.daemon:
            thread.join(5.0)  # a job's runner removing its work folder: bounded, as a guard
    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
