"""Exploding Dice dice parts: pip and candy sticker blocks, and paper dice.

Faces come from `params.dice(...)`, the same list the rules engine plays with, so custom
faces print exactly as they are simulated.
"""

from __future__ import annotations

from geometry.dice import sticker_size
from pnp.contract.palette import ink
from pnp.draw.components.dice import FaceDrawer, paper_die, pip_face, sticker_block
from pnp.draw.scene import Component
from pnp.games.exploding_dice.kit.candy import candy_face
from pnp.games.exploding_dice.params import ExplodingDiceParams, dice, validate
from pnp.runtime.errors import PnpError

STYLES: dict[str, tuple[FaceDrawer, str]] = {
    "pips": (pip_face, "Pip"),
    "candy": (candy_face, "Candy"),
}


def sticker_sheets(params: ExplodingDiceParams) -> list[Component]:
    """One pip block and one candy block per colour (all pip blocks first), a row per die."""
    validate(params)
    try:
        side = sticker_size(params.die_size, params.sticker_margin)
    except ValueError as exc:
        raise PnpError(str(exc)) from None
    all_dice = dice(params)
    out = []
    for style, (drawer, word) in STYLES.items():
        for ci, colour in enumerate(params.colours):
            c = ink(colour)
            rows = [(c, d.faces) for d in all_dice if d.colour == ci]
            label = (
                f"{word} stickers · {colour} · {params.die_size:g} mm dice ({side:g} mm stickers)"
            )
            comp = sticker_block(
                f"stickers-{style}-{colour}",
                f"{word} stickers, {colour}",
                rows,
                side,
                drawer,
                label,
            )
            comp.meta.update(
                game="exploding-dice", style=style, colour=colour, die_size=params.die_size
            )
            out.append(comp)
    return out


def paper_dice(
    params: ExplodingDiceParams, size: float | None = None, *, style: str = "pips"
) -> list[Component]:
    """One paper-die net per die (`paper-die-red-1` ...); faces as big as the real dice
    unless `size` says otherwise."""
    validate(params)
    if style not in STYLES:
        raise PnpError(f"unknown dice style '{style}': choose {' or '.join(STYLES)}")
    face = params.die_size if size is None else size
    if not 0 < face <= 60:
        raise PnpError(f"paper die size must be between 0 and 60 mm, got {face:g} mm")
    drawer, _ = STYLES[style]
    out = []
    counts: dict[int, int] = {}
    for d in dice(params):
        colour = params.colours[d.colour]
        counts[d.colour] = k = counts.get(d.colour, 0) + 1
        comp = paper_die(
            f"paper-die-{colour}-{k}",
            f"Paper die: {colour} {k} ({face:g} mm)",
            d.faces,
            face,
            drawer,
            ink(colour),
        )
        comp.meta.update(game="exploding-dice", style=style, die=k)
        out.append(comp)
    return out
