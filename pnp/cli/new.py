"""`pnp new`: the command line over `pnp.scaffold`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

import pnp
from pnp.errors import PnpError


def checkout_root() -> Path:
    """The pnp checkout this command runs from: a new game is written beside the others."""
    from pnp.scaffold import REGISTRY

    root = Path(pnp.__file__).resolve().parent.parent
    if not (root / REGISTRY).is_file() or not (root / "tests").is_dir():
        raise PnpError(
            f"pnp runs from {root}, which is not a pnp checkout: clone the repository, "
            "run `make setup` there and use its .venv/bin/pnp (or write the game as a "
            "plugin package: see docs/writing-a-game.md)"
        )
    return root


def new(
    slug: Annotated[str, typer.Argument(help="The new game's name, e.g. lantern-race.")],
) -> None:
    """Write the skeleton of a small complete game into this checkout: package, rule cards,
    tests and reference data; then add the one registry line it prints."""
    from pnp.scaffold import REGISTRY, Names, registry_line
    from pnp.scaffold.data import create_game

    root = checkout_root()
    names = Names.of(slug)
    out = Console()
    written = create_game(slug, root)
    for path in written:
        out.print(f"wrote {path.relative_to(root)}", highlight=False)
    out.print(
        f"\nNext: register the game: add this line to BUILT_IN in {REGISTRY}:\n"
        f"    {registry_line(names)}\n"
        f"then try `pnp check {slug}`, `pnp build {slug}`, `pnp simulate {slug}` and "
        "`make test`. The guide: docs/writing-a-game.md.",
        highlight=False,
        soft_wrap=True,
    )
