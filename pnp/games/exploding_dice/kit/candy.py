"""Exploding Dice's theme art: candy dice faces, drawn on any of the general dice parts.

The candy shapes are pure geometry (`candy_shapes`); this module paints them in a colour's
ink, as a face drawer the general sticker blocks and paper dice take.
"""

from __future__ import annotations

from pnp.contract.palette import Ink
from pnp.draw.components.dice import corner_marks, shade
from pnp.draw.scene import Item, Shape, Style
from pnp.games.exploding_dice.kit.candy_shapes import candy, silhouette

HALO = 0.035  # white rim round a candy, as a fraction of the face: a die-cut sticker look
OUTLINE = "#1F1F1F"  # candy outlines: near black, softer than pure black next to colour


def candy_colours(ink: Ink) -> dict[str, str]:
    """Candy role -> fill: pale candy bodies and deep accents read on the ink background."""
    return {
        "light": "#FFFFFF",
        "main": ink.light,
        "accent": shade(ink.hex, 0.62),
        "dark": OUTLINE,
        "shine": "#FFFFFF",
    }


def candy_face(value: int, x: float, y: float, size: float, ink: Ink) -> list[Item]:
    """The candy for `value` with a white halo (a sticker look), plus numeral and symbol."""
    fills = candy_colours(ink)
    parts = candy(value, x, y, size)
    line = 0.018 * size
    halo = silhouette(value, x, y, size, pad=HALO)
    out: list[Item] = [Shape(halo, "art", Style(fill="#FFFFFF", stroke=None))]
    for role, g in parts:
        stroke = None if role == "shine" else OUTLINE
        out.append(Shape(g, "art", Style(fill=fills[role], stroke=stroke, stroke_width=line)))
    return out + corner_marks(value, x, y, size, ink)
