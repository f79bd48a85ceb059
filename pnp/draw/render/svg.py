"""SVG renderer: one file per component, in millimetres, one Inkscape layer per scene layer.

The root element is `width="Wmm" height="Hmm"` with a viewBox of the same numbers, so one
user unit is one millimetre in Inkscape and in laser software. With bleed the viewBox starts
at `-bleed`, keeping the trim box at 0..width, 0..height in SVG units.

The scene is y-up; SVG is y-down. Coordinates are flipped as they are written
(`y_svg = height - y`), not by a transform, so a cutter's importer sees plain numbers and text
needs no counter-flip. Numbers are rounded to 3 decimals (1 µm) with a fixed format, so the
same scene always gives byte-identical SVG.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from xml.sax.saxutils import escape, quoteattr

from shapely.geometry.base import BaseGeometry

from geometry.curves import Curve, Path, arc_of, circle_of
from pnp.draw.scene import (
    LAYERS,
    PT_PER_MM,
    Component,
    Item,
    Shape,
    Style,
    Text,
    check_layer_colours,
    machine_style,
)
from pnp.draw.text import SVG_FAMILY

SVG_NS = "http://www.w3.org/2000/svg"
INKSCAPE_NS = "http://www.inkscape.org/namespaces/inkscape"
ARC_PLACES = 4
"""Decimals of a true curve's numbers (0.1 µm)."""


def fmt(value: float, places: int = 3) -> str:
    """A number with at most 3 decimals (or `places`) and no trailing zeros; never '-0'."""
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "", "-") else text


def svg_extent(component: Component, bleed: bool = True) -> tuple[float, float, float, float]:
    """(x0, y0, width, height) of the SVG viewBox in mm: the trim, grown by the bleed if used."""
    b = component.bleed if bleed and component.bleed > 0 else 0.0
    return -b, -b, component.width + 2 * b, component.height + 2 * b


def component_svg(
    component: Component,
    bleed: bool = True,
    colours: dict[str, str] | None = None,
    *,
    hairline: float | None = None,
) -> str:
    """The component as an SVG document in mm, layers in `pnp.draw.scene.LAYERS` order.

    `colours` maps machine layers (cut, inner-cut, score, drill) to the colour a shop's
    cutter expects; it replaces the stroke colour (or the fill, for unstroked shapes).
    `hairline`, when given, widens strokes thinner than it (in mm): previews use it so a
    0.01 mm cut line stays visible on screen; cut files leave it off. A cut sheet comes
    already prepared for the machine (`pnp.draw.prepare`: kerf, common lines, hairline), so
    it is drawn as given, like its DXF twin.
    """
    overrides = check_layer_colours(colours)
    x0, y0, w, h = svg_extent(component, bleed)
    flip = component.height
    lines = [
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
        f'<svg xmlns="{SVG_NS}" xmlns:inkscape="{INKSCAPE_NS}" version="1.1"'
        f' width="{fmt(w)}mm" height="{fmt(h)}mm" viewBox="{fmt(x0)} {fmt(y0)} {fmt(w)} {fmt(h)}">',
        f"<title>{escape(component.title or component.name)}</title>",
    ]
    for layer in LAYERS:
        items = [i for i in component.items if i.layer == layer]
        if not items:
            continue
        lines.append(f'<g inkscape:groupmode="layer" id="layer-{layer}" inkscape:label="{layer}">')
        for item in items:
            lines.extend(_item(item, flip, overrides.get(layer), hairline))
        lines.append("</g>")
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


def _item(item: Item, flip: float, colour: str | None, hairline: float | None) -> list[str]:
    if isinstance(item, Text):
        return [_text(item, flip)]
    if isinstance(item, Shape):
        filled = _style_attrs(item.style, colour, hairline, fillable=True)
        unfilled = _style_attrs(item.style, colour, hairline, fillable=False)
        if item.curve is not None and not item.geom.is_empty:
            area = item.geom.geom_type == "Polygon"
            return [_curve(item.curve, flip, filled if area else unfilled)]
        return list(_shape(item.geom, item.radius, flip, filled, unfilled))
    raise TypeError(f"not a scene item: {item!r}")


def _shape(
    geom: BaseGeometry, radius: float, flip: float, filled: str, unfilled: str
) -> Iterator[str]:
    """Areas take the fill; open lines never do, whatever the style says."""
    if geom.is_empty:
        return
    kind = geom.geom_type
    if kind == "Point":
        if radius > 0:
            cx, cy, r = fmt(geom.x), fmt(flip - geom.y), fmt(radius)
            yield f'<circle cx="{cx}" cy="{cy}" r="{r}"{filled}/>'
    elif kind in ("Polygon", "MultiPolygon"):
        polys = geom.geoms if kind == "MultiPolygon" else [geom]
        d = " ".join(_polygon_d(p, flip) for p in polys)
        yield f'<path d="{d}" fill-rule="evenodd"{filled}/>'
    elif kind in ("LineString", "LinearRing", "MultiLineString"):
        lines = geom.geoms if kind == "MultiLineString" else [geom]
        d = " ".join(_ring_d(ln.coords, flip, closed=ln.geom_type == "LinearRing") for ln in lines)
        yield f'<path d="{d}"{unfilled}/>'
    elif kind in ("MultiPoint", "GeometryCollection"):
        for part in geom.geoms:
            yield from _shape(part, radius, flip, filled, unfilled)
    else:  # pragma: no cover - shapely has no other kinds
        raise TypeError(f"cannot draw {kind}")


def _curve(curve: Curve, flip: float, attrs: str) -> str:
    """A true curve: a lone circle as `<circle>`, anything else a path whose arcs are `A`
    commands (radius, large-arc and sweep flags; the y flip turns a counter-clockwise
    scene arc into SVG's negative-angle sweep, flag 0). Curves take `ARC_PLACES`
    decimals: an arc rebuilt from ends and radius rounded to 1 µm could stray 2 µm."""
    if len(curve.paths) == 1 and (circle := circle_of(curve.paths[0])) is not None:
        cx, cy, r = (fmt(v, ARC_PLACES) for v in (circle[0], flip - circle[1], circle[2]))
        return f'<circle cx="{cx}" cy="{cy}" r="{r}"{attrs}/>'
    d = " ".join(_path_d(p, flip) for p in curve.paths)
    rule = ' fill-rule="evenodd"' if len(curve.paths) > 1 else ""
    return f'<path d="{d}"{rule}{attrs}/>'


def _path_d(path: Path, flip: float) -> str:
    def xy(x: float, y: float) -> str:
        return f"{fmt(x, ARC_PLACES)},{fmt(flip - y, ARC_PLACES)}"

    parts = [f"M{xy(*path.vertices[0][:2])}"]
    segments = list(path.segments())
    for i, (p, q, b) in enumerate(segments):
        if path.closed and i == len(segments) - 1 and b == 0:
            break  # Z draws the last straight stretch
        if b == 0:
            parts.append(f"L{xy(*q)}")
        else:
            r = fmt(arc_of(p, q, b).r, ARC_PLACES)
            parts.append(f"A{r},{r} 0 {int(abs(b) > 1)} {int(b < 0)} {xy(*q)}")
    return " ".join(parts) + (" Z" if path.closed else "")


def _polygon_d(poly: BaseGeometry, flip: float) -> str:
    rings = [poly.exterior, *poly.interiors]
    return " ".join(_ring_d(r.coords, flip, closed=True) for r in rings)


def _ring_d(coords: Iterable[tuple[float, ...]], flip: float, closed: bool) -> str:
    pts = [(c[0], c[1]) for c in coords]
    if closed and len(pts) > 1 and pts[0] == pts[-1]:
        pts = pts[:-1]
    parts = [f"{fmt(x)},{fmt(flip - y)}" for x, y in pts]
    d = "M" + " L".join(parts)
    return d + " Z" if closed else d


def _style_attrs(style: Style, colour: str | None, hairline: float | None, fillable: bool) -> str:
    style = machine_style(style, colour, hairline)
    fill, stroke = (style.fill if fillable else None), style.stroke
    attrs = [f" fill={quoteattr(fill or 'none')}", f" stroke={quoteattr(stroke or 'none')}"]
    if stroke is not None:
        attrs.append(f' stroke-width="{fmt(style.stroke_width)}"')
        if style.dash:
            attrs.append(f' stroke-dasharray="{" ".join(fmt(d) for d in style.dash)}"')
    if style.opacity < 1:
        attrs.append(f' opacity="{fmt(style.opacity)}"')
    return "".join(attrs)


def _text(t: Text, flip: float) -> str:
    """Text sits on its baseline at (x, y); `rotate` is degrees counter-clockwise (scene)."""
    x, y = fmt(t.x), fmt(flip - t.y)
    attrs = [
        f'x="{x}" y="{y}"',
        f"font-family={quoteattr(SVG_FAMILY)}",
        f'font-size="{fmt(t.size / PT_PER_MM)}"',
        f"fill={quoteattr(t.fill)}",
    ]
    if t.bold:
        attrs.append('font-weight="bold"')
    if t.anchor != "start":
        attrs.append(f'text-anchor="{t.anchor}"')
    if t.rotate:
        # y-down: a counter-clockwise turn on the page is a negative SVG angle
        attrs.append(f'transform="rotate({fmt(-t.rotate)} {x} {y})"')
    return f"<text {' '.join(attrs)}>{escape(t.text)}</text>"
