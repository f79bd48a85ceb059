"""Parcheesi for the simulation runner: the engine contract (see `pnp.play.outcome`).

Two implementations of one rulebook. `play_one` plays a whole game in the compiled kernel
(`_kernel.c`) when it was built at install time: the readable rules (`rules.py`) spelled
out in C, with the same random draws, so a seed gives the same game
(`tests/conformance/parcheesi.json`). Without a C compiler pnp still installs, plays
on the readable rules through the forward model, and says so once.
"""

from __future__ import annotations

import random
from typing import Any

from pnp.contract.hooks import EngineHooks
from pnp.games.parcheesi import rules as ref
from pnp.games.parcheesi.fast.kernel import ENDED, by_colour
from pnp.games.parcheesi.fast.kernel import board as _boards
from pnp.games.parcheesi.fast.kernel import kernel as _kernel
from pnp.games.parcheesi.params import DICE, RULES, ParcheesiParams
from pnp.games.parcheesi.rules import state as game
from pnp.games.parcheesi.rules.bots import BOT_NAMES
from pnp.games.parcheesi.rules.bots import make_bot as make_bot
from pnp.games.parcheesi.rules.model import PlayModel, play_model
from pnp.play import fastpath
from pnp.play.forward import play
from pnp.play.outcome import GameRecord, SimOption
from pnp.runtime.errors import PnpError

BOTS = BOT_NAMES
MIN_PLAYERS = 2
MAX_PLAYERS = 4
DEFAULT_PLAYERS = 4
COOPERATIVE = False
MCTS_BUDGET = 1000
"""An mcts decision's playouts. With tree and playouts in the kernel (`_tree.h`) and
playouts of `PLAYOUT_TURNS`, 1,000 cost what 200 did on the Python tree, and the search
at 1,000 beats greedy seats where 200 did not (docs/skilled-play.md: the skill trace)."""
MCTS_BUDGETS = {2: 850, 3: 700, 4: 650}
"""An mcts decision's playouts by player count, within 50 ms of CPU at the slowest: each
playout lists every roll's plays (doubles the most), and the slowest decisions at 1,000
took about 50 ms with two players and 65-70 with three or four. The search still beats
greedy seats at these budgets (docs/games/parcheesi.md: the decision budget)."""
PLAYOUT_TURNS = 8
"""Turns an mcts playout runs past the position searched before `State.win_chances()`
(`rules/outlook.py`: each seat's chance to win, from every seat's pawns) scores it. A
four-player game lasts about 140 turns, so playouts cut at the default 40 turns and scored
on nothing never saw an end from the first half of a game, and the search played at
random there. The playouts are played by the guided player (`state.PLAYOUT_EXPLORE`); 4
turns were weaker than 8 (docs/skilled-play.md)."""
MCTS_EXPLORATION = 0.25
"""UCB1's constant for the search (the default is sqrt 2): the chances to win that score a
cut-off (`rules/outlook.py`) differ between a decision's plays by hundredths, which the
default's exploration drowns, leaving the visits nearly even (docs/games/parcheesi.md)."""
ABSTRACTION = ""
TERMINATION = game.Termination
COUNTERS = {
    "captures": "opposing pawns sent back to their nest",
    "decisions": "rolls whose allowed plays lead to more than one position",
    "legal_moves": "distinct positions offered, summed over those rolls",
    "entries": "pawns brought out of a nest",
    "passes": "rolls that moved nothing",
}
RATIOS = {"branching_factor": ("legal_moves", "decisions")}
OPTIONS = (
    SimOption(
        "rules",
        "seed: the printed sheet's rules; standard: doubles' bottom faces only once every "
        "pawn is out, another roll after a double, a third double penalised, 10 for home",
        kind=str,
        choices=RULES,
        default="seed",
    ),
    SimOption(
        "dice",
        "both: every player rolls both dice, as the bots do; choose: each roll begins with "
        "the mover's choice of both dice or one (the seed's option; a decision of its own, "
        "played on the readable rules: random picks either, greedy both)",
        kind=str,
        choices=DICE,
        default="both",
    ),
)
NO_KERNEL = (
    "warning: Parcheesi's compiled kernel is not built (no C compiler at install): "
    "playing on the readable rules, slower"
)


def prepare(
    params: ParcheesiParams, players: int, rules: str | None = None, dice: str | None = None
) -> PlayModel:
    """Validate the kit for play and build its play model (`rules` overrides the kit's;
    `dice` says how the players roll)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise PnpError(f"Parcheesi takes {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players}")
    if rules is not None and rules not in RULES:
        raise PnpError(f"unknown rules '{rules}': choose one of {', '.join(RULES)}")
    if dice is not None and dice not in DICE:
        raise PnpError(f"unknown dice '{dice}': choose one of {', '.join(DICE)}")
    return ref.with_rules(play_model(params, rules), dice=dice)


def new_state(
    model: PlayModel,
    players: int,
    rng: random.Random | None = None,
    rules: str | None = None,
    dice: str | None = None,
) -> game.State:
    """The start (no set-up draws: `rng` is not used)."""
    return game.new_game(ref.with_rules(model, rules, dice), players)


def _kernel_plays() -> bool:
    """Does the kernel play here? Not where it was not built (said once per process) or
    another implementation is chosen (`pnp.play.fastpath.using`)."""
    return fastpath.runs(game.State, NO_KERNEL)


def warm(model: PlayModel) -> None:
    """Build the kernel's board now (the runner calls this before it forks its workers,
    so the notice of a missing kernel is printed once, not once per worker)."""
    if _kernel_plays():
        _boards(model)


def play_one(
    model: PlayModel,
    players: int,
    bot: str,
    rng: Any,
    rules: str | None = None,
    reference: bool = False,
    dice: str | None = None,
) -> GameRecord:
    """Play one game (`rng` a seeded `random.Random`, or a seed for one). `reference=True`
    plays on the readable rules even when the kernel is built (for cross-checks), as a
    game whose players choose their dice always does (the kernel rolls both)."""
    rng = rng if isinstance(rng, random.Random) else random.Random(rng)
    model = ref.with_rules(model, rules, dice)
    seat = make_bot(bot, model)
    if model.dice == "choose":
        return play(game.new_game(model, players), [seat] * players, rng).record(tuple(COUNTERS))
    if not reference and _kernel_plays():
        return _play_compiled(model, players, seat.name == "greedy", rng)
    state = game.new_game(model, players)  # the readable rules throughout
    return play(state, [seat] * players, rng).record(tuple(COUNTERS))


def play_many(
    model: PlayModel,
    players: int,
    bot: str,
    seeds: list[str],
    rules: str | None = None,
    dice: str | None = None,
) -> list[GameRecord] | None:
    """The games `play_one` plays from `random.Random(s)` for each seed text `s`, all in one
    call to the kernel, which seeds its generator from each text itself (no generator is
    built, read and written back per game); None without a kernel, or where the players
    choose their dice (the runner then plays game by game)."""
    model = ref.with_rules(model, rules, dice)
    if model.dice == "choose" or not _kernel_plays():
        return None
    greedy = make_bot(bot, model).name == "greedy"
    seats = ref.seat_colours(players)
    games = _kernel.play_seeded(_boards(model), settings(model, seats, greedy), seeds)
    return [_record(model, seats, played) for played in games]


def settings(model: PlayModel, seats: tuple[int, ...], greedy: bool) -> dict[str, Any]:
    """A whole game's settings as the kernel names them (`_kernel.c`'s ``SETTINGS``)."""
    return {
        "seats": seats,
        "greedy": greedy,
        "standard": model.rules == "standard",
        "max_turns": ref.MAX_TURNS,
    }


def _record(model: PlayModel, seats: tuple[int, ...], played: _kernel.Game) -> GameRecord:
    """The runner's record of a game the kernel played, read by name (`_kernel.c`'s
    ``RECORD``; its counters are named as `COUNTERS`)."""
    end = ENDED[played["end"]]
    assert end is not None, "a whole game ends"
    pawns = by_colour(played["pawns"], seats)
    counters = {name: played[name] for name in COUNTERS}
    return game.game_record(model, seats, played["turns"], end, pawns, played["leaders"], counters)


def _play_compiled(model: PlayModel, players: int, greedy: bool, rng: random.Random) -> GameRecord:
    """One game in `_kernel`, drawing from `rng`'s own Mersenne Twister state (handed over
    and taken back), so the game and the generator end as the readable rules leave them."""
    assert _kernel is not None
    seats = ref.seat_colours(players)
    version, words, gauss = rng.getstate()
    played, words = _kernel.play(_boards(model), settings(model, seats, greedy), words)
    rng.setstate((version, words, gauss))
    return _record(model, seats, played)


# the contract's optional members (`pnp.contract.hooks.EngineHooks`), typed where they are named
HOOKS = EngineHooks[PlayModel](
    ratios=RATIOS,
    mcts_budget=MCTS_BUDGET,
    mcts_budgets=MCTS_BUDGETS,
    mcts_exploration=MCTS_EXPLORATION,
    playout_turns=PLAYOUT_TURNS,
    warm=warm,
    play_many=play_many,
)
