"""The sixteen pawns, two ways: round tokens and fold-over standees, one block per colour.

Pawns print at the board's scale (`pawn_size` x `board_scale`), so they fit the spaces
of a reduced board as real-size pawns fit a real-size one. A standee is a strip with the
same pawn on both halves (the upper one upside down); folded on its score line it stands
as a little tent and shows the pawn from both sides.
"""

from __future__ import annotations

from shapely.geometry import Point, Polygon
from shapely.ops import unary_union

from geometry.folding import TentFold
from geometry.shapes import rounded_rect, symbol
from pnp.contract.palette import Ink, ink
from pnp.draw.components.dice import shade
from pnp.draw.components.standees import tent_standee
from pnp.draw.scene import CUT_STYLE, Component, Item, Shape, Style, Text, circle, symbol_shape
from pnp.draw.text import string_width
from pnp.games.parcheesi.params import ParcheesiParams, validate

PAWNS = 4  # per colour (the rules' number, not a parameter)
GAP = 2.0  # mm between pieces: room for scissors
PAD = 1.5  # mm round a block
TITLE_PT = 6.0
PT_PER_MM = 72 / 25.4
CAP = 0.73
EDGE_SHADE = 0.7  # a piece's edge line: its colour darkened, so a yellow one shows on paper
RING_INSET = 0.12  # the token's inner ring, per diameter from the edge
STANDEE_RADIUS = 0.1  # standee corner radius per width: rounded corners do not dog-ear


def printed_pawn(p: ParcheesiParams) -> float:
    """The printed pawn diameter: the pawn size at the board's scale."""
    return p.pawn_size * p.board_scale


def pawn_tokens(p: ParcheesiParams) -> list[Component]:
    """Four round tokens per colour, in a row: the colour, a ring, the colour's symbol."""
    validate(p)
    d = printed_pawn(p)
    width = 2 * PAD + PAWNS * d + (PAWNS - 1) * GAP
    out = []
    for name in p.colours:
        k = ink(name)
        title = f"{name.upper()} · {PAWNS} pawns"
        comp = _block(f"pawns-{name}", f"Pawn tokens, {name}", title, width, d)
        y = PAD + d / 2
        for i in range(PAWNS):
            comp.items.extend(_token(k, PAD + d / 2 + i * (d + GAP), y, d))
        comp.meta.update(kind="tokens", colour=name, pawns=PAWNS, diameter=d)
        out.append(comp)
    return out


def _block(name: str, title: str, label: str, width: float, area: float) -> Component:
    """A block of `area` mm of pieces under a one-line label."""
    height = 2 * PAD + TITLE_PT / PT_PER_MM + GAP + area
    comp = Component(name, title, width, height)
    size = TITLE_PT
    while size > 3.5 and string_width(label, size, True) > width - 2 * PAD:
        size -= 0.25
    comp.add(Text(PAD, height - PAD - CAP * TITLE_PT / PT_PER_MM, label, size, True))
    return comp


def _token(k: Ink, x: float, y: float, d: float) -> list[Item]:
    r = d / 2
    return [
        circle(x, y, r, style=Style(fill=k.hex, stroke=shade(k.hex, EDGE_SHADE), stroke_width=0.3)),
        circle(
            x, y, r - RING_INSET * d, style=Style(fill=None, stroke=k.text_on, stroke_width=0.3)
        ),
        symbol_shape(k.symbol, x, y, 0.45 * d, style=Style(fill=k.text_on, stroke=None)),
        circle(x, y, r, "cut", CUT_STYLE),
    ]


def pawn_standees(p: ParcheesiParams) -> list[Component]:
    """Four fold-over standees per colour, side by side; `fold_lines` lists their folds."""
    validate(p)
    w, h = printed_pawn(p), p.standee_height * p.board_scale
    width = 2 * PAD + PAWNS * w + (PAWNS - 1) * GAP
    out = []
    for name in p.colours:
        k = ink(name)
        comp = _block(
            f"standees-{name}",
            f"Pawn standees, {name}",
            f"{name.upper()} · fold on the dashed line",
            width,
            2 * h,
        )
        folds = [_standee(comp, k, PAD + i * (w + GAP), PAD, w, h) for i in range(PAWNS)]
        comp.fold_lines = tuple(folds)
        comp.meta.update(kind="standees", colour=name, pawns=PAWNS, width=w, height=h)
        out.append(comp)
    return out


def _standee(
    comp: Component, k: Ink, x0: float, y0: float, w: float, h: float
) -> tuple[tuple[float, float], tuple[float, float]]:
    """One standee with its lower-left corner at (x0, y0), an A-frame tent (the shared
    `tent_standee`, no feet): returns its fold line."""
    (fold,) = tent_standee(
        comp,
        TentFold(x0, y0, w, h),
        k.hex,
        list(_figure(k, x0, y0, w, h)),
        edge=shade(k.hex, EDGE_SHADE),
        feet_fill=k.hex,
        radius=STANDEE_RADIUS * w,
        edge_width=0.3,
    )
    return fold


def pawn_silhouette(cx: float, y0: float, w: float, h: float) -> Polygon:
    """A classic pawn standing on y0: a base, a flared body, a collar and a round head,
    fitting a `w` x `h` box."""
    base = rounded_rect(cx - 0.42 * w, y0, 0.84 * w, 0.12 * h, 0.04 * h)
    body = Polygon(
        [
            (cx - 0.34 * w, y0 + 0.1 * h),
            (cx + 0.34 * w, y0 + 0.1 * h),
            (cx + 0.12 * w, y0 + 0.62 * h),
            (cx - 0.12 * w, y0 + 0.62 * h),
        ]
    )
    collar = rounded_rect(cx - 0.24 * w, y0 + 0.58 * h, 0.48 * w, 0.07 * h, 0.03 * h)
    r = min(0.24 * w, 0.17 * h)
    head = Point(cx, y0 + 0.65 * h + r * 0.9).buffer(r, quad_segs=16)
    return unary_union([base, body, collar, head])


def _figure(k: Ink, x0: float, y0: float, w: float, h: float) -> list[Shape]:
    """The lower half's picture: the pawn in the colour's text colour, the colour's
    symbol on its body in the colour, so a greyscale print still tells pawns apart."""
    margin = 0.12 * w
    bw, bh = w - 2 * margin, h - 2 * margin
    cx = x0 + w / 2
    pawn = pawn_silhouette(cx, y0 + margin, bw, bh)
    mark = symbol(k.symbol, cx, y0 + margin + 0.3 * bh, 0.34 * bw)
    return [
        Shape(pawn, style=Style(fill=k.text_on, stroke=None)),
        Shape(mark, style=Style(fill=k.hex, stroke=None)),
    ]
