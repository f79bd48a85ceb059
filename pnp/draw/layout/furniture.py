"""Page furniture as plain scene items: header, scale bars, crop and alignment marks.

Furniture is thin and grey so the content stays the star; every mark lives inside the
printable area (the layout reserves bands for it, see `page.content_box`).
"""

from __future__ import annotations

import re
from typing import Literal

from shapely.geometry import LineString, box

from pnp.contract.paper import Paper
from pnp.draw.layout.page import HEADER_BAND, Box, Page
from pnp.draw.scene import Item, Shape, Style, Text, circle
from pnp.draw.text import fit_text, string_width

INK = "#222222"
GREY = "#777777"
LIGHT = "#bbbbbb"
MARK = Style(stroke="#333333", stroke_width=0.12)
HAIRLINE = Style(stroke=LIGHT, stroke_width=0.1)

MM_PER_INCH = 25.4
SCALE_BAR_HEIGHT = 1.2
CROP_GAP = 0.5
"""Crop marks start this far outside the bleed, so they never touch the art."""
CROP_LENGTH = 3.0
CROP_ZONE = CROP_GAP + CROP_LENGTH
"""How far beyond the bleed box crop marks reach."""


def _line(x0: float, y0: float, x1: float, y1: float, style: Style = MARK) -> Shape:
    return Shape(LineString([(x0, y0), (x1, y1)]), "guide", style)


def _rect(
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    fill: str | None,
    stroke: str | None,
    width: float = 0.1,
) -> Shape:
    return Shape(box(x0, y0, x1, y1), "guide", Style(fill=fill, stroke=stroke, stroke_width=width))


def scale_bar(x: float, y: float, length: float, label: str, step: float) -> list[Item]:
    """A checkered bar exactly `length` mm long from (x, y), with its label after it.

    The outer rectangle is drawn as one filled shape so its width is the measured length;
    alternate steps are white so a ruler reading is easy.
    """
    h = SCALE_BAR_HEIGHT
    items: list[Item] = [_rect(x, y, x + length, y + h, INK, None)]
    k = 1
    while k * step < length - 1e-9:
        x0 = x + k * step
        x1 = min(x + (k + 1) * step, x + length)
        inset = 0.15
        items.append(
            _rect(
                x0,
                y + inset,
                x1 - (inset if x1 >= x + length - 1e-9 else 0.0),
                y + h - inset,
                "#ffffff",
                None,
            )
        )
        k += 2
    items.append(Text(x + length + 1.2, y + 0.1, label, size=6.0, fill=INK, layer="guide"))
    return items


def scale_bars(x: float, y: float) -> list[Item]:
    """The labelled 50 mm and 1 in bars the user measures before cutting."""
    inch_x = x + 50.0 + 4.0 + string_width("50 mm", 6.0)
    return scale_bar(x, y, 50.0, "50 mm", 10.0) + scale_bar(
        inch_x, y, MM_PER_INCH, "1 in", MM_PER_INCH / 4
    )


def footer(paper: Paper) -> list[Item]:
    """Scale bars on the left, the print-at-100 % instruction on the right."""
    m = paper.margin
    y = m + 1.0
    right = paper.width - m
    items = scale_bars(m, y)
    items.append(
        Text(
            right,
            y + 3.4,
            "Print at 100 % (actual size)",
            size=7.0,
            bold=True,
            anchor="end",
            fill=INK,
            layer="guide",
        )
    )
    items.append(
        Text(
            right,
            y + 0.1,
            "no fit-to-page: both bars must measure true with a ruler",
            size=6.0,
            anchor="end",
            fill=GREY,
            layer="guide",
        )
    )
    return items


HEADER_SIZE = 7.0
"""pt: the header's text."""


def _header_parts(
    paper: Paper, kit_title: str, number: int, total: int
) -> tuple[str, str, float, float]:
    """The header's kit title and page counter, and where the page title starts (mm
    from the margin) and how much room it has."""
    right_text = f"page {number} of {total} · {paper_label(paper)}"
    room = paper.width - 2 * paper.margin - string_width(right_text, HEADER_SIZE) - 6.0
    kit = fit_text(kit_title, HEADER_SIZE, True, room * 0.45)
    sep = string_width(kit + "   ", HEADER_SIZE, True)
    return kit, right_text, sep, room - sep


def header(paper: Paper, kit_title: str, page_title: str, number: int, total: int) -> list[Item]:
    """Kit title, page title, page k of N and the paper, over a hairline."""
    m, size = paper.margin, HEADER_SIZE
    top = paper.height - m
    base = top - 2.8
    kit, right_text, sep, room = _header_parts(paper, kit_title, number, total)
    items: list[Item] = [
        Text(m, base, kit, size=size, bold=True, fill=INK, layer="guide"),
        Text(m + sep, base, fit_title(page_title, size, room), size=size, fill=GREY, layer="guide"),
        Text(paper.width - m, base, right_text, size=size, anchor="end", fill=GREY, layer="guide"),
    ]
    rule_y = top - HEADER_BAND + 2.0  # under the descenders, 2 mm above the band edge
    items.append(_line(m, rule_y, paper.width - m, rule_y, HAIRLINE))
    return items


SIZES = re.compile(r" \([^()]* mm\)")
"""The sizes a card sheet's title lists, e.g. " (63.5 x 88.9, 40 x 40 mm)"."""


def title_forms(title: str) -> list[str]:
    """A page title from the fullest form to the shortest designed one: as written, then
    without the card sizes (the cover's contents lists them). Each form keeps what follows
    the first ' — ' (which sheet, '— backs', the stock it prints on): that tells pages apart."""
    forms = [title]
    if (short := SIZES.sub("", title)) != title:
        forms.append(short)
    return forms


def fit_title(title: str, size: float, width: float) -> str:
    """The fullest form of a page title that fits `width` mm (`title_forms`); whole words
    and an ellipsis only if even the shortest does not (no built-in kit comes to that)."""
    forms = title_forms(title)
    for form in forms:
        if string_width(form, size) <= width:
            return form
    head, sep, tail = forms[-1].partition(" — ")
    room = width - string_width(sep + tail, size)
    if sep and room >= string_width(head.split(" ")[0] + "\u2026", size):
        return fit_text(head, size, False, room) + sep + tail
    return fit_text(forms[-1], size, False, width)


def paper_label(paper: Paper) -> str:
    names = {"a4": "A4", "letter": "US Letter"}
    return f"{names.get(paper.name, paper.name)} {paper.width:g} x {paper.height:g} mm"


def add_furniture(pages: list[Page], kit_title: str, paper: Paper) -> list[Page]:
    """Give every page its header and footer, numbering them k of N in list order.

    A back's title is its front's and " — backs": when the back's must take a shorter
    form, its front's takes the same, so the two headers still name one sheet."""
    total = len(pages)
    titles = [p.title for p in pages]
    for k in range(1, total):
        if pages[k].side == "back":
            room = _header_parts(paper, kit_title, k + 1, total)[3]
            if string_width(titles[k], HEADER_SIZE) > room:
                titles[k - 1 : k + 1] = [title_forms(t)[-1] for t in titles[k - 1 : k + 1]]
    for k, page in enumerate(pages, start=1):
        page.items.extend(header(paper, kit_title, titles[k - 1], k, total))
        page.items.extend(footer(paper))
    return pages


def crop_marks(trims: list[Box], bleed: float) -> list[Item]:
    """Short lines outside the imposed block, in line with every trim edge.

    Marks start `CROP_GAP` beyond the block's bleed, so they sit clear of the art.
    """
    if not trims:
        return []
    x0 = min(t[0] for t in trims) - bleed
    y0 = min(t[1] for t in trims) - bleed
    x1 = max(t[2] for t in trims) + bleed
    y1 = max(t[3] for t in trims) + bleed
    xs = sorted({round(v, 6) for t in trims for v in (t[0], t[2])})
    ys = sorted({round(v, 6) for t in trims for v in (t[1], t[3])})
    items: list[Item] = []
    for x in xs:
        items.append(_line(x, y1 + CROP_GAP, x, y1 + CROP_ZONE))
        items.append(_line(x, y0 - CROP_GAP, x, y0 - CROP_ZONE))
    for y in ys:
        items.append(_line(x0 - CROP_GAP, y, x0 - CROP_ZONE, y))
        items.append(_line(x1 + CROP_GAP, y, x1 + CROP_ZONE, y))
    return items


def registration_cross(x: float, y: float, size: float = 6.0) -> list[Item]:
    """A cross in a circle centred on (x, y): the classic registration target."""
    r = size / 2
    return [
        _line(x - r, y, x + r, y),
        _line(x, y - r, x, y + r),
        circle(x, y, r * 0.6, "guide", Style(stroke="#333333", stroke_width=0.12)),
    ]


def corner_tick(x: float, y: float, dx: int, dy: int, length: float = 4.0) -> list[Item]:
    """An L-shaped tick with its corner at (x, y), arms pointing along (dx, 0) and (0, dy)."""
    return [
        _line(x, y, x + dx * length, y),
        _line(x, y, x, y + dy * length),
    ]


def label(
    x: float,
    y: float,
    text: str,
    size: float = 7.0,
    bold: bool = False,
    anchor: Literal["start", "middle", "end"] = "start",
    fill: str = INK,
) -> Text:
    """A furniture text on the guide layer."""
    return Text(
        x,
        y,
        text,
        size=size,
        bold=bold,
        anchor=anchor,
        fill=fill,  # type: ignore[arg-type]
        layer="guide",
    )
