"""The Parcheesi board, drawn from `geometry.track`: the space the engine calls i is the
space printed with the small number i, so a hand-worked position can be set up on it.

The board is drawn at real size (`board_size`, about 50 cm) and the layout tiles it over
sheets, or prints it reduced (`board_scale`). Text shrinks with the board down to a least
printed size, and the space numbers print at one size whatever the scale.
"""

from __future__ import annotations

from dataclasses import dataclass

from shapely import affinity
from shapely.geometry import Polygon, box

from geometry import track
from geometry.shapes import arrow, symbol
from pnp.contract.palette import Ink, ink
from pnp.draw.components.dice import shade
from pnp.draw.kit import PrintParams
from pnp.draw.scene import CUT_STYLE, Component, Item, Shape, Style, Text, circle, symbol_shape
from pnp.games.parcheesi.params import ParcheesiParams, validate

GROUND = "#F3ECDC"  # the board between the spaces: warm card, into the bleed
SPACE = "#FFFDF8"
SAFE = "#C9BBA0"  # safe spaces are dark and ringed, as on the printed sheet the game comes from
LINE = "#3A3A3A"
HALO = "#FFFFFF"
FLOW = "#DDD3BF"  # the faint travel arrow on every plain track space
SPACE_LINE = 0.45  # mm: the track spaces' outline (tests find the spaces by it)
RING = 0.9  # mm: a safe space's ring
RING_FRACTION = 0.42  # ring radius per short side of a space: a pawn sits inside it
NUMBER_PT = 6.0  # the space numbers print at this size, whatever the board's scale
CAP = 0.73  # Vera's digit height per point size
PT_PER_MM = 72 / 25.4
INSET = 1.3  # mm (printed) from a space's corner to its number


def _rotate(dx: float, dy: float, quarter: int) -> tuple[float, float]:
    """(dx, dy) turned `quarter` quarter turns counter-clockwise about the origin."""
    for _ in range(quarter % 4):
        dx, dy = -dy, dx
    return dx, dy


@dataclass(frozen=True)
class Frame:
    """Board measures in mm at real size, and the printed scale (text is sized for it)."""

    size: float
    column: float
    step: float
    arm: float
    scale: float

    @property
    def centre(self) -> float:
        return self.size / 2

    def pt(self, real: float, least: float) -> float:
        """A text size of `real` points on the real-size board, raised so that it still
        prints at `least` points or more on a reduced one."""
        return max(real, least / self.scale)

    def turn(self, x: float, y: float, quarter: int) -> tuple[float, float]:
        """(x, y) turned `quarter` quarter turns counter-clockwise about the centre: arm k
        is arm 0 turned k times (see `geometry.track`)."""
        c = self.centre
        dx, dy = _rotate(x - c, y - c, quarter)
        return c + dx, c + dy


def frame(p: ParcheesiParams) -> Frame:
    g = track.layout(p.board_size)
    return Frame(g.size, g.column, g.step, g.arm, p.board_scale)


def arm_of(f: Frame, x: float, y: float) -> int:
    """The arm (0 south, then counter-clockwise) a point of a track or strip space lies on,
    so its number can face the player sitting at that arm's end."""
    for k in range(track.COLOURS):
        u, v = f.turn(x, y, -k)
        if v < f.arm and f.arm <= u <= f.size - f.arm:
            return k
    raise ValueError(f"({x:.1f}, {y:.1f}) is on no arm")


def board(p: ParcheesiParams, printing: PrintParams) -> Component:
    """The whole cross: nests, track, home strips, home, arrows, space numbers, cut edge."""
    validate(p)
    f = frame(p)
    s, b = f.size, printing.bleed
    c = Component("board", "Board", s, s, imposition="board", bleed=b)
    c.add(Shape(box(-b, -b, s + b, s + b), style=Style(fill=GROUND, stroke=None)))
    inks = [ink(name) for name in p.colours]
    spaces = track.spaces(s)
    for k, colour in enumerate(inks):
        c.items.extend(_nest(f, p, k, colour, spaces))
    for sp in spaces:
        c.items.extend(_space(f, sp, inks))
    c.items.extend(_home(f, inks))
    c.items.extend(_arrows(f, inks))
    c.add(Shape(box(0, 0, s, s).exterior, "cut", CUT_STYLE))
    short, long = track.space_dimensions(s)
    c.meta.update(
        track_spaces=sum(sp.kind == "track" for sp in spaces),
        strip_spaces=sum(sp.kind == "strip" for sp in spaces),
        safe_spaces=sum(sp.safe for sp in spaces),
        space_short=short,
        space_long=long,
        pawn_size=p.pawn_size,
        scale=p.board_scale,
    )
    return c


# --- spaces -------------------------------------------------------------------------------


def _space(f: Frame, sp: track.Space, inks: list[Ink]) -> list[Item]:
    """One space: its fill, outline and number; a ring if safe; the symbol of the colour
    whose entry or strip it is."""
    owner = inks[sp.colour] if sp.colour is not None else None
    short = min(f.step, f.column)
    if sp.kind == "strip":
        assert owner is not None
        fill, edge, width = owner.light, shade(owner.hex, 0.7), SPACE_LINE
    else:
        fill = owner.light if owner else SAFE if sp.safe else SPACE
        edge, width = LINE, SPACE_LINE
    items: list[Item] = [Shape(sp.polygon, style=Style(fill=fill, stroke=edge, stroke_width=width))]
    x, y = sp.centre
    if sp.kind == "track" and owner is None and not sp.safe:
        flow = arrow(x, y, 0.5 * short, 0.28 * short, sp.angle)
        items.append(Shape(flow, style=Style(fill=FLOW, stroke=None)))
    if sp.safe:
        ring = shade(owner.hex, 0.85) if owner else LINE
        r = RING_FRACTION * short
        items.append(circle(x, y, r, style=Style(fill=None, stroke=ring, stroke_width=RING)))
    if owner is not None:
        items.append(
            symbol_shape(
                owner.symbol,
                x,
                y,
                0.36 * short,
                style=Style(fill=owner.hex, stroke=LINE, stroke_width=0.2),
            )
        )
    items.append(_number(f, sp))
    return items


def _number(f: Frame, sp: track.Space) -> Text:
    """The space's index in the corner that is top left for the player at its arm's end."""
    k = arm_of(f, *sp.centre)
    size = f.pt(NUMBER_PT, NUMBER_PT)
    inset = INSET / f.scale
    cap = CAP * size / PT_PER_MM
    # arm 0's frame: columns run across x, a space's length along y
    dx = -f.column / 2 + inset
    dy = f.step / 2 - inset - cap
    u, v = _rotate(dx, dy, k)
    return Text(
        sp.centre[0] + u, sp.centre[1] + v, str(sp.node), size=size, fill=LINE, rotate=90.0 * k
    )


# --- nests and home -----------------------------------------------------------------------


def _nest(
    f: Frame, p: ParcheesiParams, k: int, colour: Ink, spaces: tuple[track.Space, ...]
) -> list[Item]:
    """A nest: the corner in the colour's tint, its symbol, four pawn places, its name
    facing its player, and an arrow to the entry space marked with what enters: a 5."""
    outline = track.nest(f.size, k)
    items: list[Item] = [
        Shape(outline, style=Style(fill=colour.light, stroke=colour.hex, stroke_width=1.2))
    ]
    cx, cy = outline.centroid.x, outline.centroid.y
    items.append(
        symbol_shape(
            colour.symbol,
            cx,
            cy,
            0.16 * f.arm,
            style=Style(fill=colour.hex, stroke=LINE, stroke_width=0.35),
        )
    )
    for x, y in track.nest_slots(f.size, k):
        items.append(
            circle(
                x,
                y,
                p.pawn_size / 2 + 1.0,
                style=Style(fill=SPACE, stroke=colour.hex, stroke_width=0.6, dash=(2.0, 1.2)),
            )
        )
    # Arm 0's frame, then turned: the player of colour k sits at arm k's end.
    x0 = f.arm + 3 * f.column  # the nest's edge along the arm
    name_size = f.pt(16.0, 7.0)
    items.append(
        _turned_text(
            f,
            k,
            x0 + f.arm / 2,
            0.07 * f.arm,
            f"{colour.name.upper()} NEST",
            name_size,
            bold=True,
            fill=shade(colour.hex, 0.75),
        )
    )
    _, ey = f.turn(*spaces[track.entry_space(k)].centre, -k)
    length, width = 0.16 * f.arm, 0.06 * f.arm
    ax = x0 + 0.04 * f.arm + length / 2
    items.append(
        _turned_shape(
            f,
            k,
            arrow(ax, ey, length, width, 180.0),
            Style(fill=colour.hex, stroke=LINE, stroke_width=0.3),
        )
    )
    label = f.pt(9.0, 5.0)
    items.append(
        _turned_text(
            f, k, ax, ey - width / 2 - 1.2 * label / PT_PER_MM, "enter on a 5", label, fill=LINE
        )
    )
    return items


def _turned_shape(f: Frame, k: int, geom: Polygon, style: Style) -> Shape:
    c = (f.centre, f.centre)
    return Shape(affinity.rotate(geom, 90.0 * k, origin=c), style=style)


def _turned_text(
    f: Frame,
    k: int,
    x: float,
    y: float,
    text: str,
    size: float,
    bold: bool = False,
    fill: str = LINE,
) -> Text:
    """Centred text at (x, y) of arm 0's frame, turned to face the player at arm k."""
    tx, ty = f.turn(x, y, k)
    return Text(tx, ty, text, size=size, bold=bold, anchor="middle", fill=fill, rotate=90.0 * k)


def _home(f: Frame, inks: list[Ink]) -> list[Item]:
    """The central home: a triangle per colour at the end of its strip, with its symbol
    and the word HOME facing its player."""
    items: list[Item] = []
    home = track.home_area(f.size)
    size = f.pt(14.0, 6.0)
    for k, colour in enumerate(inks):
        tri = track.home_triangle(f.size, k)
        items.append(Shape(tri, style=Style(fill=colour.light, stroke=LINE, stroke_width=0.5)))
        # arm 0's frame: the triangle's base lies along y = arm, its apex at the centre
        sx, sy = f.centre, f.arm + 0.5 * f.column
        items.append(
            _turned_shape(
                f,
                k,
                symbol(colour.symbol, sx, sy, 0.5 * f.column),
                Style(fill=colour.hex, stroke=LINE, stroke_width=0.35),
            )
        )
        items.append(
            _turned_text(
                f, k, f.centre, f.arm + 1.05 * f.column, "HOME", size, bold=True, fill=LINE
            )
        )
    items.append(Shape(home.exterior, style=Style(stroke=LINE, stroke_width=0.8)))
    return items


def _arrows(f: Frame, inks: list[Ink]) -> list[Item]:
    """Where travel turns: along each arm's end, across each inner corner, and into each
    colour's strip (in that colour)."""
    short = min(f.step, f.column)
    items: list[Item] = []
    for a in track.arrows(f.size):
        if a.kind == "strip":
            assert a.colour is not None
            colour = inks[a.colour]
            shape = arrow(a.x, a.y, 0.7 * short, 0.5 * short, a.angle)
            items.append(Shape(shape, style=Style(fill=colour.hex, stroke=LINE, stroke_width=0.35)))
            continue
        length = (1.45 if a.kind == "end" else 1.1) * RING_FRACTION * short
        shape = arrow(a.x, a.y, length, 0.45 * length, a.angle)
        items.append(Shape(shape, style=Style(fill=LINE, stroke=HALO, stroke_width=0.4)))
    return items
