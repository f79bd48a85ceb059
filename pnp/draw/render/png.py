"""PNG previews, rasterised from the SVG with cairosvg so the two never disagree."""

from __future__ import annotations

import cairosvg

from pnp.draw.render.svg import component_svg, svg_extent
from pnp.draw.scene import Component
from pnp.runtime.interrupt import held

MM_PER_INCH = 25.4
PREVIEW_MAX_PX = 1200
PREVIEW_MAX_DPI = 150.0


def svg_to_png(svg: str, dpi: float = 150) -> bytes:
    """Rasterise an mm-sized SVG at `dpi` on white (transparent previews vanish on dark pages).

    The pixel size is the SVG's size in inches times `dpi`, rounded to whole pixels by cairosvg.
    """
    if dpi <= 0:
        raise ValueError(f"dpi must be positive, got {dpi}")
    # cairo would turn a Ctrl-C in its write callback into CAIRO_STATUS_WRITE_ERROR: hold
    # it until the PNG is made (well under a second), then stop as anywhere else
    with held():
        return cairosvg.svg2png(bytestring=svg.encode("utf-8"), dpi=dpi, background_color="white")


def preview_dpi(
    width_mm: float,
    height_mm: float,
    max_px: int = PREVIEW_MAX_PX,
    max_dpi: float = PREVIEW_MAX_DPI,
) -> float:
    """The dpi that keeps the long side at most `max_px` pixels, but never above `max_dpi`."""
    long_side = max(width_mm, height_mm)
    if long_side <= 0:
        raise ValueError("a preview needs a positive size")
    return min(max_dpi, max_px * MM_PER_INCH / long_side)


def component_png(
    component: Component,
    dpi: float | None = None,
    bleed: bool = True,
    colours: dict[str, str] | None = None,
    max_px: int = PREVIEW_MAX_PX,
) -> bytes:
    """A preview PNG of the component; `dpi=None` picks one so the long side is <= `max_px`.

    Strokes thinner than one pixel (the 0.01 mm cut hairline) are drawn one pixel wide,
    so the cut line shows on screen.
    """
    _, _, w, h = svg_extent(component, bleed)
    if dpi is None:
        dpi = preview_dpi(w, h, max_px)
    svg = component_svg(component, bleed=bleed, colours=colours, hairline=MM_PER_INCH / dpi)
    return svg_to_png(svg, dpi)
