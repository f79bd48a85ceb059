"""Print colours: each game colour name maps to an Okabe-Ito colour and a symbol.

Okabe-Ito colours stay apart under the common colour-vision deficiencies; the symbol
carries the colour in greyscale.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.runtime.errors import PnpError, shown

OKABE_ITO = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000")


@dataclass(frozen=True)
class Ink:
    """A named print colour with the tint and text colour that go with it."""

    name: str
    hex: str
    symbol: str
    light: str  # a pale tint for large areas (zones) so black lines and text stay readable
    text_on: str  # text colour readable on `hex`


INKS: dict[str, Ink] = {
    "red": Ink("red", "#D55E00", "circle", "#F7D4BC", "#FFFFFF"),
    "green": Ink("green", "#009E73", "triangle", "#BFE8DA", "#FFFFFF"),
    "blue": Ink("blue", "#0072B2", "square", "#BFDAEC", "#FFFFFF"),
    "purple": Ink("purple", "#CC79A7", "diamond", "#F2DDE9", "#000000"),
    "orange": Ink("orange", "#E69F00", "star", "#F8E3B8", "#000000"),
    "sky": Ink("sky", "#56B4E9", "hexagon", "#D3EBF9", "#000000"),
    "yellow": Ink("yellow", "#F0E442", "cross", "#FBF6C7", "#000000"),
    "black": Ink("black", "#000000", "saltire", "#CCCCCC", "#FFFFFF"),
    "white": Ink("white", "#FFFFFF", "ring", "#F4F4F4", "#000000"),
    "brown": Ink("brown", "#8C564B", "pentagon", "#E3D0CC", "#FFFFFF"),
    "grey": Ink("grey", "#8E8E8E", "half-disc", "#E2E2E2", "#000000"),
    "beige": Ink("beige", "#E8D8B0", "triangle-down", "#F7F0DE", "#000000"),
    "gold": Ink("gold", "#C9A227", "crescent", "#F1E6C2", "#000000"),
}
"""Okabe-Ito inks first (player colours), then inks for pieces and tiles: white, brown, grey,
beige and gold. Every ink has its own symbol, so any set of colours plays in greyscale."""


def ink(name: str) -> Ink:
    try:
        return INKS[name]
    except (KeyError, TypeError):  # TypeError: a list or a table, which no name is
        raise PnpError(f"unknown colour {shown(name)}: choose from {', '.join(INKS)}") from None
