"""Games from other installed packages, through the ``pnp.games`` entry-point group.

A package declares its game in its own pyproject.toml::

    [project.entry-points."pnp.games"]
    lamps = "lamps_game:GAME"      # a pnp.contract.gamedef.GameDef

A plugin that cannot be used (it fails to import, is not a valid `GameDef` -- a slug that
is no slug, a field of the wrong type --, takes a slug another game has, names templates
that are not there, or does not finish importing within `timeout()` seconds) is reported
as one warning line on stderr, as vpype reports a broken command, and every other game
still works.

Plugins are loaded only when a command needs the whole registry (`pnp list`, `build all`,
a game pnp does not know yet); a command naming a built-in game never imports one. A
plugin's import is arbitrary code that Python cannot cancel, so each is loaded in a
daemon thread that pnp stops waiting for: a plugin that hangs is left parked there
(it holds no lock pnp needs, and the process ends without it) and the command goes on
without it. `PNP_PLUGIN_TIMEOUT` sets the wait (seconds; 10 by default, for a plugin
that imports a large library from a cold disk).
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Collection
from functools import cache, partial
from importlib import metadata
from typing import Any

from pnp.contract.gamedef import GameDef, game_problem

GROUP = "pnp.games"
TIMEOUT = 10.0
"""Seconds a plugin may take to import (`PNP_PLUGIN_TIMEOUT` overrides it)."""


def warn(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def timeout() -> float:
    """The wait for one plugin's import: `PNP_PLUGIN_TIMEOUT`, if it is a positive number."""
    try:
        value = float(os.environ.get("PNP_PLUGIN_TIMEOUT", TIMEOUT))
    except ValueError:
        return TIMEOUT
    return value if 0 < value < float("inf") else TIMEOUT


class _Unusable(Exception):
    """A plugin pnp will not use, with the reason as its line says it."""


def _bounded(load: Callable[[], GameDef], seconds: float) -> GameDef:
    """`load()` in a daemon thread, waited for at most `seconds`: its result, or what it
    raised (SystemExit included: a plugin's import must not end pnp)."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = load()
        except BaseException as exc:  # noqa: BLE001 - handed to the caller as a warning
            box["error"] = exc

    thread = threading.Thread(target=run, name="pnp-plugin-import", daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        raise _Unusable(f"it did not finish importing within {seconds:g} s (PNP_PLUGIN_TIMEOUT)")
    if "error" in box:
        raise box["error"]
    return box["value"]


def _checked(entry: metadata.EntryPoint) -> GameDef:
    game = entry.load()
    problem = game_problem(game)
    if problem is not None:
        raise _Unusable(problem)
    return game


def load_plugins(taken: Collection[str], say: Callable[[str], None] = warn) -> dict[str, GameDef]:
    """Every usable plugin game by slug; `say` hears one line for each broken one."""
    from pnp.draw.templating import use_game_templates

    found: dict[str, GameDef] = {}
    seconds = timeout()
    for entry in metadata.entry_points(group=GROUP):
        try:
            game = _bounded(partial(_checked, entry), seconds)
            if game.slug in taken or game.slug in found:
                raise _Unusable(f"its slug '{game.slug}' is another game's")
            use_game_templates(game.slug, game.templates)
        except (Exception, SystemExit) as exc:  # a plugin's bug must not stop the other games
            say(f"warning: plugin '{entry.name}' could not be loaded: {_reason(exc)}")
            continue
        found[game.slug] = game
    return found


def _reason(exc: BaseException) -> str:
    """The warning's reason: the first line of what the plugin raised, kept short."""
    text = str(exc).strip()
    first = text.splitlines()[0][:200] if text else ""
    if isinstance(exc, _Unusable):
        return first
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


@cache
def plugins(taken: frozenset[str]) -> dict[str, GameDef]:
    """`load_plugins` once per process (its warnings too)."""
    return load_plugins(taken)
