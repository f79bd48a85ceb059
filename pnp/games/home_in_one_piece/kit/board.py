"""The Home in One Piece board: a row of start circles along the players' edge, the home
zone along the far edge, and open table between them.

Everything is drawn at real size from the dough's physics (`params.circles`, `params.home`),
so the board is far larger than a sheet: the layout tiles it, or prints it reduced when
`board_scale` asks. The circles and the home zone are kept in `meta` as the very shapes
that print, so the checks measure the printed board, not a second calculation.
"""

from __future__ import annotations

from shapely.geometry import box

from geometry.shapes import rounded_rect_curve
from pnp.contract.palette import ink
from pnp.draw.kit import PrintParams
from pnp.draw.scene import CUT_STYLE, PT_PER_MM, Component, Shape, Style, Text, circle, symbol_shape
from pnp.draw.text import string_width
from pnp.games.home_in_one_piece.params import (
    HomeInOnePieceParams,
    blob_grams,
    board_size,
    circles,
    dough_to_use,
    home,
    start_blob_radius,
    validate,
)

TABLE = "#F6F1E7"  # warm off-white: dough of any colour shows on it
HOME_FILL = "#DCEBDD"  # a soft green field, calm under the dough
HOME_EDGE = "#4E7A57"
HOME_WORD = "#B9D3BD"  # the big "home" sits in the field without shouting over the dough
FAINT = "#8A8275"  # the title and the seating note: present, never in the way
RING_WIDTH = 0.7  # faint enough to sit under the dough, clear enough to set up by
CAP_HEIGHT = 0.73  # Vera's capital height as a share of the font size
HOME_WORD_SHARE = 0.5  # the word's capitals fill half the zone's depth at most
BOARD_RADIUS = 3.0
NOTE_PT = 11.0  # notes on the board, as printed
TITLE = "Home in One Piece"


def board(p: HomeInOnePieceParams, printing: PrintParams) -> Component:
    """The whole board at real size, with bleed; start circles alternate the two colours,
    seat 0 (the first colour) on the even circles, counted from the left."""
    p = validate(p)
    width, height = board_size(p)
    b = printing.bleed
    c = Component("board", "Board", width, height, imposition="board", bleed=b)
    c.add(Shape(box(-b, -b, width + b, height + b), "art", Style(fill=TABLE, stroke=None)))
    zone = _home(c, p)
    rings = _start_circles(c, p)
    _table_text(c, p)
    c.set_outline(rounded_rect_curve(0, 0, width, height, BOARD_RADIUS))
    c.add(c.outline_ring("cut", CUT_STYLE))
    c.meta.update(
        kind="board",
        true_size=(width, height),
        start_circles=tuple(rings),
        seats=tuple(i % 2 for i in range(len(rings))),
        home=zone,
        blob_radius=start_blob_radius(p),
    )
    return c


def _home(c: Component, p: HomeInOnePieceParams) -> Shape:
    """The home zone with 'home' written large across it; returns the zone's shape."""
    zone = home(p)
    shape = Shape(zone, "art", Style(fill=HOME_FILL, stroke=HOME_EDGE, stroke_width=1.2))
    c.add(shape)
    x0, y0, x1, y1 = zone.bounds
    depth, span = y1 - y0, x1 - x0
    size = HOME_WORD_SHARE * depth * PT_PER_MM / CAP_HEIGHT
    size = min(size, 0.6 * span / max(string_width("home", 1.0, bold=True), 1e-9))
    cap = CAP_HEIGHT * size / PT_PER_MM
    c.add(Text((x0 + x1) / 2, (y0 + y1) / 2 - cap / 2, "home", size, True, "middle", HOME_WORD))
    note = "all your dough, one piece, wholly inside this line"
    size = _note_size(c, p, note)
    base = y0 + 2.0 + 0.3 * size / PT_PER_MM  # the descenders clear the zone line
    c.add(Text((x0 + x1) / 2, base, note, size, False, "middle", HOME_EDGE))
    return shape


def _start_circles(c: Component, p: HomeInOnePieceParams) -> list[Shape]:
    """One ring per start blob, in its player's colour, with that colour's symbol above it
    and a dashed ring showing how big each blob is."""
    row = circles(p)
    blob = start_blob_radius(p)
    rings = []
    for i, (x, y) in enumerate(row.centres()):
        k = ink(p.dough_colours[i % 2])
        ring = circle(
            x,
            y,
            row.circle_radius,
            style=Style(fill=k.light, stroke=k.hex, stroke_width=RING_WIDTH),
        )
        c.add(ring)
        c.add(circle(x, y, blob, style=Style(stroke=k.hex, stroke_width=0.3, dash=(1.5, 1.5))))
        mark = _mark_size(row.circle_radius)
        top = row.top + mark / 2 + 2.0
        c.add(symbol_shape(k.symbol, x, top, mark, "art", Style(fill=k.hex, stroke=None)))
        rings.append(ring)
    return rings


def _table_text(c: Component, p: HomeInOnePieceParams) -> None:
    """The title in the open middle, where to sit just above the circles and, on a reduced
    print, how much dough that board takes. Notes grow as the print shrinks, so they
    print at `NOTE_PT` whatever the scale."""
    row = circles(p)
    y_top = home(p).bounds[1]
    mid_x = c.width / 2
    title_size = min(40.0, 0.5 * c.width / string_width(TITLE, 1.0, bold=True))
    title_y = (row.top + y_top) / 2
    c.add(Text(mid_x, title_y, TITLE, title_size, True, "middle", FAINT))
    first, second = p.dough_colours
    seat = (
        f"Both players sit along this edge. {first.capitalize()} starts in the circles ringed "
        f"{first}, {second} in the circles ringed {second}."
    )
    size = _note_size(c, p, seat)
    y_seat = row.top + _mark_size(row.circle_radius) + 4.0 + size / PT_PER_MM
    c.add(Text(mid_x, y_seat, seat, size, False, "middle", FAINT))
    s = p.board_scale
    if s < 1:
        note = (
            f"Printed at 1:{1 / s:.3g}: use about {dough_to_use(p):g} g of dough per player, "
            f"{blob_grams(p):g} g a blob."
        )
        size = _note_size(c, p, note)
        c.add(Text(mid_x, title_y - 2.5 * size / PT_PER_MM, note, size, True, "middle", FAINT))


def _note_size(c: Component, p: HomeInOnePieceParams, text: str) -> float:
    """`NOTE_PT` as printed at the board's scale, if the line still fits the board."""
    return min(NOTE_PT / p.board_scale, 0.9 * c.width / string_width(text, 1.0))


def _mark_size(circle_radius: float) -> float:
    return min(6.0, 0.3 * circle_radius)
