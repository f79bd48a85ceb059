"""Desert Home – Immigration for the simulation runner: the `pnp.play.outcome` engine contract.

The readable rules (`state.State`, the `pnp.play.state.State` API, played through
`pnp.play.forward.play` with the bots of `bots.py`) are the reference. Every game of a
simulation, random or greedy, runs in the compiled kernel (`_kernel.c`, built at install
time when a C compiler is there): the same rules, the greedy bot's ratings and the same
random draws, so both give the same record for a seed (tests/test_dh_kernel.py and
tests/conformance/desert-home.json check that game by game; `play_one(...,
reference=True)` plays the readable rules); `play_many` hands it the runner's seeds a
batch at a time. Without the kernel games play on the readable rules, and pnp says so once.
Seats own refuges, not colours, so records name no colours. A turn is one player's turn; a
round is both players' turns.

End reasons (`TERMINATION`): ``refuge`` (a refuge met the goal: its owner wins), ``deck``
(the deck is empty and `goal.nobody_can_win`), ``timeout`` (the end of round
`rules.MAX_ROUNDS`, a cut-off).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pnp.contract.hooks import EngineHooks
from pnp.contract.params import validate_params
from pnp.games.desert_home import rules
from pnp.games.desert_home.fast.kernel import _kernel as _kernel
from pnp.games.desert_home.fast.kernel import kernel_board as _kernel_board
from pnp.games.desert_home.params import DesertHomeParams, validate
from pnp.games.desert_home.rules.bots import BOT_NAMES
from pnp.games.desert_home.rules.bots import make_bot as make_bot
from pnp.games.desert_home.rules.model import PlayModel, play_model
from pnp.games.desert_home.rules.state import COUNTED, State
from pnp.games.desert_home.rules.state import new_state as new_state
from pnp.play import fastpath
from pnp.play.forward import play
from pnp.play.outcome import GameRecord, SimOption
from pnp.runtime.errors import PnpError

BOTS = BOT_NAMES
MIN_PLAYERS = MAX_PLAYERS = DEFAULT_PLAYERS = rules.PLAYERS
COOPERATIVE = False
TERMINATION = rules.End
COUNTERS = dict(
    zip(
        COUNTED,
        (
            "rounds begun (both players' turns make a round; at most "
            f"{rules.MAX_ROUNDS}, where a game ends as a timeout)",
            "figures that died of thirst (a tent counts as its figures)",
            "path tiles drawn and placed",
            "water bearers sent out from a refuge",
            "decision points with at least one legal action",
            "legal actions summed over the decision points",
        ),
        strict=True,
    )
)
RATIOS = {"branching_factor": ("legal_moves", "decisions")}
PLAYOUT_TURNS = 1
"""Turns an mcts playout runs beyond the position searched (`pnp.play.mcts`'s default is 40):
the rest of the turn under way, played as `bots.PlayoutBot` plays, then scored by
`State.win_chances` (the seats' values, pieces on the way counted, those thirst may kill
priced by the turns left to save them). The search then
weighs whole turns of its own against each other; looking a turn further (the rival's)
won no more games and cost twice the time (docs/games/desert-home.md)."""
MCTS_BUDGET = 1000
"""Playouts an mcts seat spends per decision by default: 1,000 beat greedy where 200 did
not (docs/games/desert-home.md), at about 7 ms of CPU a decision (`make bench`)."""
FULL_ACTIONS = 10
"""Actions a decision needs for the whole budget: one with fewer gets a tenth of it per
action (`mcts_sizing`)."""
FULL_POINTS = 6
"""Points left in the turn up to which a decision gets the whole budget: with more, each
playout plays more spending points, and the budget shrinks in proportion (`mcts_sizing`)."""
PLAYOUT_WORK = 150
"""What one playout costs before it rates any action, in actions rated (the clone, the
shuffle, the tree's walk and the cut-off's grading): `mcts_sizing`'s work estimate."""
POINTS_AHEAD = 4
"""The spending points a playout is reckoned to play where the turn's points are not
thrown yet (none in hand: a reroll, an influx, a number), in `mcts_sizing`'s estimate."""
WORK_CAP = 300
"""Actions rated, estimated, that a decision's playouts may spend in all, per playout of
the budget (300,000 at the default 1,000): a playout rates about every action open at
each spending point, so a decision costs about its playouts times (`PLAYOUT_WORK` +
actions x points in hand, or x `POINTS_AHEAD` with none), and the dearest get fewer
playouts: a reroll (64 masks: 738 at the default budget), a spending point with more than
25 moves at 6 points (38 or more at 12, whose budget is halved already); about a tenth
of the decisions, 3 % of all playouts. The slowest decisions, measured in CPU time over the
skill table's games, lose about a quarter (docs/games/desert-home.md). An estimate from
the position alone, never a clock, so the search stays the same for a seed."""


def mcts_sizing(state: State, budget: int) -> int:
    """The playouts an mcts decision spends (`pnp.play.mcts.Sizing`). A playout plays the
    rest of the turn, every spending point rated as greedy rates it, so a decision early in
    a rich turn costs many times a late one: the budget is cut where the turn's rest is
    long (more than `FULL_POINTS` points left), where there is little to tell apart
    (fewer than `FULL_ACTIONS` actions: an influx colour or field, a number), and where
    the estimated work of all its playouts passes `WORK_CAP`, which keeps the slowest
    decision within 50 ms of CPU here, as strong (docs/games/desert-home.md)."""
    legal = len(state.legal_actions())
    actions = min(legal, FULL_ACTIONS)
    points = max(state.points, FULL_POINTS)
    share, whole = budget * actions * FULL_POINTS, FULL_ACTIONS * points
    sized = -(-share // whole)  # rounded up, in integers
    work = PLAYOUT_WORK + legal * (state.points or POINTS_AHEAD)
    return max(1, min(sized, budget * WORK_CAP // work))


MCTS_EXPLORATION = 0.2
"""UCB1's constant for an mcts seat: the cut-off's rewards of a decision's actions differ by
hundredths, which `pnp.play.mcts.EXPLORATION` (1.41) drowns, spreading the playouts almost
evenly; at 0.2 the search follows what the value (thirst priced) tells apart, and fewer
figures die (docs/games/desert-home.md)."""
OPTIONS: tuple[SimOption, ...] = ()
ABSTRACTION = ""
END_REASONS = rules.END_REASONS
NO_KERNEL = (
    "warning: Desert Home's compiled kernel is not built (no C compiler at install): "
    "playing on the readable rules, slower"
)


def prepare(params: DesertHomeParams, players: int) -> PlayModel:
    """Validate the kit for play and build its play model. A supply too small for the goal
    is not an error here: `supply.supply_verdict` reports it, and such games end without
    a winner."""
    if players != rules.PLAYERS:
        raise PnpError(f"Desert Home takes {rules.PLAYERS} players (one per refuge), got {players}")
    params = validate_params(params)
    validate(params)
    return play_model(params)


def warm(model: PlayModel) -> None:
    """Build the kernel's board now (the runner calls this before it forks its workers,
    which inherit it)."""
    if _kernel_plays():
        _kernel_board(model)


def play_one(
    model: PlayModel,
    players: int,
    bot: str,
    seed: Any,
    max_rounds: int = rules.MAX_ROUNDS,
    reference: bool = False,
) -> GameRecord:
    """Play one game; `seed` is a seeded `random.Random` (or a seed for one). A game plays
    in the kernel unless `reference=True` (or there is none)."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    if bot in BOT_NAMES and not reference and _kernel_plays():
        return _play_compiled(model, rng, max_rounds, bot == "greedy")
    state: State = new_state(model, players, rng, max_rounds)
    return play(state, make_bot(bot, model), rng).record()


def _kernel_plays() -> bool:
    """Does the kernel play here? Not where it was not built (said once per process) or
    another implementation is chosen (`pnp.play.fastpath.using`)."""
    return fastpath.runs(State, NO_KERNEL)


def settings(max_rounds: int, greedy: bool) -> dict[str, Any]:
    """A whole game's settings as the kernel names them (`_kernel.c`'s ``SETTINGS``)."""
    return {"max_rounds": max_rounds, "greedy": greedy}


def play_many(
    model: PlayModel,
    players: int,
    bot: str,
    seeds: Sequence[str],
    max_rounds: int = rules.MAX_ROUNDS,
) -> list[GameRecord] | None:
    """The games `play_one` plays from `random.Random(s)` for each seed text `s`, all in one
    call to the kernel, which seeds its generator from each text itself (no generator is
    built, read and written back per game); None where the kernel does not play here (the
    runner then plays game by game, on the readable rules)."""
    make_bot(bot, model)  # an unknown bot is a ValueError here too
    if not _kernel_plays():
        return None
    assert _kernel is not None
    games = _kernel.play_seeded(_kernel_board(model), settings(max_rounds, bot == "greedy"), seeds)
    return [_record(game) for game in games]


def _play_compiled(
    model: PlayModel, rng: random.Random, max_rounds: int, greedy: bool = False
) -> GameRecord:
    """One game in `_kernel` (random bots, or greedy ones in both seats), drawing from
    `rng`'s own Mersenne Twister state (handed over and taken back), so the game and the
    generator end as the rules leave them."""
    assert _kernel is not None
    version, words, gauss = rng.getstate()
    game, words = _kernel.play(_kernel_board(model), settings(max_rounds, greedy), words)
    rng.setstate((version, words, gauss))
    return _record(game)


def _record(game: dict[str, Any]) -> GameRecord:
    """The runner's record of a game the kernel played, read by name (`_kernel.c`'s
    ``RECORD``: its counters go by `COUNTERS`' names)."""
    return GameRecord(
        turns=game["turns"],
        end=game["end"],
        scores=game["scores"],
        winners=game["winners"],
        leaders=game["leaders"],
        counters={name: game[name] for name in COUNTERS},
    )


# the contract's optional members (`pnp.contract.hooks.EngineHooks`), typed where they are named
HOOKS = EngineHooks[PlayModel](
    ratios=RATIOS,
    mcts_budget=MCTS_BUDGET,
    playout_turns=PLAYOUT_TURNS,
    mcts_exploration=MCTS_EXPLORATION,
    mcts_sizing=mcts_sizing,
    warm=warm,
    play_many=play_many,
)
