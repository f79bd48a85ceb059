"""Parcheesi (two-dice variant): its registration. What prints (`kit`) and the checks (`checks`) are
imported when a kit is made, not when the game is resolved (`pnp.contract.gamedef.Deferred`)."""

from __future__ import annotations

from pnp.contract.gamedef import Deferred, GameDef
from pnp.games.parcheesi import engine
from pnp.games.parcheesi.fast import kernel as compiled
from pnp.games.parcheesi.params import ParcheesiParams

PACKAGE = "pnp.games.parcheesi"
SLUG = "parcheesi"
TITLE = "Parcheesi (two-dice variant)"

GAME = GameDef(
    slug=SLUG,
    title=TITLE,
    blurb="Race four pawns round a 68-space cross and home; fives bring pawns out, doubles "
    "count their bottom faces, captures earn 20. 2-4 players, two dice.",
    default_params=ParcheesiParams,
    build_kit=Deferred(f"{PACKAGE}.kit", "build_kit"),
    checks=Deferred(f"{PACKAGE}.kit.checks", "run"),
    engine=engine,
    implementations=("readable", compiled.KERNEL.name),  # the kernel attaches to the rules
    # the keys its play model is made from: what a sweep may change
    rule_keys=("colours", "rules"),
    variants={
        "reduced": {"board_scale": 0.38},
        "standard-rules": {"rules": "standard"},
    },
)
