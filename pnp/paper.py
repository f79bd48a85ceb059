"""Paper sizes and the printable area a home printer leaves."""

from __future__ import annotations

from dataclasses import dataclass

from pnp.errors import PnpError

DEFAULT_MARGIN = 6.35  # mm, a quarter inch: what most home printers can reach


@dataclass(frozen=True)
class Paper:
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


PAPERS: dict[str, Paper] = {
    "a4": Paper("a4", 210.0, 297.0),
    "letter": Paper("letter", 215.9, 279.4),
}


def paper_name(name: object) -> str:
    """The canonical name of a paper: case and spaces around it do not matter."""
    key = name.strip().lower() if isinstance(name, str) else ""
    if key not in PAPERS:
        shown = repr(name).replace("\\n", " ")[:40]
        raise PnpError(f"unknown paper {shown}: choose one of {', '.join(PAPERS)}")
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
"""Cutter beds and material sheets that cut sheets are packed onto; any 'WxH' in mm too."""
MAX_BED = 2000.0


def bed_size(name: object) -> tuple[float, float]:
    """A bed's size in mm from its name ('300x200', 'A4') or 'WxH' mm ('600x400')."""
    key = name.strip().lower().replace(" ", "") if isinstance(name, str) else ""
    if key in BEDS:
        return BEDS[key]
    w, sep, h = key.partition("x")
    try:
        size = (float(w), float(h)) if sep else None
    except ValueError:
        size = None
    if size is None or not all(0 < v <= MAX_BED for v in size):  # also NaN
        shown = repr(name).replace("\\n", " ")[:40]
        raise PnpError(
            f"unknown cutter bed {shown}: choose {', '.join(BEDS)} or 'WxH' in mm "
            f"(up to {MAX_BED:g})"
        )
    return size
