"""The Grid: the Exploding Dice board, drawn from geometry.intersections."""

from __future__ import annotations

from dataclasses import replace

from shapely.geometry import LineString
from shapely.geometry.base import BaseGeometry

from geometry.folding import container, fold_plan
from geometry.intersections import (
    GridLayout,
    entries,
    entry_anchor,
    grid_layout,
    grid_lines,
    start_points,
    zone_rect,
)
from geometry.shapes import (
    arrow,
    centred_rounded_rect,
    centred_rounded_rect_curve,
    rounded_rect,
    rounded_rect_curve,
)
from pnp.contract.palette import ink
from pnp.draw.kit import PrintParams
from pnp.draw.scene import (
    CUT_STYLE,
    SCORE_STYLE,
    Component,
    Shape,
    Style,
    Text,
    circle,
    curved,
    halo_under,
    symbol_shape,
)
from pnp.games.exploding_dice.params import ExplodingDiceParams

PAPER_TONE = "#FBF8F1"
BAND_TONE = "#E9E4D8"
LINE = "#3A3A3A"
BOARD_RADIUS = 3.0


def layout(p: ExplodingDiceParams) -> GridLayout:
    return grid_layout(p.n, p.die_size, p.clearance)


def board(p: ExplodingDiceParams, printing: PrintParams) -> Component:
    """The square board: zones, grid lines, start marks, push arrows, fold lines."""
    g = layout(p)
    s, b = g.size, printing.bleed
    # A mint-tin board always fits one sheet, so it is imposed like a card (bleed, crop
    # marks) and shares its sheet with the score cards; `board` imposition is for tiling.
    c = Component("board", "The Grid (board)", s, s, imposition="card", bleed=b)
    c.add(
        Shape(
            rounded_rect(-b, -b, s + 2 * b, s + 2 * b, 0), style=Style(fill=BAND_TONE, stroke=None)
        )
    )
    for z, colour in enumerate(p.colours):
        c.add(Shape(zone_rect(g, z), style=Style(fill=ink(colour).light, stroke=None)))
    _zone_dividers(c, g)
    for line in grid_lines(g):
        c.add(Shape(line, style=Style(stroke=LINE, stroke_width=0.35)))
    for r in range(g.n):
        for col in range(g.n):
            x, y = g.point(r, col)
            c.add(
                curved(
                    centred_rounded_rect_curve(x, y, g.die, g.die, g.die * 0.15),
                    style=Style(stroke="#9A9488", stroke_width=0.2),
                )
            )
            c.add(circle(x, y, 0.7, style=Style(fill=LINE, stroke=None)))
    for z, (r, col) in enumerate(start_points(g.n)):
        _start_mark(c, g, p.colours[z], *g.point(r, col))
    for z, colour in enumerate(p.colours):
        _corner_symbol(c, g, z, colour)
    keep_clear: list[tuple[str, BaseGeometry]] = [
        ("die point", centred_rounded_rect(*g.point(r, col), g.die, g.die, 0.0))
        for r in range(g.n)
        for col in range(g.n)
    ]
    for e in entries(g.n, p.arrows):  # type: ignore[arg-type]
        x, y, angle = entry_anchor(g, e)
        head = arrow(x, y, g.arrow_band * 0.72, min(g.die * 0.55, g.arrow_band * 0.6), angle)
        c.add(Shape(head, style=Style(fill=LINE, stroke=None)))
        keep_clear.append(("arrow", head))
    c.set_outline(rounded_rect_curve(0, 0, s, s, BOARD_RADIUS))
    c.add(c.outline_ring("cut", CUT_STYLE))
    # folds run down the gaps between the dice, never over a die or an arrow
    gaps = [g.origin + (k + 0.5) * g.pitch for k in range(g.n - 1)]
    tin = container(p.tin_width, p.tin_height, p.tin_radius)
    plan = fold_plan(s, s, tin, allowed_x=gaps, allowed_y=gaps)
    c.meta["fold_clear"] = keep_clear
    if plan is not None:
        c.fold_lines = plan.lines
        for a, b2 in plan.lines:
            # a fold runs down a gap between the dice, across the grid lines: a halo all
            # along it keeps it in sight over the lines it crosses and the zone tints
            fold = Shape(LineString([a, b2]), layer="score", style=SCORE_STYLE)
            c.add(replace(halo_under(fold), layer="art"), fold)
    c.meta.update(pitch=g.pitch, die=g.die, n=g.n, arrows=p.arrows, fold=plan)
    return c


def _zone_dividers(c: Component, g: GridLayout) -> None:
    mid = g.size / 2
    lo = g.origin - g.die / 2 - g.clearance / 2
    hi = g.origin + g.grid_span + g.die / 2 + g.clearance / 2
    style = Style(stroke="#FFFFFF", stroke_width=0.8)
    c.add(Shape(LineString([(mid, lo), (mid, hi)]), style=style))
    c.add(Shape(LineString([(lo, mid), (hi, mid)]), style=style))
    frame = rounded_rect_curve(lo, lo, hi - lo, hi - lo, 1.0)
    c.add(curved(frame, style=Style(stroke=LINE, stroke_width=0.5), kind="ring"))


def _start_mark(c: Component, g: GridLayout, colour: str, x: float, y: float) -> None:
    """The start point: a die-sized square in the zone colour showing the starting 1."""
    k = ink(colour)
    c.add(
        curved(
            centred_rounded_rect_curve(x, y, g.die, g.die, g.die * 0.15),
            style=Style(fill=k.hex, stroke=LINE, stroke_width=0.25),
        )
    )
    size_pt = g.die * 1.25
    c.add(
        Text(
            x,
            y - size_pt * 0.36 * 25.4 / 72,
            "1",
            size=size_pt,
            bold=True,
            anchor="middle",
            fill=k.text_on,
        )
    )


def _corner_symbol(c: Component, g: GridLayout, zone: int, colour: str) -> None:
    """The zone's symbol in the board corner nearest it, so zones read in greyscale."""
    half = g.arrow_band / 2 + (g.clearance / 2)
    xs = {0: half, 1: g.size - half, 2: g.size - half, 3: half}
    ys = {0: g.size - half, 1: g.size - half, 2: half, 3: half}
    k = ink(colour)
    c.add(
        symbol_shape(
            k.symbol,
            xs[zone],
            ys[zone],
            g.arrow_band * 0.7,
            style=Style(fill=k.hex, stroke=LINE, stroke_width=0.2),
        )
    )
