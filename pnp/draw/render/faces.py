"""Card faces as images: a kit's decks, and one face rasterised to an exact pixel box.

The print-on-demand and Tabletop Simulator exports share these. A face is drawn from its
SVG (the one renderer of the scene) with the printed art only: a service cuts the card
itself, so the laser's cut line and the fold guides stay out of the picture.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field, replace

import numpy as np
from PIL import Image

from pnp.draw.render.png import MM_PER_INCH, svg_to_png
from pnp.draw.render.svg import component_svg, svg_extent
from pnp.draw.scene import Component

LANDSCAPE = 1.2
"""A card wider than this times its height is turned upright for an upright template."""


@dataclass
class Deck:
    """Cards printed alike and played together: faces of one size sharing one back (None:
    a single-sided card that comes in copies, given a plain back)."""

    name: str
    faces: list[Component] = field(default_factory=list)
    back: Component | None = None

    @property
    def count(self) -> int:
        return sum(c.copies for c in self.faces)

    @property
    def size(self) -> tuple[float, float]:
        return self.faces[0].width, self.faces[0].height

    @property
    def landscape(self) -> bool:
        w, h = self.size
        return w > LANDSCAPE * h


def kit_decks(components: list[Component]) -> list[Deck]:
    """The kit's decks, in kit order: every carded component with a back joins the deck of
    that back (named for it, "-back" dropped); a carded one without a back that comes in
    copies (Desert Home's protection octagons) is a deck of its own. Faces of another size
    than the deck's first make a deck of their own size."""
    decks: dict[str, Deck] = {}
    for comp in components:
        if comp.imposition != "card":
            continue
        if comp.back is not None:
            name = comp.back.name.removesuffix("-back") or comp.back.name
        elif comp.copies > 1:
            name = comp.name
        else:
            continue
        deck = decks.setdefault(name, Deck(name, [], comp.back))
        if deck.faces and deck.size != (comp.width, comp.height):
            sized = f"{name}-{comp.width:g}x{comp.height:g}"
            deck = decks.setdefault(sized, Deck(sized, [], comp.back))
        deck.faces.append(comp)
    return list(decks.values())


def art_only(comp: Component) -> Component:
    """The component as a service prints it: its art layer (texts included), no machine
    or guide lines."""
    return replace(comp, items=[i for i in comp.items if i.layer == "art"], back=None)


def plain_back(like: Component) -> Component:
    """A white back of a card's size and bleed, for a single-sided deck."""
    return Component(
        f"{like.name}-back", "Plain back", like.width, like.height, [], "card", like.bleed
    )


def face_image(
    comp: Component,
    width: int,
    height: int,
    *,
    bleed_px: float = 0,
    turn: bool = False,
    px_per_mm: float | None = None,
) -> Image.Image:
    """The face in a `width` x `height` pixel box, its trim centred: drawn at `px_per_mm`
    (a print service's image: the piece at its own size), or else scaled to fit the trim
    `bleed_px` inside each edge. The component's own bleed art fills any box's bleed.
    `turn` draws it a quarter turn anticlockwise first. Where the face falls short of the
    box its edge pixels are carried out, so no white sliver shows at a cut that drifts."""
    box_w, box_h = (height, width) if turn else (width, height)
    if px_per_mm is None:
        trim_w, trim_h = box_w - 2 * bleed_px, box_h - 2 * bleed_px
        px_per_mm = min(trim_w / comp.width, trim_h / comp.height)
    with_bleed = comp.bleed > 0  # drawn past the trim, so even a trim-sized box has crisp edges
    svg = component_svg(art_only(comp), bleed=with_bleed)
    raw = Image.open(io.BytesIO(svg_to_png(svg, dpi=px_per_mm * MM_PER_INCH))).convert("RGB")
    x0, y0, w_mm, h_mm = svg_extent(comp, with_bleed)
    # where the trim's centre sits in the raster, in pixels
    cx = (-x0 + comp.width / 2) * raw.width / w_mm
    cy = (-y0 + comp.height / 2) * raw.height / h_mm
    a = np.asarray(raw)
    if with_bleed:  # the bleed's outermost pixels are part-covered: never carry those out
        a, cx, cy = a[1:-1, 1:-1], cx - 1, cy - 1
    out = Image.fromarray(_fit(a, box_w, box_h, cx, cy), "RGB")
    return out.transpose(Image.Transpose.ROTATE_90) if turn else out


def _fit(a: np.ndarray, w: int, h: int, cx: float, cy: float) -> np.ndarray:
    """A `w` x `h` window of `a` centred on (cx, cy), its edge pixels carried out past `a`."""
    left, top = round(cx - w / 2), round(cy - h / 2)
    pad = (
        (max(0, -top), max(0, top + h - a.shape[0])),
        (max(0, -left), max(0, left + w - a.shape[1])),
        (0, 0),
    )
    padded = np.pad(a, pad, mode="edge")
    y, x = top + pad[0][0], left + pad[1][0]
    return np.ascontiguousarray(padded[y : y + h, x : x + w])


def png_bytes(img: Image.Image, dpi: float | None = None) -> bytes:
    """PNG bytes (the same image, the same bytes); `dpi` is recorded for print services."""
    out = io.BytesIO()
    if dpi is None:
        img.save(out, "PNG")
    else:
        img.save(out, "PNG", dpi=(dpi, dpi))
    return out.getvalue()
