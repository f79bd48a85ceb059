"""Desert Home's game state: one position of one game, and the `pnp.play.state.State` API over
the readable rules (`moves` lists the choices, `turn` applies them and throws the dice).

A seat's action is `apply`d, then everything that needs nobody's choice runs (`turn.settle`)
up to the next seat decision or chance node; so the legal actions are never empty, and
their list is kept (`legal`) until the next step. The records count every seat decision,
one legal action or more, as the compiled kernel counts them. The kernel's speed-ups of
`resample`, `playout` and the tree search attach through `pnp.play.fastpath` (`compiled.py`):
this module imports nothing compiled.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from pnp.games.desert_home.rules import (
    MAX_ROUNDS,
    NONE,
    P_REROLL,
    P_ROLL,
    P_SPEND,
    P_SWAP,
    PLAYERS,
    ROLL,
    ROLLS,
    SAFE,
    THIRST,
    Action,
    End,
    turn,
)
from pnp.games.desert_home.rules.bots import play_out
from pnp.games.desert_home.rules.fields import frontier_and_tiles
from pnp.games.desert_home.rules.goal import scores
from pnp.games.desert_home.rules.model import CAMP_ENTRY, REFUGE_ENTRY, PlayModel
from pnp.games.desert_home.rules.moves import legal_actions
from pnp.games.desert_home.rules.notation import action_text
from pnp.games.desert_home.rules.value import cutoff_reward
from pnp.play.chance import below, pick
from pnp.play.outcome import GameRecord, Outcome
from pnp.play.state import CHANCE, TERMINAL, EstimatesWins, PlaysOut, Resamples, Stands
from pnp.runtime.errors import PnpError

DIE = [(action, 1 / 6) for action in ROLLS]
"""A die's chance outcomes: each number alike."""


@dataclass(repr=False, slots=True)
class State:
    """One game in progress. Per-cell lists are indexed by model cell."""

    model: PlayModel
    tile: list[int]
    deadline: list[int]  # per cell: the round at whose end a black field kills
    colour: list[int]  # per cell: the group's colour, -1 empty
    figs: list[int]
    tents: list[int]
    bearer: list[int]  # per cell: 1 when a water bearer escorts the (non-blue) group
    camp_figs: list[int]  # per colour
    camp_tents: list[int]
    refuge_figs: list[list[int]]  # per seat, per colour
    refuge_tents: list[list[int]]
    deck: list[int]  # THIRST or SAFE faces, the top last
    cards: int  # protection cards left
    blue: int  # the water bearer colour (the model's, kept here for speed)
    max_rounds: int = MAX_ROUNDS
    arrived: list[int] = field(default_factory=lambda: [0] * PLAYERS)  # blue, this round
    dice: list[int] = field(default_factory=lambda: [0] * 6)
    seat: int = 0
    round: int = 0
    turns: int = 0
    phase: int = P_REROLL
    thrown: int = 0  # mask of the dice thrown last
    rolling: list[int] = field(default_factory=list)  # dice still to throw (P_ROLL)
    pending: list[int] = field(default_factory=list)  # influx colours still to place
    usable: list[bool] = field(default_factory=lambda: [False] * 6)  # per colour
    points: int = 0
    road_left: int = 0
    road_last: int = -1
    drawn: int = NONE  # the face of the tile in hand, drawn and not yet laid
    may_stop: bool = False
    swaps: list[list[int]] = field(default_factory=list)  # [seat, figures still to swap]
    back_phase: int = P_SPEND
    ended: End | None = None
    winners: tuple[int, ...] = ()
    leaders: list[int] = field(default_factory=list)
    deaths: int = 0
    tiles_placed: int = 0
    water_missions: int = 0
    decisions: int = 0
    legal_moves: int = 0
    steps: int = 0  # actions and throws applied: what a per-decision cache is keyed by
    legal: list[Action] | None = None  # the seat to move's actions, once listed
    memo: dict[Any, Any] = field(default_factory=dict)  # derived data, keyed by its inputs

    @property
    def chooser(self) -> int:
        """The seat that takes the next decision."""
        return self.swaps[0][0] if self.phase == P_SWAP else self.seat

    @property
    def players(self) -> int:
        return PLAYERS

    def current_player(self) -> int:
        if self.ended is not None:
            return TERMINAL
        return CHANCE if self.phase == P_ROLL else self.chooser

    def legal_actions(self) -> list[Action]:
        if self.legal is None:
            self.legal = legal_actions(self)
        return self.legal

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return DIE if self.phase == P_ROLL and self.ended is None else []

    def sample_chance(self, rng: random.Random) -> Action:
        return ROLLS[below(rng, 6)]

    def random_action(self, rng: random.Random) -> Action:
        return pick(rng, self.legal_actions())

    def apply(self, action: Action) -> None:
        """Throw a die (`ROLL`) or play the seat to move's action, then `turn.settle`."""
        if action[0] == ROLL:
            turn.roll(self, action[1])
        else:
            self.decisions += 1
            self.legal_moves += len(self.legal_actions())
            turn.apply(self, action)
        self.steps += 1
        self.legal = None
        turn.settle(self)

    def is_terminal(self) -> bool:
        return self.ended is not None

    def outcome(self) -> Outcome | None:
        return None if self.ended is None else Outcome(self.ended, self.winners)

    def clone(self) -> State:
        """An independent copy (derived data is worked out afresh, but for the frontier,
        which `fields` keeps with the count of tiles placed, so the copies of a position
        share it). Field by field rather than through the constructor: a tree search clones
        once per playout."""
        c = State.__new__(State)
        c.model, c.blue, c.max_rounds, c.cards = self.model, self.blue, self.max_rounds, self.cards
        c.tile, c.deadline, c.colour = self.tile[:], self.deadline[:], self.colour[:]
        c.figs, c.tents, c.bearer = self.figs[:], self.tents[:], self.bearer[:]
        c.camp_figs, c.camp_tents = self.camp_figs[:], self.camp_tents[:]
        c.refuge_figs = [row[:] for row in self.refuge_figs]
        c.refuge_tents = [row[:] for row in self.refuge_tents]
        c.deck, c.arrived, c.dice = self.deck[:], self.arrived[:], self.dice[:]
        c.seat, c.round, c.turns, c.phase = self.seat, self.round, self.turns, self.phase
        c.thrown, c.rolling, c.pending = self.thrown, self.rolling[:], self.pending[:]
        c.usable, c.points, c.road_left = self.usable[:], self.points, self.road_left
        c.road_last, c.drawn, c.may_stop = self.road_last, self.drawn, self.may_stop
        c.swaps, c.back_phase = [row[:] for row in self.swaps], self.back_phase
        c.ended, c.winners, c.leaders = self.ended, self.winners, self.leaders[:]
        c.deaths, c.tiles_placed = self.deaths, self.tiles_placed
        c.water_missions, c.decisions = self.water_missions, self.decisions
        c.legal_moves, c.steps, c.legal = self.legal_moves, self.steps, self.legal
        c.memo = {"frontier": frontier_and_tiles(self)}  # kept with `tiles_placed`: shared
        return c

    def resample(self, rng: random.Random) -> None:
        """Shuffle the tiles still in the deck: their order is hidden from the players, so
        a search (`pnp.play.mcts`) plays against a fresh order, never the one dealt (sorted
        first, so the new order depends on the deck's contents alone): a Fisher-Yates
        shuffle on `random.Random(n)`, n one draw of `rng`, as the kernel shuffles."""
        self.deck.sort()
        draw = random.Random(rng.getrandbits(64))
        deck = self.deck
        for i in range(len(deck) - 1, 0, -1):
            j = below(draw, i + 1)
            deck[i], deck[j] = deck[j], deck[i]

    def playout(self, rng: random.Random, stop: int) -> None:
        """Play on from here, in place, until the game is over or `turns` reaches `stop`
        (`pnp.play.mcts.playout`), as `bots.PlayoutBot` plays (the greedy bot with a few random
        choices), on a generator seeded by one draw of `rng` (the kernel plays the same
        game, `compiled.playout`; tests/test_dh_playout.py)."""
        seed = rng.getrandbits(64)
        if self.ended is not None or self.turns >= stop:
            return
        play_out(self, random.Random(seed), stop)

    def standing(self) -> list[float]:
        """Each seat's progress towards the goal (`goal.scores`, the record's scores)."""
        return [float(score) for score in scores(self)]

    def win_chances(self) -> list[float]:
        """Each seat's reward for a search's playout cut off here (`pnp.play.mcts`): the seats'
        values, pieces on their way counted (`value.cutoff_reward`)."""
        return cutoff_reward(self)

    def action_str(self, action: Action) -> str:
        return action_text(self.model, action)

    def record(self) -> GameRecord:
        counts = (self.round, self.deaths, self.tiles_placed, self.water_missions)
        return GameRecord(
            turns=self.turns,
            end=str(self.ended or ""),
            scores=tuple(scores(self)),
            winners=self.winners,
            leaders=tuple(self.leaders),
            counters=dict(zip(COUNTED, (*counts, self.decisions, self.legal_moves), strict=True)),
        )


COUNTED = (
    *("duration_rounds", "deaths", "tiles_placed", "water_missions"),
    *("decisions", "legal_moves"),
)
"""The counters a record carries, in `engine.COUNTERS`' order."""


def new_state(
    model: PlayModel, players: int, rng: random.Random, max_rounds: int = MAX_ROUNDS
) -> State:
    """Set-up (the deck shuffled with `rng`, the only draw before the first turn), then
    seat 0's turn begins: its six dice are to be thrown."""
    if players != PLAYERS:
        raise PnpError(f"Desert Home takes {PLAYERS} players, got {players}")
    state = setup(model, rng, max_rounds)
    turn.start_turn(state)
    return state


def setup(model: PlayModel, rng: random.Random, max_rounds: int = MAX_ROUNDS) -> State:
    """Empty path, entry fields ready, every piece in the camp, a shuffled deck."""
    n = model.cells
    tile = [SAFE if k in (REFUGE_ENTRY, CAMP_ENTRY) else NONE for k in model.kind]
    deck = [SAFE] * model.deck_safe + [THIRST] * model.deck_thirst
    for i in range(len(deck) - 1, 0, -1):  # Fisher-Yates with `below`
        j = below(rng, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    k = len(model.colours)
    return State(
        model=model,
        tile=tile,
        deadline=[0] * n,
        colour=[-1] * n,
        figs=[0] * n,
        tents=[0] * n,
        bearer=[0] * n,
        camp_figs=list(model.figures),
        camp_tents=list(model.tents),
        refuge_figs=[[0] * k for _ in range(PLAYERS)],
        refuge_tents=[[0] * k for _ in range(PLAYERS)],
        deck=deck,
        cards=model.protection_cards,
        blue=model.blue,
        max_rounds=max_rounds,
    )


HOOKS: tuple[type[Resamples], type[PlaysOut], type[Stands], type[EstimatesWins]] = (
    State,
    State,
    State,
    State,
)
"""What `State` offers beyond the game-state API (`pnp.play.state`), each checked by mypy."""
