"""Desert Home – Immigration for the simulation runner: the `pnp.outcome` engine contract.

The readable rules in `rules.py` are the reference, and they play every greedy game (the
greedy bot's own scoring is most of its time). Random games, the bulk of a simulation, run
`fastplay.play_random`: the same rules and the same random draws as `rules.play_game` with
`RandomBot`, so both give the same record for a seed (`tests/test_dh_properties.py` checks
that game by game; `play_one(..., reference=True)` plays the readable rules). Seats own
refuges, not colours, so records name no colours. A turn is one player's turn; a round is
both players' turns.

End reasons: ``refuge`` (a refuge met the goal: its owner wins), ``deck`` (the deck is
empty and `rules.nobody_can_win`), ``timeout`` (the end of round `rules.MAX_ROUNDS`).
"""

from __future__ import annotations

import random
from typing import Any

from pnp.compiled import load
from pnp.errors import PnpError
from pnp.games.desert_home import rules
from pnp.games.desert_home.bots import BOT_NAMES, make_bot
from pnp.games.desert_home.model import PlayModel, play_model
from pnp.games.desert_home.params import DesertHomeParams, validate
from pnp.games.desert_home.rules import State
from pnp.outcome import GameRecord, SimOption
from pnp.params import validate_params

fastplay = load("pnp.games.desert_home.fastplay")

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
    """Build the fast tables now (the runner calls this before it forks its workers)."""
    fastplay.warm(model)


def play_one(
    model: PlayModel,
    players: int,
    bot: str,
    seed: Any,
    max_rounds: int = rules.MAX_ROUNDS,
    reference: bool = False,
) -> GameRecord:
    """Play one game; `seed` is a seeded `random.Random` (or a seed for one).
    `reference=True` plays a random game with the readable engine (for cross-checks)."""
    if bot not in BOTS:
        raise PnpError(f"unknown bot '{bot}': choose one of {', '.join(BOTS)}")
    if players != rules.PLAYERS:
        raise PnpError(f"Desert Home takes {rules.PLAYERS} players, got {players}")
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    if bot == "random" and not reference:
        state = fastplay.play_random(fastplay.tables(model), rng, max_rounds)
    else:
        state = rules.play_game(model, make_bot(bot), rng, max_rounds)
    return record(state)


def record(state: State) -> GameRecord:
    counters = {
        "duration_rounds": state.round,
        "deaths": state.deaths,
        "tiles_placed": state.tiles_placed,
        "water_missions": state.water_missions,
        "decisions": state.decisions,
        "legal_moves": state.legal_moves,
    }
    return GameRecord(
        turns=state.turns,
        end=state.ended or "",
        scores=tuple(rules.scores(state)),
        winners=state.winners,
        leaders=tuple(state.leaders),
        counters=counters,
    )
