"""The Page model: pure data a renderer draws without computing any layout itself.

A Page holds Placements (a Component's items moved, maybe rotated, maybe clipped) and
plain scene items in page coordinates (headers, scale bars, crop marks). Millimetres,
y up, origin at the bottom-left corner of the sheet.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from shapely import affinity
from shapely.geometry import box

from pnp.contract.paper import CARD_STOCK, Paper
from pnp.draw.scene import Component, Item, Shape, Text
from pnp.draw.text import string_width

Box = tuple[float, float, float, float]
"""(x0, y0, x1, y1) in mm, page coordinates."""

Rotation = Literal[0, 90, 180, 270]
Side = Literal["front", "back", "blank"]
Fold = Literal["", "v", "h"]

HEADER_BAND = 6.0
"""Height kept free under the top margin for the page header (mm)."""
FOOTER_BAND = 8.0
"""Height kept free over the bottom margin for scale bars and the 100 % note (mm)."""
FURNITURE_GAP = 2.5
"""Air between the furniture bands and the content, so labels never touch art."""


@dataclass(frozen=True)
class Placement:
    """Draw `component`'s items with its trim's bottom-left footprint corner at (x, y).

    `rotation` turns the component counter-clockwise (degrees) before placing it, and
    `scale` shrinks it (a board printed reduced); the footprint is then `footprint_size`
    wide and high. `clip` (page coordinates) limits
    what is drawn. `side` says which face of the physical piece this is: for a back,
    `component` is the back Component itself, so renderers always draw `component.items`.
    """

    component: Component
    x: float
    y: float
    rotation: Rotation = 0
    clip: Box | None = None
    side: Side = "front"
    scale: float = 1.0

    @property
    def footprint_size(self) -> tuple[float, float]:
        c, k = self.component, self.scale
        return (
            (c.height * k, c.width * k)
            if self.rotation in (90, 270)
            else (c.width * k, c.height * k)
        )

    @property
    def trim_box(self) -> Box:
        w, h = self.footprint_size
        return (self.x, self.y, self.x + w, self.y + h)

    @property
    def matrix(self) -> tuple[float, float, float, float, float, float]:
        """PDF-style affine (a, b, c, d, e, f): page = (a*u + c*v + e, b*u + d*v + f)."""
        k = self.scale
        w, h = self.component.width * k, self.component.height * k
        x, y = self.x, self.y
        if self.rotation == 0:
            return (k, 0.0, 0.0, k, x, y)
        if self.rotation == 90:
            return (0.0, k, -k, 0.0, x + h, y)
        if self.rotation == 180:
            return (-k, 0.0, 0.0, -k, x + w, y + h)
        if self.rotation == 270:
            return (0.0, -k, k, 0.0, x, y + w)
        raise ValueError(f"rotation must be 0, 90, 180 or 270, got {self.rotation}")

    def to_page(self, u: float, v: float) -> tuple[float, float]:
        """Where the component-local point (u, v) lands on the page."""
        a, b, c, d, e, f = self.matrix
        return (a * u + c * v + e, b * u + d * v + f)

    def page_items(self) -> list[Item]:
        """The component's items in page coordinates (for SVG writers and tests)."""
        a, b, c, d, e, f = self.matrix
        out: list[Item] = []
        for it in self.component.items:
            if isinstance(it, Shape):
                out.append(it.transformed([a, c, b, d, e, f]))
            else:
                x, y = self.to_page(it.x, it.y)
                size = it.size * self.scale
                out.append(replace(it, x=x, y=y, size=size, rotate=it.rotate + self.rotation))
        return out


@dataclass
class Page:
    """One printed page. `side == 'back'` means: print on the reverse of the page before;
    'blank' is a page left empty so that the page before has nothing on its reverse."""

    width: float
    height: float
    title: str = ""
    placements: list[Placement] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)
    trim_box: Box | None = None
    bleed_box: Box | None = None
    section: str = ""
    side: Side = "front"
    paper: str = ""
    stackable: bool = False  # cards or cutouts: may share the sheet with another section's
    shares: tuple[str, ...] = ()  # further sections printed on this sheet
    stock: str = CARD_STOCK  # what the sheet prints on: only sheets of one stock are shared
    fold: Fold = ""  # a gutter-fold sheet's fold line: "v" down the middle, "h" across
    reading: bool = False  # read, never cut (cover, assembly map): may back onto another
    job: str = ""  # the print job it belongs to (its stock and sides), set by the document

    @property
    def has_backs(self) -> bool:
        return self.side == "front" and any(p.component.back is not None for p in self.placements)


def blank_page(paper: Paper, title: str, section: str = "") -> Page:
    return Page(paper.width, paper.height, title=title, section=section, paper=paper.name)


def printable_box(paper: Paper) -> Box:
    """Everything a home printer reaches: the sheet minus the printer margin."""
    m = paper.margin
    return (m, m, paper.width - m, paper.height - m)


def content_box(paper: Paper, inset: tuple[float, float] = (0.0, 0.0)) -> Box:
    """Where layout may put content: the printable area minus header and footer bands.

    `inset` (x, y) keeps extra room on each side, e.g. for the duplex back offset, so a
    shifted back page still stays clear of the margin.
    """
    x0, y0, x1, y1 = printable_box(paper)
    ix, iy = abs(inset[0]), abs(inset[1])
    return (
        x0 + ix,
        y0 + FOOTER_BAND + FURNITURE_GAP + iy,
        x1 - ix,
        y1 - HEADER_BAND - FURNITURE_GAP - iy,
    )


def box_size(b: Box) -> tuple[float, float]:
    return (b[2] - b[0], b[3] - b[1])


def grow(b: Box, d: float) -> Box:
    return (b[0] - d, b[1] - d, b[2] + d, b[3] + d)


def union_box(boxes: list[Box]) -> Box:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def item_bounds(it: Item) -> Box:
    """A generous bounding box of one item: strokes, circle radii and text included."""
    if isinstance(it, Shape):
        g = it.geom
        if it.radius > 0:
            g = g.buffer(it.radius, quad_segs=4)
        x0, y0, x1, y1 = g.bounds
        half = (it.style.stroke_width / 2) if it.style.stroke else 0.0
        return (x0 - half, y0 - half, x1 + half, y1 + half)
    return text_bounds(it)


def text_bounds(t: Text) -> Box:
    """Approximate box of a text line: Vera's ascent is under 0.93 em, descent 0.24 em."""
    em = t.size * 25.4 / 72.0
    w = string_width(t.text, t.size, t.bold)
    x0 = {"start": 0.0, "middle": -w / 2, "end": -w}[t.anchor]
    local = box(x0, -0.24 * em, x0 + w, 0.93 * em)
    if t.rotate:
        local = affinity.rotate(local, t.rotate, origin=(0, 0))
    bx0, by0, bx1, by1 = local.bounds
    return (t.x + bx0, t.y + by0, t.x + bx1, t.y + by1)


def component_extent(c: Component) -> Box:
    """Bounds of a component's trim and everything it draws, in its own coordinates."""
    boxes: list[Box] = [(0.0, 0.0, c.width, c.height)]
    boxes.extend(item_bounds(it) for it in c.items)
    return union_box(boxes)


def all_page_items(page: Page) -> list[Item]:
    """Every item on the page in page coordinates (placements first, then page items)."""
    out: list[Item] = []
    for p in page.placements:
        out.extend(p.page_items())
    out.extend(page.items)
    return out
