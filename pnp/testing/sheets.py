"""A print PDF read back as a maker meets it: each page's header, the cover's print ranges,
and the sheets those ranges make when each is printed as a job of its own (pages 2k-1 and
2k of a double-sided range, counted from its first page, share a sheet). Nothing here
asks the layout code: only the PDF's text is read. The registry contract
(`pnp.testing.contract`) holds every game's PDFs to it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pypdf

HEADER_BAND = 30.0
"""pt from the top of the page: the header line's text is the only text there."""
SIZES = re.compile(r" \([^()]* mm\)")
RANGE = re.compile(
    r"(?P<stock>[A-Z][a-z]+(?: [a-z]+)*), (?:page (?P<one>\d+)|pages (?P<a>\d+)–(?P<b>\d+)): "
    r"print (?P<how>double|single)-sided"
)
STOCK = re.compile(r" — on ([a-z ]+?)(?: — backs)?$")
"""A page on anything but card stock says so at the end of its title."""
READ = re.compile(r"^(Cover and contents|.* — assembly map|Solution\b.*)$")
"""Pages a maker reads and never cuts: the only ones that may share a sheet with another."""
CUT_SHORT = re.compile(r"\S\u2026")
"""An ellipsis straight after a character is text cut short; an elision in prose
("2, 3 … and") stands between spaces."""


@dataclass(frozen=True)
class PdfPage:
    number: int  # as its header prints it
    title: str  # the header's page title
    text: str  # everything the page says, one drawn string a line


@dataclass(frozen=True)
class Range:
    stock: str
    first: int
    last: int
    duplex: bool


def read_pages(path: Path) -> list[PdfPage]:
    """Every page's header (kit title, page title, "page k of N ·") and text."""
    out = []
    for page in pypdf.PdfReader(path).pages:
        height = float(page.mediabox.height)
        head: list[tuple[float, float, str]] = []
        lines: list[str] = []

        def visit(text, cm, tm, _font, _size, head=head, lines=lines, height=height):
            if not text.strip():
                return
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            lines.append(text.strip())
            if y > height - HEADER_BAND:
                head.append((y, x, text.strip()))

        page.extract_text(visitor_text=visit)
        numbers = [(y, t) for y, _, t in head if re.match(r"page \d+ of \d+ ·", t)]
        assert len(numbers) == 1, head
        base, number = numbers[0]
        # the header's three texts share one baseline (a board's art may reach the band)
        parts = [t for y, _, t in sorted(head, key=lambda h: h[1]) if abs(y - base) < 0.01]
        assert len(parts) == 3, parts
        out.append(PdfPage(int(number.split()[1]), parts[1], "\n".join(lines)))
    return out


def print_ranges(cover: PdfPage) -> list[Range]:
    """The ranges the cover's "How to print" names, in order."""
    text = " ".join(cover.text.split())
    out = []
    for m in RANGE.finditer(text):
        first, last = (int(m["one"]),) * 2 if m["one"] else (int(m["a"]), int(m["b"]))
        out.append(Range(m["stock"].lower(), first, last, m["how"] == "double"))
    return out


def _sheet(a: PdfPage, b: PdfPage) -> str | None:
    """None if pages a and b may share a sheet, else what is wrong."""
    ta, tb = SIZES.sub("", a.title), SIZES.sub("", b.title)
    if tb == f"{ta} — backs":
        return None  # a front and its own backs
    if ta.endswith(" — front") and tb == f"{ta.removesuffix(' — front')} — back":
        return None  # the alignment test
    if tb == "Intentionally blank":
        return None if "This page is intentionally blank" in b.text else "an unmarked blank"
    if READ.match(ta) and READ.match(tb):
        return None  # two pages to read, back to back
    return "different pieces back to back"


def sheet_faults(pages: list[PdfPage], ranges: list[Range]) -> list[str]:
    """Everything wrong with how the ranges print: gaps, a double-sided range that does
    not start a sheet or pairs two different things, a single-sided one with backs or
    blanks, a page on another stock than its range's."""
    faults = []
    if [p.number for p in pages] != list(range(1, len(pages) + 1)):
        faults.append("pages out of order")
    spans = [(r.first, r.last) for r in ranges]
    if not ranges or spans[0][0] != 1 or spans[-1][1] != len(pages):
        faults.append(f"ranges {spans} do not cover pages 1-{len(pages)}")
    for r0, r1 in zip(ranges, ranges[1:], strict=False):
        if r1.first != r0.last + 1:
            faults.append(f"ranges {r0} and {r1} are not consecutive")
    for r in ranges:
        inside = pages[r.first - 1 : r.last]
        for p in inside:
            if p.number == 1 or p.title == "Intentionally blank":
                continue  # the cover and a blank print on whatever the range is on
            said = STOCK.search(p.title)
            if (said[1] if said else "card stock") != r.stock:
                faults.append(f"page {p.number} '{p.title}' in the {r.stock} range")
        if not r.duplex:
            for p in inside:
                if p.title.endswith(("— backs", "— back")) or p.title == "Intentionally blank":
                    faults.append(f"page {p.number} '{p.title}' in a single-sided range")
            continue
        if len(inside) % 2:  # a job of its own: its sheets start at its first page
            faults.append(f"double-sided range {r.first}-{r.last} is not whole sheets")
        for a, b in zip(inside[::2], inside[1::2], strict=False):
            if (why := _sheet(a, b)) is not None:
                faults.append(f"pages {a.number}/{b.number} '{a.title}' | '{b.title}': {why}")
    return faults


def cut_short(pages: list[PdfPage]) -> list[str]:
    """Every line with text cut short by an ellipsis."""
    return [
        f"page {p.number}: {line}"
        for p in pages
        for line in p.text.splitlines()
        if CUT_SHORT.search(line)
    ]
