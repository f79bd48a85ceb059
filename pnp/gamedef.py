"""What a game declares to be plugged into pnp: one `GameDef` in its own package.

It sits outside `pnp.games` so that a game's package can name it without importing the
registry, which imports every game (and the games must not depend on each other).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class GameDef:
    slug: str
    title: str
    blurb: str
    default_params: Callable[[], Any]
    build_kit: Callable[..., Any]  # (params, printing) -> Kit
    checks: Callable[..., list]  # (kit) -> list[Finding]; the build adds kit.findings
    engine: Any = None  # the game's simulation module (pnp.outcome contract), if any
    solver: Any = None  # a module with solve(model, players, budget) -> SolveResult, if any
    documents: tuple[tuple[str, str], ...] = ()  # (name, title) of PDFs beyond the main one
    variants: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Named configs (config keys -> values) the golden files also cover, as Boxes.py's
    examples do: what a designer is likely to change, kept from drifting unseen."""
