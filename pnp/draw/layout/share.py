"""Small sections share a sheet: a section that fits on one sheet goes under the previous
section's last sheet when there is room for it there.

Only sheets of cards and cutouts stack (a board sheet is its own), and only sheets of one
stock (sticker paper is loaded for the stickers alone). The upper sheet stays
exactly where it is (a run's last card sheet keeps the cells of the full ones, for stack
cutting); the small section moves up or down (never across) to sit `SHARE_GAP` under it. Only
what a sheet draws counts (crop marks included), and a sheet whose pieces have backs stays
inside the area its back offset leaves, so the back page, mirrored from the shared front,
stays true (a gutter-fold sheet's pieces only join another's of the same fold).
"""

from __future__ import annotations

from dataclasses import replace

from pnp.contract.paper import Paper
from pnp.draw.kit import PrintParams
from pnp.draw.layout.duplex import flip_safe
from pnp.draw.layout.page import (
    Box,
    Page,
    Placement,
    content_box,
    item_bounds,
    union_box,
)
from pnp.draw.scene import Item

SHARE_GAP = 4.0
"""Air between two sections on one sheet (mm): a clear line to cut them apart."""


def share_sheets(runs: list[list[Page]], paper: Paper, printing: PrintParams) -> list[Page]:
    """The sections' pages in order, a one-sheet section stacked under the sheet before
    wherever it fits."""
    out: list[Page] = []
    for pages in runs:
        merged = stack(out[-1], pages[0], paper, printing) if out and len(pages) == 1 else None
        if merged is not None:
            out[-1] = merged
            out += pages[1:]
        else:
            out += pages
    return out


def stack(upper: Page, lower: Page, paper: Paper, printing: PrintParams) -> Page | None:
    """`upper` and `lower` on one sheet, or None when they do not fit (or must not)."""
    if not (upper.stackable and lower.stackable) or upper.section == lower.section:
        return None
    if upper.stock != lower.stock:  # stickers stay off card stock, and the other way round
        return None
    if upper.fold != lower.fold or upper.fold == "h":  # a gutter-fold front half holds
        return None  # only fronts; moved down, a top half's would cross its fold
    a, b = _extent(upper), _extent(lower)
    b_top = a[1] - SHARE_GAP
    if b_top - (b[3] - b[1]) < _area(lower, paper, printing)[1] - 1e-9:
        return None
    up, down = upper, _moved(lower, b_top - b[3])
    page = replace(
        up,
        title=f"{upper.title} · {lower.title}",
        placements=up.placements + down.placements,
        items=up.items + down.items,
        trim_box=_union(up.trim_box, down.trim_box),
        bleed_box=_union(up.bleed_box, down.bleed_box),
        shares=(*upper.shares, lower.section, *lower.shares),
    )
    return page


def _area(page: Page, paper: Paper, printing: PrintParams) -> Box:
    """Where a sheet's content may go: the content box, less the back offset if it has
    backs (the back page moves by it)."""
    if page.has_backs and not page.fold:
        offset = (printing.back_offset_x, printing.back_offset_y)
        return flip_safe(content_box(paper, offset), paper, printing.duplex, offset)
    return content_box(paper)


def _extent(page: Page) -> Box:
    """Everything the sheet draws: placements (a card as far as its clip) and marks."""
    boxes = [_placement_box(p) for p in page.placements]
    boxes += [item_bounds(it) for it in page.items]
    return union_box(boxes)


def _placement_box(p: Placement) -> Box:
    if p.clip is not None:
        return p.clip
    return union_box([item_bounds(it) for it in p.page_items()] + [p.trim_box])


def _moved(page: Page, dy: float) -> Page:
    return replace(
        page,
        placements=[
            replace(p, y=p.y + dy, clip=None if p.clip is None else _shift(p.clip, dy))
            for p in page.placements
        ],
        items=[_shift_item(it, dy) for it in page.items],
        trim_box=None if page.trim_box is None else _shift(page.trim_box, dy),
        bleed_box=None if page.bleed_box is None else _shift(page.bleed_box, dy),
    )


def _shift(b: Box, dy: float) -> Box:
    return (b[0], b[1] + dy, b[2], b[3] + dy)


def _shift_item(it: Item, dy: float) -> Item:
    return it.moved(0.0, dy)


def _union(a: Box | None, b: Box | None) -> Box | None:
    if a is None or b is None:
        return a or b
    return union_box([a, b])
