"""The renderer-neutral scene: what every game builds and every renderer draws.

Coordinates are millimetres, y pointing up, origin at the bottom-left corner of a
component's trim box (the finished size). Art may run past the trim into the bleed
(negative coordinates or beyond width/height). Renderers read these objects and never
compute geometry of their own; geometry comes from the `geometry` package.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from shapely import affinity
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from geometry.curves import Curve
from geometry.shapes import symbol, symbol_curve
from pnp.draw.colour import contrast_ratio

LAYERS: tuple[str, ...] = ("art", "guide", "score", "inner-cut", "cut", "drill")
"""Drawing order, bottom to top. `cut`, `inner-cut`, `score` and `drill` are machine layers."""

CUT_LAYERS: tuple[str, ...] = ("cut", "inner-cut", "score", "drill")
"""Layers that go to cut files (DXF) and become Inkscape layers a laser or cutter reads."""

PRINTED_MACHINE_LAYERS: tuple[str, ...] = ("score",)
"""Machine layers a kit's print PDF still draws: fold lines guide a hand as well as a
cutter. A laser's 0.01 mm red cut hairline comes out of a printer as a solid red line that
shows on any cut drifting outward, so `cut`, `inner-cut` and `drill` stay in the cut files
and cut sheets, unless a document (a scroll-saw pattern) asks for them."""

Layer = Literal["art", "guide", "score", "inner-cut", "cut", "drill"]
Imposition = Literal["card", "cutout", "board"]
PT_PER_MM = 72.0 / 25.4


@dataclass(frozen=True)
class Style:
    """How a shape is painted. Colours are '#rrggbb' strings; widths and dashes in mm."""

    fill: str | None = None
    stroke: str | None = "#000000"
    stroke_width: float = 0.25
    dash: tuple[float, ...] | None = None
    opacity: float = 1.0


# Machine layers have fixed default looks (print-and-cut.md); shops may override colours.
CUT_STYLE = Style(stroke="#ff0000", stroke_width=0.01)
INNER_CUT_STYLE = Style(stroke="#0000ff", stroke_width=0.01)
SCORE_STYLE = Style(stroke="#000000", stroke_width=0.2, dash=(1.5, 1.0))
DRILL_STYLE = Style(stroke="#000000", stroke_width=0.15)
GUIDE_STYLE = Style(stroke="#999999", stroke_width=0.15, dash=(1.0, 1.0))


MIN_GUIDE_CONTRAST = 3.0
"""WCAG 2's least contrast for lines a reader must see (non-text contrast, 3:1): every
fold, cut, drill and guide line keeps it against the ink it crosses (pnp.draw.checks)."""
HALO = 0.2
"""mm of halo each side of a guide line that would vanish into its ground."""


def shown_on(shape: Shape, ground: str) -> list[Shape]:
    """A guide line as drawn over `ground` ('#rrggbb'): the line itself, with a halo under
    it in white or black (whichever contrasts more with the line) where the line's own
    colour would vanish into the ground. The line keeps its colour and layer, because a
    laser program maps a machine layer by its colour; a black dashed fold on a black face
    prints as a white line with black dashes."""
    stroke = shape.style.stroke
    if stroke is None or contrast_ratio(stroke, ground) >= MIN_GUIDE_CONTRAST:
        return [shape]
    return [halo_under(shape), shape]


def halo_under(shape: Shape, geom: BaseGeometry | None = None) -> Shape:
    """The halo drawn under a guide line (or under its stretch `geom`): white or black,
    whichever contrasts more with the line, HALO mm wider each side."""
    stroke = shape.style.stroke or "#000000"
    halo = max(("#FFFFFF", "#000000"), key=lambda c: contrast_ratio(c, stroke))
    style = Style(stroke=halo, stroke_width=shape.style.stroke_width + 2 * HALO)
    under: Layer = "art" if shape.layer == "art" else "guide"
    if geom is not None:
        return Shape(geom, under, style)
    return Shape(shape.geom, under, style, shape.radius, shape.curve)


def check_layer_colours(colours: dict[str, str] | None) -> dict[str, str]:
    """Shops pick their own layer colours; only machine layers may be recoloured."""
    from pnp.runtime.errors import PnpError

    colours = dict(colours or {})
    for layer, colour in colours.items():
        if layer not in CUT_LAYERS:
            raise PnpError(
                f"cannot set a colour for layer '{layer}': choose from {', '.join(CUT_LAYERS)}"
            )
        if not isinstance(colour, str) or not colour.strip():
            raise PnpError(f"colour for layer '{layer}' must be a colour such as '#ff0000'")
    return colours


def machine_style(style: Style, colour: str | None, hairline: float | None) -> Style:
    """One rule for every renderer: a shop's colour replaces a machine layer's stroke (or
    its fill, when it has no stroke), and `hairline` widens thinner strokes so a 0.01 mm
    cut line shows on a screen or a printed pattern."""
    fill, stroke, width = style.fill, style.stroke, style.stroke_width
    if colour is not None:
        if stroke is not None:
            stroke = colour
        elif fill is not None:
            fill = colour
    if stroke is not None and hairline is not None and width < hairline:
        width = hairline
    if (fill, stroke, width) == (style.fill, style.stroke, style.stroke_width):
        return style
    return replace(style, fill=fill, stroke=stroke, stroke_width=width)


CURVE_FIT = 0.01
"""mm: a shape's curve and its geometry must span the same box to this (a stale curve
left behind by a geometry change fails loudly instead of drawing the old outline)."""


@dataclass(frozen=True)
class Shape:
    """A piece of shapely geometry on a layer. A Point with `radius` is a circle.

    `curve`, when set, is the geometry's true outline with its arcs (`geometry.curves`):
    renderers draw it, and `geom` (its flattening) is what checks measure. Anything that
    changes `geom` must change the curve with it (`transformed`) or drop it."""

    geom: BaseGeometry
    layer: Layer = "art"
    style: Style = field(default_factory=Style)
    radius: float = 0.0
    curve: Curve | None = None

    def __post_init__(self) -> None:
        if self.curve is not None and not self.geom.is_empty:
            got, want = self.curve.bounds(), self.geom.bounds
            if any(abs(a - b) > CURVE_FIT for a, b in zip(got, want, strict=True)):
                raise ValueError(f"a shape's curve spans {got}, its geometry {want}")

    def moved(self, dx: float, dy: float) -> Shape:
        curve = None if self.curve is None else self.curve.translated(dx, dy)
        return replace(self, geom=affinity.translate(self.geom, dx, dy), curve=curve)

    def transformed(self, m: list[float]) -> Shape:
        """The shape under a shapely affine matrix [a, b, d, e, xoff, yoff]; its curve
        follows (turns, moves and mirrors keep arcs arcs)."""
        curve = None if self.curve is None else self.curve.affine(m)
        return replace(self, geom=affinity.affine_transform(self.geom, m), curve=curve)

    def flattened(self, geom: BaseGeometry) -> Shape:
        """The shape with new geometry that no longer follows its curve (a clip, a split)."""
        return replace(self, geom=geom, curve=None)


@dataclass(frozen=True)
class Text:
    """One line of text. `x, y` is the baseline anchor point in mm; size in points."""

    x: float
    y: float
    text: str
    size: float = 8.0
    bold: bool = False
    anchor: Literal["start", "middle", "end"] = "start"
    fill: str = "#000000"
    rotate: float = 0.0
    layer: Layer = "art"

    def moved(self, dx: float, dy: float) -> Text:
        return replace(self, x=self.x + dx, y=self.y + dy)


Item = Shape | Text


@dataclass
class Component:
    """One printable, cuttable thing: a board, a card, a sticker block, a die net.

    `imposition` tells the sheet layout how to place it: `card` (many-up with bleed and
    crop marks), `cutout` (packed with a gap, cut along its `cut` layer) or `board`
    (a page of its own, tiled across sheets when larger than the printable area).
    """

    name: str
    title: str
    width: float
    height: float
    items: list[Item] = field(default_factory=list)
    imposition: Imposition = "cutout"
    bleed: float = 0.0
    copies: int = 1
    back: Component | None = None
    outline: BaseGeometry | None = None
    fold_lines: tuple[tuple[tuple[float, float], tuple[float, float]], ...] = ()
    meta: dict[str, object] = field(default_factory=dict)
    curve: Curve | None = None
    """The outline's true curve (its arcs), when it has one; `outline` is its flattening."""

    @property
    def trim(self) -> Polygon:
        return box(0, 0, self.width, self.height)

    @property
    def shape_outline(self) -> BaseGeometry:
        """The physical outline: the explicit one, else the trim rectangle."""
        return self.outline if self.outline is not None else self.trim

    def add(self, *items: Item) -> Component:
        self.items.extend(items)
        return self

    def shapes(self, layer: str | None = None) -> list[Shape]:
        return [
            i for i in self.items if isinstance(i, Shape) and (layer is None or i.layer == layer)
        ]

    def texts(self) -> list[Text]:
        return [i for i in self.items if isinstance(i, Text)]

    def set_outline(self, curve: Curve) -> Polygon:
        """Give the component a curved outline: the curve, and its flattening for checks."""
        self.curve = curve
        self.outline = curve.polygon()
        return self.outline

    def outline_ring(self, layer: Layer = "cut", style: Style | None = None) -> Shape:
        """The outline as a closed line on `layer`, drawn as its true curve if it has one."""
        if self.curve is not None:
            return curved(self.curve, layer, style, "ring")
        return Shape(self.shape_outline.exterior, layer, style or Style())  # type: ignore[attr-defined]

    def has_cut_lines(self) -> bool:
        return any(s.layer in ("cut", "inner-cut") for s in self.shapes())


def enclosed(shape: Shape, quad_segs: int = 32) -> BaseGeometry:
    """The area a shape goes all the way round (a filled ring, polygon or circle; holes of
    a polygon filled too), or an empty polygon for an open line or a bare point."""
    geom = shape.geom
    if geom.is_empty:
        return Polygon()
    kind = geom.geom_type
    if kind == "Point":
        return geom.buffer(shape.radius, quad_segs=quad_segs) if shape.radius > 0 else Polygon()
    if kind == "Polygon":
        return Polygon(geom.exterior)
    if kind in ("LineString", "LinearRing"):
        return Polygon(geom.coords) if geom.is_closed and len(geom.coords) > 3 else Polygon()
    return unary_union([enclosed(replace(shape, geom=g), quad_segs) for g in geom.geoms])


CurveKind = Literal["area", "ring", "line"]


def curved(
    curve: Curve, layer: Layer = "art", style: Style | None = None, kind: CurveKind = "area"
) -> Shape:
    """A shape drawn as its true curve: an area (filled, holes open), a closed outline
    (a ring: a cut line, a stroked edge) or an open line."""
    geom: BaseGeometry
    if kind == "area":
        geom = curve.polygon()
    elif kind == "ring":
        geom = curve.ring()
    else:
        geom = curve.line()
    return Shape(geom, layer, style or Style(), curve=curve)


def symbol_shape(
    kind: str, cx: float, cy: float, size: float, layer: Layer = "art", style: Style | None = None
) -> Shape:
    """A colour's symbol (`geometry.shapes.symbol`) as a shape, with its true curve when it
    is round (a disc's or a ring's circles)."""
    return Shape(
        symbol(kind, cx, cy, size), layer, style or Style(), curve=symbol_curve(kind, cx, cy, size)
    )


def circle(x: float, y: float, r: float, layer: Layer = "art", style: Style | None = None) -> Shape:
    """A true circle (renderers draw circles, DXF writes CIRCLE)."""
    return Shape(Point(x, y), layer, style or Style(), radius=r)
