"""Home in One Piece kit parameters: the dough, the board sized from it, and the blob dice.

Thicknesses and board sizes are millimetres; the dough is grams at a density in g/cm^3.
The board's width is not a parameter: it follows from the row of start circles.
"""

from __future__ import annotations

from dataclasses import dataclass

from shapely.geometry import Polygon

from geometry.blobs import (
    HomeFit,
    StartFit,
    StartRow,
    blob_volume,
    disc_radius,
    home_fit,
    home_zone,
    min_board_height,
    resting_radius,
    start_fit,
    start_row,
)
from pnp.contract.palette import INKS
from pnp.contract.params import MIN_DIE, CardGroup, DiceGroup, ScaleGroup, param, validate_params
from pnp.runtime.errors import PnpError

DEFAULT_DICE = ((1, 1, 1, 1, 1, 0), (1, 1, 1, 1, 0, 0), (1, 0, 0, 0, 0, 0))
"""Die A shows a blob on five faces, die B on four, die C on one; 0 is a blank face."""
MAX_BOARD_WIDTH = 3000.0
"""mm: as wide as `board_height` may be tall; past it a tiled board is hundreds of sheets."""


@dataclass(frozen=True)
class HomeInOnePieceParams(CardGroup, DiceGroup, ScaleGroup):
    """What a designer may change; the board, the dice and the play model all follow.

    The board prints at real size, tiled over sheets, unless `board_scale` reduces it.
    Sticker sheets come for each size in `sticker_dice`; the paper dice fold to `die_size`.
    """

    die_size: float = param(
        16.0, lo=MIN_DIE, hi=40, help="paper dice face, mm; 5 mm is the smallest die to hold"
    )
    sticker_dice: tuple[float, ...] = param(
        (12.0, 16.0), min_len=1, max_len=3, item_lo=MIN_DIE, item_hi=40, help="die sizes, mm"
    )

    dough_grams: float = param(
        150.0, lo=10, hi=5000, help="dough per player, g; 10 g is a few pinches"
    )
    blobs_per_player: int = param(8, lo=0, hi=16, lo_open=True, help="equal blobs each")
    density: float = param(
        1.2, lo=0.5, hi=5, help="dough, g/cm^3; play dough is about 1.2, none below 0.5"
    )
    start_thickness: float = param(
        20.0, lo=2, hi=100, help="a start blob resting in its circle, mm; dough tears below 2"
    )
    home_thickness: float = param(
        15.0, lo=2, hi=100, help="dough pressed flat in play and at home, mm; tears below 2"
    )
    circle_margin: float = param(3.0, lo=0, hi=50, help="start circle edge beyond its blob, mm")
    circle_gap: float = param(4.0, lo=0, hi=100, help="between neighbouring start circles, mm")
    board_margin: float = param(10.0, lo=0, hi=100, help="board edge to circles and home, mm")
    home_depth: float = param(130.0, lo=20, hi=2000, help="home zone, mm")
    board_height: float = param(400.0, lo=50, hi=3000, help="mm")
    bridge_span: float = param(
        80.0,
        lo=0,
        hi=500,
        help="the widest stretch of the other's dough a bridge of dough spans and stands, mm; "
        "0 allows no bridge",
    )
    dough_colours: tuple[str, ...] = param(
        ("red", "blue"), min_len=2, max_len=2, help="one palette colour per player", ink=True
    )
    dice: tuple[tuple[int, ...], ...] = param(
        DEFAULT_DICE,
        min_len=1,
        max_len=3,
        item_lo=0,
        item_hi=1,
        help="per die: six faces, 1 = blob, 0 = blank",
    )
    die_letters: tuple[str, ...] = param(
        ("A", "B", "C"), min_len=1, max_len=3, help="one letter per die"
    )


# --- sizes that follow from the physics ----------------------------------------------------


def unit_volume(p: HomeInOnePieceParams) -> float:
    """One start blob, mm^3."""
    return blob_volume(p.dough_grams, p.blobs_per_player, p.density)


def dough_to_use(p: HomeInOnePieceParams) -> float:
    """Dough per player for the board as printed, g, rounded as every printed line shows it.

    The board is drawn from `dough_grams`; a board printed at `board_scale` takes that
    dough scaled in all three directions. The cover, the board, the Setup card and the
    check all print this one number, so a reduced kit never names two amounts.
    """
    grams = p.dough_grams * p.board_scale**3
    return float(round(grams)) if grams >= 10 else round(grams, 1)


def blob_grams(p: HomeInOnePieceParams) -> float:
    """One start blob of `dough_to_use`, g (one decimal)."""
    return round(dough_to_use(p) / p.blobs_per_player, 1)


def start_blob_radius(p: HomeInOnePieceParams) -> float:
    """A start blob's footprint resting in its circle at `start_thickness`."""
    return resting_radius(unit_volume(p), p.start_thickness)


def whole_dough_radius(p: HomeInOnePieceParams) -> float:
    """One player's whole dough as one disc at `home_thickness`."""
    return disc_radius(unit_volume(p) * p.blobs_per_player, p.home_thickness)


def circles(p: HomeInOnePieceParams) -> StartRow:
    """The start row: two circles per blob pair, both players alternating."""
    return start_row(
        2 * p.blobs_per_player, start_blob_radius(p), p.circle_margin, p.circle_gap, p.board_margin
    )


def board_size(p: HomeInOnePieceParams) -> tuple[float, float]:
    """(width, height) of the board at real size, mm."""
    return circles(p).width, p.board_height


def home(p: HomeInOnePieceParams) -> Polygon:
    width, height = board_size(p)
    return home_zone(width, height, p.board_margin, p.home_depth)


def start_check(p: HomeInOnePieceParams) -> StartFit:
    """Does each start circle hold its blob, with neighbouring blobs apart?"""
    return start_fit(circles(p), start_blob_radius(p))


def home_check(p: HomeInOnePieceParams) -> HomeFit:
    """Does the home zone hold both players' whole dough, one disc each, apart?"""
    return home_fit(home(p), (whole_dough_radius(p),) * 2)


# --- cross-field limits -------------------------------------------------------------------


def validate(p: HomeInOnePieceParams) -> HomeInOnePieceParams:
    """Declared ranges first, then the limits between fields; one clear line per problem.

    Returns the params with numbers normalised (ints given for floats become floats).
    """
    p = validate_params(p)
    for name in p.dough_colours:
        if name not in INKS:
            raise PnpError(f"unknown dough colour '{name}': choose from {', '.join(INKS)}")
    if p.dough_colours[0] == p.dough_colours[1]:
        raise PnpError(f"the two players need different dough colours, got {p.dough_colours[0]}")
    for k, faces in enumerate(p.dice):
        if len(faces) != 6:  # each face is 0 or 1 by its declaration (`dice`'s item range)
            raise PnpError(f"die {k + 1} needs six faces, got {len(faces)}")
    if len(p.die_letters) != len(p.dice):
        from pnp.draw.text import count_of  # the wording only: reportlab's metrics load with it

        raise PnpError(
            f"give one die letter per die: {count_of(len(p.dice), 'die', 'dice')}, "
            f"{count_of(len(p.die_letters), 'letter', 'letters')}"
        )
    if len(set(p.die_letters)) != len(p.die_letters) or not all(p.die_letters):
        raise PnpError(f"die letters must be different and not empty, got {list(p.die_letters)}")
    if any(len(letter) > 2 for letter in p.die_letters):
        raise PnpError(
            f"a die letter marks a face corner: one or two characters, got {list(p.die_letters)}"
        )
    if len(set(p.sticker_dice)) != len(p.sticker_dice):
        raise PnpError(f"sticker_dice names a die size twice: {list(p.sticker_dice)}")
    for die in p.sticker_dice:
        if p.sticker_margin >= die / 2:
            raise PnpError(
                f"sticker_margin {p.sticker_margin:g} mm leaves no sticker on a {die:g} mm die: "
                f"use less than {die / 2:g} mm"
            )
    row = circles(p)
    if row.width > MAX_BOARD_WIDTH:
        raise PnpError(
            f"the row of {row.count} start circles needs a {row.width:.0f} mm wide board, more "
            f"than {MAX_BOARD_WIDTH:g} mm: use less dough, fewer blobs or a thicker start_thickness"
        )
    need = min_board_height(row, p.home_depth)
    if p.board_height <= need:
        raise PnpError(
            f"board_height {p.board_height:g} mm is too small: the start circles "
            f"({2 * row.circle_radius:.0f} mm) and the home zone ({p.home_depth:g} mm) "
            f"need more than {need:.0f} mm"
        )
    return p
