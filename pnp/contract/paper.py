"""Paper sizes and the printable area a home printer leaves."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from pnp.runtime.errors import PnpError, shown

DEFAULT_MARGIN = 6.35  # mm, a quarter inch: what most home printers can reach


@dataclass(frozen=True)
class Paper:
    """A sheet size in millimetres and the margin a printer leaves blank."""

    name: str
    width: float
    height: float
    margin: float = DEFAULT_MARGIN

    @property
    def printable_width(self) -> float:
        return self.width - 2 * self.margin

    @property
    def printable_height(self) -> float:
        return self.height - 2 * self.margin


CARD_STOCK = "card stock"
STICKER_PAPER = "sticker paper"
PLAIN_PAPER = "plain paper"
"""Stocks a kit section prints on. Each sheet is one stock, so sections on different stocks
never share a sheet, and the page and the cover say which to load."""

PAPERS: dict[str, Paper] = {
    "a4": Paper("a4", 210.0, 297.0),
    "letter": Paper("letter", 215.9, 279.4),
}


def paper_name(name: object) -> str:
    """The canonical name of a paper: case and spaces around it do not matter."""
    key = name.strip().lower() if isinstance(name, str) else ""
    if key not in PAPERS:
        raise PnpError(f"unknown paper {shown(name)}: choose one of {', '.join(PAPERS)}")
    return key


def get_paper(name: str, margin: float = DEFAULT_MARGIN) -> Paper:
    key = paper_name(name)
    if not 0 <= margin < 40:
        raise PnpError(f"printer margin {margin} mm is impossible: use 0 to 40 mm")
    p = PAPERS[key]
    return Paper(p.name, p.width, p.height, margin)


BEDS: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "300x200": (300.0, 200.0),
    "400x300": (400.0, 300.0),
}
"""Material sheets and common laser beds (width x height, mm) cut sheets are packed onto."""
MAX_BED = 3000.0
"""No hobby cutter or material sheet is longer than 3 m: a bigger number is a typo."""
_WXH = re.compile(r"^(\d+(?:\.\d+)?)\s*[x\u00d7]\s*(\d+(?:\.\d+)?)$")


def get_bed(name: object) -> tuple[float, float]:
    """A bed by name (a4, letter, 300x200, 400x300) or any 'WxH' size in mm, e.g. '600x400'."""
    key = name.strip().lower() if isinstance(name, str) else ""
    if key in BEDS:
        return BEDS[key]
    match = _WXH.match(key)
    if match is None:
        raise PnpError(
            f"unknown cutter bed {shown(name)}: choose one of {', '.join(BEDS)} "
            "or give a size in mm such as 600x400"
        )
    w, h = float(match[1]), float(match[2])
    for v in (w, h):
        if not (math.isfinite(v) and 0 < v <= MAX_BED):
            raise PnpError(
                f"cutter bed {w:g} x {h:g} mm is impossible: each side must be 0 to {MAX_BED:g} mm"
            )
    return (w, h)
