"""Parcheesi kit parameters: what a designer may change, and the limits that cross fields."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from geometry.track import space_dimensions
from pnp.contract.palette import INKS
from pnp.contract.params import CardGroup, DiceGroup, ScaleGroup, param
from pnp.runtime.errors import PnpError

RULES = ("seed", "standard")
DICE = ("both", "choose")
"""How the simulated players roll: `both` dice always (decision 13's random player, and
the greedy one), or `choose` before each roll between both dice and one (the seed's
option, a decision of its own)."""


@dataclass(frozen=True)
class ParcheesiParams(CardGroup, DiceGroup, ScaleGroup):
    """`colours[k]` is the ink of colour k: its entry space 17k + 5, strip, nest, pawns.
    `rules` picks the seed's rules or standard Parcheesi's extras (see the spec)."""

    board_size: float = param(500.0, lo=200, hi=1000, help="board side at real size, mm")
    colours: tuple[str, ...] = param(
        ("red", "blue", "green", "yellow"), min_len=4, max_len=4, help="palette names", ink=True
    )
    rules: Literal["seed", "standard"] = param("seed", help="seed or standard")
    pawn_size: float = param(16.0, lo=5, hi=40, help="pawn base diameter, mm")
    paper_dice: bool = param(True, help="print two fold-up paper dice")
    standee_height: float = param(24.0, lo=10, hi=80, help="fold-over pawn height, mm")


def validate(p: ParcheesiParams) -> None:
    """Cross-field limits: known, distinct colours; a pawn fits a space, and two pawns
    (a blockade or a shared safe space) fit side by side across it."""
    for name in p.colours:
        if name not in INKS:
            raise PnpError(f"unknown colour '{name}': choose from {', '.join(INKS)}")
    if len(set(p.colours)) != len(p.colours):
        raise PnpError("the four colours must be different")
    short, long = space_dimensions(p.board_size)
    if p.pawn_size > short or 2 * p.pawn_size > long:
        raise PnpError(
            f"a {p.pawn_size:g} mm pawn does not fit a {p.board_size:g} mm board "
            f"(spaces {short:.1f} x {long:.1f} mm, two pawns must share one): "
            f"use a board of at least {minimum_board(p.pawn_size):.0f} mm or smaller pawns"
        )


def minimum_board(pawn_size: float) -> float:
    """The smallest board side whose spaces take two pawns of `pawn_size` side by side."""
    short, long = space_dimensions(1.0)  # space sides scale with the board
    return max(pawn_size / short, 2 * pawn_size / long)
