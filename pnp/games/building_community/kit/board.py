"""The Building Community board: a hexagon of hexagonal spaces on a rectangular sheet.

Every space is outlined and tinted faintly with its start colour and symbol, so a player
can reset the board; the tiles hide the tint during play. The pawns' start spaces lie
under tiles too, so the start marks sit in the margin: beside each corner a plate of
numbered pawn discs says which pawn starts one space in from that corner, for each
player count (the spec's corner table). The margin's corners carry the title and the
colour key. Every space carries its name (`notation`: column letter, count from the
column's foot) small under its symbol, read with its tile lifted; each column's letter
is printed again under its foot, in the margin, so a name is found with the tiles on:
follow the letter up and count. Topology and positions come from `geometry.hexgrid`.
Spaces are flat-top, which makes the board taller than wide, like the page: a radius-3
board prints upright on one A4 or Letter sheet.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shapely import affinity
from shapely.geometry import Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from geometry import hexgrid
from geometry.shapes import centred_rounded_rect, rounded_rect_curve, symbol, union_of
from pnp.contract.palette import ink
from pnp.draw.kit import PrintParams
from pnp.draw.layout.page import item_bounds
from pnp.draw.scene import CUT_STYLE, Component, Item, Shape, Style, Text, circle, symbol_shape
from pnp.draw.text import ascent, string_width
from pnp.games.building_community.params import BuildingCommunityParams
from pnp.games.building_community.rules.notation import LETTERS, column, label

BOARD_TONE = "#F4EFE4"  # warm paper round the field
SPACE_LINE = "#55524C"
FIELD_EDGE = "#2B2A28"
INK_TEXT = "#2B2A28"
PLATE_LINE = "#8C877C"
HINT_SYMBOL = 0.3  # the tint's symbol, as a share of the space
HINT_OPACITY = 0.45  # faint: a reset guide, not a second set of tiles
CORNER_RADIUS = 3.0
PAD = 5.0  # margin between the board edge and anything on it, mm
GAP = 2.5  # air between the field and a start plate, mm
DISC = 6.0  # a pawn disc on a start plate, mm
ENTRY = 8.0  # one disc and its caption: width, mm
PLATE_PAD = 1.2
TAIL = 1.8  # the plate's pointer towards its corner space, mm
CAPTION = 5.5  # pt
NUMBER = 8.0  # pt
TITLE = 12.0  # pt
KEY = 7.5  # pt
KEY_SYMBOL = 4.0  # mm
KEY_ROW = 5.5  # mm
NAME = 6.0  # pt: a space's name, under its symbol
NAME_DROP = 0.32  # the name's centre below the space's centre, in pitches
NAME_INK = "#6E6A62"  # quieter than the outlines: a reference, not part of the art
FOOT = 8.0  # pt: a column's letter under its foot
FOOT_GAP = 1.2  # mm between the field and a column letter
ORIENTATION: hexgrid.Orientation = "flat"


@dataclass(frozen=True)
class StartEntry:
    """Pawn `pawn` (0-based) starts next to a corner in games of these player counts."""

    pawn: int
    players: tuple[int, ...]

    @property
    def caption(self) -> str:
        counts = self.players
        if counts == tuple(sorted(hexgrid.START_CORNERS)):
            return "all"
        if len(counts) > 1 and counts == tuple(range(counts[0], counts[-1] + 1)):
            return f"{counts[0]}\u2013{counts[-1]}p"
        return ",".join(str(n) for n in counts) + "p"


def corner_entries(corner: int) -> tuple[StartEntry, ...]:
    """Which pawn starts next to `corner`, per player count, runs of one pawn merged."""
    out: list[StartEntry] = []
    for players in sorted(hexgrid.START_CORNERS):
        corners = hexgrid.START_CORNERS[players]
        if corner not in corners:
            continue
        k = corners.index(corner)
        if out and out[-1].pawn == k:
            out[-1] = StartEntry(k, (*out[-1].players, players))
        else:
            out.append(StartEntry(k, (players,)))
    return tuple(out)


def cell_at(x: float, y: float, pitch: float) -> hexgrid.Hex:
    """The axial cell whose flat-top space holds (x, y), the field's centre at the origin.

    The inverse of `hexgrid.centre`, which geometry/hexgrid.py does not offer: fractional
    axial coordinates rounded in cube coordinates."""
    a = 2 * x / (pitch * hexgrid.SQRT3)  # q + r
    b = 2 * y / pitch  # q - r
    q, r = (a + b) / 2, (a - b) / 2
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return rq, rr


@dataclass(frozen=True)
class BoardLayout:
    """Where everything goes: spaces `pitch` across flats (tile + clearance), the field's
    centre at `origin` of a `width` x `height` board."""

    pitch: float
    width: float
    height: float
    origin: tuple[float, float]

    def point(self, cell: hexgrid.Hex) -> tuple[float, float]:
        x, y = hexgrid.centre(cell, self.pitch, ORIENTATION)
        return x + self.origin[0], y + self.origin[1]

    def space(self, cell: hexgrid.Hex) -> Polygon:
        return hexgrid.hexagon(self.pitch, ORIENTATION, *self.point(cell))


@dataclass(frozen=True)
class _Plate:
    entries: tuple[StartEntry, ...]
    outline: Polygon  # plate body, field coordinates
    slots: tuple[tuple[float, float], ...]  # disc centres


def space_size(p: BuildingCommunityParams) -> float:
    """A space is a tile plus the clearance that lets tiles be swapped."""
    return p.tile_size + p.clearance


def _field(radius: int, pitch: float) -> Polygon:
    """All spaces as one outline. Neighbouring spaces' corners are computed apart and may
    differ in the last bit, so a plain union leaves a space unmerged for some pitches."""
    spaces = [
        hexgrid.hexagon(pitch, ORIENTATION, *hexgrid.centre(c, pitch, ORIENTATION))
        for c in hexgrid.board(radius)
    ]
    return union_of(spaces, "board's field")


def _plate(corner: int, radius: int, pitch: float, field: BaseGeometry) -> _Plate:
    """The start plate of a corner: a row of discs straight above (upper corners) or
    below (lower corners) the corner space, slid outwards (sideways, or for the top and
    bottom corners further out) until it clears the field."""
    entries = corner_entries(corner)
    cx, cy = hexgrid.centre(hexgrid.step((0, 0), corner, radius), pitch, ORIENTATION)
    angle = math.radians(60 * corner + 30)
    sx = 0.0 if abs(math.cos(angle)) < 1e-9 else math.copysign(1.0, math.cos(angle))
    sy = math.copysign(1.0, math.sin(angle))
    w, h = len(entries) * ENTRY + 2 * PLATE_PAD, DISC + 3.0 + 2 * PLATE_PAD
    x, y = cx, cy + sy * (pitch / 2 + GAP + TAIL + h / 2)
    while (body := _plate_body(cx, x, y, w, h, sy)).buffer(GAP - 1e-6).intersects(field):
        x, y = (x + sx * 0.5, y) if sx else (x, y + sy * 0.5)  # always away from the field
    bx0 = x - w / 2
    by1 = y + h / 2
    slots = tuple(  # left to right as the player count grows
        (bx0 + PLATE_PAD + ENTRY * (i + 0.5), by1 - PLATE_PAD - DISC / 2)
        for i in range(len(entries))
    )
    return _Plate(entries, body, slots)


def _plate_body(corner_x: float, x: float, y: float, w: float, h: float, sy: float) -> Polygon:
    """A rounded plate with a small tail pointing at its corner space (below an upper
    plate, above a lower one), under the corner space's centre where the plate reaches."""
    plate = centred_rounded_rect(x, y, w, h, 1.5)
    tx = min(max(corner_x, x - w / 2 + 3.0), x + w / 2 - 3.0)
    edge = y - sy * h / 2
    tail = Polygon(
        [(tx - TAIL, edge + sy * 0.5), (tx + TAIL, edge + sy * 0.5), (tx, edge - sy * TAIL)]
    )
    return plate.union(tail)


def _plate_items(plate: _Plate, p: BuildingCommunityParams) -> list[Item]:
    items: list[Item] = [
        Shape(plate.outline, style=Style(fill="#FFFFFF", stroke=PLATE_LINE, stroke_width=0.25))
    ]
    cap = ascent(NUMBER, True) * 0.72 / 0.76
    for entry, (x, y) in zip(plate.entries, plate.slots, strict=True):
        k = ink(p.pawn_colours[entry.pawn])
        items.append(
            circle(x, y, DISC / 2, style=Style(fill=k.hex, stroke=FIELD_EDGE, stroke_width=0.2))
        )
        items.append(Text(x, y - cap / 2, str(entry.pawn + 1), NUMBER, True, "middle", k.text_on))
        items.append(Text(x, y - DISC / 2 - 2.3, entry.caption, CAPTION, False, "middle", INK_TEXT))
    return items


def _title_items(p: BuildingCommunityParams, x: float, top: float) -> list[Item]:
    cells = hexgrid.cell_count(p.radius)
    y = top - ascent(TITLE, True)
    return [
        Text(x, y, "Building Community", TITLE, True, fill=INK_TEXT),
        Text(
            x,
            y - 5.0,
            f"{cells} spaces \u00b7 {p.radius} rings round the centre",
            6.5,
            False,
            fill=INK_TEXT,
        ),
    ]


def _key_items(p: BuildingCommunityParams, right: float, top: float) -> list[Item]:
    """The three tile colours with their symbols, right-aligned in the top-right corner."""
    items: list[Item] = []
    cap = ascent(KEY) * 0.72 / 0.76
    for i, name in enumerate(p.colours):
        k = ink(name)
        y = top - KEY_SYMBOL / 2 - i * KEY_ROW
        items.append(
            Text(right, y - cap / 2, f"{name.capitalize()} tiles", KEY, False, "end", INK_TEXT)
        )
        label_w = string_width(f"{name.capitalize()} tiles", KEY)
        sx = right - label_w - 1.5 - KEY_SYMBOL / 2
        items.append(
            symbol_shape(
                k.symbol,
                sx,
                y,
                KEY_SYMBOL,
                style=Style(fill=k.hex, stroke=FIELD_EDGE, stroke_width=0.15),
            )
        )
    return items


def _cap(size: float, bold: bool = False) -> float:
    """The height of a capital (and of a digit) at `size` points, mm."""
    return ascent(size, bold) * 0.72 / 0.76


def name_items(cells: tuple[hexgrid.Hex, ...], radius: int, pitch: float) -> list[Item]:
    """Each space's name, centred below its symbol (field coordinates)."""
    out: list[Item] = []
    for cell in cells:
        x, y = hexgrid.centre(cell, pitch, ORIENTATION)
        base = y - NAME_DROP * pitch - _cap(NAME) / 2
        out.append(Text(x, base, label(cell, radius), NAME, False, "middle", NAME_INK))
    return out


def foot_items(radius: int, pitch: float, avoid: BaseGeometry | None = None) -> list[Item]:
    """Each column's letter under its lowest space, in the margin (field coordinates). A
    letter that would touch `avoid` (a start plate's pointer) steps aside, outwards."""
    feet: dict[int, hexgrid.Hex] = {}
    for cell in hexgrid.board(radius):
        col = column(cell, radius)
        if col not in feet or cell[0] < feet[col][0]:
            feet[col] = cell  # the lowest space: least q in its column
    out: list[Item] = []
    for col, cell in sorted(feet.items()):
        x, y = hexgrid.centre(cell, pitch, ORIENTATION)
        base = y - pitch / 2 - FOOT_GAP - _cap(FOOT, True)
        text = Text(x, base, LETTERS[col], FOOT, True, "middle", INK_TEXT)
        if avoid is not None and box(*item_bounds(text)).buffer(FOOT_GAP).intersects(avoid):
            side = -1.0 if x <= 0 else 1.0
            text = text.moved(side * (TAIL + FOOT_GAP + string_width(text.text, FOOT, True)), 0)
        out.append(text)
    return out


def layout(p: BuildingCommunityParams) -> tuple[BoardLayout, list[_Plate], list[Item]]:
    """The board's size and the margin furniture (plates, column letters, title, key) in
    field coordinates."""
    pitch = space_size(p)
    field = _field(p.radius, pitch)
    plates = [_plate(c, p.radius, pitch, field) for c in range(6)]
    feet = foot_items(p.radius, pitch, unary_union([pl.outline for pl in plates]))
    letters = unary_union([box(*item_bounds(it)) for it in feet])
    taken = unary_union([field, letters, *(pl.outline for pl in plates)])
    x0, y0, x1, y1 = taken.bounds
    hx = max(-x0, x1) + PAD
    hy = max(-y0, y1) + PAD
    while True:  # the title and key need the top corners clear of the field and plates
        extra = _title_items(p, -hx + PAD, hy - PAD) + _key_items(p, hx - PAD, hy - PAD)
        if not unary_union([box(*item_bounds(it)) for it in extra]).intersects(taken.buffer(GAP)):
            break
        hy += 1.0
    size = BoardLayout(pitch, 2 * hx, 2 * hy, (hx, hy))
    return size, plates, feet + extra


def board(p: BuildingCommunityParams, printing: PrintParams) -> Component:
    """The board: tinted, outlined spaces, start plates, title and key; cut round the sheet."""
    g, plates, extra = layout(p)
    b = printing.bleed
    c = Component("board", "Board", g.width, g.height, imposition="board", bleed=b)
    c.add(Shape(box(-b, -b, g.width + b, g.height + b), style=Style(fill=BOARD_TONE, stroke=None)))
    for cell in hexgrid.board(p.radius):
        k = ink(p.colours[hexgrid.start_colour(cell)])
        x, y = g.point(cell)
        c.add(Shape(g.space(cell), style=Style(fill=k.light, stroke=SPACE_LINE, stroke_width=0.3)))
        mark = symbol(k.symbol, x, y, g.pitch * HINT_SYMBOL)
        c.add(Shape(mark, style=Style(fill=k.hex, stroke=None, opacity=HINT_OPACITY)))
        c.add(Shape(mark.exterior, style=Style(stroke=SPACE_LINE, stroke_width=0.2, opacity=0.6)))
    c.add(*(it.moved(*g.origin) for it in name_items(hexgrid.board(p.radius), p.radius, g.pitch)))
    field = affinity.translate(_field(p.radius, g.pitch), *g.origin)
    c.add(Shape(field.exterior, style=Style(stroke=FIELD_EDGE, stroke_width=0.6)))
    ox, oy = g.origin
    for plate in plates:
        c.add(*(it.moved(ox, oy) for it in _plate_items(plate, p)))
    c.add(*(it.moved(ox, oy) for it in extra))
    c.set_outline(rounded_rect_curve(0, 0, g.width, g.height, CORNER_RADIUS))
    c.add(c.outline_ring("cut", CUT_STYLE))
    c.meta.update(pitch=g.pitch, origin=g.origin)
    return c


def printed_colouring(
    board_component: Component, colours: tuple[str, ...]
) -> dict[hexgrid.Hex, int]:
    """The start colouring as printed: each tinted space read back to its cell and colour.

    Checks and tests measure the drawing itself, so a drawing that drifts from the play
    model is caught."""
    pitch = float(board_component.meta["pitch"])  # type: ignore[arg-type]
    origin: tuple[float, float] = board_component.meta["origin"]  # type: ignore[assignment]
    ox, oy = origin
    tint = {ink(name).light: i for i, name in enumerate(colours)}
    area = hexgrid.hexagon(pitch, ORIENTATION).area
    out: dict[hexgrid.Hex, int] = {}
    for s in board_component.shapes("art"):
        if s.style.fill not in tint or s.geom.geom_type != "Polygon":
            continue
        if abs(s.geom.area - area) > 1e-6 * area:
            continue
        centre = s.geom.centroid
        out[cell_at(centre.x - ox, centre.y - oy, pitch)] = tint[s.style.fill]
    return out
