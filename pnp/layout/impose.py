"""Many-up imposition: cards with bleed and crop marks, cutouts packed on shelves."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from pnp.errors import PnpError
from pnp.kit import PrintParams
from pnp.layout.furniture import CROP_ZONE, crop_marks
from pnp.layout.page import (
    FURNITURE_GAP,
    Box,
    Page,
    Placement,
    Rotation,
    blank_page,
    box_size,
    component_extent,
    content_box,
    grow,
    union_box,
)
from pnp.paper import Paper
from pnp.scene import Component

CUTOUT_GAP = 3.0
"""Default space between packed cutouts: room for scissors and a knife."""


def expand_copies(components: list[Component]) -> list[Component]:
    """Each component repeated `copies` times, in the given order."""
    out: list[Component] = []
    for c in components:
        if c.copies < 0:
            raise PnpError(f"component '{c.name}' has negative copies ({c.copies})")
        out.extend([c] * c.copies)
    return out


@dataclass(frozen=True)
class Grid:
    """A card grid: how many columns and rows, the card's footprint and its rotation."""

    cols: int
    rows: int
    width: float  # footprint on the page, after rotation
    height: float
    rotation: Rotation

    @property
    def per_page(self) -> int:
        return self.cols * self.rows


def block_area(paper: Paper, back_offset: tuple[float, float] = (0.0, 0.0)) -> Box:
    """Where a card block's bleed box may go: room for crop marks on every side.

    Crop marks may use the air between content and furniture above and below. Back
    pages carry no crop marks (cut from the front), so a back offset up to the crop
    zone is free; only a larger one shrinks the block.
    """
    x0, y0, x1, y1 = content_box(paper)
    ix = max(0.0, abs(back_offset[0]) - CROP_ZONE)
    iy = max(0.0, abs(back_offset[1]) - CROP_ZONE)
    return (x0 + CROP_ZONE + ix, y0 - FURNITURE_GAP + CROP_ZONE + iy,
            x1 - CROP_ZONE - ix, y1 + FURNITURE_GAP - CROP_ZONE - iy)


def card_grid(width: float, height: float, area: Box, bleed: float, rotate: bool = True) -> Grid:
    """The best grid for one card size in a block area: turned a quarter only if it fits more."""
    aw, ah = box_size(area)
    pitch = 2 * bleed

    def fit(w: float, h: float, rot: Rotation) -> Grid:
        cols = max(0, math.floor((aw + 1e-9) / (w + pitch)))
        rows = max(0, math.floor((ah + 1e-9) / (h + pitch)))
        return Grid(cols, rows, w, h, rot)

    best = fit(width, height, 0)
    if rotate:
        turned = fit(height, width, 90)
        if turned.per_page > best.per_page:
            best = turned
    return best


def impose_cards(
    components: list[Component],
    paper: Paper,
    printing: PrintParams,
    title: str = "Cards",
    section: str = "",
    rotate: bool = True,
) -> list[Page]:
    """Cards and tiles many-up with bleed: gutter 2 x bleed, crop marks, TrimBox/BleedBox.

    Cards of different sizes go on separate sheets, in order of first appearance.
    Each card is clipped to its own bleed box, so art running further never spills over.
    """
    bleed = printing.bleed
    cards = expand_copies(components)
    groups: dict[tuple[float, float], list[Component]] = {}
    for c in cards:
        groups.setdefault((round(c.width, 6), round(c.height, 6)), []).append(c)
    pages: list[Page] = []
    for (w, h), group in groups.items():
        has_back = any(c.back is not None for c in group)
        area = block_area(paper, (printing.back_offset_x, printing.back_offset_y) if has_back
                          else (0.0, 0.0))
        grid = card_grid(w, h, area, bleed, rotate)
        if grid.per_page == 0:
            raise PnpError(
                f"card '{group[0].name}' ({w:g} x {h:g} mm with {bleed:g} mm bleed) does not "
                f"fit on {paper.name} paper with a {paper.margin:g} mm margin"
            )
        chunks = [group[i:i + grid.per_page] for i in range(0, len(group), grid.per_page)]
        if len(chunks) == 1:  # a lone partial sheet: centre only the cells it uses
            cols = min(grid.cols, len(group))
            grid = replace(grid, cols=cols, rows=math.ceil(len(group) / cols))
        for k, chunk in enumerate(chunks, start=1):
            page = _card_page(chunk, grid, area, paper, bleed, title, section)
            if len(chunks) > 1:
                page.title = f"{page.title} — sheet {k} of {len(chunks)}"
            pages.append(page)
    return pages


def _card_page(chunk: list[Component], grid: Grid, area: Box, paper: Paper, bleed: float,
               title: str, section: str) -> Page:
    pitch_x = grid.width + 2 * bleed
    pitch_y = grid.height + 2 * bleed
    # Centre the block of the full grid, so every sheet of a run has the same positions
    # (a user can stack-cut sheets) and the back sheets mirror them exactly.
    block_w = grid.cols * pitch_x
    block_h = grid.rows * pitch_y
    ax0, ay0, ax1, ay1 = area
    left = (ax0 + ax1) / 2 - block_w / 2 + bleed
    top = (ay0 + ay1) / 2 + block_h / 2 - bleed
    page = blank_page(paper, f"{title} ({chunk[0].width:g} x {chunk[0].height:g} mm)", section)
    for i, comp in enumerate(chunk):
        r, c = divmod(i, grid.cols)
        x = left + c * pitch_x
        y = top - grid.height - r * pitch_y
        clip = grow((x, y, x + grid.width, y + grid.height), bleed)
        page.placements.append(Placement(comp, x, y, grid.rotation, clip))
    trims = [p.trim_box for p in page.placements]
    page.trim_box = union_box(trims)
    page.bleed_box = grow(page.trim_box, bleed)
    page.items.extend(crop_marks(trims, bleed))
    return page


def pack_cutouts(
    components: list[Component],
    paper: Paper,
    title: str = "Cutouts",
    section: str = "",
    gap: float = CUTOUT_GAP,
    inset: tuple[float, float] = (0.0, 0.0),
) -> list[Page]:
    """Pack cutouts in shelves (rows), top to bottom, over as many sheets as needed.

    A cutout's footprint is everything it draws (glue tabs and labels included), so
    nothing lands on the margin or the furniture. A piece too wide is turned a quarter.
    `inset` keeps extra room on each side (pass the back offset when pieces have backs).
    """
    area = content_box(paper, inset)
    aw, ah = box_size(area)
    pages: list[Page] = []
    page: Page | None = None
    cursor_x = cursor_top = shelf_h = 0.0

    def new_page() -> Page:
        p = blank_page(paper, title, section)
        pages.append(p)
        return p

    for comp in expand_copies(components):
        ex0, ey0, ex1, ey1 = component_extent(comp)
        rot: Rotation = 0
        fw, fh = ex1 - ex0, ey1 - ey0
        if fw > aw + 1e-9 or fh > ah + 1e-9:
            if fh <= aw + 1e-9 and fw <= ah + 1e-9:
                rot, fw, fh = 90, fh, fw
            else:
                raise PnpError(
                    f"cutout '{comp.name}' ({fw:.1f} x {fh:.1f} mm) is larger than the "
                    f"printable area of {paper.name} paper ({aw:.1f} x {ah:.1f} mm)"
                )
        if page is None:
            page, cursor_x, cursor_top, shelf_h = new_page(), area[0], area[3], 0.0
        if cursor_x + fw > area[2] + 1e-9:  # next shelf
            cursor_x, cursor_top, shelf_h = area[0], cursor_top - shelf_h - gap, 0.0
        if cursor_top - fh < area[1] - 1e-9:  # next page
            page, cursor_x, cursor_top, shelf_h = new_page(), area[0], area[3], 0.0
        # Footprint box (page) is [cursor_x, cursor_x+fw] x [cursor_top-fh, cursor_top];
        # place the component so its extent lands exactly there.
        if rot == 0:
            x, y = cursor_x - ex0, cursor_top - fh - ey0
        else:  # rotated 90: local (u, v) -> (x + h - v, y + u)
            x = cursor_x + ey1 - comp.height
            y = cursor_top - fh - ex0
        page.placements.append(Placement(comp, x, y, rot))
        cursor_x += fw + gap
        shelf_h = max(shelf_h, fh)
    for k, p in enumerate(pages, start=1):
        _centre_across(p, area)
        if len(pages) > 1:
            p.title = f"{p.title} — sheet {k} of {len(pages)}"
    return pages


def _centre_across(page: Page, area: Box) -> None:
    """Shift a packed sheet sideways so its pieces sit centred, not hugging the left."""
    used = union_box([_placed_extent(p) for p in page.placements])
    dx = (area[0] + area[2]) / 2 - (used[0] + used[2]) / 2
    page.placements = [replace(p, x=p.x + dx) for p in page.placements]


def _placed_extent(p: Placement) -> Box:
    ex0, ey0, ex1, ey1 = component_extent(p.component)
    corners = [p.to_page(u, v) for u in (ex0, ex1) for v in (ey0, ey1)]
    return (min(x for x, _ in corners), min(y for _, y in corners),
            max(x for x, _ in corners), max(y for _, y in corners))
