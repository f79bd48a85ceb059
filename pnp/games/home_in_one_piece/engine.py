"""Home in One Piece for the simulation runner: the engine contract of `pnp.play.outcome`.

Two implementations of one rulebook. `play_one` plays a whole game in the compiled kernel
(`_kernel.c`, see `compiled.py`) when it was built at install time: the readable rules
spelled out in C with the same floats and the same random draws, so a seed gives the same
game. Without a C compiler pnp still installs, plays on the readable rules through the
game-state API (`pnp.play.forward.play`), and says so once; `reference=True` plays the
readable rules even with the kernel built (the kernel's cross-checks and the bench anchor).
`play_many` hands the kernel the runner's seeds a batch at a time.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pnp.contract.hooks import EngineHooks
from pnp.games.home_in_one_piece import rules
from pnp.games.home_in_one_piece.fast import kernel as compiled
from pnp.games.home_in_one_piece.params import HomeInOnePieceParams
from pnp.games.home_in_one_piece.rules.bots import BOT_NAMES
from pnp.games.home_in_one_piece.rules.bots import make_bot as make_bot
from pnp.games.home_in_one_piece.rules.model import REACH, PlayModel, play_model
from pnp.games.home_in_one_piece.rules.state import State, new_game
from pnp.play.forward import play
from pnp.play.outcome import GameRecord, SimOption
from pnp.runtime.errors import PnpError

BOTS = BOT_NAMES
TERMINATION = rules.Termination
MIN_PLAYERS = MAX_PLAYERS = DEFAULT_PLAYERS = 2
COOPERATIVE = False
ABSTRACTION = (
    "Dough is modelled in the plane: each blob is a flat disc of fixed area that a touch "
    "moves only so far that it still overlaps where it began the turn, or further by a "
    "bridge over one of the other player's blobs no wider than bridge_span (set down whole "
    "past it); otherwise only where it is set down counts; joined blobs become one disc; "
    "stretching into long shapes and breaking are not modelled."
)
COUNTERS = {
    "rolls": "turns with a roll of the blob dice",
    "rolls_0": "rolls showing no blob",
    "rolls_1": "rolls showing one blob",
    "rolls_2": "rolls showing two blobs",
    "rolls_3": "rolls showing three blobs",
    "stalled_turns": "turns whose roll (0 or 1) allows no join",
    "idle_turns": "turns in which no blob was touched",
    "touches": "blobs touched",
    "joins": "joins made",
    "blocked": "touches that reached the other player's dough and ended the turn",
    "bridges": "touches that bridged over the other player's dough (past the rigid reach)",
}
TOTALS = {"rolls": {str(k): f"rolls_{k}" for k in range(4)}}  # roll counts seen, as JSON
RATIOS = {
    "stall_share": ("stalled_turns", "rolls"),
    "touches_per_turn": ("touches", "rolls"),
}
MCTS_BUDGET = 600
"""Playouts an mcts seat spends per decision: more than the touches a decision lists (up to
about 200), so every first touch is tried, and few enough that the slowest decisions (the
first turns, all sixteen blobs on the board) keep near 50 ms of CPU; 1,000 took up to
about 60, and 500 lost the search its edge over greedy moving first
(docs/games/home-in-one-piece.md has the measurements)."""
PLAYOUT_TURNS = 8
"""Turns a playout runs, played by the greedy player (`State.rollout_action`), before it is
scored on `State.win_chances()`: of 1, 2, 4, 8, 16 and 40 turns, 8 won most against greedy
within the time a decision may take (docs/skilled-play.md)."""
MCTS_EXPLORATION = 0.1
"""UCB1's constant: the win chances of a decision's touches differ by hundredths, which
`pnp.play.mcts.EXPLORATION` (1.41) would drown (the search then spreads its playouts evenly)."""
OPTIONS = (
    SimOption(
        "reach",
        "how far one touch moves a blob: 'overlap' (0.9 of the way to no overlap with where "
        "it began the turn) or 'half'",
        kind=str,
        choices=tuple(REACH),
        default="overlap",
    ),
)


def prepare(params: HomeInOnePieceParams, players: int, reach: str = "overlap") -> PlayModel:
    """Validate the kit for play and build its model (the printed board and dice)."""
    if players != 2:
        raise PnpError(f"Home in One Piece is for 2 players, got {players}")
    return play_model(params, reach)


def new_state(
    model: PlayModel, players: int, rng: random.Random | None = None, **options: Any
) -> State:
    """The start: every blob in its circle, seat 0 to roll (no set-up draws). Always two
    seats: `prepare` refused any other count, and `pnp.play.forward.play` checks the bots."""
    return new_game(model)


def warm(model: PlayModel) -> None:
    """Build the kernel's model now (the runner calls this before it forks its workers, so
    the notice of a missing kernel is printed once, not once per worker)."""
    if compiled.available():
        compiled.kernel_model(model)


def play_one(
    model: PlayModel,
    players: int,
    bot: str,
    rng: random.Random | Any,
    reference: bool = False,
    **options: Any,
) -> GameRecord:
    """Play one game; `rng` is a seeded generator or a seed. The options were built into
    the model by `prepare`. `reference=True` plays on the readable rules even when the
    kernel is built (for cross-checks)."""
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    seat = make_bot(bot, model)
    if not reference and compiled.available():
        return compiled.play(model, seat.name == "greedy", rng).record()
    return play(new_state(model, players), [seat] * players, rng).record(tuple(COUNTERS))


def play_many(
    model: PlayModel, players: int, bot: str, seeds: Sequence[str], **options: Any
) -> list[GameRecord] | None:
    """The games `play_one` plays from `random.Random(s)` for each seed text `s`, all in one
    call to the kernel, which seeds its generator from each text itself (no generator is
    built, read and written back per game); None where the kernel does not play here (the
    runner then plays game by game, on the readable rules). The options are in the model."""
    seat = make_bot(bot, model)  # an unknown bot is a ValueError here too
    if not compiled.available():
        return None
    return [state.record() for state in compiled.play_seeded(model, seat.name == "greedy", seeds)]


# the contract's optional members (`pnp.contract.hooks.EngineHooks`), typed where they are named
HOOKS = EngineHooks[PlayModel](
    ratios=RATIOS,
    totals=TOTALS,
    mcts_budget=MCTS_BUDGET,
    playout_turns=PLAYOUT_TURNS,
    mcts_exploration=MCTS_EXPLORATION,
    warm=warm,
    play_many=play_many,
)
