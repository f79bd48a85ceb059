"""Building Community: its registration. What prints (`kit`) and the checks (`checks`) are
imported when a kit is made, not when the game is resolved (`pnp.contract.gamedef.Deferred`)."""

from __future__ import annotations

from pnp.contract.gamedef import Deferred, GameDef
from pnp.games.building_community import engine
from pnp.games.building_community.fast import kernel as playout
from pnp.games.building_community.fast import solver
from pnp.games.building_community.params import BuildingCommunityParams

PACKAGE = "pnp.games.building_community"
SLUG = "building-community"
TITLE = "Building Community"

GAME = GameDef(
    slug=SLUG,
    title=TITLE,
    blurb="A silent cooperative puzzle on a hexagon board: swap tiles and move your pawn "
    "until no tile stands alone. 2-6 players.",
    default_params=BuildingCommunityParams,
    build_kit=Deferred(f"{PACKAGE}.kit", "build_kit"),
    checks=Deferred(f"{PACKAGE}.kit.checks", "run"),
    engine=engine,
    # the readable rules, the Python fast path (whole games), the compiled kernel
    implementations=("readable", engine.FAST, playout.KERNEL.name),
    # the keys its play model is made from: what a sweep may change
    rule_keys=("radius", "colours", "pawn_colours", "scope"),
    solver=solver,
    draw_line=Deferred(f"{PACKAGE}.kit.diagrams", "draw_line"),
    variants={"radius-2": {"radius": 2}, "anywhere": {"scope": "anywhere"}},
)
