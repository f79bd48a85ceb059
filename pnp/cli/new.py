"""`pnp new`: the command line over `pnp.scaffold`."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

import pnp
from pnp.runtime.errors import PnpError

if TYPE_CHECKING:
    from pnp.scaffold import Names


def checkout_root() -> Path:
    """The pnp checkout this command runs from: a new game is written beside the others."""
    from pnp.scaffold import REGISTRY

    root = Path(pnp.__file__).resolve().parent.parent
    if not (root / REGISTRY).is_file() or not (root / "tests").is_dir():
        raise PnpError(
            f"pnp runs from {root}, which is not a pnp checkout: clone the repository, "
            "run `make setup` there and use its .venv/bin/pnp, or write the game as a "
            "package of its own: pnp new SLUG --package DIR"
        )
    return root


def new(
    slug: Annotated[str, typer.Argument(help="The new game's name, e.g. lantern-race.")],
    package: Annotated[
        Path | None,
        typer.Option(
            "--package",
            metavar="DIR",
            help="Write the game as a plugin repository of its own in DIR (new or empty): "
            "pyproject, package, rule cards, tests, reference data.",
        ),
    ] = None,
) -> None:
    """Write the skeleton of a small complete game: package, rule cards, tests and
    reference data. Into this checkout (then add the one registry line it prints), or
    with --package DIR as a repository of its own that `pip install -e DIR` plugs in."""
    from pnp.scaffold import Names

    names = Names.of(slug)  # a bad slug is refused before anything else is looked at
    if package is not None:
        _new_package(names, package)
    else:
        _new_in_checkout(names)


def _new_in_checkout(names: Names) -> None:
    from pnp.scaffold import REGISTRY, registry_line
    from pnp.scaffold.data import create_game

    root = checkout_root()
    out = Console()
    for path in create_game(names.slug, root):
        out.print(f"wrote {path.relative_to(root)}", highlight=False, markup=False)
    out.print(
        f"\nNext: register the game: add this line to BUILT_IN in {REGISTRY}:\n"
        f"    {registry_line(names)}\n"
        f"then try `pnp check {names.slug}`, `pnp build {names.slug}`, "
        f"`pnp simulate {names.slug}` and `make test GAME={names.slug}`. "
        "The guide: docs/writing-a-game.md.",
        highlight=False,
        markup=False,
        soft_wrap=True,
    )


def _new_package(names: Names, dest: Path) -> None:
    from pnp.scaffold.data import create_package

    out = Console()
    written = create_package(names.slug, dest)
    root = dest.absolute()
    for path in written:
        out.print(f"wrote {dest / path.relative_to(root)}", highlight=False, markup=False)
    where = shlex.quote(str(dest))
    out.print(
        "\nNext: install it into the environment pnp runs in:\n"
        f"    pip install -e {shlex.quote(f'{dest}[test]')}\n"
        f"then `pnp list` shows {names.slug}; try `pnp check {names.slug}`, "
        f"`pnp build {names.slug}`, `pnp simulate {names.slug}`, and its tests: "
        f"`pytest {where}`. The guide: docs/writing-a-game.md.",
        highlight=False,
        markup=False,
        soft_wrap=True,
    )
