"""Desert Home – Immigration kit parameters: the board, the decks, the pieces, the refuges.

One set of numbers drives both the printed kit and the rules engine, so what is printed
is what was tested. The play fields come first (the engine reads them); the rest are
sizes of the things a maker prints, cuts and saws.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal

from geometry.fan import Fan, blade_layout
from geometry.octagons import grid_pitch, octagon_side
from pnp.contract.palette import INKS
from pnp.contract.params import CardGroup, DiceGroup, param
from pnp.runtime.errors import PnpError

COLOURS = ("black", "white", "green", "yellow", "red", "blue")
WATER = "blue"  # water bearers: the colour the rules single out
BLADES = 6  # one blade per colour in each refuge
PLAYERS = 2  # one refuge each

# The cacti printed on a path tile scale with it; below this height they stop reading.
CACTUS_SHARE = 0.34  # height of one cactus on a thirst tile, as a share of the tile
MIN_CACTUS = 7.0  # mm
FIGURES_ON_TILE = 2  # a group and its water bearer must stand side by side on one tile
FEATURE_RIM = 0.75  # mm of printed ring round a piece's place on a blade


@dataclass(frozen=True)
class DesertHomeParams(CardGroup, DiceGroup):
    """What a designer may change. `colours[0]` is the seat of the configurable sixth
    colour: `sixth_colour` replaces it everywhere (see `colours_in_play`)."""

    # --- play ------------------------------------------------------------------------
    rows: int = param(5, lo=1, hi=15, help="rows of fields from refuges to camp")
    path_columns: int = param(4, lo=1, hi=12, help="path fields between a refuge and the camp")
    refuge_rows: tuple[int, ...] = param(
        (1, 3), min_len=2, max_len=2, item_lo=0, item_hi=14, help="rows of the refuge entries"
    )
    deck_safe: int = param(24, lo=0, hi=500, help="path tiles with one cactus")
    deck_thirst: int = param(12, lo=0, hi=500, help="path tiles with three red cacti")
    protection_cards: int = param(6, lo=0, hi=100, help="golden octagons")
    figures_per_colour: int = param(12, lo=0, hi=100)
    tents_per_colour: int = param(2, lo=0, hi=50)
    colours: tuple[str, ...] = param(
        COLOURS, min_len=6, max_len=6, help="one per die and blade", ink=True
    )
    sixth_colour: str = param(
        "black", help="replaces colours[0] everywhere (black or brown)", ink=True
    )
    goal_per_colour: int = param(5, lo=1, hi=50, help="figures of every colour a refuge needs")
    tent_value: int = param(3, lo=1, hi=10, help="figures one tent counts as")
    road_bonus: Literal["optional", "compulsory"] = param(
        "optional", help="a road bonus may be let go (optional) or must be taken (compulsory)"
    )
    groups: Literal["split", "whole"] = param(
        "split", help="a move takes any part of a colour's group on a field (split) or all of it"
    )

    # --- path tiles and board ---------------------------------------------------------
    tile_size: float = param(40.0, lo=10, hi=120, help="octagon across flats, mm")
    gap: float = param(
        18.0, lo=0, lo_open=True, hi=100, help="side of the square gap between four tiles, mm"
    )

    # --- refuges: a fan of plywood blades ---------------------------------------------
    plywood_thickness: float = param(4.0, lo=1, hi=30, help="mm; thinner than 1 mm snaps")
    plywood_sheet: tuple[float, ...] = param(
        (300.0, 200.0), min_len=2, max_len=2, item_lo=20, item_hi=3000, help="width, height mm"
    )
    blade_length: float = param(60.0, lo=20, hi=300, help="pivot to blade tip, mm")
    blade_corner_radius: float = param(7.0, lo=1, hi=50, help="corners and hub, mm")
    bolt_diameter: float = param(
        5.0, lo=2, hi=24, help="pivot bolt diameter, mm (5: an M5 bolt; M2 is the smallest)"
    )
    hole_clearance: float = param(
        0.5,
        lo=0,
        hi=3,
        help="pivot hole wider than the bolt, mm: six blades turn freely from 0.3 (M5: 5.3-5.5)",
    )
    blade_overlap_deg: float = param(6.0, lo=0, hi=30, help="degrees a blade covers the next")

    # --- pieces -----------------------------------------------------------------------
    magnet_diameter: float = param(
        10.0, lo=2, hi=50, help="mm, under a figure; 2 mm is the smallest disc magnet"
    )
    figure_size: float = param(13.0, lo=5, hi=60, help="round figure diameter, mm")
    tent_size: float = param(18.0, lo=5, hi=80, help="round tent diameter, mm")
    standee_height: float = param(22.0, lo=8, hi=100, help="fold-over figure height, mm")

    @property
    def colours_in_play(self) -> tuple[str, ...]:
        return colours_in_play(self)

    @property
    def pivot_hole(self) -> float:
        """The hole drilled through every blade: the bolt plus its clearance, so a stack of
        plywood blades turns on the bolt rather than binding on it."""
        return self.bolt_diameter + self.hole_clearance


def colours_in_play(p: DesertHomeParams) -> tuple[str, ...]:
    """The six colours on dice, blades and figures: the sixth colour in the first seat."""
    return (p.sixth_colour, *p.colours[1:])


def fan(p: DesertHomeParams) -> Fan:
    """The refuge fan the blade sizes describe (raises ValueError for impossible sizes)."""
    return Fan(BLADES, p.blade_length, p.blade_corner_radius, p.blade_overlap_deg, p.pivot_hole)


def figure_place_radius(p: DesertHomeParams) -> float:
    return p.figure_size / 2 + FEATURE_RIM


def tent_place_radius(p: DesertHomeParams) -> float:
    return p.tent_size / 2 + FEATURE_RIM


def validate(p: DesertHomeParams) -> None:
    """Cross-field limits, each failing with one line."""
    counts = ("deck_safe", "deck_thirst", "protection_cards", "figures_per_colour")
    for name in (*counts, "tents_per_colour"):
        if getattr(p, name) < 0:
            raise PnpError(f"'{name}' cannot be negative, got {getattr(p, name)}")
    if p.deck_safe + p.deck_thirst == 0:
        raise PnpError("the path deck is empty: give 'deck_safe' or 'deck_thirst' some tiles")
    if p.sixth_colour not in INKS:
        raise PnpError(
            f"sixth colour '{p.sixth_colour}' is not a palette colour: choose from "
            f"{', '.join(INKS)}"
        )
    for name in p.colours[1:]:
        if name not in INKS:
            raise PnpError(f"unknown colour '{name}': choose from {', '.join(INKS)}")
    play = colours_in_play(p)
    if len(set(play)) != len(play):
        raise PnpError(f"the six colours must differ, got {', '.join(play)}")
    if WATER not in play:
        raise PnpError(f"the colours need {WATER} for the water bearers, got {', '.join(play)}")
    if len(set(p.refuge_rows)) != PLAYERS or any(not 0 <= r < p.rows for r in p.refuge_rows):
        raise PnpError(
            f"refuge rows must be {PLAYERS} different rows from 0 to {p.rows - 1}, "
            f"got {', '.join(str(r) for r in p.refuge_rows)}"
        )
    if p.plywood_thickness <= 0:
        raise PnpError(f"plywood thickness must be positive, got {p.plywood_thickness:g} mm")
    _validate_tiles(p)
    _validate_fan(p)


def _validate_tiles(p: DesertHomeParams) -> None:
    smallest = MIN_CACTUS / CACTUS_SHARE
    if p.tile_size < smallest:
        raise PnpError(
            f"a {p.tile_size:g} mm tile cannot hold three readable cacti: make it at least "
            f"{smallest:.1f} mm across"
        )
    if p.tile_size < FIGURES_ON_TILE * p.figure_size:
        raise PnpError(
            f"a {p.tile_size:g} mm tile cannot hold a group and its water bearer "
            f"({FIGURES_ON_TILE} figures of {p.figure_size:g} mm side by side)"
        )
    try:
        grid_pitch(p.tile_size, p.gap)
    except ValueError:
        raise PnpError(
            f"a square gap of {p.gap:g} mm makes neighbouring {p.tile_size:g} mm tiles overlap: "
            f"make it at least {octagon_side(p.tile_size):.2f} mm"
        ) from None


def _validate_fan(p: DesertHomeParams) -> None:
    try:
        _fan_fits(fan(p), figure_place_radius(p), tent_place_radius(p))
    except ValueError as exc:
        raise PnpError(str(exc)) from None


@cache
def _fan_fits(f: Fan, figure_radius: float, tent_radius: float) -> None:
    """Raises ValueError when the pieces' places do not fit the blade. Cached: every part
    of the kit validates the same params, and laying the places out is the slow part."""
    blade_layout(f, figure_radius, tent_radius)
