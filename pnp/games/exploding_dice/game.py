"""Exploding Dice: its registration. What prints (`kit`) and the checks (`checks`) are
imported when a kit is made, not when the game is resolved (`pnp.contract.gamedef.Deferred`)."""

from __future__ import annotations

from pnp.contract.gamedef import Deferred, GameDef
from pnp.games.exploding_dice import engine
from pnp.games.exploding_dice.fast import kernel
from pnp.games.exploding_dice.params import ExplodingDiceParams

PACKAGE = "pnp.games.exploding_dice"
SLUG = "exploding-dice"
TITLE = "Exploding Dice"

GAME = GameDef(
    slug=SLUG,
    title=TITLE,
    blurb="Push dice onto a 4 x 4 grid; matching neighbours score and explode. 2-4 players, "
    "a mint-tin game.",
    default_params=ExplodingDiceParams,
    build_kit=Deferred(f"{PACKAGE}.kit", "build_kit"),
    checks=Deferred(f"{PACKAGE}.kit.checks", "run"),
    engine=engine,
    # the readable rules, the Python fast path's tables, the compiled kernel
    implementations=("readable", engine.TABLES, kernel.KERNEL.name),
    # the keys its play model is made from: what a sweep may change
    rule_keys=("n", "colours", "dice_per_colour", "faces", "arrows", "stall"),
    variants={
        "pinwheel-16mm": {"arrows": "pinwheel", "die_size": 16},
        "custom-faces": {"faces": {"red": [1, 1, 2, 2, 3, 3]}, "stall": "skip"},
    },
)
