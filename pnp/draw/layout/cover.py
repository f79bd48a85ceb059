"""A kit's cover: title, contents, what to have at hand, and how to print each page range.

The cover names every print job (consecutive pages on one stock, printed one side or
two), its pages, its sheets and what it holds, so a maker loads the right stock for
each and never prints stickers on card stock or a sheet of cut-outs on the back of
another.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.contract.paper import Paper
from pnp.draw.kit import FOLD_NOTE, PrintParams
from pnp.draw.layout.furniture import GREY, INK, label, paper_label
from pnp.draw.layout.page import Page, blank_page, content_box
from pnp.draw.scene import Item
from pnp.draw.text import wrap_lines

ALIGNMENT_SECTION = "Duplex alignment test"
CONTENTS_SIZE = 9.0
NOTE_SIZE = 8.0
LINE = 5.0
"""mm from one line of the cover's small text to the next."""


@dataclass(frozen=True)
class PrintRange:
    """Consecutive pages printed as one job on one stock; a `duplex` range prints
    double-sided, two pages a sheet (its first page odd, its last even)."""

    stock: str
    first: int
    last: int
    duplex: bool

    @property
    def pages(self) -> str:
        span = page_range(self.first, self.last)
        return f"page {span}" if self.first == self.last else f"pages {span}"


def page_range(a: int, b: int) -> str:
    return f"{a}" if a == b else f"{a}–{b}"


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}" + ("" if n == 1 else "s")


def _wrapped(rows: list[tuple[str, str, bool]], width: float | None) -> int:
    """How many lines `rows` take on the cover (one a row when no width is given)."""
    if width is None:
        return len(rows)
    return sum(len(_lines(text, is_note, width)) for _, text, is_note in rows)


def _lines(text: str, is_note: bool, width: float) -> list[str]:
    indent = 21.0 if is_note else 18.0
    return wrap_lines(text, NOTE_SIZE if is_note else CONTENTS_SIZE, width - indent) or [""]


def contents_lines(
    body: list[Page],
    notes: dict[str, str],
    first: int,
    max_lines: int,
    width: float | None = None,
) -> list[tuple[str, str, bool]]:
    """(pages, text, is_note) rows: one per sheet (front + back together), each section's
    note under its first sheet; if those take more than `max_lines` lines (wrapped to
    `width` mm when given), one row per section with its note; then without the notes."""
    rows = _sheet_rows(body, notes, first)
    if _wrapped(rows, width) <= max_lines:
        return rows
    rows = _section_rows(body, notes, first, with_notes=True)
    if _wrapped(rows, width) <= max_lines:
        return rows
    rows = _section_rows(body, notes, first, with_notes=False)
    kept: list[tuple[str, str, bool]] = []
    for row in rows:
        if _wrapped([*kept, row], width) > max_lines:
            break
        kept.append(row)
    return kept


def _sheet_rows(body: list[Page], notes: dict[str, str], first: int) -> list[tuple[str, str, bool]]:
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
    return rows


def _section_rows(
    body: list[Page], notes: dict[str, str], first: int, with_notes: bool
) -> list[tuple[str, str, bool]]:
    rows: list[tuple[str, str, bool]] = []
    i = 0
    while i < len(body):
        if body[i].side == "blank":  # counted, never listed
            i += 1
            continue
        sec = body[i].section
        j = i
        while j < len(body) and body[j].section == sec:
            j += 1
        printed = [k for k in range(i, j) if body[k].side != "blank"]
        backs = sum(1 for k in printed if body[k].side == "back")
        extra = f", {_count(backs, 'back page')}: duplex" if backs else ""
        shared = [t for p in body[i:j] for t in p.shares]  # small sections on its sheets
        named = " · ".join([sec or "Pages", *shared])
        note = " ".join(notes[t] for t in [sec, *shared] if notes.get(t)) if with_notes else ""
        span = (first + printed[0], first + printed[-1])
        rows.append(
            (
                page_range(*span),
                f"{named} ({_count(len(printed), 'page')}{extra})" + (f" — {note}" if note else ""),
                False,
            )
        )
        i = j
    return rows


def sheets(r: PrintRange) -> int:
    """How many sheets a range takes: two pages a sheet printed double-sided."""
    n = r.last - r.first + 1
    return (n + 1) // 2 if r.duplex else n


def _holds(inside: list[Page]) -> str:
    """What a job's pages hold, by section, each once, in order."""
    names: list[str] = []
    for p in inside:
        for sec in (p.section, *p.shares):
            if sec and sec not in names and p.side != "blank":
                names.append(sec)
    return "; ".join(n[:1].lower() + n[1:] for n in names)


def print_lines(ranges: list[PrintRange], body: list[Page], printing: PrintParams) -> list[str]:
    """One instruction per print job: its stock, its pages and sheets, one side or two,
    and what it holds."""
    edge = "short" if printing.duplex == "short" else "long"
    out: list[str] = []
    for r in ranges:
        inside = body[max(r.first - 2, 0) : r.last - 1]  # the body starts on page 2
        if r.first == 1:
            inside = [Page(0, 0, section="Cover"), *inside]
        n = sheets(r)
        line = f"{r.stock[:1].upper()}{r.stock[1:]}, {r.pages}: print "
        line += f"double-sided, flipped on the {edge} edge" if r.duplex else "single-sided"
        line += f" ({_count(n, 'sheet')}): {_holds(inside)}."
        if r.duplex:
            line += " Each sheet is a front with its own backs: no piece has another behind it."
            test = [
                n
                for n, p in enumerate(body, start=2)
                if r.first <= n <= r.last and p.section == ALIGNMENT_SECTION and p.side == "front"
            ]
            if test:
                line += (
                    f" Print the alignment test (pages {test[0]}–{test[0] + 1}) first and set "
                    "back_offset_x and back_offset_y as it reads."
                )
            elif not printing.alignment_test:
                line += (
                    " First print the alignment test the kits share (in shared/, with the "
                    "sticker sheets) and set back_offset_x and back_offset_y as it reads."
                )
        boards = [p for p in inside if _is_board(p)]
        if boards:
            line += (
                " Glue the board's sheets onto card or board (board_on_card = true prints "
                "them on card stock)."
                if r.stock != "card stock"
                else " The board's sheets are on card stock, as board_on_card asks."
            )
        if any(p.fold for p in inside):
            line += (
                ' Each "gutter fold" sheet has fronts on one side of its dashed line and '
                f"their backs on the other: {FOLD_NOTE} through both layers (printed "
                "sides out)."
            )
        out.append(line)
    return out


def _is_board(page: Page) -> bool:
    return any(pl.component.imposition == "board" for pl in page.placements)


def cover_page(
    title: str,
    subtitle: str,
    body: list[Page],
    notes: dict[str, str],
    paper: Paper,
    printing: PrintParams,
    ranges: list[PrintRange],
    materials: tuple[str, ...] = (),
) -> Page:
    """Title, contents, what to have at hand, and how to print each range. Every text
    wraps at word breaks; none is cut short."""
    page = blank_page(paper, "Cover and contents", "Cover")
    page.reading = True
    x0, y0, x1, y1 = content_box(paper)
    width = x1 - x0
    items: list[Item] = []
    y = y1 - 14.0
    for k, line in enumerate(wrap_lines(title, 24.0, width, bold=True)):
        y -= 10.0 if k else 0.0
        items.append(label(x0, y, line, size=24.0, bold=True))
    y -= 8.0
    for k, line in enumerate(wrap_lines(subtitle or "Print-and-play kit", 11.0, width)):
        y -= 5.0 if k else 0.0
        items.append(label(x0, y, line, size=11.0, fill=GREY))

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
    how += print_lines(ranges, body, printing)
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
    how_top = y0 + LINE * len(how_lines) + 2.0

    y -= 16.0
    items.append(label(x0, y, "Contents", size=12.0, bold=True))
    y -= 7.0
    max_lines = max(1, int((y - how_top - 8.0) // LINE))
    for nums, what, is_note in contents_lines(body, notes, 2, max_lines, width):
        if nums:
            items.append(label(x0 + 14.0, y, nums, size=CONTENTS_SIZE, anchor="end", fill=GREY))
        indent = 21.0 if is_note else 18.0
        for line in _lines(what, is_note, width):
            items.append(
                label(
                    x0 + indent,
                    y,
                    line,
                    size=NOTE_SIZE if is_note else CONTENTS_SIZE,
                    fill=GREY if is_note else INK,
                )
            )
            y -= LINE
    y = how_top
    for text, bold in how_lines:
        if not text:
            y -= 3.0
            continue
        items.append(
            label(x0 + (0.0 if bold else 2.0), y, text, size=12.0 if bold else 9.0, bold=bold)
        )
        y -= 6.0 if bold else LINE
    page.items.extend(items)
    return page
