"""The Parcheesi play model: what the rules engine reads, taken from the track graph.

The engine never hard-codes board numbers: each colour's path (entry space to home), the
safe spaces and the entry and home-entry spaces come from `geometry.track`, the module
that also draws the board, so the printed board and the played board are one.
"""

from __future__ import annotations

from dataclasses import dataclass

from geometry import track
from pnp.contract.params import validate_params
from pnp.games.parcheesi.params import ParcheesiParams, validate


@dataclass(frozen=True)
class PlayModel:
    """A pawn's progress p (0 = its entry space ... `home` = home) stands on node
    `paths[colour][p]`; a pawn in its nest has no node. Nodes are `geometry.track`'s."""

    colours: tuple[str, ...]  # ink names, by colour index
    rules: str  # "seed" or "standard"
    paths: tuple[tuple[int, ...], ...]  # per colour: node of each progress 0..home
    safe: tuple[bool, ...]  # per node
    entry: tuple[int, ...]  # per colour: entry space
    home_entry: tuple[int, ...]  # per colour: last track space before the strip
    track: int  # track spaces, numbered 0 .. track - 1 in the direction of travel
    nodes: int
    dice: str = "both"  # "both": every roll is of both dice; "choose": the mover picks

    @property
    def home(self) -> int:
        """The progress of a pawn at home (71 on the standard board)."""
        return len(self.paths[0]) - 1

    def strip(self, colour: int) -> int:
        """The progress of a colour's first home-strip space (no capture from there on)."""
        return self.paths[colour].index(self.home_entry[colour]) + 1


def play_model(p: ParcheesiParams, rules: str | None = None) -> PlayModel:
    """The model of a valid kit; `rules` overrides the kit's own rules choice."""
    p = validate_params(p)
    validate(p)
    colours = range(track.COLOURS)
    paths = tuple(track.path(k) for k in colours)
    return PlayModel(
        colours=p.colours,
        rules=rules or p.rules,
        paths=paths,
        safe=tuple(track.is_safe(n) for n in range(track.NODES)),
        entry=tuple(track.entry_space(k) for k in colours),
        home_entry=tuple(track.home_entry_space(k) for k in colours),
        track=track.TRACK_SPACES,
        nodes=track.NODES,
    )
