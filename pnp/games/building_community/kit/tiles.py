"""Hexagon tiles: one per space, the same colour on both faces, imposed like cards.

A tile is a flat-top hexagon `tile_size` across flats, as the board's spaces are, so its
bounding box is tile_size high and the box's top and bottom edges are the hexagon's flats:
cutting along the crop marks leaves only the four slanted edges to cut on the line. The
colour fills the whole bleed, so slop never shows paper. Three copies of the colour's
symbol sit towards alternate corners, clear of a pawn standing in the middle, so a tile
still reads in greyscale with a pawn on it. The back repeats the face: a tile that flips
over while being swapped keeps its colour.
"""

from __future__ import annotations

import math
from collections import Counter

from shapely.geometry import Polygon, box

from geometry import hexgrid
from pnp.contract.palette import ink
from pnp.draw.kit import PrintParams
from pnp.draw.scene import CUT_STYLE, Component, Shape, Style, symbol_shape
from pnp.games.building_community.params import BuildingCommunityParams
from pnp.runtime.errors import PnpError

SYMBOL_SHARE = 0.2  # symbol size / tile across flats
SYMBOL_REACH = 0.395  # symbol centre from the tile centre, in tiles, towards a corner
SYMBOL_CORNERS = (60.0, 180.0, 300.0)  # alternate corners of a flat-top hexagon
MIN_SYMBOL = 3.0  # mm: below this a triangle, a circle and a square look alike
EDGE = "#1E1E1E"  # a printed line on the cut line: scissors need to see where to go
EDGE_LINE = 0.3  # mm


def tile_width(size: float) -> float:
    """The tile's box: across the corners (2 / sqrt(3) times across flats), rounded up
    to 0.01 mm so sheets name a readable size."""
    return math.ceil(size * 2 / hexgrid.SQRT3 * 100) / 100


def tile_outline(size: float) -> Polygon:
    """The cut hexagon in the tile's own box (origin at the box's lower left)."""
    return hexgrid.hexagon(size, "flat", tile_width(size) / 2, size / 2)


def symbol_size(p: BuildingCommunityParams) -> float:
    return p.tile_size * SYMBOL_SHARE


def check_symbol_room(p: BuildingCommunityParams) -> None:
    """A tile must carry a symbol a player can tell apart: greyscale play depends on it."""
    size = symbol_size(p)
    if size < MIN_SYMBOL:
        least = MIN_SYMBOL / SYMBOL_SHARE
        raise PnpError(
            f"a {p.tile_size:g} mm tile is too small to carry its colour symbol "
            f"({size:.1f} mm, at least {MIN_SYMBOL:g} mm): use tiles of {least:g} mm or more"
        )


def colour_counts(start_colours: tuple[int, ...]) -> tuple[int, int, int]:
    """Tiles of each colour the board needs: one per space of that start colour."""
    n = Counter(start_colours)
    return n[0], n[1], n[2]


def _face(
    name: str, title: str, p: BuildingCommunityParams, printing: PrintParams, colour: str
) -> Component:
    size, width, b = p.tile_size, tile_width(p.tile_size), printing.bleed
    k = ink(colour)
    outline = tile_outline(size)
    comp = Component(name, title, width, size, imposition="card", bleed=b, outline=outline)
    comp.add(Shape(box(-b, -b, width + b, size + b), style=Style(fill=k.hex, stroke=None)))
    for x, y in symbol_places(size):
        comp.add(
            symbol_shape(k.symbol, x, y, symbol_size(p), style=Style(fill=k.text_on, stroke=None))
        )
    return comp


def symbol_places(size: float) -> list[tuple[float, float]]:
    """Centres of the three symbols in the tile's box."""
    cx, cy = tile_width(size) / 2, size / 2
    reach = size * SYMBOL_REACH
    return [
        (cx + reach * math.cos(math.radians(a)), cy + reach * math.sin(math.radians(a)))
        for a in SYMBOL_CORNERS
    ]


def tiles(
    p: BuildingCommunityParams, printing: PrintParams, start_colours: tuple[int, ...]
) -> list[Component]:
    """One tile component per colour, `copies` = its spaces on the board, each with a back."""
    check_symbol_room(p)
    out = []
    for i, count in enumerate(colour_counts(start_colours)):
        colour = p.colours[i]
        front = _face(f"tile-{colour}", f"{colour.capitalize()} tile", p, printing, colour)
        edge = front.outline.exterior  # type: ignore[union-attr]
        front.add(Shape(edge, style=Style(stroke=EDGE, stroke_width=EDGE_LINE)))
        front.add(Shape(edge, "cut", CUT_STYLE))
        front.copies = count
        front.back = _face(
            f"tile-{colour}-back", f"{colour.capitalize()} tile (back)", p, printing, colour
        )
        front.meta.update(colour=colour, colour_index=i)
        out.append(front)
    return out
