"""`pnp studio`: the command line over `pnp.studio.server`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from pnp.cli.simulate import whole_number
from pnp.errors import PnpError


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
    jobs: Annotated[
        int | None,
        typer.Option(help="Jobs run at once (default: one per core).", parser=whole_number),
    ] = None,
) -> None:
    """Serve a local web page to edit, see, check, play and download a kit."""
    from pnp.studio.cache import claim_root
    from pnp.studio.server import default_settings, serve

    if cache_size < 10:
        raise PnpError(f"--cache-size must be at least 10 MB, got {cache_size}")
    if jobs is not None and not 1 <= jobs <= 64:
        raise PnpError(f"--jobs must be from 1 to 64, got {jobs}")
    err = Console(stderr=True)
    settings = default_settings(cache, jobs, cache_size * 1_000_000)
    # a folder of the user's is refused; the default one is pnp's own (an earlier pnp
    # made it without the tag)
    claim_root(settings.cache, adopt=cache is None)
    serve(
        host,
        port,
        settings,
        open_browser,
        say=lambda line: err.print(line, highlight=False, soft_wrap=True, markup=False),
    )
