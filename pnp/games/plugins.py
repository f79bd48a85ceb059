"""Games from other installed packages, through the ``pnp.games`` entry-point group.

A package declares its game in its own pyproject.toml::

    [project.entry-points."pnp.games"]
    lamps = "lamps_game:GAME"      # a pnp.gamedef.GameDef

A plugin that cannot be used (it fails to import, is not a `GameDef`, takes a slug
another game has, names templates that are not there) is reported as one warning line on
stderr, as vpype reports a broken command, and every other game still works.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Collection
from functools import cache
from importlib import metadata

from pnp.gamedef import GameDef

GROUP = "pnp.games"


def warn(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def load_plugins(taken: Collection[str], say: Callable[[str], None] = warn) -> dict[str, GameDef]:
    """Every usable plugin game by slug; `say` hears one line for each broken one."""
    from pnp.templating import use_game_templates

    found: dict[str, GameDef] = {}
    for entry in metadata.entry_points(group=GROUP):
        try:
            game = entry.load()
            if not isinstance(game, GameDef):
                raise TypeError(f"it gives a {type(game).__name__}, not a pnp GameDef")
            if game.slug in taken or game.slug in found:
                raise ValueError(f"its slug '{game.slug}' is another game's")
            use_game_templates(game.slug, game.templates)
        except Exception as exc:  # a plugin's bug must not stop the other games
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            said = f"{type(exc).__name__}: {reason}" if reason else type(exc).__name__
            say(f"warning: plugin '{entry.name}' could not be loaded: {said}")
            continue
        found[game.slug] = game
    return found


@cache
def plugins(taken: frozenset[str]) -> dict[str, GameDef]:
    """`load_plugins` once per process (its warnings too)."""
    return load_plugins(taken)
