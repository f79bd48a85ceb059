"""Building Community kit parameters: what a designer may change, with declared limits."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pnp.contract.palette import INKS
from pnp.contract.params import CardGroup, TileGroup, param
from pnp.runtime.errors import PnpError

TILE_COLOURS = ("red", "blue", "yellow")
PAWN_COLOURS = ("black", "purple", "green", "orange", "sky", "brown")
MAX_PLAYERS = 6
MAX_SOLVER_BUDGET = 10_000_000_000
"""Nodes the solver may search (`pnp solve --budget` and `solver_budget` share it): a bound
on time, not memory -- the phases that store positions stop at `STORED_POSITIONS`, and the
compiled proof keeps a fixed table."""
STORED_POSITIONS = 10_000_000
"""Positions the storing phases may keep: about 1.5 GB at the solver's 150 bytes a
position, which a laptop has to spare."""


@dataclass(frozen=True)
class BuildingCommunityParams(CardGroup, TileGroup):
    """The board size, the player count the layout check solves, colours and the swap scope.

    `colours` name the three tile colours in start-colour order: cell (q, r) starts with
    colour (q - r) mod 3. Pawn k takes `pawn_colours[k]`.
    """

    radius: int = param(3, lo=2, hi=8, help="rings around the centre space")
    players: int = param(2, lo=2, hi=6, help="player count the layout check solves")
    colours: tuple[str, ...] = param(
        TILE_COLOURS, min_len=3, max_len=3, help="tile colours", ink=True
    )
    pawn_colours: tuple[str, ...] = param(
        PAWN_COLOURS, min_len=6, max_len=6, help="pawns", ink=True
    )
    scope: Literal["near", "anywhere"] = param(
        "near", help="near: both swapped tiles touch the moving pawn; anywhere: any two"
    )
    solver_budget: int = param(
        50_000, lo=1, hi=MAX_SOLVER_BUDGET, help="positions the layout check may search"
    )
    solution: bool = param(
        False, help="add a page drawing the solver's winning line for `players`, turn by turn"
    )


def validate(p: BuildingCommunityParams) -> None:
    """Cross-field limits, each failing with one line."""
    for name in (*p.colours, *p.pawn_colours):
        if name not in INKS:
            raise PnpError(f"unknown colour '{name}': choose from {', '.join(INKS)}")
    if len(set(p.colours)) != 3:
        raise PnpError(f"the three tile colours must differ, got {', '.join(p.colours)}")
    if len(set(p.pawn_colours)) != len(p.pawn_colours):
        raise PnpError(f"the six pawn colours must differ, got {', '.join(p.pawn_colours)}")
    if p.clearance >= p.tile_size / 2:
        raise PnpError(
            f"clearance {p.clearance:g} mm leaves no tile: keep it under half the "
            f"tile size ({p.tile_size:g} mm)"
        )
