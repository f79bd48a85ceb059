"""Many-up imposition: cards of any mix of sizes with bleed and crop marks, cutouts on shelves."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace

from pnp.contract.paper import Paper
from pnp.draw.kit import PrintParams
from pnp.draw.layout.duplex import flip_safe
from pnp.draw.layout.furniture import CROP_ZONE, MARK, crop_marks
from pnp.draw.layout.page import (
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
from pnp.draw.scene import Component
from pnp.runtime.errors import PnpError

CUTOUT_GAP = 3.0
"""Default space between packed cutouts: room for scissors and a knife."""
BAND_GAP = 2 * CROP_ZONE + 1.0
"""Air between the bleed boxes of two card blocks sharing a sheet: room for both blocks'
crop marks and 1 mm between them, so cutting down the middle leaves each block its marks."""
MAX_ORIENTATION_SEARCH = 8
"""Up to this many card sizes on shared sheets, every choice of turning is tried."""
EPS = 1e-9


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
    zone = CROP_ZONE + MARK.stroke_width / 2  # a mark's stroke must not touch the margin
    ix = max(0.0, abs(back_offset[0]) - zone)
    iy = max(0.0, abs(back_offset[1]) - zone)
    return (
        x0 + zone + ix,
        y0 - FURNITURE_GAP + zone + iy,
        x1 - zone - ix,
        y1 + FURNITURE_GAP - zone - iy,
    )


def card_grid(
    width: float, height: float, area: Box, bleed: float, rotate: bool = True, abut: bool = False
) -> Grid:
    """The best grid for one card size in a block area: turned a quarter only if it fits more."""
    best = _fit(width, height, 0, area, bleed, abut)
    if rotate:
        turned = _fit(height, width, 90, area, bleed, abut)
        if turned.per_page > best.per_page:
            best = turned
    return best


def _fit(w: float, h: float, rot: Rotation, area: Box, bleed: float, abut: bool = False) -> Grid:
    """Cards each with bleed all round, or (`abut`) edge to edge with bleed round the grid."""
    aw, ah = box_size(area)
    if abut:
        cols = max(0, math.floor((aw - 2 * bleed + EPS) / w))
        rows = max(0, math.floor((ah - 2 * bleed + EPS) / h))
    else:
        cols = max(0, math.floor((aw + EPS) / (w + 2 * bleed)))
        rows = max(0, math.floor((ah + EPS) / (h + 2 * bleed)))
    return Grid(cols, rows, w, h, rot)


@dataclass(frozen=True)
class Block:
    """Cards of one size as a grid, row-major, the last row maybe short.

    On a shared sheet each block is an island: its crop marks go round its own edge, and
    other blocks keep `BAND_GAP` away, so no mark ever crosses another card. `home` is the
    full-sheet grid of the block's size: alone on a sheet, the block takes those cells, so
    a run's last sheet matches the full ones (stack-cutting, and backs that mirror them).
    `abut` puts the cards edge to edge (one cut between two neighbours), bleed only on
    the edges that face no neighbour.
    """

    cards: tuple[Component, ...]
    grid: Grid  # this block's columns and rows (not a full sheet's)
    bleed: float
    home: Grid | None = None
    abut: bool = False

    @property
    def _gap(self) -> float:
        """Bleed between neighbours: none when they abut, twice the bleed otherwise."""
        return 0.0 if self.abut else 2 * self.bleed

    @property
    def width(self) -> float:
        """Width of the block's bleed box."""
        return self.grid.cols * (self.grid.width + self._gap) + 2 * self.bleed - self._gap

    @property
    def height(self) -> float:
        return self.grid.rows * (self.grid.height + self._gap) + 2 * self.bleed - self._gap

    def placements(self, left: float, top: float) -> list[Placement]:
        """The cards with the block's bleed box top-left corner at (left, top)."""
        g, b, gap, n = self.grid, self.bleed, self._gap, len(self.cards)
        out: list[Placement] = []
        for i, comp in enumerate(self.cards):
            r, c = divmod(i, g.cols)
            x = left + b + c * (g.width + gap)
            y = top - b - g.height - r * (g.height + gap)
            if self.abut:  # bleed only where no neighbour's art is
                last = c == g.cols - 1 or i + 1 >= n
                clip = (
                    x - (b if c == 0 else 0.0),
                    y - (b if i + g.cols >= n else 0.0),
                    x + g.width + (b if last else 0.0),
                    y + g.height + (b if r == 0 else 0.0),
                )
            else:
                clip = grow((x, y, x + g.width, y + g.height), b)
            out.append(Placement(comp, x, y, g.rotation, clip))
        return out


@dataclass
class _Level:
    """A row of blocks on a shared sheet, top-aligned, `BAND_GAP` apart."""

    blocks: list[Block]
    height: float
    width: float

    def add(self, b: Block) -> None:
        self.blocks.append(b)
        self.width += BAND_GAP + b.width


@dataclass
class _Sheet:
    levels: list[_Level]
    height: float

    def add(self, b: Block) -> None:
        self.levels.append(_Level([b], b.height, b.width))
        self.height += BAND_GAP + b.height


def impose_cards(
    components: list[Component],
    paper: Paper,
    printing: PrintParams,
    title: str = "Cards",
    section: str = "",
    rotate: bool = True,
    area: Box | None = None,
    abut: bool = False,
) -> list[Page]:
    """Cards and tiles many-up with bleed: gutter 2 x bleed, crop marks, TrimBox/BleedBox.

    Sizes go largest first (by area; equal areas keep their first appearance). Each size
    makes full-sheet grids, turned a quarter if that fits more per sheet, and one smaller
    block of what is left. All blocks then share sheets, packed in rows, tallest first; a
    size is turned the other way only when that saves a sheet. Each card is clipped to its
    own bleed box, so art running further never spills over. `area` replaces the block
    area the paper and the backs' duplex flip leave (a gutter-fold sheet's front half);
    `abut` sets the cards of each block edge to edge (see `Block`).
    """
    bleed = printing.bleed
    cards = expand_copies(components)
    if area is None:
        backed = any(c.back is not None for c in cards)
        offset = (printing.back_offset_x, printing.back_offset_y)
        area = block_area(paper, offset if backed else (0.0, 0.0))
        if backed:
            area = flip_safe(area, paper, printing.duplex, offset)
    groups: dict[tuple[float, float], list[Component]] = {}
    for c in cards:
        groups.setdefault((round(c.width, 6), round(c.height, 6)), []).append(c)
    options: list[list[list[Block]]] = []  # per size: its blocks in each orientation
    for key in sorted(groups, key=lambda k: -k[0] * k[1]):  # stable: ties keep first seen
        group = groups[key]
        grid = card_grid(key[0], key[1], area, bleed, rotate, abut)
        if grid.per_page == 0:
            raise PnpError(
                f"card '{group[0].name}' ({key[0]:g} x {key[1]:g} mm with {bleed:g} mm bleed) "
                f"does not fit on {paper.name} paper with a {paper.margin:g} mm margin"
            )
        turned = _fit(grid.height, grid.width, 90 if grid.rotation == 0 else 0, area, bleed, abut)
        grids = [grid] + ([turned] if rotate and key[0] != key[1] and turned.per_page else [])
        options.append([_blocks(group, g, bleed, abut) for g in grids])
    pages: list[Page] = []
    sheets = _pack(options, area)
    for k, sheet in enumerate(sheets, start=1):
        page = _card_page(_place(sheet, area), paper, bleed, title, section)
        if len(sheets) > 1:
            page.title = f"{page.title} — sheet {k} of {len(sheets)}"
        pages.append(page)
    return pages


def _blocks(cards: list[Component], grid: Grid, bleed: float, abut: bool = False) -> list[Block]:
    """Full-sheet grids, then what is left as one block as wide as the sheet allows."""
    n = grid.per_page
    full, rest = divmod(len(cards), n)
    out = [Block(tuple(cards[k * n : (k + 1) * n]), grid, bleed, None, abut) for k in range(full)]
    if rest:
        cols = min(grid.cols, rest)
        shape = replace(grid, cols=cols, rows=math.ceil(rest / cols))
        home = grid if full else None
        out.append(Block(tuple(cards[full * n :]), shape, bleed, home, abut))
    return out


def _pack(options: list[list[list[Block]]], area: Box) -> list[_Sheet]:
    """All sizes' blocks on as few sheets as the row packing finds. A size is turned from
    its own best orientation only when that saves a sheet; every combination is tried
    while there are few sizes to turn."""
    choices = [range(len(o)) for o in options]
    if sum(len(o) > 1 for o in options) > MAX_ORIENTATION_SEARCH:
        choices = [range(1) for _ in options]
    best: list[_Sheet] = []
    best_key: tuple[int, int] | None = None
    for combo in itertools.product(*choices):
        blocks = [b for o, i in zip(options, combo, strict=True) for b in o[i]]
        sheets = _levels(blocks, area)
        key = (len(sheets), sum(1 for i in combo if i))
        if best_key is None or key < best_key:
            best, best_key = sheets, key
    return best


def _levels(blocks: list[Block], area: Box) -> list[_Sheet]:
    """First-fit decreasing height: each block joins the first row with room on any sheet,
    else opens a row on the first sheet with height left, else starts a new sheet."""
    aw, ah = box_size(area)
    if not blocks:
        return []
    min_w = min(b.width for b in blocks)
    min_h = min(b.height for b in blocks)

    def has_room(s: _Sheet) -> bool:
        return s.height + BAND_GAP + min_h <= ah + EPS or any(
            lv.width + BAND_GAP + min_w <= aw + EPS for lv in s.levels
        )

    def fits(lv: _Level, b: Block) -> bool:
        return b.height <= lv.height + EPS and lv.width + BAND_GAP + b.width <= aw + EPS

    sheets: list[_Sheet] = []
    open_sheets: list[_Sheet] = []  # only these can still take a block: keeps packing fast
    ranked = sorted(range(len(blocks)), key=lambda i: (-blocks[i].height, -blocks[i].width, i))
    for i in ranked:
        b = blocks[i]
        found = next(((s, lv) for s in open_sheets for lv in s.levels if fits(lv, b)), None)
        if found is not None:
            target, level = found
            level.add(b)
        else:
            spare = next(
                (s for s in open_sheets if s.height + BAND_GAP + b.height <= ah + EPS), None
            )
            if spare is not None:
                spare.add(b)
                target = spare
            else:
                target = _Sheet([_Level([b], b.height, b.width)], b.height)
                sheets.append(target)
                open_sheets.append(target)
        if not has_room(target):
            open_sheets.remove(target)
    return sheets


def _place(sheet: _Sheet, area: Box) -> list[tuple[Block, float, float]]:
    """Rows top to bottom, each row centred across, the whole stack centred on the area.

    A block alone on its sheet is centred as a whole, on its size's full-sheet cells if it
    ends a run of full sheets."""
    cx, cy = (area[0] + area[2]) / 2, (area[1] + area[3]) / 2
    if len(sheet.levels) == 1 and len(sheet.levels[0].blocks) == 1:
        block = sheet.levels[0].blocks[0]
        if block.home is not None:
            block = replace(block, grid=block.home)
        return [(block, cx - block.width / 2, cy + block.height / 2)]
    top = cy + sheet.height / 2
    out: list[tuple[Block, float, float]] = []
    for lv in sheet.levels:
        left = cx - lv.width / 2
        for b in lv.blocks:
            out.append((b, left, top))
            left += b.width + BAND_GAP
        top -= lv.height + BAND_GAP
    return out


def _card_page(
    blocks: list[tuple[Block, float, float]], paper: Paper, bleed: float, title: str, section: str
) -> Page:
    sizes: list[tuple[float, float]] = []  # width x height as drawn, however the sheet turns it
    for block, _, _ in blocks:
        card = block.cards[0]
        if (size := (round(card.width, 6), round(card.height, 6))) not in sizes:
            sizes.append(size)
    sizes.sort(key=lambda s: -s[0] * s[1])  # largest first, like the packing
    names = ", ".join(f"{w:g} x {h:g}" for w, h in sizes)
    page = blank_page(paper, f"{title} ({names} mm)", section)
    for block, left, top in blocks:
        placed = block.placements(left, top)
        page.placements += placed
        # Marks go round each block on its own: blocks stand BAND_GAP apart, so a mark
        # never reaches another block's bleed.
        page.items += crop_marks([p.trim_box for p in placed], bleed)
    page.trim_box = union_box([p.trim_box for p in page.placements])
    page.bleed_box = grow(page.trim_box, bleed)
    return page


def pack_cutouts(
    components: list[Component],
    paper: Paper,
    title: str = "Cutouts",
    section: str = "",
    gap: float = CUTOUT_GAP,
    inset: tuple[float, float] = (0.0, 0.0),
    area: Box | None = None,
) -> list[Page]:
    """Pack cutouts in shelves (rows), top to bottom, over as many sheets as needed.

    A cutout's footprint is everything it draws (glue tabs and labels included), so
    nothing lands on the margin or the furniture. A piece too wide is turned a quarter.
    `inset` keeps extra room on each side (pass the back offset when pieces have backs);
    `area`, when given, is where the pieces go instead.
    """
    area = content_box(paper, inset) if area is None else area
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
    return (
        min(x for x, _ in corners),
        min(y for _, y in corners),
        max(x for x, _ in corners),
        max(y for _, y in corners),
    )
