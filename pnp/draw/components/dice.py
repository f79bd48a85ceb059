"""Dice components any game can reuse: face drawers, a block of dice stickers, a paper die.

A face drawer is `draw(value, x, y, size, ink) -> list[Item]`: it draws the content of one
face of side `size` mm centred on (x, y), on top of a background in `ink.hex` that the
component paints (a rounded sticker or a square net face), so drawers stay shape-agnostic.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from shapely.geometry import LineString
from shapely.ops import unary_union

from geometry.dice import (
    arrange_faces,
    cube_net,
    pip_centres,
    pip_size,
    sticker_curve,
    sticker_radius,
)
from pnp.contract.palette import Ink
from pnp.draw.scene import (
    CUT_STYLE,
    PT_PER_MM,
    SCORE_STYLE,
    Component,
    Item,
    Shape,
    Style,
    Text,
    curved,
    shown_on,
    symbol_shape,
)
from pnp.draw.text import string_width

FaceDrawer = Callable[[int, float, float, float, Ink], list[Item]]

STICKER_GAP = 1.75  # mm between stickers: room for a knife, still compact
STICKER_BLEED = 0.4  # mm of background past the kiss cut, so a shifted cut shows no paper
BLOCK_PAD = 1.5  # mm around a block's contents
ROW_LABEL_PT = 5.0
TITLE_PT = 6.0
CORNER_PT_PER_MM = 0.72  # numeral size per mm of face: 5.8 pt on the 8 mm sticker of a 10 mm die
MIN_CORNER_PT = 4.5  # smallest numeral that still reads at arm's length
CAP_HEIGHT = 0.73  # Vera's digit height as a fraction of the font size


def shade(hex_colour: str, factor: float) -> str:
    """Mix a '#rrggbb' colour towards black (factor < 1) or white (factor > 1)."""
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    if factor <= 1:
        mix = [round(c * factor) for c in (r, g, b)]
    else:
        t = min(factor - 1, 1.0)
        mix = [round(c + (255 - c) * t) for c in (r, g, b)]
    return "#" + "".join(f"{c:02X}" for c in mix)


def pip_face(value: int, x: float, y: float, size: float, ink: Ink) -> list[Item]:
    """Standard pips, each in the shape of the colour's symbol, in the ink's text colour."""
    style = Style(fill=ink.text_on, stroke=None)
    d = pip_size(value, size, ink.symbol)
    return [
        symbol_shape(ink.symbol, px, py, d, "art", style)
        for px, py in pip_centres(value, x, y, size)
    ]


def corner_marks(value: int, x: float, y: float, size: float, ink: Ink) -> list[Item]:
    """The value as a numeral top-left and the colour's symbol bottom-right, like card indices."""
    pt = max(MIN_CORNER_PT, CORNER_PT_PER_MM * size)
    cap = CAP_HEIGHT * pt / PT_PER_MM
    inset = 0.07 * size
    numeral = Text(
        x - size / 2 + inset,
        y + size / 2 - inset - cap,
        str(value),
        size=pt,
        bold=True,
        fill=ink.text_on,
    )
    mx, my = x + size / 2 - inset - cap / 2, y - size / 2 + inset + cap / 2
    mark = symbol_shape(ink.symbol, mx, my, cap, "art", Style(fill=ink.text_on, stroke=None))
    return [numeral, mark]


def sticker_block(
    name: str,
    title: str,
    dice: Sequence[tuple[Ink, Sequence[int]]],
    face_size: float,
    draw_face: FaceDrawer,
    label: str,
    *,
    row_labels: Sequence[str] | None = None,
    gap: float = STICKER_GAP,
) -> Component:
    """A labelled block of dice stickers, one row per die, each sticker `face_size` mm square.

    Stickers are kiss cut: the rounded outline goes on `cut`, the background (with a little
    bleed past the cut) and the face art on `art`. `row_labels` defaults to 'colour k'.
    """
    if not dice:
        raise ValueError("a sticker block needs at least one die")
    if face_size <= 0:
        raise ValueError(f"sticker size must be positive, got {face_size:g} mm")
    if row_labels is None:
        seen: dict[str, int] = {}
        row_labels = []
        for ink, _ in dice:
            seen[ink.name] = seen.get(ink.name, 0) + 1
            row_labels.append(f"{ink.name} {seen[ink.name]}")
    if len(row_labels) != len(dice):
        raise ValueError("give one row label per die")
    s, cols = face_size, max(len(faces) for _, faces in dice)
    label_w = max(string_width(t, ROW_LABEL_PT) for t in row_labels) + gap
    title_h = TITLE_PT / PT_PER_MM + gap
    width = 2 * BLOCK_PAD + label_w + cols * s + (cols - 1) * gap
    height = 2 * BLOCK_PAD + title_h + len(dice) * s + (len(dice) - 1) * gap
    comp = Component(name, title, width, height, imposition="cutout")
    title_pt = TITLE_PT
    while title_pt > 4 and string_width(label, title_pt, bold=True) > width - 2 * BLOCK_PAD:
        title_pt -= 0.25
    comp.add(
        Text(
            BLOCK_PAD,
            height - BLOCK_PAD - TITLE_PT / PT_PER_MM * CAP_HEIGHT,
            label,
            size=title_pt,
            bold=True,
        )
    )
    stickers = []
    for row, ((ink, faces), row_label) in enumerate(zip(dice, row_labels, strict=True)):
        cy = height - BLOCK_PAD - title_h - s / 2 - row * (s + gap)
        comp.add(
            Text(
                BLOCK_PAD,
                cy - ROW_LABEL_PT / PT_PER_MM * CAP_HEIGHT / 2,
                row_label,
                size=ROW_LABEL_PT,
            )
        )
        for col, value in enumerate(faces):
            cx = BLOCK_PAD + label_w + s / 2 + col * (s + gap)
            cut = sticker_curve(cx, cy, s)
            back = cut.offset_area(STICKER_BLEED)
            comp.add(curved(back, "art", Style(fill=ink.hex, stroke=None)))
            comp.add(*draw_face(value, cx, cy, s, ink))
            comp.add(curved(cut, "cut", CUT_STYLE))
            stickers.append({"row": row, "value": value, "centre": (cx, cy)})
    comp.meta.update(
        kind="stickers",
        face_size=s,
        corner_radius=sticker_radius(s),
        dice=[(ink.name, tuple(faces)) for ink, faces in dice],
        stickers=stickers,
    )
    return comp


def paper_die(
    name: str,
    title: str,
    faces: Sequence[int],
    size: float,
    draw_face: FaceDrawer,
    ink: Ink,
    tab: float | None = None,
) -> Component:
    """A cut-fold-glue paper die: a cross-shaped cube net of `size` mm faces with 7 glue tabs.

    Faces are placed so the k-th smallest value is opposite the k-th largest (a standard die
    gets opposite faces summing to 7). The outline (faces + tabs) is one closed polygon on
    `cut` and `Component.outline`; the 12 folds are dashed lines on `score`.
    """
    net = cube_net(size, tab)
    values = arrange_faces(faces)
    comp = Component(name, title, net.width, net.height, imposition="cutout", outline=net.outline)
    comp.add(Shape(unary_union(net.faces), "art", Style(fill=ink.hex, stroke=None)))
    for t in net.tabs:
        comp.add(Shape(t, "art", Style(fill=ink.light, stroke=None)))
    for value, face in zip(values, net.faces, strict=True):
        c = face.centroid
        comp.add(*draw_face(value, c.x, c.y, size, ink))
    folds: list[LineString] = [*net.face_folds, *net.tab_folds]
    for f in folds:  # over a dark face a fold gets a halo, so it can be seen to fold on
        comp.add(*shown_on(Shape(f, "score", SCORE_STYLE), ink.hex))
    comp.add(Shape(net.outline, "cut", CUT_STYLE))
    comp.fold_lines = tuple((f.coords[0], f.coords[-1]) for f in folds)  # type: ignore[misc]
    comp.meta.update(kind="paper-die", colour=ink.name, size=size, tab=net.tab, faces=values)
    return comp
