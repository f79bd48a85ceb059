"""A whole kit's pages in the order a person prints and assembles them.

Cover (contents and how to print), then the sections in the order given, each back
page right after its front, then the duplex alignment test if anything has a back. A
single-sided print (`duplex = "none"`) has no back pages: gutter-fold sheets instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pnp.kit import FOLD_NOTE, PrintParams
from pnp.layout.duplex import (
    alignment_pages,
    check_back_offset,
    flip_safe,
    on_odd_pages,
    with_backs,
)
from pnp.layout.furniture import GREY, INK, add_furniture, fit_text, label, paper_label
from pnp.layout.gutter import gutter_fronts, with_folds
from pnp.layout.impose import CUTOUT_GAP, impose_cards, pack_cutouts
from pnp.layout.page import Page, blank_page, content_box
from pnp.layout.share import share_sheets
from pnp.layout.tiling import GLUE_OVERLAP, board_pages, scale_label
from pnp.paper import CARD_STOCK, Paper
from pnp.scene import Component, Item
from pnp.text import wrap_lines

ALIGNMENT_SECTION = "Duplex alignment test"


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
                pages += board_pages(c, paper, title, section.title, overlap, section.scale)
    return [replace(p, stock=section.stock) for p in pages]


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

    `materials` lists what a maker needs besides the printout (shown on the cover)."""
    check_back_offset(printing)
    runs = [section_pages(s, paper, printing, overlap, cutout_gap) for s in sections]
    body = [_stock_named(p) for p in share_sheets(runs, paper, printing)]
    body = with_folds(body, paper) if printing.duplex == "none" else with_backs(body, printing)
    duplex = any(p.side == "back" for p in body)
    if duplex:
        body += alignment_pages(paper, printing, ALIGNMENT_SECTION)
        body = on_odd_pages(body, paper, first=2)  # page 1 is the cover
    notes = {s.title: _note(s) for s in sections}
    cover = cover_page(title, subtitle, body, notes, paper, printing, duplex, materials)
    pages = [cover] + body
    return add_furniture(pages, title, paper)


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


def _page_range(a: int, b: int) -> str:
    return f"{a}" if a == b else f"{a}–{b}"


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}" + ("" if n == 1 else "s")


def contents_lines(
    body: list[Page], notes: dict[str, str], first: int, max_lines: int
) -> list[tuple[str, str, bool]]:
    """(pages, text, is_note) rows: one per sheet (front + back together), each section's
    note under its first sheet; if that is too long, one row per section."""
    rows: list[tuple[str, str, bool]] = []
    n = first
    noted: set[str] = set()
    for i, p in enumerate(body):
        if p.side != "front":
            n += p.side == "blank"
            continue
        has_back = i + 1 < len(body) and body[i + 1].side == "back"
        nums = f"{n} + {n + 1}" if has_back else f"{n}"
        title = p.title.removesuffix(" — front") if has_back else p.title
        rows.append((nums, title + ("  (front + back: duplex)" if has_back else ""), False))
        for sec in (p.section, *p.shares):
            if notes.get(sec) and sec not in noted:
                rows.append(("", notes[sec], True))
                noted.add(sec)
        n += 2 if has_back else 1
    if len(rows) <= max_lines:
        return rows
    rows = []
    n = first
    i = 0
    while i < len(body):
        if body[i].side == "blank":  # counted, never listed
            n, i = n + 1, i + 1
            continue
        sec = body[i].section
        j = i
        while j < len(body) and body[j].section == sec:
            j += 1
        backs = sum(1 for p in body[i:j] if p.side == "back")
        printed = sum(1 for p in body[i:j] if p.side != "blank")
        extra = f", {_count(backs, 'back page')}: duplex" if backs else ""
        shared = [t for p in body[i:j] for t in p.shares]  # small sections on its sheets
        named = " · ".join([sec or "Pages", *shared])
        note = " ".join(notes[t] for t in [sec, *shared] if notes.get(t))
        rows.append(
            (
                _page_range(n, n + j - i - 1),
                f"{named} ({_count(printed, 'page')}{extra})" + (f" — {note}" if note else ""),
                False,
            )
        )
        n += j - i
        i = j
    return rows[:max_lines]


def cover_page(
    title: str,
    subtitle: str,
    body: list[Page],
    notes: dict[str, str],
    paper: Paper,
    printing: PrintParams,
    duplex: bool,
    materials: tuple[str, ...] = (),
) -> Page:
    """Title, contents, what to have at hand, and how to print."""
    page = blank_page(paper, "Cover and contents", "Cover")
    x0, y0, x1, y1 = content_box(paper)
    width = x1 - x0
    items: list[Item] = []
    y = y1 - 14.0
    items.append(label(x0, y, fit_text(title, 24.0, True, width), size=24.0, bold=True))
    y -= 8.0
    items.append(label(x0, y, subtitle or "Print-and-play kit", size=11.0, fill=GREY))

    how = [
        'Print at 100 % ("actual size"); turn off fit-to-page and shrink-to-fit.',
        "Before cutting, measure the 50 mm and 1 in bars at the foot of any page.",
        f"Paper: {paper_label(paper)}. Nothing is printed within {paper.margin:g} mm of an "
        "edge, so any home printer reaches every mark.",
    ]
    if printing.bleed > 0 and any(p.bleed_box not in (None, p.trim_box) for p in body):
        how.append(
            f"Cards and tiles carry {printing.bleed:g} mm of bleed: cut on the line the crop "
            "marks give, the art runs past it."
        )
    if any(p.fold for p in body):
        how.append(
            'Print single-sided. Each "gutter fold" sheet has fronts on one side of its '
            f"dashed line and their backs on the other: {FOLD_NOTE} through both layers "
            "(printed sides out)."
        )
    if duplex:
        edge = "short" if printing.duplex == "short" else "long"
        first_test = 2 + next(
            i for i, p in enumerate(body) if p.section == ALIGNMENT_SECTION and p.side == "front"
        )
        how.append(
            f"Print the whole file double-sided, flipped on the {edge} edge: pages marked "
            '"backs" land on the reverse of the page before (a blank page keeps every sheet '
            "in step). "
            f"Print the alignment test (pages {first_test}–{first_test + 1}) first and set "
            "back_offset_x and back_offset_y as it reads."
        )
    scaled = [p.title for p in body if "(scale 1:" in p.title]
    if scaled:
        how.append(
            f"Reduced boards say their scale in their title ({scaled[0]}): measure the "
            "scale bars, not the board, to check the print."
        )
    if any("assembly map" in p.title for p in body):
        how.append(
            "Boards larger than a sheet are tiled: cut and glue the sheets as their "
            "assembly map shows."
        )
    how_lines: list[tuple[str, bool]] = []
    for heading, points in (("You will need", materials), ("How to print", how)):
        if not points:
            continue
        if how_lines:
            how_lines.append(("", False))
        how_lines.append((heading, True))
        for h in points:
            for k, line in enumerate(wrap_lines(h, 9.0, width - 5.0)):
                how_lines.append(((" " if k else "• ") + line, False))
    how_top = y0 + 5.0 * len(how_lines) + 2.0

    y -= 16.0
    items.append(label(x0, y, "Contents", size=12.0, bold=True))
    y -= 7.0
    max_lines = max(1, int((y - how_top - 8.0) // 5.0))
    for nums, what, is_note in contents_lines(body, notes, 2, max_lines):
        if nums:
            items.append(label(x0 + 14.0, y, nums, size=9.0, anchor="end", fill=GREY))
        size = 8.0 if is_note else 9.0
        indent = 21.0 if is_note else 18.0
        items.append(
            label(
                x0 + indent,
                y,
                fit_text(what, size, False, width - indent),
                size=size,
                fill=GREY if is_note else INK,
            )
        )
        y -= 5.0
    y = how_top
    for text, bold in how_lines:
        if not text:
            y -= 3.0
            continue
        items.append(
            label(x0 + (0.0 if bold else 2.0), y, text, size=12.0 if bold else 9.0, bold=bold)
        )
        y -= 6.0 if bold else 5.0
    page.items.extend(items)
    return page
