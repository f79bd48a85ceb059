"""PDF renderer: draws Pages with reportlab, and decides nothing about where things go.

Invariant mode makes rebuilds byte-identical; fonts are embedded TrueType subsets. A
shape's true curve (`Shape.curve`) is drawn as Bézier curves, not as its flattening.
Page coordinates are millimetres, converted to points here and nowhere else.
"""

from __future__ import annotations

import io
from collections.abc import Collection
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, Canvas
from shapely.geometry.base import BaseGeometry

from geometry.curves import Path as CurvePath
from geometry.curves import cubics
from pnp.draw.layout.page import Box, Page, Placement
from pnp.draw.scene import (
    CUT_LAYERS,
    GUIDE_STYLE,
    LAYERS,
    PT_PER_MM,
    Item,
    Shape,
    Style,
    Text,
    check_layer_colours,
    machine_style,
)
from pnp.draw.text import font_name, register_fonts
from pnp.runtime.atomic import write_bytes

K = PT_PER_MM
DEFAULT_STYLE = Style()


@cache
def _colour(hex_colour: str) -> Color:
    return HexColor(hex_colour)


def _pt_box(b: Box | None) -> tuple[float, float, float, float] | None:
    return None if b is None else (b[0] * K, b[1] * K, b[2] * K, b[3] * K)


def render_pdf(
    pages: list[Page],
    title: str,
    colours: dict[str, str] | None = None,
    *,
    hairline: float | None = None,
    machine_layers: Collection[str] = CUT_LAYERS,
) -> bytes:
    """All pages as one PDF: exact mm page sizes, TrimBox/BleedBox where the layout set them.

    `colours` and `hairline` act on the machine layers exactly as in the SVG renderer
    (`pnp.draw.scene.machine_style`): a printed scroll-saw pattern needs its cut lines visible.
    Only the machine layers in `machine_layers` are drawn: a kit's print PDF leaves the
    laser's cut lines to the cut files (`pnp.draw.scene.PRINTED_MACHINE_LAYERS`)."""
    hidden = frozenset(CUT_LAYERS) - frozenset(machine_layers)
    look = _Look(check_layer_colours(colours), hairline, hidden)
    regular, _ = register_fonts()
    buf = io.BytesIO()
    first = pages[0] if pages else None
    size = (first.width * K, first.height * K) if first else (595.2756, 841.8898)
    # The initial font is ours too: reportlab's default (Helvetica) would be an unembedded
    # font resource on every page.
    canv = Canvas(buf, pagesize=size, invariant=1, pageCompression=1, initialFontName=regular)
    canv.setTitle(title)
    canv.setAuthor("pnp")
    canv.setCreator("pnp")
    canv.setSubject("print-and-play kit")
    for page in pages:
        canv.setPageSize((page.width * K, page.height * K))
        canv.setTrimBox(_pt_box(page.trim_box))
        canv.setBleedBox(_pt_box(page.bleed_box))
        draw_page(canv, page, look)
        canv.showPage()
    canv.save()
    return buf.getvalue()


def write_pdf(path: Path, pages: list[Page], title: str) -> Path:
    """Render and write atomically (no half-written PDF on failure)."""
    return write_bytes(path, render_pdf(pages, title))


@dataclass(frozen=True)
class _Look:
    colours: dict[str, str]
    hairline: float | None
    hidden: frozenset[str] = frozenset()  # machine layers this PDF leaves out

    def style(self, layer: str, style: Style) -> Style:
        colour = self.colours.get(layer) if layer in CUT_LAYERS else None
        return machine_style(style, colour, self.hairline)


PLAIN = _Look({}, None)


def _layers(page: Page) -> list[str]:
    """Scene layers bottom to top; unknown layers (if any) go on top, sorted for stability."""
    seen = {it.layer for it in page.items}
    for p in page.placements:
        seen.update(it.layer for it in p.component.items)
    return list(LAYERS) + sorted(seen - set(LAYERS))


def draw_page(canv: Canvas, page: Page, look: _Look = PLAIN) -> None:
    """Each layer in order: every placement's items on it, then the page's own items."""
    for layer in _layers(page):
        if layer in look.hidden:
            continue
        for p in page.placements:
            items = [it for it in p.component.items if it.layer == layer]
            if items:
                _draw_placement(canv, p, items, look)
        for it in page.items:
            if it.layer == layer:
                _draw_item(canv, it, look)


PT = 25.4 / 72  # mm per point: text sizes are points


def _reach(it: Item) -> Box:
    """A box (component coordinates, mm) that an item's ink never leaves: a shape's bounds
    grown by its stroke and point radius, a text's anchor grown by its length in ems."""
    if isinstance(it, Shape):
        x0, y0, x1, y1 = it.geom.bounds
        m = it.style.stroke_width + it.radius
        return (x0 - m, y0 - m, x1 + m, y1 + m)
    r = (len(it.text) + 1) * it.size * PT
    return (it.x - r, it.y - r, it.x + r, it.y + r)


def _visible(p: Placement, items: list[Item]) -> list[Item]:
    """The items that can show through a placement's clip. A tiled board puts the whole
    board behind each sheet's window; leaving out what cannot show keeps a tiled PDF small."""
    if p.clip is None:
        return items
    cx0, cy0, cx1, cy1 = p.clip
    out = []
    for it in items:
        u0, v0, u1, v1 = _reach(it)
        (x0, y0), (x1, y1) = p.to_page(u0, v0), p.to_page(u1, v1)  # quarter turns: still a box
        if min(x0, x1) <= cx1 and max(x0, x1) >= cx0 and min(y0, y1) <= cy1 and max(y0, y1) >= cy0:
            out.append(it)
    return out


def _draw_placement(canv: Canvas, p: Placement, items: list[Item], look: _Look) -> None:
    items = _visible(p, items)
    if not items:
        return
    canv.saveState()
    if p.clip is not None:
        x0, y0, x1, y1 = p.clip
        path = canv.beginPath()
        path.rect(x0 * K, y0 * K, (x1 - x0) * K, (y1 - y0) * K)
        canv.clipPath(path, stroke=0, fill=0)
    a, b, c, d, e, f = p.matrix
    canv.transform(a, b, c, d, e * K, f * K)
    for it in items:
        _draw_item(canv, it, look)
    canv.restoreState()


def _draw_item(canv: Canvas, it: Item, look: _Look = PLAIN) -> None:
    if isinstance(it, Shape):
        _draw_shape(canv, it, look)
    else:
        _draw_text(canv, it)


def _draw_text(canv: Canvas, t: Text) -> None:
    fill = GUIDE_STYLE.stroke if t.layer == "guide" and t.fill == "#000000" else t.fill
    canv.saveState()
    canv.setFillColor(_colour(fill or "#000000"))
    canv.setFont(font_name(t.bold), t.size)
    canv.translate(t.x * K, t.y * K)
    if t.rotate:
        canv.rotate(t.rotate)
    if t.anchor == "middle":
        canv.drawCentredString(0, 0, t.text)
    elif t.anchor == "end":
        canv.drawRightString(0, 0, t.text)
    else:
        canv.drawString(0, 0, t.text)
    canv.restoreState()


def _parts(geom: BaseGeometry) -> list[BaseGeometry]:
    if hasattr(geom, "geoms"):
        out: list[BaseGeometry] = []
        for g in geom.geoms:
            out.extend(_parts(g))
        return out
    return [geom]


def _is_rect(coords: list[tuple[float, float]]) -> bool:
    pts = coords[:-1] if coords[0] == coords[-1] else coords
    return (
        len(pts) == 4
        and len({round(x, 9) for x, _ in pts}) == 2
        and len({round(y, 9) for _, y in pts}) == 2
        and all(pts[i][0] == pts[i - 1][0] or pts[i][1] == pts[i - 1][1] for i in range(4))
    )


def _n(v: float) -> str:
    """A PDF number in points: 0.001 pt (0.0004 mm) is far below what any printer shows."""
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("", "-0") else s


def _ring_ops(coords: list[tuple[float, float]], close: bool) -> str:
    """PDF path operators for one ring or line. Written here rather than through
    reportlab's path object, whose pure-Python number formatting dominated render time."""
    if close and _is_rect(coords):
        xs = [x for x, _ in coords]
        ys = [y for _, y in coords]
        return (
            f"{_n(min(xs) * K)} {_n(min(ys) * K)} {_n((max(xs) - min(xs)) * K)} "
            f"{_n((max(ys) - min(ys)) * K)} re"
        )
    pts = [f"{_n(x * K)} {_n(y * K)}" for x, y in coords]
    return f"{pts[0]} m {' l '.join(pts[1:])} l" + (" h" if close else "")


def _path_ops(path: CurvePath) -> str:
    """PDF operators for a path of lines and arcs: each arc as cubic Béziers (`c`), at
    most an eighth of a circle apiece (`geometry.curves.cubics`)."""
    x, y, _ = path.vertices[0]
    ops = [f"{_n(x * K)} {_n(y * K)} m"]
    for p, q, b in path.segments():
        if b == 0:
            ops.append(f"{_n(q[0] * K)} {_n(q[1] * K)} l")
            continue
        for _, c1, c2, end in cubics(p, q, b):
            pts = " ".join(f"{_n(u * K)} {_n(v * K)}" for u, v in (c1, c2, end))
            ops.append(f"{pts} c")
    if path.closed:
        ops.append("h")
    return " ".join(ops)


_PAINT = {(True, True): "B*", (False, True): "f*", (True, False): "S"}
"""PDF painting operators by (stroke, fill); areas use the even-odd rule so holes stay open."""


def _draw_shape(canv: Canvas, s: Shape, look: _Look = PLAIN) -> None:
    """Areas (polygons, circles) are filled even-odd and stroked; lines are stroked only."""
    st = GUIDE_STYLE if s.layer == "guide" and s.style == DEFAULT_STYLE else s.style
    st = look.style(s.layer, st)
    stroke = st.stroke is not None and st.stroke_width > 0
    fill = st.fill is not None
    if not (stroke or fill):
        return
    areas: list[str] = []
    lines: list[str] = []
    circles: list[tuple[float, float]] = []
    if s.curve is not None and not s.geom.is_empty:  # true arcs, as Bézier curves
        ops = [_path_ops(p) for p in s.curve.paths]
        (areas if s.geom.geom_type == "Polygon" else lines).extend(ops)
    for g in [] if s.curve is not None else _parts(s.geom):
        if g.is_empty:
            continue
        kind = g.geom_type
        if kind == "Polygon":
            areas.append(_ring_ops(list(g.exterior.coords), True))
            areas.extend(_ring_ops(list(h.coords), True) for h in g.interiors)
        elif kind in ("LineString", "LinearRing"):
            coords = list(g.coords)
            if len(coords) >= 2:
                lines.append(_ring_ops(coords, kind == "LinearRing"))
        elif kind == "Point" and s.radius > 0:
            circles.append((g.x, g.y))
    if not (areas or circles or (lines and stroke)):
        return
    canv.saveState()
    if fill:
        canv.setFillColor(_colour(st.fill))
    if stroke:
        canv.setStrokeColor(_colour(st.stroke))
        canv.setLineWidth(st.stroke_width * K)
        if st.dash:
            canv.setDash([d * K for d in st.dash], 0)
    if st.opacity < 1.0:
        canv.setFillAlpha(st.opacity)
        canv.setStrokeAlpha(st.opacity)
    if areas:
        canv.addLiteral("\n".join(areas) + " " + _PAINT[(stroke, fill)])
    if circles:
        path = canv.beginPath()
        for x, y in circles:
            path.circle(x * K, y * K, s.radius * K)
        canv.drawPath(path, stroke=int(stroke), fill=int(fill), fillMode=FILL_EVEN_ODD)
    if lines and stroke:
        canv.addLiteral("\n".join(lines) + " S")
    canv.restoreState()
