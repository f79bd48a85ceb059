"""Exploding Dice kit parameters and the play model the rules engine reads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from geometry.intersections import Entry, entries, start_points, zone_cells
from pnp.contract.params import MIN_DIE, CardGroup, DiceGroup, TinGroup, param
from pnp.runtime.errors import PnpError, shown

COLOURS = ("red", "green", "blue", "purple")
DIE_SIZES = (10.0, 12.0, 16.0)
STANDARD_FACES = (1, 2, 3, 4, 5, 6)


def parse_faces(name: str, value: Any) -> dict[str, tuple[tuple[int, ...], ...]]:
    """`{colour: [6 ints]}` (all dice of that colour) or `{colour: [[6 ints], ...]}` (per die)."""
    if not isinstance(value, dict):
        raise PnpError(f"'{name}' must be a table of colour = face list")
    out: dict[str, tuple[tuple[int, ...], ...]] = {}
    for colour, faces in value.items():
        if (
            isinstance(faces, list | tuple)
            and faces
            and all(isinstance(f, list | tuple) for f in faces)
        ):
            sets = faces
        elif isinstance(faces, list | tuple):
            sets = [faces]
        else:
            raise PnpError(f"'{name}.{colour}' must be a list of six numbers")
        if len(sets) > 64:
            raise PnpError(f"'{name}.{colour}' gives {len(sets)} dice: at most 64")
        for fs in sets:
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in fs):
                got = shown(list(fs))
                raise PnpError(f"'{name}.{colour}' must hold whole numbers, got {got}")
        out[str(colour)] = tuple(tuple(fs) for fs in sets)
    return out


@dataclass(frozen=True)
class ExplodingDiceParams(CardGroup, TinGroup, DiceGroup):
    """What a designer may change. `faces` maps a colour to one face list for all its dice,
    or to one face list per die; colours not named keep standard 1-6 dice. The cards are
    mint-tin cards: 84 x 54 mm with 8 mm corners clear the 91.5 x 56.9 r14 tin by 0.92 mm,
    more than a hand cut strays; 85 x 55 mm cleared it by 0.25 mm. `tin_depth` and
    `stock_thickness` say how many layers of dice fit under the cards (`tin.py`)."""

    card_width: float = param(84.0, lo=20, hi=200, help="mm")
    card_height: float = param(54.0, lo=20, hi=200, help="mm")
    card_radius: float = param(8.0, lo=0, hi=50, help="mm")
    tin_depth: float = param(21.3, lo=5, hi=200, help="inner depth of the base, mm")
    stock_thickness: float = param(0.3, lo=0.1, hi=3, help="card stock, mm (tin stack)")
    die_size: float = param(
        10.0, lo=MIN_DIE, hi=40, help="10, 12 or 16 mm; 5 mm is the smallest die to hold"
    )
    n: int = param(4, lo=2, hi=16, step=2, help="grid size, even")
    clearance: float = param(3.0, lo=0, hi=20, help="mm between neighbouring dice")
    colours: tuple[str, ...] = param(COLOURS, min_len=4, max_len=4, ink=True)
    dice_per_colour: int = param(4, lo=1, hi=64)
    faces: dict[str, tuple[tuple[int, ...], ...]] = param(factory=dict, parse=parse_faces)
    arrows: Literal["all", "pinwheel"] = param("all")
    stall: Literal["redraw", "skip"] = param("redraw")


@dataclass(frozen=True)
class Die:
    """One die of the kit: its colour and the faces printed on it."""

    colour: int  # index into colours
    faces: tuple[int, ...]


@dataclass(frozen=True)
class PlayModel:
    """Everything the rules engine needs, derived from the same params as the print."""

    n: int
    colours: tuple[str, ...]
    dice: tuple[Die, ...]
    entries: tuple[Entry, ...]
    zones: tuple[tuple[tuple[int, int], ...], ...]
    starts: tuple[tuple[int, int], ...]
    stall: str


def validate(p: ExplodingDiceParams) -> None:
    if p.die_size <= 0:
        raise PnpError(f"die size must be positive, got {p.die_size:g} mm")
    if p.die_size > 40:
        raise PnpError(f"die size {p.die_size:g} mm is too large: use 10, 12 or 16 mm")
    if p.clearance < 0:
        raise PnpError(f"clearance must not be negative, got {p.clearance:g} mm")
    if p.n < 2 or p.n % 2:
        raise PnpError(f"grid size n must be an even number of at least 2, got {p.n}")
    if len(p.colours) != 4:
        raise PnpError(
            f"Exploding Dice has four colour zones: give four colours, got {len(p.colours)}"
        )
    if len(set(p.colours)) != 4:
        raise PnpError("the four colours must be different")
    if p.dice_per_colour < 1:
        raise PnpError(f"dice per colour must be at least 1, got {p.dice_per_colour}")
    if p.arrows not in ("all", "pinwheel"):
        raise PnpError(f"unknown arrows '{p.arrows}': choose all or pinwheel")
    if p.stall not in ("redraw", "skip"):
        raise PnpError(f"unknown stall rule '{p.stall}': choose redraw or skip")
    for colour, sets in p.faces.items():
        if colour not in p.colours:
            raise PnpError(f"faces given for unknown colour '{colour}'")
        if len(sets) not in (1, p.dice_per_colour):
            raise PnpError(
                f"faces for {colour}: give one face list or {p.dice_per_colour}, got {len(sets)}"
            )
        for fs in sets:
            if len(fs) != 6 or not all(isinstance(v, int) and 1 <= v <= 6 for v in fs):
                got = shown(list(fs))
                raise PnpError(
                    f"faces for {colour}: each die needs six values from 1 to 6, got {got}"
                )
        if 1 not in sets[0]:
            raise PnpError(
                f"the first {colour} die cannot show 1, so it cannot take its "
                "start point: give it a face 1"
            )


def dice(p: ExplodingDiceParams) -> tuple[Die, ...]:
    """All dice, colour by colour; die 0 of each colour is the start die."""
    out = []
    for ci, colour in enumerate(p.colours):
        sets = p.faces.get(colour, (STANDARD_FACES,))
        for k in range(p.dice_per_colour):
            out.append(Die(ci, tuple(sets[k if len(sets) > 1 else 0])))
    return tuple(out)


def play_model(p: ExplodingDiceParams) -> PlayModel:
    validate(p)
    return PlayModel(
        n=p.n,
        colours=p.colours,
        dice=dice(p),
        entries=entries(p.n, p.arrows),  # type: ignore[arg-type]
        zones=zone_cells(p.n),
        starts=start_points(p.n),
        stall=p.stall,
    )
