"""Figures and tents, two ways: round tokens (a magnet glued under each) and fold-over
standees (cut out, folded on the score line into a little A-frame that stands alone).

One component per colour and kind holds all of that colour's pieces: `figures_per_colour`
figures and `tents_per_colour` tents. A tent counts as `tent_value` figures, printed on it.
"""

from __future__ import annotations

from dataclasses import replace

from shapely import affinity
from shapely.geometry import LineString, Point, Polygon

from geometry.shapes import centred_rounded_rect, rounded_rect, symbol
from pnp.components.dice import shade
from pnp.games.desert_home.params import DesertHomeParams, colours_in_play, validate
from pnp.games.desert_home.refuges import tent_icon
from pnp.palette import Ink, ink
from pnp.params import PrintParams
from pnp.scene import CUT_STYLE, SCORE_STYLE, Component, Item, Shape, Style, Text, circle

GAP = 2.0  # mm between pieces: room for scissors
PAD = 1.5  # mm round a block of pieces
TITLE_PT = 6.0
PT = 72 / 25.4
TOKEN_COLUMNS = 4  # round figures per row in a block: two colours' blocks side by side
STANDEE_COLUMNS = 6  # standees per row in a block
EDGE_SHADE = 0.7  # a standee's edge line: its colour darkened, so a white one shows on paper
COIN_RING = 0.8  # mm the decorative ring sits inside a token's edge
STANDEE_MARGIN = 1.2  # mm of plain colour round a standee's picture
STANDEE_RADIUS = 1.5  # mm: rounded corners do not dog-ear
FOLD_TICK = 1.5  # mm: fold marks at both ends, in the text colour, so dark colours show them


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
    """Fold-over standees, one block per colour: each a strip with the same picture on
    both halves (the upper one upside down), folded on the dashed line."""
    validate(p)
    d, t, h = p.figure_size, p.tent_size, p.standee_height
    fig_cols = min(STANDEE_COLUMNS, max(p.figures_per_colour, 1))
    fig_rows = -(-p.figures_per_colour // fig_cols)
    tent_cols = 1 if p.tents_per_colour else 0
    rows = max(fig_rows, p.tents_per_colour)
    width = 2 * PAD + fig_cols * (d + GAP) + tent_cols * (t + GAP) - GAP
    height = 2 * PAD + TITLE_PT / PT + GAP + rows * (2 * h + GAP) - GAP
    out = []
    for colour in colours_in_play(p):
        k = ink(colour)
        comp = Component(
            f"standees-{colour}", f"Fold-over figures and tents, {colour}", width, height
        )
        comp.add(
            _title(f"{colour.upper()} · fold on the dashed line, glue the halves", height, width)
        )
        top = _grid_origin(height)
        folds = []
        for i in range(p.figures_per_colour):
            r, c = divmod(i, fig_cols)
            x0 = PAD + c * (d + GAP)
            folds.append(_standee(comp, k, x0, top - r * (2 * h + GAP) - 2 * h, d, h, None, p))
        tx = PAD + fig_cols * (d + GAP)
        for i in range(p.tents_per_colour):
            folds.append(_standee(comp, k, tx, top - i * (2 * h + GAP) - 2 * h, t, h, "tent", p))
        comp.fold_lines = tuple(folds)
        comp.meta.update(game="desert-home", kind="standees", colour=colour, height=h)
        out.append(comp)
    return out


def _standee(
    comp: Component,
    k: Ink,
    x0: float,
    y0: float,
    w: float,
    h: float,
    kind: str | None,
    p: DesertHomeParams,
) -> tuple[tuple[float, float], tuple[float, float]]:
    """One standee with its lower-left corner at (x0, y0); returns its fold line."""
    outline = rounded_rect(x0, y0, w, 2 * h, STANDEE_RADIUS)
    comp.add(Shape(outline, style=Style(fill=k.hex, stroke=None)))
    picture: list[Item] = (
        _tent_picture(k, x0, y0, w, h, p) if kind == "tent" else list(_person(k, x0, y0, w, h))
    )
    cx, cy = x0 + w / 2, y0 + h
    for item in picture:
        comp.add(item)
        if isinstance(item, Text):
            comp.add(replace(item, x=2 * cx - item.x, y=2 * cy - item.y, rotate=180.0))
        else:
            comp.add(replace(item, geom=affinity.rotate(item.geom, 180, origin=(cx, cy))))
    fold = ((x0, cy), (x0 + w, cy))
    tick = Style(stroke=k.text_on, stroke_width=0.3)
    for a, b in (((x0, cy), (x0 + FOLD_TICK, cy)), ((x0 + w - FOLD_TICK, cy), (x0 + w, cy))):
        comp.add(Shape(LineString([a, b]), style=tick))
    comp.add(Shape(LineString(fold), "score", SCORE_STYLE))
    edge = Style(stroke=shade(k.hex, EDGE_SHADE), stroke_width=0.25)
    comp.add(Shape(outline.exterior, style=edge))
    comp.add(Shape(outline.exterior, "cut", CUT_STYLE))
    return fold


def _person(k: Ink, x0: float, y0: float, w: float, h: float) -> list[Shape]:
    """A person from the front on the lower half: head, shoulders, the colour's symbol on
    the chest."""
    m = STANDEE_MARGIN
    bw, bh = w - 2 * m, h - 2 * m
    cx = x0 + w / 2
    head_r = min(0.24 * bw, 0.13 * bh)
    head_y = y0 + m + bh - head_r
    body_top = head_y - head_r - 0.6
    body = centred_rounded_rect(cx, (y0 + m + body_top) / 2, 0.86 * bw, body_top - y0 - m, 0.4 * bw)
    body = body.intersection(rounded_rect(x0, y0 + m, w, bh, 0))
    fill = Style(fill=k.text_on, stroke=None)
    chest = symbol(k.symbol, cx, y0 + m + 0.45 * (body_top - y0 - m), 0.45 * bw)
    return [
        Shape(Point(cx, head_y).buffer(head_r, quad_segs=16), style=fill),
        Shape(body, style=fill),
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
        Shape(symbol(k.symbol, cx, cy + 0.38 * s, 0.3 * s), style=Style(fill=k.hex, stroke=None)),
        Text(cx, cy + 0.75 * s + 1.5, f"×{p.tent_value}", pt, True, "middle", k.text_on),
    ]
