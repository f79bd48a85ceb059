"""A whole kit's pages in the order a person prints and assembles them.

Cover (contents and how to print), then one print job per stock and sidedness, each
the sections' pages in the order given: plain paper (cover, board sheets, pages to
read), card stock double-sided (the duplex alignment test, then each sheet with backs
and its back page), card stock single-sided, sticker paper. A single-sided print
(`duplex = "none"`) has no back pages: gutter-fold sheets instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pnp.contract.paper import CARD_STOCK, PLAIN_PAPER, Paper
from pnp.draw.kit import PrintParams
from pnp.draw.layout.cover import ALIGNMENT_SECTION, PrintRange, cover_page
from pnp.draw.layout.duplex import (
    alignment_pages,
    check_back_offset,
    flip_safe,
    on_own_sheets,
    with_backs,
)
from pnp.draw.layout.furniture import add_furniture
from pnp.draw.layout.gutter import gutter_fronts, with_folds
from pnp.draw.layout.impose import CUTOUT_GAP, impose_cards, pack_cutouts
from pnp.draw.layout.page import Page, blank_page, content_box
from pnp.draw.layout.share import share_sheets
from pnp.draw.layout.tiling import GLUE_OVERLAP, board_pages, scale_label
from pnp.draw.scene import Component


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
    test_first: bool = False,
) -> list[Page]:
    """Every page of a kit, in print order, numbered, with header and footer on each.

    One print job per stock and sidedness (`print_jobs`): plain paper first (the cover,
    board sheets, pages to read), then card stock printed double-sided (the sheets whose
    pieces have backs, after the duplex alignment test), then card stock single-sided,
    then any other stock. A double-sided job holds only sheets with backs, so no sheet
    goes through the printer twice for a blank reverse. `materials` lists what a maker
    needs besides the printout (shown on the cover). `test_first` prints the alignment test
    as a double-sided job of its own when nothing else has backs (the sheets several kits
    share)."""
    check_back_offset(printing)
    placeholder = blank_page(paper, "Cover and contents", "Cover")
    placeholder.reading = True
    pages = [placeholder]
    for stock in _stocks(sections):
        runs = [
            section_pages(s, paper, printing, overlap, cutout_gap)
            for s in sections
            if s.stock == stock
        ]
        pages += share_sheets(runs, paper, printing)
    pages = [_stock_named(replace(p, stock=_print_stock(p, printing))) for p in pages]
    folded = printing.duplex == "none"
    pages = with_folds(pages, paper) if folded else with_backs(pages, printing)
    ranges: list[PrintRange] = []
    everything: list[Page] = []
    found = print_jobs(pages)
    if test_first and printing.duplex != "none" and not any(d for _, d, _ in found):
        found.insert(1, (CARD_STOCK, True, []))
    for stock, duplex, job in found:
        if duplex and printing.alignment_test:
            test = alignment_pages(paper, printing, ALIGNMENT_SECTION)
            job = [replace(p, stock=stock) for p in test] + job
        if duplex:
            job = on_own_sheets(job, paper)
        first = len(everything) + 1
        name = job_name(stock, duplex)
        everything += [replace(p, job=name) for p in job]
        ranges.append(PrintRange(stock, first, len(everything), duplex))
    body = everything[1:]
    notes = {s.title: _note(s) for s in sections}
    cover = cover_page(title, subtitle, body, notes, paper, printing, ranges, materials)
    cover = replace(cover, stock=everything[0].stock, job=everything[0].job)
    return add_furniture([cover, *body], title, paper)


def job_name(stock: str, duplex: bool) -> str:
    """A print job's name, as its own PDF is called: `card-stock-duplex`, `plain-paper`."""
    return stock.replace(" ", "-") + ("-duplex" if duplex else "")


def print_jobs(pages: list[Page]) -> list[tuple[str, bool, list[Page]]]:
    """The pages (cover first) as print jobs: (stock, double-sided, pages), plain paper
    first, then card stock double-sided and single-sided, then the other stocks as they
    come. Each page keeps its order within its job; a back stays behind its front."""
    jobs: dict[tuple[str, bool], list[Page]] = {}
    for i, p in enumerate(pages):
        backed = p.side == "back" or (
            p.side == "front" and i + 1 < len(pages) and pages[i + 1].side == "back"
        )
        jobs.setdefault((p.stock, backed), []).append(p)
    order = {PLAIN_PAPER: 0, CARD_STOCK: 1}
    keys = sorted(jobs, key=lambda k: (order.get(k[0], 2), not k[1]))  # stable otherwise
    return [(stock, duplex, jobs[(stock, duplex)]) for stock, duplex in keys]


def _print_stock(page: Page, printing: PrintParams) -> str:
    """What a page prints on: a page to read (cover, assembly map, solution) on plain
    paper; a board's sheet on plain paper too, glued onto board, unless the kit asks for
    card (`board_on_card`); anything else on its section's stock."""
    if page.reading:
        return PLAIN_PAPER
    board = any(pl.component.imposition == "board" for pl in page.placements)
    if board and page.stock == CARD_STOCK and not printing.board_on_card:
        return PLAIN_PAPER
    return page.stock


def _stocks(sections: list[Section]) -> list[str]:
    """The stocks the sections print on, as they come: sections of one stock may share
    sheets (stickers are loaded for their pages alone)."""
    seen: list[str] = []
    for s in sections:
        if s.stock not in seen:
            seen.append(s.stock)
    return seen


def _stock_named(page: Page) -> Page:
    """A sheet on anything but card stock says so in its header, for whoever loads the
    printer with a single page (the cover names every job)."""
    if page.stock == CARD_STOCK or page.section == "Cover":
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
