"""Keeping score: a reusable 0-50 track card, its markers, and a pen-and-paper score sheet."""

from __future__ import annotations

from shapely.geometry import LineString, box

from geometry.score_track import TrackCell, serpentine
from pnp.contract.palette import ink
from pnp.draw.cards import CardFormat, add_cut, card_base
from pnp.draw.kit import PrintParams
from pnp.draw.scene import CUT_STYLE, Component, Shape, Style, Text, circle, symbol_shape
from pnp.games.exploding_dice.kit.cards import corner_guides
from pnp.games.exploding_dice.kit.tin import cut_radius
from pnp.games.exploding_dice.params import ExplodingDiceParams

CREAM = "#FBF8F1"
INK = "#2B2B2B"
GOLD = "#E69F00"
TRACK_CELL = 7.0


def tin_radius(p: ExplodingDiceParams) -> float:
    """The score cards go in the tin too: the rule cards' corner radius."""
    r = cut_radius(p)
    return p.card_radius if r is None else r


def score_track(p: ExplodingDiceParams, printing: PrintParams) -> Component:
    """Cells 0-49 snake down in rows of ten; 50, the goal, closes the last row.

    Markers stack in a cell when colours tie, so one track serves all four colours.
    """
    c = card_base(
        "score-track", "Score track 0-50", CardFormat.of(p, printing), CREAM, tin_radius(p)
    )
    w, h = c.width, c.height
    per_row = 10
    cols = per_row + 1
    cell = min(TRACK_CELL, (w - 8) / cols)
    x0 = (w - cols * cell) / 2
    top = h - 11.0
    c.add(Text(w / 2, h - 7.0, "SCORE TRACK", size=9, bold=True, anchor="middle", fill=INK))
    cells = serpentine(0, 49, per_row, cell, x0, top)
    last = cells[-1]
    cells.append(TrackCell(50, last.x + cell, last.y, cell))
    for tc in cells:
        _track_cell(c, tc)
    c.add(
        Text(
            w / 2,
            3.2,
            "Move a colour's marker each time it scores: 50 ends the game.",
            size=5.2,
            anchor="middle",
            fill=INK,
        )
    )
    add_cut(c)
    corner_guides(c)
    return c


def _track_cell(c: Component, tc: TrackCell) -> None:
    s = tc.size
    fill = "#FFFFFF" if tc.value % 5 else "#EFE8D6"
    if tc.value == 50:
        fill = GOLD
    c.add(
        Shape(
            box(tc.x - s / 2, tc.y - s / 2, tc.x + s / 2, tc.y + s / 2),
            style=Style(fill=fill, stroke="#8A8478", stroke_width=0.2),
        )
    )
    size = 6.0 if tc.value != 50 else 6.5
    c.add(
        Text(
            tc.x,
            tc.y - size * 0.35 * 25.4 / 72,
            str(tc.value),
            size=size,
            bold=tc.value % 5 == 0,
            anchor="middle",
            fill=INK,
        )
    )


def score_markers(p: ExplodingDiceParams, printing: PrintParams) -> Component:
    """One disc per colour for the track, plus one spare each; they stack on a shared cell."""
    d = TRACK_CELL - 1.0
    gap = 2.5
    per_colour = 2
    w = len(p.colours) * per_colour * (d + gap) - gap
    c = Component("score-markers", "Score markers", w, d, imposition="cutout")
    for i, colour in enumerate(p.colours):
        k = ink(colour)
        for j in range(per_colour):
            x = (i * per_colour + j) * (d + gap) + d / 2
            c.add(circle(x, d / 2, d / 2, style=Style(fill=k.hex, stroke=None)))
            c.add(
                symbol_shape(k.symbol, x, d / 2, d * 0.5, style=Style(fill=k.text_on, stroke=None))
            )
            c.add(circle(x, d / 2, d / 2, layer="cut", style=CUT_STYLE))
    return c


def score_sheet(p: ExplodingDiceParams, printing: PrintParams) -> Component:
    """A pen-and-paper alternative to the track: running totals per colour."""
    c = card_base("score-sheet", "Score sheet", CardFormat.of(p, printing), CREAM, tin_radius(p))
    w, h = c.width, c.height
    margin = 4.0
    c.add(Text(w / 2, h - 7.0, "SCORE SHEET", size=9, bold=True, anchor="middle", fill=INK))
    head_y = h - 10.0
    col_w = (w - 2 * margin) / len(p.colours)
    rows = 7
    row_h = (head_y - 6.0 - margin) / rows
    for i, colour in enumerate(p.colours):
        k = ink(colour)
        x = margin + i * col_w
        c.add(Shape(box(x, head_y - 6.0, x + col_w, head_y), style=Style(fill=k.hex, stroke=None)))
        c.add(
            symbol_shape(
                k.symbol,
                x + 3.5,
                head_y - 3.0,
                3.2,
                style=Style(fill=k.text_on, stroke=None),
            )
        )
        c.add(
            Text(
                x + col_w / 2 + 2.0,
                head_y - 4.1,
                colour.capitalize(),
                size=6.5,
                bold=True,
                anchor="middle",
                fill=k.text_on,
            )
        )
    bottom = head_y - 6.0 - rows * row_h
    for r in range(rows + 1):
        y = bottom + r * row_h
        c.add(
            Shape(
                LineString([(margin, y), (w - margin, y)]),
                style=Style(stroke="#8A8478", stroke_width=0.2),
            )
        )
    for i in range(len(p.colours) + 1):
        x = margin + i * col_w
        c.add(
            Shape(
                LineString([(x, bottom), (x, head_y)]),
                style=Style(stroke="#8A8478", stroke_width=0.2),
            )
        )
    add_cut(c)
    corner_guides(c)
    return c
