"""Home in One Piece: its registration. What prints (`kit`) and the checks (`checks`) are
imported when a kit is made, not when the game is resolved (`pnp.contract.gamedef.Deferred`)."""

from __future__ import annotations

from pnp.contract.gamedef import Deferred, GameDef
from pnp.games.home_in_one_piece import engine
from pnp.games.home_in_one_piece.fast import kernel as compiled
from pnp.games.home_in_one_piece.params import HomeInOnePieceParams

PACKAGE = "pnp.games.home_in_one_piece"
SLUG = "home-in-one-piece"
TITLE = "Home in One Piece"

GAME = GameDef(
    slug=SLUG,
    title=TITLE,
    blurb="Stretch, squash and merge your play-dough blobs until all of it sits in the home "
    "zone as one piece, without ever touching your rival's. 2 players, 3 blob dice.",
    default_params=HomeInOnePieceParams,
    build_kit=Deferred(f"{PACKAGE}.kit", "build_kit"),
    checks=Deferred(f"{PACKAGE}.kit.checks", "run"),
    engine=engine,
    implementations=("readable", compiled.KERNEL.name),  # the kernel attaches to the rules
    # the keys its play model is made from: what a sweep may change
    rule_keys=(
        "dough_grams",
        "blobs_per_player",
        "density",
        "start_thickness",
        "home_thickness",
        "circle_margin",
        "circle_gap",
        "board_margin",
        "home_depth",
        "board_height",
        "dough_colours",
        "dice",
        "bridge_span",
    ),
    variants={
        "reduced": {"board_scale": 0.5},
        "die-c-3-3": {"dice": [[1, 1, 1, 1, 1, 0], [1, 1, 1, 1, 0, 0], [1, 1, 1, 0, 0, 0]]},
    },
)
