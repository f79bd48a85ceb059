"""Figures and tents, two ways: round tokens (a magnet glued under each) and tent-fold
standees (cut out, folded at the top and at both feet, the feet glued under each other,
so each stands as a little three-sided tent on a footprint that fits its token's circle).

One component per colour and kind holds all of that colour's pieces: `figures_per_colour`
figures and `tents_per_colour` tents. A tent counts as `tent_value` figures, printed on it.
"""

from __future__ import annotations

import dataclasses

from shapely.geometry import Point, Polygon
from shapely.ops import unary_union

from geometry.folding import TentFold, tent_for_footprint
from geometry.shapes import rounded_rect, symbol
from pnp.contract.palette import Ink, ink
from pnp.contract.params import PrintParams
from pnp.draw.components.dice import shade
from pnp.draw.components.standees import tent_standee
from pnp.draw.scene import CUT_STYLE, Component, Item, Shape, Style, Text, circle, symbol_shape
from pnp.games.desert_home.kit.refuges import tent_icon
from pnp.games.desert_home.params import DesertHomeParams, colours_in_play, validate

GAP = 2.0  # mm between pieces: room for scissors
PAD = 1.5  # mm round a block of pieces
TITLE_PT = 6.0
PT = 72 / 25.4
TOKEN_COLUMNS = 4  # round figures per row in a block: two colours' blocks side by side
STANDEE_COLUMNS = 6  # standees per row in a block, at least
STANDEE_ROWS = 3  # rows of standees in a block, at most: a block stays shorter than a page
EDGE_SHADE = 0.7  # a standee's edge line: its colour darkened, so a white one shows on paper
COIN_RING = 0.8  # mm the decorative ring sits inside a token's edge
STANDEE_MARGIN = 1.2  # mm of plain colour round a standee's picture
STANDEE_RADIUS = 1.5  # mm: rounded corners do not dog-ear
INK = "#2B2B2B"  # the word on a standee's pale feet


def _grid_origin(height: float) -> float:
    """The y of the top of a block's piece area, under its title line."""
    return height - PAD - TITLE_PT / PT - GAP


def figure_tokens(p: DesertHomeParams, printing: PrintParams) -> list[Component]:
    """Round tokens, one block per colour: the figures in rows, the tents beside them."""
    validate(p)
    d, t = p.figure_size, p.tent_size
    fig_cols = min(TOKEN_COLUMNS, max(p.figures_per_colour, 1))
    fig_rows = -(-p.figures_per_colour // fig_cols)
    tent_rows = p.tents_per_colour
    area_h = max(fig_rows * (d + GAP), tent_rows * (t + GAP)) - GAP
    width = 2 * PAD + fig_cols * (d + GAP) + (t if tent_rows else -GAP)
    height = 2 * PAD + TITLE_PT / PT + GAP + max(area_h, 0.0)
    out = []
    for colour in colours_in_play(p):
        k = ink(colour)
        comp = Component(f"tokens-{colour}", f"Round figures and tents, {colour}", width, height)
        top = _grid_origin(height)
        comp.add(
            _title(
                f"{colour.upper()} · {p.figures_per_colour} figures, "
                f"{p.tents_per_colour} tents · magnet {p.magnet_diameter:g} mm under each",
                height,
                width,
            )
        )
        for i in range(p.figures_per_colour):
            r, c = divmod(i, fig_cols)
            x = PAD + c * (d + GAP) + d / 2
            y = top - r * (d + GAP) - d / 2
            comp.add(*_coin(k, x, y, d, symbol(k.symbol, x, y, 0.5 * d)))
        tx = PAD + fig_cols * (d + GAP) + t / 2
        for i in range(tent_rows):
            y = top - i * (t + GAP) - t / 2
            comp.add(*_coin(k, tx, y + 0.06 * t, t, tent_icon(tx, y + 0.1 * t, 0.55 * t)))
            comp.add(
                Text(tx, y - 0.34 * t, f"×{p.tent_value}", 0.16 * t * PT, True, "middle", k.text_on)
            )
        comp.meta.update(
            game="desert-home",
            kind="tokens",
            colour=colour,
            figures=p.figures_per_colour,
            tents=p.tents_per_colour,
            figure_size=d,
            tent_size=t,
        )
        out.append(comp)
    return out


def _title(text: str, height: float, width: float) -> Text:
    size = TITLE_PT
    while size > 4.0 and len(text) * size * 0.55 / PT > width - 2 * PAD:
        size -= 0.25
    return Text(PAD, height - PAD - TITLE_PT / PT * 0.73, text, size, True)


def _coin(k: Ink, x: float, y: float, d: float, mark: Polygon) -> list[Item]:
    """A token: a disc in the colour, a fine ring inside its edge (so a black token still
    shows on a black field), the mark in the colour's text colour, the cut circle."""
    r = d / 2
    return [
        circle(x, y, r, style=Style(fill=k.hex, stroke=None)),
        circle(x, y, r - COIN_RING, style=Style(fill=None, stroke=k.text_on, stroke_width=0.35)),
        Shape(mark, style=Style(fill=k.text_on, stroke=None)),
        circle(x, y, r, "cut", CUT_STYLE),
    ]


def figure_standees(p: DesertHomeParams, printing: PrintParams) -> list[Component]:
    """Tent-fold standees, one block per colour: each a strip folded at the top into a
    tent and glued on its two feet, standing on a footprint that fits its token's circle
    (so it stands on the places a blade has for tokens)."""
    validate(p)
    h = p.standee_height
    fig = tent_for_footprint(0, 0, p.figure_size, h)
    tent = tent_for_footprint(0, 0, p.tent_size, h)
    wide = max(STANDEE_COLUMNS, -(-p.figures_per_colour // STANDEE_ROWS))
    fig_cols = min(wide, max(p.figures_per_colour, 1))
    fig_rows = -(-p.figures_per_colour // fig_cols)
    # tents in a column beside the figures, as tall as theirs (two at least), then another
    tent_rows = max(2, int((fig_rows * (fig.length + GAP)) // (tent.length + GAP)))
    tent_cols = -(-p.tents_per_colour // tent_rows)
    used_rows = min(p.tents_per_colour, tent_rows)
    area = max(fig_rows * (fig.length + GAP), used_rows * (tent.length + GAP)) - GAP
    width = 2 * PAD + fig_cols * (fig.width + GAP) + tent_cols * (tent.width + GAP) - GAP
    height = 2 * PAD + TITLE_PT / PT + GAP + max(area, 0.0)
    out = []
    for colour in colours_in_play(p):
        k = ink(colour)
        comp = Component(
            f"standees-{colour}", f"Tent-fold figures and tents, {colour}", width, height
        )
        comp.add(
            _title(
                f"{colour.upper()} · fold on the dashed lines, glue the feet under each other",
                height,
                width,
            )
        )
        top = _grid_origin(height)
        folds: list = []
        for i in range(p.figures_per_colour):
            r, c = divmod(i, fig_cols)
            x0, y0 = PAD + c * (fig.width + GAP), top - r * (fig.length + GAP) - fig.length
            t = dataclasses.replace(fig, x0=x0, y0=y0)
            folds += _standee(comp, k, t, list(_person(k, x0, y0 + t.base, t.width, h)))
        tx = PAD + fig_cols * (fig.width + GAP)
        for i in range(p.tents_per_colour):
            col, row = divmod(i, tent_rows)
            x0 = tx + col * (tent.width + GAP)
            y0 = top - row * (tent.length + GAP) - tent.length
            t = dataclasses.replace(tent, x0=x0, y0=y0)
            folds += _standee(comp, k, t, _tent_picture(k, x0, y0 + t.base, t.width, h, p))
        comp.fold_lines = tuple(folds)
        comp.meta.update(
            game="desert-home",
            kind="standees",
            colour=colour,
            height=h,
            footprints={"figure": (fig.width, fig.base), "tent": (tent.width, tent.base)},
        )
        out.append(comp)
    return out


def _standee(comp: Component, k: Ink, tent: TentFold, picture: list[Item]) -> tuple:
    return tent_standee(
        comp,
        tent,
        k.hex,
        picture,
        edge=shade(k.hex, EDGE_SHADE),
        feet_fill=k.light,
        feet_text=INK,
        radius=STANDEE_RADIUS,
    )


def _person(k: Ink, x0: float, y0: float, w: float, h: float) -> list[Shape]:
    """A person from the front on a panel whose lower-left corner is (x0, y0): head,
    shoulders, two legs, and the colour's symbol on the chest."""
    m = STANDEE_MARGIN
    bw, bh = w - 2 * m, h - 2 * m
    cx, foot = x0 + w / 2, y0 + m
    head_r = min(0.3 * bw, 0.13 * bh)
    head_y = foot + bh - head_r
    shoulders = head_y - head_r - 0.5
    hips = foot + 0.4 * (shoulders - foot)
    torso = rounded_rect(cx - 0.45 * bw, hips, 0.9 * bw, shoulders - hips, 0.3 * bw)
    leg_w = 0.38 * bw
    legs = [
        rounded_rect(x, foot, leg_w, hips - foot + 1.0, 0.3 * leg_w)
        for x in (cx - 0.05 * bw - leg_w, cx + 0.05 * bw)
    ]
    fill = Style(fill=k.text_on, stroke=None)
    chest = symbol(k.symbol, cx, (hips + shoulders) / 2, 0.5 * bw)
    return [
        Shape(Point(cx, head_y).buffer(head_r, quad_segs=16), style=fill),
        Shape(unary_union([torso, *legs]), style=fill),
        Shape(chest, style=Style(fill=k.hex, stroke=None)),
    ]


def _tent_picture(
    k: Ink, x0: float, y0: float, w: float, h: float, p: DesertHomeParams
) -> list[Item]:
    """A tent on the lower half with the colour's symbol above its door, and its worth."""
    m = STANDEE_MARGIN
    cx = x0 + w / 2
    size = min(w - 2 * m, 0.75 * (h - 2 * m))
    s = size / 2
    cy = y0 + m + 0.55 * s + 0.5
    pt = min(7.0, 0.3 * (h - 2 * m - 1.3 * s) * PT)
    return [
        Shape(tent_icon(cx, cy, size), style=Style(fill=k.text_on, stroke=None)),
        symbol_shape(k.symbol, cx, cy + 0.38 * s, 0.3 * s, style=Style(fill=k.hex, stroke=None)),
        Text(cx, cy + 0.75 * s + 1.5, f"×{p.tent_value}", pt, True, "middle", k.text_on),
    ]
