"""Desert Home – Immigration: its registration. What prints (`kit`) and the checks (`checks`) are
imported when a kit is made, not when the game is resolved (`pnp.contract.gamedef.Deferred`)."""

from __future__ import annotations

from pnp.contract.gamedef import Deferred, GameDef
from pnp.games.desert_home import engine
from pnp.games.desert_home.fast import kernel as compiled
from pnp.games.desert_home.params import DesertHomeParams

PACKAGE = "pnp.games.desert_home"
SLUG = "desert-home"
TITLE = "Desert Home – Immigration"

GAME = GameDef(
    slug=SLUG,
    title=TITLE,
    blurb="Lead families across the desert on octagon path tiles into your refuge, a fan "
    "of plywood blades, before your rival fills theirs. 2 players; scroll saw needed.",
    default_params=DesertHomeParams,
    build_kit=Deferred(f"{PACKAGE}.kit", "build_kit"),
    checks=Deferred(f"{PACKAGE}.kit.checks", "run"),
    engine=engine,
    implementations=("readable", compiled.KERNEL.name),  # the kernel attaches to the rules
    # the keys its play model is made from: what a sweep may change
    rule_keys=(
        "rows",
        "path_columns",
        "refuge_rows",
        "deck_safe",
        "deck_thirst",
        "protection_cards",
        "figures_per_colour",
        "tents_per_colour",
        "colours",
        "sixth_colour",
        "goal_per_colour",
        "tent_value",
        "road_bonus",
        "groups",
    ),
    documents=(("pattern", "Scroll-saw patterns (1:1)"),),
    variants={
        "brown-sixth-colour": {"sixth_colour": "brown"},
        "board-sized-deck": {"deck_safe": 14, "deck_thirst": 6},
    },
)
