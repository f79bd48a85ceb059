"""The refuges: two fans of six plywood blades, each with a printed overlay glued on top.

A blade is sawn from plywood (`blade-<colour>`: outline on `cut`, the pivot hole on
`inner-cut` and a centre mark on `drill`, its name and grain arrow for the pattern) and
covered with a paper overlay (`blade-<colour>-overlay`) in its colour, showing where two
figures and a tent stand. Every blade is needed once per refuge, so each part has
`copies` = 2. Parts are drawn with the blade's axis pointing up, pivot at the bottom.
"""

from __future__ import annotations

from shapely import affinity
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

from geometry.curves import Curve
from geometry.fan import Fan, blade_layout
from geometry.shapes import arrow, kerf_offset, kerf_offset_curve, polygon_of, symbol
from pnp.contract.palette import Ink, ink
from pnp.contract.params import PrintParams
from pnp.draw.colour import delta_e
from pnp.draw.components.dice import shade
from pnp.draw.scene import (
    CUT_STYLE,
    DRILL_STYLE,
    INNER_CUT_STYLE,
    Component,
    Shape,
    Style,
    Text,
    circle,
    curved,
)
from pnp.games.desert_home.params import (
    PLAYERS,
    DesertHomeParams,
    colours_in_play,
    fan,
    figure_place_radius,
    tent_place_radius,
    validate,
)

SAW_LINE = Style(stroke="#000000", stroke_width=0.3)
"""The printed line a scroll saw follows: the `cut` layer is a machine hairline, too fine
to see on a pattern glued to wood."""
GRAIN = "#555555"  # the grain arrow: dark enough to show on every blade's pale tint
GRAIN_STYLE = Style(stroke=GRAIN, stroke_width=0.15, dash=(1.0, 1.0))
CROSS = 3.0  # mm: half the centre-punch cross through the pivot
OVERLAY_INSET = 0.5  # mm the paper stays inside the wood, so no edge of it lifts
SCREW_PLAY = 0.5  # mm the overlay's hole is wider than the pivot hole on each side
DRILL_MARK = 0.8  # radius of the centre-punch circle on the drill layer, mm
COVERED_SHADE = Style(fill="#000000", stroke=None, opacity=0.18)
INK = "#2B2B2B"
EDGE_SHADE = 0.7  # a printed piece's edge line: its colour darkened, so white shows on paper
PLACE_CONTRAST = 20.0  # delta E a piece's place keeps from the piece's own colour
PT = 72 / 25.4
NUMBER_PT = 9.0  # the blade's number on its printed top
CAP = 0.73  # a digit's height per point size


def _upright(geom: BaseGeometry, dx: float, dy: float) -> BaseGeometry:
    """Blade coordinates (axis +x) to part coordinates (axis up, bounding box at 0, 0)."""
    return affinity.translate(affinity.rotate(geom, 90, origin=(0, 0)), dx, dy)


def _upright_curve(curve: Curve, dx: float, dy: float) -> Curve:
    """`_upright` for a true curve: a quarter turn and a move keep its arcs arcs."""
    return curve.affine((0.0, -1.0, 1.0, 0.0, dx, dy))


def _frame(f: Fan) -> tuple[float, float, float, float]:
    """Offset (dx, dy) taking the upright blade's bounding box to the origin, and its size."""
    x0, y0, x1, y1 = affinity.rotate(f.blade(), 90, origin=(0, 0)).bounds
    return -x0, -y0, x1 - x0, y1 - y0


def blade_parts(p: DesertHomeParams, printing: PrintParams) -> list[Component]:
    """The plywood blade of every colour: what the 1:1 scroll-saw pattern and the
    cut files show."""
    validate(p)
    f = fan(p)
    dx, dy, w, h = _frame(f)
    out = []
    for level, colour in enumerate(colours_in_play(p)):
        k = ink(colour)
        outline = _upright(f.blade(), dx, dy)
        curve = _upright_curve(f.blade_curve(), dx, dy)
        comp = Component(
            f"blade-{colour}",
            f"Refuge blade, {colour} (plywood)",
            w,
            h,
            imposition="cutout",
            copies=PLAYERS,
            outline=outline,
            curve=curve,
        )
        comp.add(Shape(outline, style=Style(fill=k.light, stroke=None), curve=curve))
        _grain_arrow(comp, f, dx, dy)
        label_y = dy + 0.62 * f.length
        comp.add(Text(dx, label_y, colour.upper(), 7.5, True, "middle", INK))
        comp.add(
            Text(dx, label_y - 3.6, f"blade {level + 1} of {f.blades}", 5.5, False, "middle", INK)
        )
        _saw_marks(comp, curve, dx, dy, p.pivot_hole, printing.kerf)
        # an area: cut files grow it by the kerf
        comp.add(Shape(outline, "cut", CUT_STYLE, curve=curve))
        comp.add(circle(dx, dy, p.pivot_hole / 2, "inner-cut", INNER_CUT_STYLE))
        comp.add(circle(dx, dy, DRILL_MARK, "drill", DRILL_STYLE))
        comp.meta.update(
            game="desert-home",
            kind="plywood",
            colour=colour,
            level=level,
            pivot=(dx, dy),
            axis_deg=90.0,
            grain=90.0,  # along the axis, as its arrow shows: cut sheets keep it so
            thickness=p.plywood_thickness,
        )
        out.append(comp)
    return out


def _saw_marks(
    comp: Component, outline: Curve, x: float, y: float, hole: float, kerf: float
) -> None:
    """What the pattern shows the sawyer: the saw line (half the kerf outside the outline,
    as the cut files cut), the hole's edge and a cross to centre-punch, and the bit size."""
    path = kerf_offset_curve(outline, kerf, outward=True)
    if path is None:  # not for the blades' smooth outline; kept for a future shape
        comp.add(Shape(kerf_offset(outline.polygon(), kerf).exterior, style=SAW_LINE))
    else:
        comp.add(curved(path, style=SAW_LINE, kind="ring"))
    comp.add(circle(x, y, hole / 2, style=Style(stroke="#000000", stroke_width=0.2)))
    cross = Style(stroke="#000000", stroke_width=0.15)
    comp.add(Shape(LineString([(x - CROSS, y), (x + CROSS, y)]), style=cross))
    comp.add(Shape(LineString([(x, y - CROSS), (x, y + CROSS)]), style=cross))
    comp.add(Text(x, y + hole / 2 + 1.2, f"drill {hole:g} mm", 4.5, False, "middle", INK))


def _grain_arrow(comp: Component, f: Fan, dx: float, dy: float) -> None:
    """Wood grain along the blade's axis: the long way, so the thin tip does not snap."""
    y0 = dy + f.hub_radius + 3.0
    y1 = dy + 0.5 * f.length
    shaft = arrow(dx, (y0 + y1) / 2, y1 - y0, 3.2, 90)
    comp.add(Shape(shaft.exterior, "guide", GRAIN_STYLE))
    comp.add(Text(dx + 2.6, (y0 + y1) / 2 - 1.0, "grain", 5, False, "start", GRAIN, 0, "guide"))


def blade_overlays(p: DesertHomeParams, printing: PrintParams) -> list[Component]:
    """The printed top of every blade: its colour, two figure places, one tent place,
    the colour's symbol, and the bands a neighbouring blade covers shaded."""
    validate(p)
    f = fan(p)
    lay = blade_layout(f, figure_place_radius(p), tent_place_radius(p))
    dx, dy, w, h = _frame(f)
    covered = f.blade().difference(f.visible())
    out = []
    for level, colour in enumerate(colours_in_play(p)):
        k = ink(colour)
        inset = f.blade_curve().offset_area(-OVERLAY_INSET)  # arcs about the same centres
        paper_curve = _upright_curve(inset, dx, dy)
        paper = polygon_of(paper_curve.polygon(), "blade overlay")
        comp = Component(
            f"blade-{colour}-overlay",
            f"Refuge blade, {colour} (printed top)",
            w,
            h,
            imposition="cutout",
            copies=PLAYERS,
            outline=paper,
            curve=paper_curve,
        )
        comp.add(Shape(paper, style=Style(fill=k.hex, stroke=None), curve=paper_curve))
        comp.add(Shape(_upright(covered, dx, dy).intersection(paper), style=COVERED_SHADE))
        places = []
        for fx, fy in lay.figures:
            c = _upright(Point(fx, fy), dx, dy)
            _place(comp, k, c.x, c.y, lay.figure_radius, None)
            places.append(("figure", (c.x, c.y), lay.figure_radius))
        t = _upright(Point(*lay.tent), dx, dy)
        _place(comp, k, t.x, t.y, lay.tent_radius, tent_icon(t.x, t.y, lay.tent_radius * 1.1))
        places.append(("tent", (t.x, t.y), lay.tent_radius))
        number_y = dy + (f.hub_radius + lay.tent[0] - lay.tent_radius) / 2
        comp.add(_number(dx, number_y, level + 1, k))
        edge = Style(stroke=shade(k.hex, EDGE_SHADE), stroke_width=0.25)
        comp.add(comp.outline_ring("art", edge))
        hole = p.pivot_hole / 2 + SCREW_PLAY
        # the hole is cut inside the colour, where no edge shows: ring it in the text colour
        comp.add(circle(dx, dy, hole, style=Style(stroke=k.text_on, stroke_width=0.25)))
        comp.add(Shape(paper, "cut", CUT_STYLE, curve=paper_curve))
        comp.add(circle(dx, dy, hole, "inner-cut", INNER_CUT_STYLE))
        comp.meta.update(
            game="desert-home",
            kind="overlay",
            colour=colour,
            level=level,
            pivot=(dx, dy),
            axis_deg=90.0,
            places=places,
            number=(level + 1, (dx, number_y)),
        )
        out.append(comp)
    return out


def _number(x: float, y: float, n: int, k: Ink) -> Text:
    """The blade's place in the stack, centred on (x, y) between the hub and the tent
    place: the pattern carrying it is peeled off the wood, so the top shows it too."""
    return Text(x, y - NUMBER_PT * CAP / PT / 2, str(n), NUMBER_PT, True, "middle", k.text_on)


def place_fill(k: Ink) -> str:
    """The ground of a piece's place on a blade: the colour's pale tint, or a darker shade
    where the tint is too close to the colour itself (white), so the piece shows on it."""
    if delta_e(k.hex, k.light) >= PLACE_CONTRAST:
        return k.light
    return shade(k.hex, 0.75)


def _place(comp: Component, k: Ink, x: float, y: float, r: float, icon: Polygon | None) -> None:
    """A place for a piece: a disc ringed in the colour's text colour, with the colour's
    symbol (a figure) or a tent outline (a tent) in the colour."""
    fill = place_fill(k)
    comp.add(circle(x, y, r, style=Style(fill=fill, stroke=k.text_on, stroke_width=0.5)))
    if icon is None:
        icon = symbol(k.symbol, x, y, r)
    comp.add(Shape(icon, style=Style(fill=k.hex, stroke=INK, stroke_width=0.2)))


def tent_icon(x: float, y: float, size: float) -> Polygon:
    """A tent seen from the front, `size` wide, centred on (x, y): a triangle with a door."""
    s = size / 2
    base = y - 0.55 * s
    body = Polygon([(x - s, base), (x + s, base), (x, y + 0.75 * s)])
    door = Polygon([(x - 0.22 * s, base), (x + 0.22 * s, base), (x, base + 0.7 * s)])
    return body.difference(door)
