"""Pawns: six numbered pieces, each its own colour and symbol, as tokens and standees.

Pawns stand on coloured tiles, so each carries a white rim with a dark edge: the rim is
what makes a pawn stand out on a tile of any colour (the checks measure it). A token is
a disc smaller than the tile, so the tile's corner symbols stay in view round it. A
standee is a fold-over tent: one strip, scored across the middle, each half showing the
pawn upright once folded, so it reads from both sides of the table.
"""

from __future__ import annotations

from shapely.geometry import Point

from geometry.folding import TentFold
from geometry.shapes import rounded_rect, rounded_rect_curve, symbol
from pnp.contract.palette import ink
from pnp.draw.components.standees import tent_standee
from pnp.draw.scene import CUT_STYLE, Component, Item, Shape, Style, Text, circle, curved
from pnp.games.building_community.params import BuildingCommunityParams

PAWN_SHARE = 0.56  # token diameter / tile across flats: the tile's symbols stay clear
STANDEE_PANEL = 1.3  # a standee half's height / its width
RIM = 0.9  # white rim round the pawn colour, mm
RIM_COLOUR = "white"  # a palette name: the checks measure it against every tile colour
EDGE = "#222222"
EDGE_LINE = 0.25


def pawn_size(p: BuildingCommunityParams) -> float:
    """A pawn token's diameter (and a standee's width), from the tile it stands on."""
    return p.tile_size * PAWN_SHARE


def _mark(k: int, colour: str, cx: float, cy: float, size: float) -> list[Item]:
    """The pawn's symbol above its number, in the colour that reads on the pawn colour."""
    c = ink(colour)
    sym = symbol(c.symbol, cx, cy + 0.12 * size, 0.42 * size)
    pt = 0.5 * size  # a number about a fifth of the piece high
    num = Text(cx, cy - 0.36 * size, str(k + 1), pt, True, "middle", c.text_on)
    return [Shape(sym, style=Style(fill=c.text_on, stroke=None)), num]


def pawn_tokens(p: BuildingCommunityParams) -> list[Component]:
    """One round token per pawn colour, to cut out."""
    d = pawn_size(p)
    r = d / 2
    out = []
    for k, colour in enumerate(p.pawn_colours):
        comp = Component(
            f"pawn-token-{k + 1}",
            f"Pawn {k + 1} token ({colour})",
            d,
            d,
            imposition="cutout",
            outline=Point(r, r).buffer(r, quad_segs=32),
        )
        comp.add(circle(r, r, r, style=Style(fill="#FFFFFF", stroke=EDGE, stroke_width=EDGE_LINE)))
        comp.add(circle(r, r, r - RIM, style=Style(fill=ink(colour).hex, stroke=None)))
        comp.add(*_mark(k, colour, r, r, d))
        comp.add(circle(r, r, r, "cut", CUT_STYLE))
        comp.meta.update(pawn=k, colour=colour)
        out.append(comp)
    return out


def pawn_standees(p: BuildingCommunityParams) -> list[Component]:
    """One fold-over tent per pawn: cut round the strip, score across its middle."""
    w = pawn_size(p)
    half = w * STANDEE_PANEL
    out = []
    for k, colour in enumerate(p.pawn_colours):
        outline = rounded_rect(0, 0, w, 2 * half, 1.0)
        comp = Component(
            f"pawn-standee-{k + 1}",
            f"Pawn {k + 1} standee ({colour})",
            w,
            2 * half,
            imposition="cutout",
            outline=outline,
        )
        lo, hi = RIM, half - RIM * 0.6  # the front panel; the shared tent turns it for the back
        panel = curved(
            rounded_rect_curve(RIM, lo, w - 2 * RIM, hi - lo, 0.8),
            style=Style(fill=ink(colour).hex, stroke=None),
        )
        picture = [panel, *_mark(k, colour, w / 2, (lo + hi) / 2, w)]
        comp.fold_lines = tent_standee(
            comp,
            TentFold(0, 0, w, half),
            "#FFFFFF",
            picture,
            edge=EDGE,
            feet_fill="#FFFFFF",
            radius=1.0,
            edge_width=EDGE_LINE,
        )
        comp.meta.update(pawn=k, colour=colour)
        out.append(comp)
    return out
