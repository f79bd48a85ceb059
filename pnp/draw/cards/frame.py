"""A card's frame: the text colours on its inks, the safe zone inside its rounded
corners, and whether it fits a tin."""

from __future__ import annotations

import math

from shapely.geometry import Polygon

from geometry.folding import container, fits_inside
from geometry.shapes import rounded_rect
from pnp.draw.cards.style import (
    INK_TEXT,
    MIN_SAFE,
)

# --- colour helpers ----------------------------------------------------------------------


def _luminance(hex_colour: str) -> float:
    h = hex_colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    r, g, b = (int(h[i : i + 2], 16) / 255 for i in (0, 2, 4))

    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def text_on(hex_colour: str) -> str:
    """Black or white, whichever reads better on `hex_colour` (WCAG contrast)."""
    lum = _luminance(hex_colour)
    return "#FFFFFF" if (1.05 / (lum + 0.05)) >= ((lum + 0.05) / 0.05) else "#000000"


def heading_colour(accent: str) -> str:
    """Headings use the accent when it is dark enough to read on cream, else near-black."""
    return accent if _luminance(accent) < 0.18 else INK_TEXT


# --- safe zone ---------------------------------------------------------------------------


def safe_x(y_lo: float, y_hi: float, height: float, radius: float, safe: float = MIN_SAFE) -> float:
    """Smallest x at which a text box spanning y_lo..y_hi stays `safe` mm inside a trim
    with rounded corners (the trim's corner arcs eat into the margin near the corners)."""
    rr = max(radius - safe, 0.0)
    x = safe
    for y in (y_lo, y_hi):
        if y < safe - 1e-9 or y > height - safe + 1e-9:
            return math.inf
        dy = max(safe + rr - y, y - (height - safe - rr), 0.0)
        if dy > rr:
            return math.inf
        x = max(x, safe + rr - math.sqrt(rr * rr - dy * dy))
    return x


def card_outline(width: float, height: float, radius: float) -> Polygon:
    """The rounded trim of a card, in its own coordinates."""
    return rounded_rect(0, 0, width, height, radius)


def fits_tin(
    width: float,
    height: float,
    radius: float,
    tin_width: float,
    tin_height: float,
    tin_radius: float,
) -> bool:
    """Does a rounded card lie inside the tin's rounded outline? (geometry, not sizes)"""
    tin = container(tin_width, tin_height, tin_radius)
    return fits_inside(card_outline(width, height, radius), tin)


def tin_fit_radius(
    width: float,
    height: float,
    radius: float,
    tin_width: float,
    tin_height: float,
    tin_radius: float,
    step: float = 0.5,
) -> float | None:
    """The card's corner radius, raised in `step`s until the card fits the tin; None if no
    radius makes it fit. A mint tin's big corner radius catches square-ish corners."""
    r = radius
    while r <= min(width, height) / 2 + 1e-9:
        if fits_tin(width, height, r, tin_width, tin_height, tin_radius):
            return r
        r = math.floor(r / step + 1 + 1e-9) * step
    return None
