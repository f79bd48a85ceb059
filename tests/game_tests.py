"""Which tests are about one game: what `make test GAME=slug` (pytest --game slug) runs.

A test is about a game when
- its file is named for the game: `test_<package>_*.py` or `test_<initials>_*.py`
  (`test_parcheesi_rules.py`; `test_dh_rules.py` for desert-home), `test_kit_<package>.py`,
  or `test_game_<package>.py` (what `pnp new` writes);
- a parameter names it: its slug, its `GameDef`, or a golden file's key under it
  ("parcheesi/board"), as the contract, golden, conformance and bad-input tests are;
- or it says so: `@pytest.mark.game("slug")` (a whole file: `pytestmark = ...`).
"""

from __future__ import annotations

from typing import Any

import pytest

from pnp.contract.gamedef import GameDef


def initials(slug: str) -> str:
    return "".join(word[0] for word in slug.split("-"))


def named_for(stem: str, slug: str) -> bool:
    """A test file's name (without .py) names the game: its package or its initials (two
    letters or more, so that one-word slugs go by their package)."""
    name = stem.removeprefix("test_")
    for prefix in ("kit_", "game_"):
        name = name.removeprefix(prefix)
    names = {slug.replace("-", "_"), initials(slug)}
    return any(name == n or name.startswith(n + "_") for n in names if len(n) > 1)


def names_game(value: Any, slug: str) -> bool:
    """A parameter's value names the game."""
    if isinstance(value, GameDef):
        return value.slug == slug
    return isinstance(value, str) and (value == slug or value.startswith(slug + "/"))


def about(item: pytest.Item, slug: str) -> bool:
    """The test is about the game `slug`."""
    if any(m.args[:1] == (slug,) for m in item.iter_markers("game")):
        return True
    if named_for(item.path.stem, slug):
        return True
    callspec = getattr(item, "callspec", None)
    return callspec is not None and any(names_game(v, slug) for v in callspec.params.values())
