"""The Kit: one game's printed set and the facts its rules engine reads.

The printed components and the simulated set come from the same object, so what is
printed is what was tested.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pnp.contract.paper import CARD_STOCK
from pnp.contract.params import PrintParams
from pnp.draw.scene import PRINTED_MACHINE_LAYERS, Component

__all__ = ["FOLD_NOTE", "Kit", "KitDocument", "KitSection", "PrintParams", "backs_note"]

FOLD_NOTE = "fold on the dashed line, glue, then cut"
"""What a maker does with a gutter-fold sheet (`duplex = "none"`), in the order to do it."""


def backs_note(printing: PrintParams, long: str, none: str) -> str:
    """A section's note on its backs for the kit's `duplex` mode: `long` as written for a
    long-edge flip, the short edge named instead for a short-edge one, `none` for a
    single-sided print (fronts and backs on gutter-fold sheets)."""
    if printing.duplex == "none":
        return none
    if printing.duplex == "short":
        return long.replace("long edge", "short edge")
    return long


@dataclass(frozen=True)
class KitSection:
    """A group of components printed together, in print-and-assembly order."""

    title: str
    names: tuple[str, ...]
    note: str = ""
    scale: float = 1.0  # boards in it print at this scale (the `board_scale` parameter)
    # what its sheets print on (pnp.contract.paper: CARD_STOCK, STICKER_PAPER)
    stock: str = CARD_STOCK
    reading: bool = False
    """Its pages are read, never cut (a solution, a booklet): printed double-sided, two of
    them may share a sheet. Any other page has its own backs or nothing on its reverse."""


@dataclass(frozen=True)
class KitDocument:
    """A further PDF a kit prints besides its main one, e.g. a 1:1 scroll-saw pattern.

    Written as `<game>-<name>-<paper>.pdf`, for each paper, with the same furniture."""

    name: str
    title: str
    sections: tuple[KitSection, ...]
    hairline: float | None = None  # widen machine lines to this (mm) so a pattern shows them
    machine_layers: tuple[str, ...] = PRINTED_MACHINE_LAYERS
    """The machine layers this PDF prints (a pattern glued onto wood wants every one)."""


@dataclass
class Kit:
    game: str
    title: str
    params: object
    printing: PrintParams
    components: list[Component] = field(default_factory=list)
    model: object | None = None
    findings: list = field(default_factory=list)  # found while building (e.g. text overflow)
    sections: list[KitSection] = field(default_factory=list)
    materials: tuple[str, ...] = ()  # what a maker needs besides the printout
    documents: list[KitDocument] = field(default_factory=list)  # beyond the main PDF
    cut_parts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Components packed, with their copies, onto cutter-bed sheets, one group per material:
    {"plywood": blades} -> cut/plywood-1.svg/.dxf, cut/plywood-2...; the bed is `cut_bed`."""

    def names(self, *prefixes: str, kind: str | None = None) -> tuple[str, ...]:
        """The components whose names start with one of `prefixes` (and whose meta says
        `kind`, when given), in kit order: the parts of a kit section."""
        return tuple(
            c.name
            for c in self.components
            if c.name.startswith(prefixes) and (kind is None or c.meta.get("kind") == kind)
        )

    def component(self, name: str) -> Component:
        for c in self.components:
            if c.name == name:
                return c
        raise KeyError(name)
