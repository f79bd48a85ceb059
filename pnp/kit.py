"""The Kit: one game's printed set and the facts its rules engine reads.

The printed components and the simulated set come from the same object, so what is
printed is what was tested.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pnp.paper import CARD_STOCK
from pnp.params import PrintParams
from pnp.scene import PRINTED_MACHINE_LAYERS, Component

__all__ = ["Kit", "KitDocument", "KitSection", "PrintParams"]


@dataclass(frozen=True)
class KitSection:
    """A group of components printed together, in print-and-assembly order."""

    title: str
    names: tuple[str, ...]
    note: str = ""
    scale: float = 1.0  # boards in it print at this scale (the `board_scale` parameter)
    stock: str = CARD_STOCK  # what its sheets print on (pnp.paper: CARD_STOCK, STICKER_PAPER)


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
