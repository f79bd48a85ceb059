"""The Kit: one game's printed set and the facts its rules engine reads.

The printed components and the simulated set come from the same object, so what is
printed is what was tested.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pnp.scene import Component


@dataclass(frozen=True)
class PrintParams:
    """Print settings every game shares; a TOML config or the CLI may override them."""

    paper: str = "a4"
    margin: float = 6.35
    bleed: float = 3.0
    kerf: float = 0.0
    card_width: float = 85.0
    card_height: float = 55.0
    card_radius: float = 8.0  # 85 x 55 cards fit the 91.5 x 56.9 r14 tin only from r 7.6 up
    back_offset_x: float = 0.0
    back_offset_y: float = 0.0


@dataclass(frozen=True)
class KitSection:
    """A group of components printed together, in print-and-assembly order."""

    title: str
    names: tuple[str, ...]
    note: str = ""


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

    def component(self, name: str) -> Component:
        for c in self.components:
            if c.name == name:
                return c
        raise KeyError(name)
