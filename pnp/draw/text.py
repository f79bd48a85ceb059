"""Text measuring and wrapping, below every layer that places text.

Fonts are reportlab's bundled Bitstream Vera, registered as TrueType so PDFs embed them
(Vera ships inside the reportlab wheel, so every machine that can build a kit has it); the
same metrics measure text for layout, cards and components, so what is measured is what
the PDF draws.
"""

from __future__ import annotations

import os
from functools import cache

import reportlab
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

REGULAR = "PnpSans"
BOLD = "PnpSans-Bold"
SVG_FAMILY = "DejaVu Sans, Bitstream Vera Sans, Verdana, sans-serif"
_FILES = {REGULAR: "Vera.ttf", BOLD: "VeraBd.ttf"}


@cache
def register_fonts() -> tuple[str, str]:
    """Register the regular and bold fonts once; return their reportlab names."""
    folder = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
    for name, filename in _FILES.items():
        pdfmetrics.registerFont(TTFont(name, os.path.join(folder, filename)))
    return REGULAR, BOLD


def font_name(bold: bool = False) -> str:
    register_fonts()
    return BOLD if bold else REGULAR


def wrap_lines(text: str, size_pt: float, width_mm: float, bold: bool = False) -> list[str]:
    """Greedy word wrap of plain text to `width_mm` (reportlab's own line splitter)."""
    return simpleSplit(text, font_name(bold), size_pt, width_mm * 72.0 / 25.4)


def string_width(text: str, size_pt: float, bold: bool = False) -> float:
    """Width of `text` in millimetres at `size_pt` points."""
    return pdfmetrics.stringWidth(text, font_name(bold), size_pt) * 25.4 / 72.0


def fit_text(text: str, size: float, bold: bool, width: float) -> str:
    """`text` if it fits `width` mm, else its first whole words and an ellipsis (the last
    resort of a caller whose own shorter forms do not fit: a word is cut only when the
    first one alone is too long)."""
    if string_width(text, size, bold) <= width:
        return text
    words = text.split(" ")
    while len(words) > 1:
        words.pop()
        shown = " ".join(words).rstrip(" ,;:·—–(")
        if shown and string_width(shown + "\u2026", size, bold) <= width:
            return shown + "\u2026"
    while text and string_width(text + "\u2026", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "\u2026"


def ascent(size: float, bold: bool = False) -> float:
    """Height above the baseline in mm (font metrics), for frame fitting and checks."""
    return pdfmetrics.getAscentDescent(font_name(bold), size)[0] * 25.4 / 72.0


def descent(size: float, bold: bool = False) -> float:
    """Depth below the baseline in mm, positive."""
    return -pdfmetrics.getAscentDescent(font_name(bold), size)[1] * 25.4 / 72.0


def count_of(n: int, one: str, many: str) -> str:
    """ "1 die", "3 dice": a number with its noun in the right number, for printed text."""
    return f"{n} {one if n == 1 else many}"
