"""A whole kit's pages in the order a person prints and assembles them.

Cover (contents and how to print), then the sections in the order given, each back
page right after its front, then the duplex alignment test if anything has a back;
sections on another stock (sticker paper) follow as a print range of their own. Printed
double-sided, every sheet is a front and its own backs, or a page and a blank reverse. A
single-sided print (`duplex = "none"`) has no back pages and no blanks: gutter-fold
sheets instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pnp.kit import PrintParams
from pnp.layout.cover import ALIGNMENT_SECTION, PrintRange, cover_page
from pnp.layout.duplex import (
    alignment_pages,
    check_back_offset,
    flip_safe,
    on_own_sheets,
    with_backs,
)
from pnp.layout.furniture import add_furniture
from pnp.layout.gutter import gutter_fronts, with_folds
from pnp.layout.impose import CUTOUT_GAP, impose_cards, pack_cutouts
from pnp.layout.page import Page, blank_page, content_box
from pnp.layout.share import share_sheets
from pnp.layout.tiling import GLUE_OVERLAP, board_pages, scale_label
from pnp.paper import CARD_STOCK, Paper
from pnp.scene import Component


@dataclass
class Section:
    """A group of components printed together, e.g. "Board", "Cards", "Dice stickers".

    Components are laid out by their own `imposition`; consecutive components with the
    same imposition share sheets. `note` is one line shown in the contents.
    """

    title: str
    components: list[Component] = field(default_factory=list)
    note: str = ""
    scale: float = 1.0  # boards in this section print at this scale (1: real size, tiled)
    stock: str = CARD_STOCK  # what its sheets print on; any other stock is named on them
    reading: bool = False  # read, never cut: its pages may print back to back


def section_pages(
    section: Section,
    paper: Paper,
    printing: PrintParams,
    overlap: float = GLUE_OVERLAP,
    cutout_gap: float = CUTOUT_GAP,
) -> list[Page]:
    """The front pages of one section (backs are added by `with_backs`, or by
    `with_folds` for the gutter-fold halves of a single-sided print)."""
    folded = printing.duplex == "none"
    runs: list[tuple[str, bool, list[Component]]] = []
    for c in section.components:
        fold = folded and c.imposition != "board" and c.back is not None
        if runs and runs[-1][:2] == (c.imposition, fold):
            runs[-1][2].append(c)
        else:
            runs.append((c.imposition, fold, [c]))
    pages: list[Page] = []
    offset = (printing.back_offset_x, printing.back_offset_y)
    for kind, fold, comps in runs:
        if fold:
            sheets = gutter_fronts(
                comps, kind, paper, printing, section.title, section.title, cutout_gap
            )
            pages += [replace(p, stackable=True) for p in sheets]
        elif kind == "card":
            cards = impose_cards(comps, paper, printing, section.title, section.title)
            pages += [replace(p, stackable=True) for p in cards]
        elif kind == "cutout":
            has_back = any(c.back is not None for c in comps)
            inset = offset if has_back else (0.0, 0.0)
            area = content_box(paper, inset)
            cutouts = pack_cutouts(
                comps,
                paper,
                section.title,
                section.title,
                cutout_gap,
                area=flip_safe(area, paper, printing.duplex, offset) if has_back else area,
            )
            pages += [replace(p, stackable=True) for p in cutouts]
        else:
            for c in comps:
                title = section.title if len(comps) == 1 else f"{section.title}: {c.title}"
                sheets = board_pages(c, paper, title, section.title, overlap, section.scale)
                pages += _map_first(sheets)
    return [replace(p, stock=section.stock, reading=p.reading or section.reading) for p in pages]


def _map_first(sheets: list[Page]) -> list[Page]:
    """A tiled board's assembly map before its tiles: read before they are cut, and,
    after the cover, the two print back to back instead of each on its own sheet."""
    return [p for p in sheets if p.reading] + [p for p in sheets if not p.reading]


def build_document(
    title: str,
    sections: list[Section],
    paper: Paper,
    printing: PrintParams,
    subtitle: str = "",
    overlap: float = GLUE_OVERLAP,
    cutout_gap: float = CUTOUT_GAP,
    materials: tuple[str, ...] = (),
) -> list[Page]:
    """Every page of a kit, in print order, numbered, with header and footer on each.

    One print range per stock (card stock first, with the cover): a range with backs
    prints double-sided, every sheet its own (`on_own_sheets`), and the first such range
    ends with the duplex alignment test; a range without backs prints single-sided.
    `materials` lists what a maker needs besides the printout (shown on the cover)."""
    check_back_offset(printing)
    placeholder = blank_page(paper, "Cover and contents", "Cover")
    placeholder.reading = True
    groups: list[tuple[str, list[Page]]] = []
    tested = False
    for stock in _stocks(sections):
        runs = [
            section_pages(s, paper, printing, overlap, cutout_gap)
            for s in sections
            if s.stock == stock
        ]
        pages = [_stock_named(p) for p in share_sheets(runs, paper, printing)]
        folded = printing.duplex == "none"
        pages = with_folds(pages, paper) if folded else with_backs(pages, printing)
        if any(p.side == "back" for p in pages) and not tested:
            test = alignment_pages(paper, printing, ALIGNMENT_SECTION)
            pages += [replace(p, stock=stock) for p in test]
            tested = True
        groups.append((stock, pages))
    groups[0][1].insert(0, replace(placeholder, stock=groups[0][0]))
    ranges: list[PrintRange] = []
    everything: list[Page] = []
    for stock, pages in groups:
        duplex = any(p.side == "back" for p in pages)
        if duplex:
            pages = on_own_sheets(pages, paper)
        first = len(everything) + 1
        everything += pages
        ranges.append(PrintRange(stock, first, len(everything), duplex))
    body = everything[1:]
    notes = {s.title: _note(s) for s in sections}
    cover = cover_page(title, subtitle, body, notes, paper, printing, ranges, materials)
    return add_furniture([cover, *body], title, paper)


def _stocks(sections: list[Section]) -> list[str]:
    """The stocks the sections print on, card stock first, then as they come: each one a
    print range of its own (stickers are loaded for their pages alone)."""
    seen = [CARD_STOCK] if any(s.stock == CARD_STOCK for s in sections) else []
    for s in sections:
        if s.stock not in seen:
            seen.append(s.stock)
    return seen or [CARD_STOCK]


def _stock_named(page: Page) -> Page:
    """A sheet on anything but card stock says so in its header, for whoever loads the
    printer with a single page."""
    if page.stock == CARD_STOCK:
        return page
    return replace(page, title=f"{page.title} — on {page.stock}")


def _note(s: Section) -> str:
    """A section's line under its contents row: its stock when that is not card stock,
    then its scale when reduced, then the game's note."""
    parts = []
    if s.stock != CARD_STOCK:
        parts.append(f"Print on {s.stock}.")
    if s.scale < 1:
        parts.append(f"Printed at {scale_label(s.scale)} (the scale bars still measure true).")
    return " ".join([*parts, s.note]).strip()
