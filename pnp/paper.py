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
