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

from pnp.colour import contrast_ratio

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
fold, cut, drill and guide line keeps it against the ink it crosses (pnp.checks)."""
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
    halo = max(("#FFFFFF", "#000000"), key=lambda c: contrast_ratio(c, stroke))
    style = Style(stroke=halo, stroke_width=shape.style.stroke_width + 2 * HALO)
    under: Layer = "art" if shape.layer == "art" else "guide"
    return [Shape(shape.geom, under, style, shape.radius), shape]


def check_layer_colours(colours: dict[str, str] | None) -> dict[str, str]:
    """Shops pick their own layer colours; only machine layers may be recoloured."""
    from pnp.errors import PnpError

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


@dataclass(frozen=True)
class Shape:
    """A piece of shapely geometry on a layer. A Point with `radius` is a circle."""

    geom: BaseGeometry
    layer: Layer = "art"
    style: Style = field(default_factory=Style)
    radius: float = 0.0

    def moved(self, dx: float, dy: float) -> Shape:
        return replace(self, geom=affinity.translate(self.geom, dx, dy))


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


def circle(x: float, y: float, r: float, layer: Layer = "art", style: Style | None = None) -> Shape:
    """A true circle (renderers draw circles, DXF writes CIRCLE)."""
    return Shape(Point(x, y), layer, style or Style(), radius=r)
