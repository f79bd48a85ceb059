"""Duplex backs: back pages for a long-edge or a short-edge flip, and their alignment test.

Portrait sheets printed double-sided and flipped on the long edge turn about the
vertical axis: a point at x on the front lies behind x' = page_width - x on the back,
rows keep their height. So a piece whose footprint is at x (width w) on the front has
its back at page_width - x - w, its rotation reversed; then the user's measured
back offset shifts everything on the back page.

Flipped on the short edge they turn about the horizontal axis instead: a front point
(x, y) lies behind (x, page_height - y). That is the long-edge back page turned half a
turn about the page centre, so a piece at (x, y) (footprint w x h, rotation r) has its
back at (x, page_height - y - h), rotation 180 - r; the back offset then shifts the back
page as before. The header and footer bands are not the same height, so short-edge pieces
stay where their flipped backs still clear both by the air a front keeps (`flip_safe`).

`duplex = "none"` prints no back pages: see `pnp.draw.layout.gutter`.
"""

from __future__ import annotations

from dataclasses import replace

from shapely.geometry import LineString

from pnp.contract.paper import Paper
from pnp.draw.kit import PrintParams
from pnp.draw.layout.furniture import GREY, label
from pnp.draw.layout.page import (
    FURNITURE_GAP,
    Box,
    Page,
    Placement,
    Rotation,
    blank_page,
    content_box,
)
from pnp.draw.scene import Item, Shape, Style, circle
from pnp.runtime.errors import PnpError

MAX_BACK_OFFSET = 10.0
"""A larger correction means a setting mistake, not a printer's tolerance (mm)."""
ALIGN_LINE = Style(stroke="#000000", stroke_width=0.15)
RULER = Style(stroke="#000000", stroke_width=0.12)


def check_back_offset(printing: PrintParams) -> None:
    for axis, v in (("x", printing.back_offset_x), ("y", printing.back_offset_y)):
        if abs(v) > MAX_BACK_OFFSET:
            raise PnpError(
                f"back offset {axis} = {v:g} mm is too large: printers are off by a few mm "
                f"at most (use -{MAX_BACK_OFFSET:g} to {MAX_BACK_OFFSET:g})"
            )


def mirror_box(b: Box, page_width: float) -> Box:
    return (page_width - b[2], b[1], page_width - b[0], b[3])


def shift_box(b: Box, dx: float, dy: float) -> Box:
    return (b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy)


def mirror_placement(
    p: Placement, page_width: float, dx: float = 0.0, dy: float = 0.0
) -> Placement | None:
    """The back of placement `p`, or None when its component has no back."""
    back = p.component.back
    if back is None:
        return None
    w, _ = p.footprint_size
    rot: Rotation = (360 - p.rotation) % 360  # type: ignore[assignment]
    clip = None if p.clip is None else shift_box(mirror_box(p.clip, page_width), dx, dy)
    return Placement(back, page_width - p.x - w + dx, p.y + dy, rot, clip, "back")


def flip_box(b: Box, page_height: float) -> Box:
    return (b[0], page_height - b[3], b[2], page_height - b[1])


def turn_placement(
    p: Placement, page_height: float, dx: float = 0.0, dy: float = 0.0
) -> Placement | None:
    """The back of placement `p` for a short-edge flip, or None when it has no back."""
    back = p.component.back
    if back is None:
        return None
    _, h = p.footprint_size
    rot: Rotation = (540 - p.rotation) % 360  # type: ignore[assignment]
    clip = None if p.clip is None else shift_box(flip_box(p.clip, page_height), dx, dy)
    return Placement(back, p.x + dx, page_height - p.y - h + dy, rot, clip, "back")


def flip_safe(
    area: Box, paper: Paper, duplex: str, offset: tuple[float, float] = (0.0, 0.0)
) -> Box:
    """The part of `area` whose backs, flipped as `duplex` says, stay in the content box
    (clear of the header and footer by the air a front keeps), and moved by the back offset
    still clear both bands: an offset up to that air leaves the layout as it is.

    The long-edge mirror keeps every (left-right symmetric) area as it is; the short-edge
    one swaps the header's and the footer's sides, and the footer band is the taller."""
    if duplex != "short":
        return area
    _, y0, _, y1 = content_box(paper, (0.0, max(0.0, abs(offset[1]) - FURNITURE_GAP)))
    h = paper.height
    return (area[0], max(area[1], h - y1), area[2], min(area[3], h - y0))


def back_placement(p: Placement, front: Page, printing: PrintParams) -> Placement | None:
    """The back of `p` where the chosen flip puts it, shifted by the back offset."""
    dx, dy = printing.back_offset_x, printing.back_offset_y
    if printing.duplex == "short":
        return turn_placement(p, front.height, dx, dy)
    return mirror_placement(p, front.width, dx, dy)


def back_page(front: Page, printing: PrintParams) -> Page | None:
    """The back sheet of `front` (mirrored or turned, as the flip needs), or None if
    nothing on it has a back."""
    check_back_offset(printing)
    backs = [b for p in front.placements if (b := back_placement(p, front, printing))]
    if not backs:
        return None
    page = Page(
        front.width,
        front.height,
        title=f"{front.title} — backs",
        section=front.section,
        side="back",
        stock=front.stock,
        paper=front.paper,
        placements=backs,
    )
    if front.trim_box is not None:
        trims = [b.trim_box for b in backs]
        page.trim_box = (
            min(t[0] for t in trims),
            min(t[1] for t in trims),
            max(t[2] for t in trims),
            max(t[3] for t in trims),
        )
        bleed = printing.bleed
        page.bleed_box = (
            page.trim_box[0] - bleed,
            page.trim_box[1] - bleed,
            page.trim_box[2] + bleed,
            page.trim_box[3] + bleed,
        )
    # No crop marks on backs: pieces are cut along the front's marks, and marks shifted
    # by the back offset would only mislead.
    return page


def with_backs(pages: list[Page], printing: PrintParams) -> list[Page]:
    """Insert each front's back page right after it (print double-sided)."""
    out: list[Page] = []
    for page in pages:
        out.append(page)
        if page.side == "front" and (b := back_page(page, printing)) is not None:
            out.append(b)
    return out


BLANK_TITLE = "Intentionally blank"


def on_own_sheets(pages: list[Page], paper: Paper) -> list[Page]:
    """`pages` two to a sheet for a double-sided print: each front with its own back page,
    two pages to read (cover, assembly map) back to back, and any other page alone with
    a blank reverse.

    Printed double-sided as a job of its own, the list's pages 2k-1 and 2k share a
    sheet. A piece cut out of one side must have nothing but its own back on the other:
    neighbouring board tiles, two sheets of cut-outs or card stock and stickers never
    share a sheet. The list ends with a full sheet."""
    out: list[Page] = []
    i = 0
    while i < len(pages):
        page = pages[i]
        nxt = pages[i + 1] if i + 1 < len(pages) else None
        if page.side != "front":
            raise ValueError(f"'{page.title}' is a {page.side} page without its front")
        both_read = _readable(pages, i) and _readable(pages, i + 1)
        if nxt is not None and (nxt.side == "back" or both_read):
            out += [page, nxt]
            i += 2
        else:
            out += [page, replace(blank_sheet(paper, page.section), stock=page.stock)]
            i += 1
    return out


def _readable(pages: list[Page], i: int) -> bool:
    """Page i is read, not cut, and prints alone (no back page follows it)."""
    if i >= len(pages):
        return False
    after = pages[i + 1] if i + 1 < len(pages) else None
    return pages[i].reading and pages[i].side == "front" and (after is None or after.side != "back")


def blank_sheet(paper: Paper, section: str = "") -> Page:
    """An empty page that says so, so nobody thinks a page failed to print."""
    page = blank_page(paper, BLANK_TITLE, section)
    page.side = "blank"
    cx, cy = paper.width / 2, paper.height / 2
    page.items += [
        label(cx, cy, "This page is intentionally blank", size=12.0, anchor="middle", fill=GREY),
        label(
            cx,
            cy - 6.0,
            "It is the back of the page before, left empty: that sheet carries nothing else.",
            size=8.0,
            anchor="middle",
            fill=GREY,
        ),
    ]
    return page


def _line(x0: float, y0: float, x1: float, y1: float, style: Style = ALIGN_LINE) -> Shape:
    return Shape(LineString([(x0, y0), (x1, y1)]), "art", style)


def _ruler(cx: float, cy: float, horizontal: bool, sign: int, span: int = 10) -> list[Item]:
    """Ticks every mm from -span to +span around (cx, cy), labelled every 5 mm.

    A tick at offset t is labelled `sign * t`: the number to add to the back offset
    when the back's line shows through at that tick.
    """
    items: list[Item] = []
    for t in range(-span, span + 1):
        length = 5.0 if t % 5 == 0 else (2.5 if t else 5.0)
        if t == 0:
            length = 7.0
        if horizontal:
            items.append(_line(cx + t, cy, cx + t, cy + length, RULER))
        else:
            items.append(_line(cx, cy + t, cx + length, cy + t, RULER))
        if t % 5 == 0:
            v = sign * t
            text = "0" if v == 0 else f"{v:+d}"
            if horizontal:
                items.append(label(cx + t, cy - 3.2, text, size=6.0, anchor="middle"))
            else:
                items.append(label(cx + length + 1.5, cy + t - 0.8, text, size=6.0))
    if horizontal:
        items.append(_line(cx - span, cy, cx + span, cy, RULER))
    else:
        items.append(_line(cx, cy - span, cx, cy + span, RULER))
    return items


def alignment_pages(
    paper: Paper, printing: PrintParams, section: str = "Duplex test"
) -> list[Page]:
    """A front page with rulers and a back page with a long cross, to read the offset.

    Held up to a light, the back's vertical line crosses the front's X rulers and its
    horizontal line the Y rulers; each ruler is labelled with the correction to add
    (the back page already carries the current offset, so 0 means "aligned"). The
    cross sits behind the front's centre for the chosen flip (`printing.duplex`).
    """
    check_back_offset(printing)
    short = printing.duplex == "short"
    w, h = paper.width, paper.height
    cx, cy = w / 2, h / 2
    arm = 60.0
    name = "Short-edge duplex alignment test" if short else "Duplex alignment test"
    front = blank_page(paper, f"{name} — front", section)
    items: list[Item] = [
        label(cx, cy + arm + 30.0, name, size=16.0, bold=True, anchor="middle"),
    ]
    edge = "short" if short else "long"
    lines = [
        f"Print this sheet double-sided, flip on the {edge} edge, at 100 %.",
        "Hold it up to a light: the back shows a long cross.",
        "Read where its vertical line meets the X rulers, its horizontal line the Y rulers.",
        f"Add the readings to back_offset_x (now {printing.back_offset_x:g} mm) and "
        f"back_offset_y (now {printing.back_offset_y:g} mm) in your config; rebuild.",
        "When all rulers read 0, the backs of your cards land true.",
    ]
    for i, s in enumerate(lines):
        items.append(label(cx, cy + arm + 21.0 - 5.0 * i, s, size=8.0, anchor="middle"))
    # X rulers above and below the centre; Y rulers left and right. A back printed e mm
    # off along one axis shows through at -e on that axis when the flip reverses it
    # (x for the long edge, y for the short) and at +e when it does not: the ruler's
    # label is the correction, -e, so its sign is + where the flip reverses the axis.
    x_sign, y_sign = (-1, +1) if short else (+1, -1)
    for oy in (-arm + 15.0, arm - 15.0):
        items += _ruler(cx, cy + oy, True, x_sign)
        items.append(label(cx - 16.0, cy + oy + 1.0, "X", size=9.0, bold=True, anchor="end"))
    for ox in (-arm + 15.0, arm - 20.0):
        items += _ruler(cx + ox, cy, False, y_sign)
        items.append(label(cx + ox + 2.5, cy - 16.0, "Y", size=9.0, bold=True, anchor="middle"))
    items += [_line(cx - 4, cy, cx + 4, cy), _line(cx, cy - 4, cx, cy + 4)]
    items.append(label(cx, cy - arm - 8.0, "front", size=8.0, anchor="middle", fill=GREY))
    front.items.extend(items)

    dx, dy = printing.back_offset_x, printing.back_offset_y
    back = blank_page(paper, f"{name} — back", section)
    back.side = "back"
    # The flip's image of the centre, shifted by the current offset.
    bx, by = (cx + dx, h - cy + dy) if short else (w - cx + dx, cy + dy)
    back.items.extend(
        [
            _line(bx, by - arm - 5.0, bx, by + arm + 5.0),
            _line(bx - arm - 5.0, by, bx + arm + 5.0, by),
            circle(bx, by, 3.0, "art", ALIGN_LINE),
            label(
                bx,
                by - arm - 10.0,
                "back side of the alignment test",
                size=8.0,
                anchor="middle",
                fill=GREY,
            ),
        ]
    )
    return [front, back]
