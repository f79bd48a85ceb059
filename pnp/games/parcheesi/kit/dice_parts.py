"""Two fold-up paper dice, for a player with no dice at hand: ordinary six-sided dice,
white with round black pips, so they read like the dice the rules speak of."""

from __future__ import annotations

from pnp.contract.palette import Ink
from pnp.draw.components.dice import paper_die, pip_face
from pnp.draw.scene import Component
from pnp.games.parcheesi.params import ParcheesiParams, validate

DICE = 2
FACES = (1, 2, 3, 4, 5, 6)
DIE_INK = Ink("white", "#FFFFFF", "circle", "#E9E2D2", "#1E1E1E")
"""Not a player colour: white faces, round near-black pips, cream glue tabs."""


def paper_dice(params: ParcheesiParams) -> list[Component]:
    """`paper-die-1` and `paper-die-2` with `die_size` mm faces, or none when the kit
    leaves them out (`paper_dice = false`)."""
    validate(params)
    if not params.paper_dice:
        return []
    out = []
    for n in range(1, DICE + 1):
        comp = paper_die(
            f"paper-die-{n}",
            f"Paper die {n} ({params.die_size:g} mm)",
            FACES,
            params.die_size,
            pip_face,
            DIE_INK,
        )
        comp.meta.update(game="parcheesi", die=n)
        out.append(comp)
    return out
