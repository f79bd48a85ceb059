"""Desert Home – Immigration for the simulation runner: the `pnp.outcome` engine contract.

The readable rules in `rules.py` are the reference, and they play every greedy game (the
greedy bot's own scoring is most of its time). Random games, the bulk of a simulation, run
in the compiled kernel (`_kernel.c`, built at install time when a C compiler is there),
else in `fastplay.play_random`: both are the same rules with the same random draws as
`rules.play_game` with `RandomBot`, so all three give the same record for a seed
(tests/test_dh_kernel.py and tests/test_dh_properties.py check that game by game;
`play_one(..., reference=True)` plays the readable rules, `compiled=False` the Python fast
path). Seats own refuges, not colours, so records name no colours. A turn is one player's
turn; a round is both players' turns.

End reasons: ``refuge`` (a refuge met the goal: its owner wins), ``deck`` (the deck is
empty and `rules.nobody_can_win`), ``timeout`` (the end of round `rules.MAX_ROUNDS`).
"""

from __future__ import annotations

import random
from typing import Any

from pnp.errors import PnpError
from pnp.games.desert_home import fastplay, rules
from pnp.games.desert_home.bots import BOT_NAMES, make_bot
from pnp.games.desert_home.model import PlayModel, play_model
from pnp.games.desert_home.params import DesertHomeParams, validate
from pnp.games.desert_home.rules import State
from pnp.memo import PerModel
from pnp.outcome import GameRecord, SimOption
from pnp.params import validate_params

try:
    from pnp.games.desert_home import _kernel
except ImportError:  # built without a C compiler: `fastplay` plays the random games
    _kernel = None

BOTS = BOT_NAMES
MIN_PLAYERS = MAX_PLAYERS = DEFAULT_PLAYERS = rules.PLAYERS
COOPERATIVE = False
COUNTERS = {
    "duration_rounds": "rounds begun (both players' turns make a round; at most "
    f"{rules.MAX_ROUNDS}, where a game ends as a timeout)",
    "deaths": "figures that died of thirst (a tent counts as its figures)",
    "tiles_placed": "path tiles drawn and placed",
    "water_missions": "water bearers sent out from a refuge",
    "decisions": "decision points with at least one legal action",
    "legal_moves": "legal actions summed over the decision points",
}
RATIOS = {"branching_factor": ("legal_moves", "decisions")}
OPTIONS: tuple[SimOption, ...] = ()
ABSTRACTION = ""
END_REASONS = rules.END_REASONS


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
    """Build the random games' tables now (the runner calls this before it forks its
    workers, which inherit them)."""
    if _kernel is not None:
        _kernel_board(model)
    else:
        fastplay.warm(model)


def play_one(
    model: PlayModel,
    players: int,
    bot: str,
    seed: Any,
    max_rounds: int = rules.MAX_ROUNDS,
    reference: bool = False,
    compiled: bool = True,
) -> GameRecord:
    """Play one game; `seed` is a seeded `random.Random` (or a seed for one).
    `reference=True` plays a random game with the readable engine, `compiled=False` with
    the Python fast path (for cross-checks)."""
    if bot not in BOTS:
        raise PnpError(f"unknown bot '{bot}': choose one of {', '.join(BOTS)}")
    if players != rules.PLAYERS:
        raise PnpError(f"Desert Home takes {rules.PLAYERS} players, got {players}")
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    if bot == "random" and not reference and compiled and _kernel is not None:
        return _play_compiled(model, rng, max_rounds)
    if bot == "random" and not reference:
        state = fastplay.play_random(fastplay.tables(model), rng, max_rounds)
    else:
        state = rules.play_game(model, make_bot(bot), rng, max_rounds)
    return record(state)


def record(state: State) -> GameRecord:
    counts = (state.round, state.deaths, state.tiles_placed, state.water_missions)
    counters = dict(zip(COUNTERS, (*counts, state.decisions, state.legal_moves), strict=True))
    return GameRecord(
        turns=state.turns,
        end=state.ended or "",
        scores=tuple(rules.scores(state)),
        winners=state.winners,
        leaders=tuple(state.leaders),
        counters=counters,
    )


def _kernel_board_args(model: PlayModel) -> tuple:
    """What `_kernel.board` takes: the board, the supply and the rules' constants."""
    m = model
    return (
        (
            *(m.cells, m.width, m.rows, m.path_columns, m.blue, m.goal, m.tent_value),
            *(m.deck_safe, m.deck_thirst, m.protection_cards, m.figures, m.tents),
        ),
        (
            *(rules.THIRST_GRACE, rules.SMALL_ROAD, rules.BIG_ROAD, rules.PROTECT_COST),
            *(rules.INFLUX_PUSH, rules.ROAD_TILES_CHAIN, rules.REFUGE_ENDS_DUTY),
            m.road_optional,
        ),
        [[rules.action_points(n, k) for k in range(1, 7)] for n in range(1, 7)],
        *(m.kind, m.step, m.reach, m.path_next, m.path_cells, m.camp_cells, m.refuge_entries),
    )


def _build_kernel_board(model: PlayModel) -> object:
    assert _kernel is not None
    return _kernel.board(*_kernel_board_args(model))


_kernel_board: PerModel[PlayModel, object] = PerModel(_build_kernel_board)


def _play_compiled(model: PlayModel, rng: random.Random, max_rounds: int) -> GameRecord:
    """One random game in `_kernel`, drawing from `rng`'s own Mersenne Twister state (handed
    over and taken back), so the game and the generator end as the rules leave them."""
    assert _kernel is not None
    version, words, gauss = rng.getstate()
    rounds, turns, end, winners, leaders, scores, counts, words = _kernel.play(
        _kernel_board(model), max_rounds, words
    )
    rng.setstate((version, words, gauss))
    counters = dict(zip(COUNTERS, (rounds, *counts), strict=True))
    return GameRecord(
        turns=turns, end=end, scores=scores, winners=winners, leaders=leaders, counters=counters
    )
