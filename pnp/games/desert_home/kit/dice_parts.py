"""The six dice, one per colour: stickers for blank dice, or paper dice to fold.

Every die is a standard 1-6 die in its colour; its pips are drawn as the colour's symbol,
so a die's colour still reads on a greyscale print.
"""

from __future__ import annotations

from geometry.dice import sticker_size
from pnp.contract.palette import ink
from pnp.draw.components.dice import paper_die, pip_face, sticker_block
from pnp.draw.scene import Component
from pnp.games.desert_home.params import DesertHomeParams, colours_in_play, validate
from pnp.runtime.errors import PnpError

FACES = (1, 2, 3, 4, 5, 6)


def dice_stickers(params: DesertHomeParams) -> Component:
    """One block of 36 stickers, a row per die, for six blank dice."""
    validate(params)
    try:
        side = sticker_size(params.die_size, params.sticker_margin)
    except ValueError as exc:
        raise PnpError(str(exc)) from None
    colours = colours_in_play(params)
    rows = [(ink(c), FACES) for c in colours]
    label = f"Dice stickers · {params.die_size:g} mm blank dice ({side:g} mm stickers)"
    comp = sticker_block(
        "dice-stickers", "Dice stickers", rows, side, pip_face, label, row_labels=list(colours)
    )
    comp.meta.update(game="desert-home", die_size=params.die_size)
    return comp


def paper_dice(params: DesertHomeParams, size: float | None = None) -> list[Component]:
    """A fold-and-glue paper die per colour (`paper-die-<colour>`), as big as the real
    dice unless `size` says otherwise."""
    validate(params)
    face = params.die_size if size is None else size
    if not 0 < face <= 60:
        raise PnpError(f"paper die size must be between 0 and 60 mm, got {face:g} mm")
    out = []
    for colour in colours_in_play(params):
        comp = paper_die(
            f"paper-die-{colour}",
            f"Paper die: {colour} ({face:g} mm)",
            FACES,
            face,
            pip_face,
            ink(colour),
        )
        comp.meta.update(game="desert-home")
        out.append(comp)
    return out
