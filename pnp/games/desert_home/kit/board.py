"""The Desert Home board: refuges on the left, the empty path area, the camp on the right.

The path area is printed empty: its octagon slots show where path tiles go as they are
drawn during play. Everything is real size (tile_size), so the board is usually larger
than a sheet and the layout tiles it. Row 0 is the top row; column 0 holds the refuge
entry fields, columns 1..path_columns the path slots, the next column the camp entries.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shapely import affinity
from shapely.geometry import LineString, box

from geometry.octagons import OctagonGrid, gap_corners, gap_square
from geometry.shapes import arrow, rounded_rect_curve, symbol
from pnp.contract.palette import ink
from pnp.contract.params import PrintParams
from pnp.draw.scene import (
    CUT_STYLE,
    GUIDE_STYLE,
    Component,
    Shape,
    Style,
    Text,
    circle,
    curved,
    symbol_shape,
)
from pnp.games.desert_home.params import (
    COLOURS,
    DesertHomeParams,
    colours_in_play,
    fan,
    validate,
)

SAND = "#D9C194"  # the desert between the slots: darker than a tile face, so tiles stand out
SLOT_FILL = "#E9D9B6"
SLOT_LINE = "#8C6E3F"
GAP_FILL = "#C6A86F"
OASIS = "#DCE8D6"  # the refuges' ground
CAMP = "#D5DAE0"  # the iron-painted camp
CAMP_FIELD = "#AEB8C4"  # steel: white and black figures both show on it
INK = "#2B2B2B"
TRIM_LINE = 0.3  # mm: the printed edge to cut the board along
PLACE_LINE = "#8A8A8A"  # a piece's place in a camp lane: a faint ring
BORDER = 6.0  # mm of board round everything
PAD = 4.0  # mm between a region's edge and what it holds
FAN_GAP = 6.0  # mm between the two refuges' footprints
LANE_GAP = 2.0  # mm between the camp's colour lanes
LANE_PLAY = 0.4  # mm of play round each piece's place in a lane
LANE_TITLE = 8.0  # mm above the lanes for the word CAMP
BOARD_RADIUS = 4.0
TRACK = 6.0  # mm: width of the track from a refuge entry field to its refuge
TITLE = "DESERT HOME – IMMIGRATION"
PT = 72 / 25.4  # points per mm


@dataclass(frozen=True)
class BoardPlan:
    """Where everything stands, in board millimetres (y up, origin bottom-left)."""

    grid: OctagonGrid
    fans: tuple[tuple[float, float], ...]  # pivot of each refuge, in refuge_rows order
    fan_radius: float
    camp_x: float  # left edge of the camp region
    refuge_x: float  # right edge of the refuge region
    width: float
    height: float

    def slots(self, p: DesertHomeParams) -> list[tuple[int, int, str]]:
        """(row, column, kind) of every field: 'refuge-entry', 'path' or 'camp-entry'."""
        camp_col = p.path_columns + 1
        out = []
        for r in range(p.rows):
            if r in p.refuge_rows:
                out.append((r, 0, "refuge-entry"))
            out.extend((r, c, "path") for c in range(1, camp_col))
            out.append((r, camp_col, "camp-entry"))
        return out


def plan(p: DesertHomeParams) -> BoardPlan:
    """Lay the board out: the grid, the refuges beside their entry fields, the camp."""
    radius = fan(p).length + 2.0
    strip = 2 * (radius + PAD)
    probe = OctagonGrid(p.rows, p.path_columns + 2, p.tile_size, p.gap)
    pitch, half = probe.pitch, p.tile_size / 2
    ys = [probe.centre(r, 0)[1] for r in p.refuge_rows]
    lo_i, hi_i = (0, 1) if ys[0] <= ys[1] else (1, 0)
    need = 2 * radius + FAN_GAP - (ys[hi_i] - ys[lo_i])
    if need > 0:  # the refuges would touch: move them apart, each by half
        ys[lo_i] -= need / 2
        ys[hi_i] += need / 2
    grid_lo, grid_hi = -half, probe.centre(0, 0)[1] + half
    bottom = min(grid_lo - PAD, min(ys) - radius - PAD)
    top = max(grid_hi + PAD, max(ys) + radius + PAD)
    x_grid0 = BORDER + strip + PAD + half
    dy = BORDER - bottom
    grid = OctagonGrid(p.rows, p.path_columns + 2, p.tile_size, p.gap, x_grid0, dy)
    camp_x = grid.centre(0, p.path_columns + 1)[0] - pitch / 2
    height = top - bottom + 2 * BORDER
    lane_w, _ = camp_places(p, lane_height(height))
    width = camp_x + pitch + PAD / 2 + lane_w + PAD + BORDER
    fans = tuple((BORDER + strip / 2, y + dy) for y in ys)
    return BoardPlan(grid, fans, radius, camp_x, BORDER + strip, width, height)


def lane_height(height: float) -> float:
    """The height of each colour's lane in the camp of a board `height` mm high."""
    n = len(COLOURS)  # one lane per colour
    return (height - 2 * BORDER - 2 * PAD - LANE_TITLE - LANE_GAP * (n - 1)) / n


Place = tuple[str, float, float, float]  # kind, centre x, centre y, radius


def camp_places(p: DesertHomeParams, lane_h: float) -> tuple[float, list[Place]]:
    """A lane's width and where each of its pieces lies (from the lane's lower-left): the
    figures in offset rows, as round pieces settle, then the tents in a column. Sized for
    the whole supply of a colour, so everything in the camp has a place."""
    d, t = p.figure_size + LANE_PLAY, p.tent_size + LANE_PLAY
    room = lane_h - LANE_PLAY
    step = d * math.sqrt(3) / 2  # offset rows nest
    rows = max(1, 1 + int((room - d) // step)) if room >= d else 1
    n = p.figures_per_colour
    cols = max(1, math.ceil(n / rows))
    out: list[Place] = []
    for i in range(n):
        r, c = divmod(i, cols)
        x = d / 2 + c * d + (d / 2 if r % 2 else 0.0)
        out.append(("figure", x, lane_h - LANE_PLAY / 2 - d / 2 - r * step, p.figure_size / 2))
    fig_w = cols * d + (d / 2 if n > cols else 0.0) if n else 0.0
    tent_rows = max(1, int(room // t))
    for i in range(p.tents_per_colour):
        c, r = divmod(i, tent_rows)
        x = fig_w + t / 2 + c * t
        out.append(("tent", x, lane_h - LANE_PLAY / 2 - t / 2 - r * t, p.tent_size / 2))
    tent_w = math.ceil(p.tents_per_colour / tent_rows) * t
    return fig_w + tent_w + LANE_PLAY, out


def lane_mark(p: DesertHomeParams, lane_h: float) -> tuple[float, float, float]:
    """Where a lane's colour symbol goes (x, y from its lower-left, size): in the notch the
    offset second row of figures leaves at the lane's left end, else at its top left."""
    d = p.figure_size + LANE_PLAY
    size = min(0.4 * d, 6.0)
    if p.figures_per_colour > 1 and lane_h - LANE_PLAY >= d * (1 + math.sqrt(3) / 2):
        return d / 4 + LANE_PLAY / 2, lane_h - LANE_PLAY / 2 - d / 2 - d * math.sqrt(3) / 2, size
    return size / 2 + 1.0, lane_h - size / 2 - 1.0, size


def board(p: DesertHomeParams, printing: PrintParams) -> Component:
    """The whole board at real size with bleed, imposed as a `board` (tiled over sheets)."""
    validate(p)
    bp = plan(p)
    w, h = bp.width, bp.height
    b = printing.bleed
    c = Component("board", "Board: refuges, path area and camp", w, h, imposition="board", bleed=b)
    c.set_outline(rounded_rect_curve(0, 0, w, h, BOARD_RADIUS))
    # the sand runs into the bleed, so a trim a little outside the line shows no paper
    c.add(Shape(box(-b, -b, w + b, h + b), style=Style(fill=SAND, stroke=None)))
    _refuge_region(c, bp, p)
    _camp_region(c, bp, p)
    _fields(c, bp, p)
    _titles(c, bp, p)
    # the sand runs on past the trim, so the trim is printed: a dark line to cut along
    c.add(c.outline_ring("art", Style(stroke=INK, stroke_width=TRIM_LINE)))
    c.add(c.outline_ring("cut", CUT_STYLE))
    g = bp.grid
    c.meta.update(
        game="desert-home",
        pitch=g.pitch,
        across_flats=g.across_flats,
        gap=g.gap,
        play=g.play,
        slots=[
            {
                "row": r,
                "col": col,
                "kind": kind,
                "centre": g.centre(r, col),
                "outline": g.cell(r, col),
            }
            for r, col, kind in bp.slots(p)
        ],
        refuges=[
            {"row": row, "pivot": pivot, "radius": bp.fan_radius}
            for row, pivot in zip(p.refuge_rows, bp.fans, strict=True)
        ],
    )
    return c


def _fields(c: Component, bp: BoardPlan, p: DesertHomeParams) -> None:
    g = bp.grid
    cells = [(r, col) for r, col, _ in bp.slots(p)]
    gaps = [
        Shape(gap_square(*g.corner(r, col), g.gap), style=Style(fill=GAP_FILL, stroke=None))
        for r, col in gap_corners(cells)
        if bp.refuge_x < g.corner(r, col)[0] < bp.camp_x
    ]
    c.add(*gaps)
    grey = ink("grey")
    for r, col, kind in bp.slots(p):
        x, y = g.centre(r, col)
        cell = g.cell(r, col)
        if kind == "path":
            c.add(
                Shape(
                    cell,
                    style=Style(
                        fill=SLOT_FILL, stroke=SLOT_LINE, stroke_width=0.4, dash=(2.0, 1.2)
                    ),
                )
            )
        elif kind == "camp-entry":
            c.add(Shape(cell, style=Style(fill=CAMP_FIELD, stroke=INK, stroke_width=0.5)))
            size = g.across_flats * 0.55 * PT
            c.add(Text(x, y - size * 0.36 / PT, "1", size, True, "middle", INK))
        else:
            c.add(Shape(cell, style=Style(fill=grey.hex, stroke=INK, stroke_width=0.5)))
            mark = arrow(x, y, g.across_flats * 0.55, g.across_flats * 0.4, 180)
            c.add(Shape(mark, style=Style(fill="#FFFFFF", stroke=None)))


def _titles(c: Component, bp: BoardPlan, p: DesertHomeParams) -> None:
    """The title above the path area and a reminder of the moves below it, where room."""
    g = bp.grid
    mid = (bp.refuge_x + bp.camp_x) / 2
    reach = g.gap / math.sqrt(2) - g.play / 2  # boundary gap squares stick out this far
    above = bp.height - BORDER - (g.centre(0, 0)[1] + g.across_flats / 2 + reach)
    below = g.centre(p.rows - 1, 0)[1] - g.across_flats / 2 - reach - BORDER
    if above >= 8:
        c.add(Text(mid, bp.height - BORDER - above / 2 - 2.0, TITLE, 14, True, "middle", INK))
    if below >= 6:
        hint = (
            "Lay path tiles in the dashed octagons · move up, down, left or right, never diagonally"
        )
        c.add(Text(mid, BORDER + below / 2 - 1.0, hint, 7.5, False, "middle", INK))


def _refuge_region(c: Component, bp: BoardPlan, p: DesertHomeParams) -> None:
    """The refuges' ground, each refuge's footprint with its blades, and a track from its
    entry field."""
    h = bp.height
    region = rounded_rect_curve(BORDER, BORDER, bp.refuge_x - BORDER, h - 2 * BORDER, 3.0)
    c.add(curved(region, style=Style(fill=OASIS, stroke=None)))
    f = fan(p)
    colours = colours_in_play(p)
    for k, ((fx, fy), row) in enumerate(zip(bp.fans, p.refuge_rows, strict=True)):
        ex, ey = bp.grid.centre(row, 0)
        track = LineString([(ex, ey), (bp.refuge_x - PAD / 2, ey), (fx, fy)])
        c.add(Shape(track.buffer(TRACK / 2), style=Style(fill=ink("grey").light, stroke=None)))
        c.add(circle(fx, fy, bp.fan_radius, style=Style(fill="#FFFFFF", stroke=None)))
        for blade, colour, angle in zip(range(f.blades), colours, f.angles(), strict=True):
            k_ink = ink(colour)
            shape = affinity.translate(f.placed(blade, angle + 90), fx, fy)
            curve = f.blade_curve().rotated(angle + 90, (0.0, 0.0)).translated(fx, fy)
            style = Style(fill=k_ink.light, stroke="#7A7A7A", stroke_width=0.2)
            c.add(Shape(shape, style=style, curve=curve))
            a = math.radians(angle + 90)
            sx, sy = fx + 0.55 * f.length * math.cos(a), fy + 0.55 * f.length * math.sin(a)
            c.add(
                symbol_shape(
                    k_ink.symbol,
                    sx,
                    sy,
                    6.0,
                    style=Style(fill=k_ink.hex, stroke="#555555", stroke_width=0.15),
                )
            )
        c.add(circle(fx, fy, bp.fan_radius, style=GUIDE_STYLE))
        c.add(circle(fx, fy, p.pivot_hole / 2, style=Style(fill=INK, stroke=None)))
        label_y = ey + bp.grid.across_flats / 2 + 2.5
        c.add(Text(ex, label_y, f"REFUGE {k + 1}", 8, True, "middle", INK))


def _camp_region(c: Component, bp: BoardPlan, p: DesertHomeParams) -> None:
    """The camp: the entry column and the supply, one lane per colour with its symbol and
    a ring for every figure and tent of that colour, so the whole supply has its place."""
    h = bp.height
    x0 = bp.camp_x
    region = rounded_rect_curve(x0, BORDER, bp.width - BORDER - x0, h - 2 * BORDER, 3.0)
    c.add(curved(region, style=Style(fill=CAMP, stroke=None)))
    lx0 = x0 + bp.grid.pitch + PAD / 2
    lx1 = bp.width - BORDER - PAD
    top = h - BORDER - PAD - LANE_TITLE
    c.add(Text((lx0 + lx1) / 2, top + 2.5, "CAMP", 11, True, "middle", INK))
    lane_h = lane_height(h)
    _, places = camp_places(p, lane_h)
    lanes = []
    for i, colour in enumerate(colours_in_play(p)):
        k = ink(colour)
        y0 = top - i * (lane_h + LANE_GAP) - lane_h
        lane_shape = curved(
            rounded_rect_curve(lx0, y0, lx1 - lx0, lane_h, 2.5),
            style=Style(fill=k.light, stroke="#7A7A7A", stroke_width=0.25),
        )
        lane = lane_shape.geom
        c.add(lane_shape)
        mx, my, size = lane_mark(p, lane_h)
        mark = symbol(k.symbol, lx0 + mx, y0 + my, size)
        c.add(Shape(mark, style=Style(fill=k.hex, stroke=INK, stroke_width=0.2)))
        spots = []
        for kind, px, py, r in places:
            c.add(circle(lx0 + px, y0 + py, r, style=Style(stroke=PLACE_LINE, stroke_width=0.3)))
            spots.append((kind, (lx0 + px, y0 + py), r))
        lanes.append({"colour": colour, "lane": lane, "places": spots})
    c.meta["camp_lanes"] = lanes
