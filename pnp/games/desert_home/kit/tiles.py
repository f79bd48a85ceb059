"""Path tiles and protection cards: octagons cut from printed card.

Path tiles are double-sided: a beige face with one green cactus (safe) or three red cacti
(a thirst field), and one black back for all, so the stack is drawn blind and a thirst
field can be flipped to its black side. They are imposed like cards (bleed, crop marks on
the bounding square), and the octagon's corners are cut along the `cut` outline.
"""

from __future__ import annotations

import math

from shapely import affinity
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from geometry.octagons import octagon
from pnp.contract.palette import ink
from pnp.contract.params import PrintParams
from pnp.draw.scene import CUT_STYLE, Component, Shape, Style, Text
from pnp.games.desert_home.params import CACTUS_SHARE, DesertHomeParams, validate

FACE = ink("beige").hex
FACE_LINE = "#BFA97A"  # the inner border of a face: a finished look, and it hides cutting slop
BACK = ink("black").hex
BACK_LINE = "#3A3A3A"
SAFE_CACTUS = ink("green").hex
THIRST_CACTUS = ink("red").hex
GOLD = ink("gold").hex
GOLD_LINE = "#8A6D12"
OUTLINE = "#1F1F1F"
EDGE = 0.25  # mm: the printed trim line of a face
INNER_BORDER = 0.07  # inset of the inner border line, as a share of the tile
THIRST_PLACES = ((0.0, 0.03), (-0.2, -0.27), (0.2, -0.27))
"""Base points of the three thirst cacti from the tile centre, in tiles: back one first."""
SAFE_SHARE = 0.52  # height of the single cactus of a safe tile, as a share of the tile
PT = 72 / 25.4


def cactus(x: float, y: float, height: float) -> BaseGeometry:
    """A saguaro standing on (x, y): a trunk and two raised arms, round-ended."""
    h = height
    w = 0.26 * h
    arm = 0.72 * w
    trunk = LineString([(x, y + w / 2), (x, y + h - w / 2)]).buffer(w / 2)
    left = LineString([(x, y + 0.36 * h), (x - 0.3 * h, y + 0.36 * h), (x - 0.3 * h, y + 0.68 * h)])
    right = LineString([(x, y + 0.5 * h), (x + 0.3 * h, y + 0.5 * h), (x + 0.3 * h, y + 0.84 * h)])
    return unary_union([trunk, left.buffer(arm / 2), right.buffer(arm / 2)])


def _cactus_items(x: float, y: float, height: float, fill: str) -> list[Shape]:
    """A cactus with its shadow on the sand and a rib down the trunk."""
    shadow = affinity.scale(Point(x, y).buffer(0.34 * height, quad_segs=16), 1.0, 0.18)
    rib = LineString([(x, y + 0.12 * height), (x, y + 0.9 * height)])
    line = max(0.2, 0.012 * height)
    return [
        Shape(shadow, style=Style(fill=FACE_LINE, stroke=None)),
        Shape(cactus(x, y, height), style=Style(fill=fill, stroke=OUTLINE, stroke_width=line)),
        Shape(rib, style=Style(stroke="#FFFFFF", stroke_width=line, opacity=0.6)),
    ]


def _octagon_card(
    name: str, title: str, size: float, printing: PrintParams, fill: str, line: str
) -> Component:
    """An octagon on card: background into the bleed, an inner border, the octagon as
    trim outline."""
    b = printing.bleed
    outline = octagon(size / 2, size / 2, size)
    comp = Component(name, title, size, size, imposition="card", bleed=b, outline=outline)
    comp.add(Shape(box(-b, -b, size + b, size + b), style=Style(fill=fill, stroke=None)))
    inner = octagon(size / 2, size / 2, size * (1 - 2 * INNER_BORDER))
    comp.add(Shape(inner.exterior, style=Style(stroke=line, stroke_width=0.35)))
    return comp


def _add_cut(comp: Component, line: str) -> None:
    """The trim: a printed edge line to cut along by hand, and the machine hairline."""
    ring = comp.outline.exterior  # type: ignore[union-attr]
    comp.add(Shape(ring, style=Style(stroke=line, stroke_width=EDGE)))
    comp.add(Shape(ring, "cut", CUT_STYLE))


def tile_back(p: DesertHomeParams, printing: PrintParams) -> Component:
    """The black side every path tile shares (no cut line: the faces carry it)."""
    return _octagon_card("tile-back", "Path tile back", p.tile_size, printing, BACK, BACK_LINE)


def path_tiles(p: DesertHomeParams, printing: PrintParams) -> list[Component]:
    """The safe and the thirst tile faces, with `copies` from the deck, sharing one back."""
    validate(p)
    s = p.tile_size
    back = tile_back(p, printing)
    out = []
    if p.deck_safe:
        safe = _octagon_card("tile-safe", "Path tile: safe", s, printing, FACE, FACE_LINE)
        h = SAFE_SHARE * s
        safe.add(*_cactus_items(s / 2, s / 2 - 0.48 * h, h, SAFE_CACTUS))
        _finish(safe, back, p.deck_safe, "safe", 1)
        out.append(safe)
    if p.deck_thirst:
        thirst = _octagon_card("tile-thirst", "Path tile: thirst", s, printing, FACE, FACE_LINE)
        h = CACTUS_SHARE * s
        for dx, dy in THIRST_PLACES:
            thirst.add(*_cactus_items(s / 2 + dx * s, s / 2 + dy * s, h, THIRST_CACTUS))
        _finish(thirst, back, p.deck_thirst, "thirst", 3)
        out.append(thirst)
    return out


def _finish(comp: Component, back: Component, copies: int, kind: str, cacti: int) -> None:
    _add_cut(comp, FACE_LINE)
    comp.back = back
    comp.copies = copies
    comp.meta.update(game="desert-home", kind=kind, cacti=cacti, across_flats=comp.width)


def protection_cards(p: DesertHomeParams, printing: PrintParams) -> Component:
    """Golden octagons laid on a thirst field for the rest of the game: a water drop and
    the word, so it reads in greyscale too."""
    validate(p)
    s = p.tile_size
    comp = _octagon_card("protection", "Protection card", s, printing, GOLD, GOLD_LINE)
    drop = water_drop(s / 2, s * 0.56, s * 0.36)
    comp.add(Shape(drop, style=Style(fill="#FFFFFF", stroke=GOLD_LINE, stroke_width=0.4)))
    size = max(5.0, 0.15 * s)
    comp.add(Text(s / 2, s * 0.2, "PROTECTED", size, True, "middle", OUTLINE))
    _add_cut(comp, GOLD_LINE)
    comp.copies = p.protection_cards
    comp.meta.update(game="desert-home", kind="protection", across_flats=s)
    return comp


def water_drop(x: float, y: float, height: float) -> Polygon:
    """A drop `height` tall centred on (x, y): a round belly under a pointed top."""
    r = height * 0.34
    cy = y - height / 2 + r
    belly = Point(x, cy).buffer(r, quad_segs=16)
    tip = (x, y + height / 2)
    a = math.asin(r / (tip[1] - cy))
    t1 = (x + r * math.cos(a), cy + r * math.sin(a))
    t2 = (x - r * math.cos(a), cy + r * math.sin(a))
    return unary_union([belly, Polygon([tip, t1, (x, cy), t2])])
