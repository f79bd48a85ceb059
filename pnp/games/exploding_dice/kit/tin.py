"""What the mint tin holds: the cards' corner room and how many dice fit, worked out once.

The check reports it and the cover and the first rule card print it, so the kit never
promises what the check found does not fit. Geometry is exact (a rounded rectangle's
signed distance), because the margins are fractions of a millimetre: 85 x 55 mm cards cut
with 8 mm corners clear the 91.5 x 56.9 mm r14 tin by only 0.25 mm.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from pnp.draw.cards import tin_fit_radius
from pnp.draw.scene import Component
from pnp.draw.text import count_of
from pnp.games.exploding_dice.params import ExplodingDiceParams

CUT_TOLERANCE = 0.5
"""mm: how far a hand cut may stray from the crop marks; less spare than this is a warning."""

NOT_IN_TIN = ("board", "card-back", "tin-label")  # folded, a back, on the lid


def inner_distance(x: float, y: float, width: float, height: float, radius: float) -> float:
    """How far the point (x, y) lies inside a centred rounded rectangle (negative: outside)."""
    qx = abs(x) - width / 2 + radius
    qy = abs(y) - height / 2 + radius
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return radius - outside - min(max(qx, qy), 0.0)


def card_spare(p: ExplodingDiceParams, width: float, height: float, radius: float) -> float:
    """The least gap (mm) between a centred rounded card and the tin's wall, the better of
    its two turns; negative when it sticks out. The card is its corner circles' hull, so
    the nearest point to the wall is on one of them."""

    def spare(w: float, h: float) -> float:
        cx, cy = max(w / 2 - radius, 0.0), max(h / 2 - radius, 0.0)
        return inner_distance(cx, cy, p.tin_width, p.tin_height, p.tin_radius) - radius

    return max(spare(width, height), spare(height, width))


def cut_radius(p: ExplodingDiceParams) -> float | None:
    """The corner radius the cards are cut to: `card_radius`, raised in half millimetres
    until the card fits the tin; None if no radius does."""
    return tin_fit_radius(
        p.card_width, p.card_height, p.card_radius, p.tin_width, p.tin_height, p.tin_radius
    )


def dice_per_layer(p: ExplodingDiceParams) -> int:
    """Dice standing side by side on the tin's floor, in a centred grid (the layout a maker
    lines them up in; a die is a square, its rounded edges ignored)."""
    d = p.die_size
    best = 0
    for cols in range(1, int(p.tin_width // d) + 1):
        for rows in range(1, int(p.tin_height // d) + 1):
            x0, y0 = -cols * d / 2, -rows * d / 2
            n = 0
            for i in range(cols):
                for j in range(rows):
                    corners = [(x0 + (i + a) * d, y0 + (j + b) * d) for a in (0, 1) for b in (0, 1)]
                    n += all(
                        inner_distance(x, y, p.tin_width, p.tin_height, p.tin_radius) >= -1e-9
                        for x, y in corners
                    )
            best = max(best, n)
    return best


@dataclass(frozen=True)
class TinFit:
    """The tin's verdict on the kit as built."""

    radius: float | None  # the cards' cut corner radius; None: no radius fits
    spare: float  # mm between those cards and the tin's wall (negative: they stick out)
    square_spare: float  # the same for square-cut corners
    sheets: int  # card-stock layers in the tin: cards, score track and sheet, board panels
    stack: float  # their height, mm
    per_layer: int  # dice side by side on the floor
    layers: int  # layers of dice the depth left over allows
    dice: int  # dice in the kit

    @property
    def dice_in_tin(self) -> int:
        return min(self.dice, self.per_layer * self.layers)

    @property
    def holds_all(self) -> bool:
        return self.radius is not None and self.spare >= 0 and self.dice_in_tin == self.dice


def tin_fit(p: ExplodingDiceParams, components: Sequence[Component]) -> TinFit:
    """Measure the built kit against the tin (`components` as the kit holds them)."""
    radius = cut_radius(p)
    r = p.card_radius if radius is None else radius
    sheets = sum(
        c.copies for c in components if c.imposition == "card" and c.name not in NOT_IN_TIN
    )
    plan = next((c.meta.get("fold") for c in components if c.name == "board"), None)
    if plan is not None:
        sheets += plan.cols * plan.rows  # type: ignore[attr-defined]
    stack = sheets * p.stock_thickness
    room = p.tin_depth - stack
    return TinFit(
        radius=radius,
        spare=card_spare(p, p.card_width, p.card_height, r),
        square_spare=card_spare(p, p.card_width, p.card_height, 0.0),
        sheets=sheets,
        stack=stack,
        per_layer=dice_per_layer(p),
        layers=max(int(room // p.die_size), 0) if room > 0 else 0,
        dice=len(p.colours) * p.dice_per_colour,
    )


def must_round(fit: TinFit) -> bool:
    """Square-cut cards would stick out of the tin, rounded ones fit."""
    return fit.radius is not None and fit.square_spare < 0 <= fit.spare


def cover_line(p: ExplodingDiceParams, fit: TinFit) -> str:
    """The cover's promise about the tin, from the same measurement the check reports."""
    tin = f"A mint tin of about {p.tin_width:g} x {p.tin_height:g} mm inside, "
    tin += f"{p.tin_depth:g} mm deep, with " + (
        f"corners of {p.tin_radius:g} mm radius" if p.tin_radius > 0 else "square corners"
    )
    if fit.holds_all:
        return f"{tin}, holds it all: the {fit.dice} dice, the folded board and the cards."
    if fit.radius is None or fit.spare < 0:
        return f"{tin}: the cards do not fit it at this size (see pnp check)."
    rest = fit.dice - fit.dice_in_tin
    return (
        f"{tin}, holds the folded board, the cards and only {fit.dice_in_tin} of the "
        f"{fit.dice} dice of {p.die_size:g} mm ({count_of(fit.per_layer, 'die', 'dice')} a "
        f"layer, room for {count_of(fit.layers, 'layer', 'layers')}): keep the "
        f"{'other die' if rest == 1 else f'other {rest} dice'} in a bag."
    )


def corner_line(fit: TinFit) -> str:
    """What the maker must do to the card corners and why; empty when square corners fit."""
    if not must_round(fit):
        return ""
    return (
        f"A corner-rounder of {fit.radius:g} mm, or scissors along the printed corner guides: "
        f"the cards fit the tin only with round corners ({fit.spare:.1f} mm to spare); cut "
        "square, they stick out of its round corners."
    )
