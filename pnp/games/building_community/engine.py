"""Building Community for the simulation runner: the engine contract and its whole games.

A whole game plays in the compiled kernel (`fast/kernel.py`, `_play.h`) where it is built
and the board fits it; else on the Python fast path (`_play_fast`, on `fast/bitboard.py`'s
bit masks), which is also the implementation named ``fast``. Both draw as the readable
rules do, so a seed gives the same game on each: `tests/test_bc_properties.py`, the kernel's
tests and the conformance data check that game by game. `play_one(reference=True)`, or the
readable rules chosen, plays the readable rules instead.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pnp.contract.hooks import EngineHooks
from pnp.games.building_community import rules
from pnp.games.building_community.fast import kernel
from pnp.games.building_community.fast.bitboard import FastBoard, fast_board, nth_bit
from pnp.games.building_community.params import BuildingCommunityParams
from pnp.games.building_community.rules import End
from pnp.games.building_community.rules.bots import BOT_NAMES
from pnp.games.building_community.rules.bots import make_bot as make_bot
from pnp.games.building_community.rules.model import MAX_PLAYERS as MAX_PLAYERS
from pnp.games.building_community.rules.model import MIN_PLAYERS as MIN_PLAYERS
from pnp.games.building_community.rules.model import PlayModel, play_model
from pnp.play import fastpath
from pnp.play.forward import play
from pnp.play.outcome import GameRecord, SimOption
from pnp.runtime.errors import PnpError

BOTS = BOT_NAMES
DEFAULT_PLAYERS = 2
COOPERATIVE = True
MCTS_BUDGET = 3000
"""An mcts seat's playouts a decision: the team's winning lines are narrow, so the search
needs numbers to find them (docs/skilled-play.md: the all-mcts team at R = 3 wins about a
fifth of its games at 1,000 playouts, half at 3,000), and the compiled search (`_tree.h`)
makes 3,000 cost about 11 ms of CPU (`make bench`)."""
COUNTERS = {
    "passes": "turns a pawn with no legal move passed",
    "legal_moves": "legal moves summed over the decisions",
    "decisions": "turns with at least one legal move",
    "special_turns": "turns begun with another pawn in the mover's community",
    "isolated_left": "isolated tiles on the board when the game ended",
}
RATIOS = {"branching_factor": ("legal_moves", "decisions")}
OPTIONS: tuple[SimOption, ...] = ()
ABSTRACTION = ""
TERMINATION = End

FAST = "fast"
"""The Python fast path's name among the implementations (`_play_fast`, whole games)."""


def prepare(params: BuildingCommunityParams, players: int) -> PlayModel:
    """Validate the kit for play and build its play model (the printed board)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise PnpError(f"Building Community takes 2 to 6 players, got {players}")
    return play_model(params)


def new_state(model: PlayModel, players: int, rng: random.Random | None = None) -> rules.State:
    """The start position (the game draws nothing before the first turn)."""
    return rules.new_game(model, players)


def warm(model: PlayModel) -> None:
    kernel.tables(model)  # the fast board too


def play_one(
    model: PlayModel, players: int, bot: str, rng: Any, reference: bool = False
) -> GameRecord:
    """Play one game in the kernel, else on the Python fast path; on the readable rules
    with `reference=True` or the readable rules chosen (`pnp.play.fastpath.using`). The
    player count and bot name are the caller's to check (the runner does)."""
    rng = rng if isinstance(rng, random.Random) else random.Random(rng)
    if reference or fastpath.chosen() == fastpath.READABLE:
        state = new_state(model, players, rng)
        # the state keeps the game's own decision counters: none merged from the walk
        return play(state, [make_bot(bot, model)] * players, rng).state.record()
    record = kernel.play(model, players, bot == "greedy", rng)
    if record is not None:
        return record
    turns, end, counters = _play_fast(fast_board(model), players, bot == "greedy", rng)
    return rules.game_record(model, players, turns, end, counters)


def play_many(
    model: PlayModel, players: int, bot: str, seeds: Sequence[str]
) -> list[GameRecord] | None:
    """The games `play_one` plays from `random.Random(s)` for each seed text `s`, all in
    one call to the kernel; None where the kernel does not play here."""
    make_bot(bot, model)  # an unknown bot is a ValueError here too
    return kernel.play_seeded(model, players, bot == "greedy", seeds)


def _play_fast(
    t: FastBoard, players: int, greedy: bool, rng: random.Random
) -> tuple[int, End, dict[str, int]]:
    """One game with the same rules and the same draws as the readable rules played by
    `pnp.play.forward.play` with the same bot."""
    m0, m1, m2 = t.start_masks
    pawns = list(t.starts(players))
    occ = sum(1 << p for p in pawns)
    seen = {(m0, m1, tuple(pawns), 0)}
    options, flood, choice = t.options, t.flood, rng.choice
    passes = legal = decisions = special_turns = 0
    in_a_row = turns = k = 0
    max_turns = rules.MAX_TURNS
    while True:
        p = pawns[k]
        pb = 1 << p
        own = m0 if m0 & pb else m1 if m1 & pb else m2
        special = bool(flood(pb, own) & occ & ~pb)
        special_turns += special
        opts = options(m0, m1, m2, occ, p, special)
        won = False
        if opts:
            counts = [o[5].bit_count() for o in opts]
            n = sum(counts)
            decisions += 1
            legal += n
            if greedy:
                fewest = min(o[6] for o in opts)
                counts = [c if o[6] == fewest else 0 for c, o in zip(counts, opts, strict=True)]
                n = sum(counts)
            i = choice(range(n))
            j = 0
            while i >= counts[j]:  # the i-th move: option j, its i-th destination
                i -= counts[j]
                j += 1
            _, _, ab, ca, cb, dest, left = opts[j]
            x = (m0, m1, m2)
            m0 = x[0] ^ ab if 0 in (ca, cb) else x[0]
            m1 = x[1] ^ ab if 1 in (ca, cb) else x[1]
            m2 = x[2] ^ ab if 2 in (ca, cb) else x[2]
            to = nth_bit(dest, i)
            occ ^= pb | 1 << to
            pawns[k] = to
            in_a_row = 0
            won = left == 0
        else:
            passes += 1
            in_a_row += 1
        turns += 1
        k = (k + 1) % players
        key = (m0, m1, tuple(pawns), k)
        if won:
            end = End.WIN
        elif in_a_row == players:
            end = End.STUCK
        elif key in seen:
            end = End.REPEAT
        elif turns >= max_turns:
            end = End.TIMEOUT
        else:
            seen.add(key)
            continue
        break
    counters = {
        "passes": passes,
        "legal_moves": legal,
        "decisions": decisions,
        "special_turns": special_turns,
        "isolated_left": t.isolated(m0, m1, m2).bit_count(),
    }
    return turns, end, counters


# the contract's optional members (`pnp.contract.hooks.EngineHooks`), typed where they are named
HOOKS = EngineHooks[PlayModel](
    ratios=RATIOS, mcts_budget=MCTS_BUDGET, warm=warm, play_many=play_many
)
