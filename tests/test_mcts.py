"""The generic tree-search bot (`pnp.play.mcts`) and the seats that mix bots (`--bots`): it
finds a winning move, never reads the dice or the tiles to come, is deterministic for a
seed and for any --jobs, and plays every registered game through the State API alone."""

from __future__ import annotations

import json
import random

import pytest
from cli_run import run

from pnp.games import get_game, registry
from pnp.play.mcts import MctsBot
from pnp.play.outcome import Outcome, Termination
from pnp.play.state import CHANCE, TERMINAL
from pnp.sim.command import run_simulation
from pnp.sim.seats import Lineup, play_lineup


class End(Termination):
    WIN = "win"
    CUT = "cut", False


class Guess:
    """A toy: seat 0 picks one of `n` actions. Action `winner` wins at once; any other is
    followed by a die (chance) that decides the game: seat 0 wins when the die's parity
    matches the action's. A bot that read the die to come would pick its parity."""

    players = 2

    def __init__(self, n: int = 8, winner: int | None = None) -> None:
        self.n, self.winner = n, winner
        self.picked: int | None = None
        self.die: int | None = None

    @property
    def turns(self) -> int:
        return int(self.picked is not None)

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        return 0 if self.picked is None else CHANCE

    def legal_actions(self) -> list[int]:
        return list(range(self.n))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(f, 1 / 6) for f in range(1, 7)]

    def sample_chance(self, rng: random.Random) -> int:
        return rng.randrange(1, 7)

    def random_action(self, rng: random.Random) -> int:
        return rng.randrange(self.n)

    def apply(self, action: int) -> None:
        if self.picked is None:
            self.picked = action
        else:
            self.die = action

    def won_at_once(self) -> bool:
        return self.winner is not None and self.picked == self.winner

    def is_terminal(self) -> bool:
        return self.won_at_once() or self.die is not None

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        if self.won_at_once() or (self.die or 0) % 2 == (self.picked or 0) % 2:
            return Outcome(End.WIN, (0,))
        return Outcome(End.WIN, (1,))

    def clone(self) -> Guess:
        copy = Guess(self.n, self.winner)
        copy.picked, copy.die = self.picked, self.die
        return copy

    def action_str(self, action: int) -> str:
        return str(action)


def test_mcts_takes_the_immediate_win():
    for seed in range(10):
        assert MctsBot(60).choose(Guess(8, winner=5), random.Random(seed)) == 5


def test_a_sizing_sets_a_decisions_playouts_within_the_budget():
    """A game's `sizing` gives each decision its playouts, held to 1..budget; without
    one every decision spends the budget."""
    for asked, spent in ((7, 7), (0, 1), (500, 60)):
        bot = MctsBot(60, sizing=lambda state, budget, n=asked: n)
        assert sum(bot.search(Guess(8), random.Random(1)).values()) == spent
    assert sum(MctsBot(60).search(Guess(8), random.Random(1)).values()) == 60


def test_mcts_never_reads_the_die_to_come():
    """Over many seeds, the pick's parity matches the real next roll about half the time
    (a bot that peeked would always match)."""
    matches = 0
    for seed in range(300):
        rng = random.Random(seed)
        state = Guess(8)
        state.apply(MctsBot(30).choose(state, rng))
        state.apply(state.sample_chance(rng))  # the real roll, after the decision
        matches += state.outcome() == Outcome(End.WIN, (0,))
    assert 0.35 < matches / 300 < 0.65, matches  # fair: outside with odds below 1e-6


class HiddenRoll(Guess):
    """The toy with its die rolled in advance and kept in the state (as a shuffled deck
    is): `resample` draws it afresh, as a player who cannot see it would imagine it."""

    def __init__(self, n: int = 8, next_die: int = 1) -> None:
        super().__init__(n)
        self.next_die = next_die
        self.resampled = 0

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else 0

    def apply(self, action: int) -> None:
        self.picked, self.die = action, self.next_die

    def resample(self, rng: random.Random) -> None:
        self.resampled += 1
        self.next_die = rng.randrange(1, 7)

    def clone(self) -> HiddenRoll:
        copy = type(self)(self.n, self.next_die)
        copy.picked, copy.die = self.picked, self.die
        return copy


class PeekingRoll(HiddenRoll):
    """The same toy without `resample` (None: a state that does not offer it)."""

    resample = None  # type: ignore[assignment]


def test_mcts_never_reads_a_hidden_order():
    """A die kept in the state is redrawn for each playout: the search is the same
    whatever die the state holds (and, without `resample`, it reads it)."""
    bot = MctsBot(60)
    searches = [bot.search(HiddenRoll(8, die), random.Random(3)) for die in (1, 2)]
    assert searches[0] == searches[1]
    peeking = [bot.search(PeekingRoll(8, die), random.Random(3)) for die in (1, 2)]
    assert peeking[0] != peeking[1]


def test_desert_homes_deck_is_redrawn_from_its_contents_alone():
    gdef = get_game("desert-home")
    engine = gdef.engine
    model = engine.prepare(gdef.default_params(), 2)
    state = engine.new_state(model, 2, random.Random(3))
    other = state.clone()
    random.Random(9).shuffle(other.deck)
    assert other.deck != state.deck
    state.resample(random.Random(5))
    other.resample(random.Random(5))
    assert state.deck == other.deck and sorted(state.deck) == sorted(other.deck)


def test_the_reward_is_a_win_share_and_a_team_result():
    assert MctsBot(cooperative=False).reward(_over(Guess(2, winner=0), 0)) == [1.0, 0.0]
    assert MctsBot().reward(_cut()) == [0.0, 0.0]  # the search's own cut-off: no win
    from pnp.play.mcts import shares

    assert shares((0, 2), 4, False, 1.0) == [0.5, 0.0, 0.5, 0.0]
    assert shares((0, 1), 2, True, 1.0) == [1.0, 1.0]


class Standing(Guess):
    """A Guess cut off by the search, with each seat's progress to score it by."""

    def __init__(self, progress: list[float]) -> None:
        super().__init__(4)
        self.players = len(progress)
        self.progress = progress

    def standing(self) -> list[float]:
        return self.progress


def test_the_searchs_cut_off_scores_each_seats_place_on_the_standing():
    """Early playout termination: on `standing()` the first seats get LEAD_REWARD (a win
    is worth 1), the last nothing, the others their place between, linearly; level
    standings, or a team game, score nothing."""
    from pnp.play.mcts import LEAD_REWARD

    assert LEAD_REWARD == 0.5
    assert MctsBot().reward(Standing([3, 5])) == [0.0, 0.5]
    assert MctsBot().reward(Standing([7, 2, 7])) == [0.5, 0.0, 0.5]
    assert MctsBot().reward(Standing([10, 2, 4, 8])) == [0.5, 0.0, 0.125, 0.375]
    assert MctsBot().reward(Standing([4, 4])) == [0.0, 0.0]
    assert MctsBot(cooperative=True).reward(Standing([3, 5])) == [0.0, 0.0]


class Chances(Standing):
    """A Standing that also estimates each seat's chance to win."""

    def win_chances(self) -> list[float]:
        return [p / sum(self.progress) for p in self.progress]


def test_the_searchs_cut_off_scores_the_win_chances_where_the_state_gives_them():
    """A graded reward: each seat's estimated chance itself, before any lead; nothing in a
    team game (as with the standing)."""
    assert MctsBot().reward(Chances([3, 5])) == [3 / 8, 5 / 8]
    assert MctsBot().reward(Chances([4, 4])) == [0.5, 0.5]
    assert MctsBot(cooperative=True).reward(Chances([3, 5])) == [0.0, 0.0]


class Echo:
    """A toy of two decisions: seat 0 calls a number of 0-3, then seat 1 calls one; seat 1
    wins by echoing seat 0's. Seat 1's rollouts play the state's own policy (echo),
    counted; random play would raise."""

    players = 2
    echoed = 0

    def __init__(self) -> None:
        self.calls: list[int] = []

    @property
    def turns(self) -> int:
        return len(self.calls)

    def current_player(self) -> int:
        return TERMINAL if len(self.calls) == 2 else len(self.calls)

    def legal_actions(self) -> list[int]:
        return [0, 1, 2, 3]

    def random_action(self, rng: random.Random) -> int:
        raise AssertionError("the rollouts play the state's own policy")

    def rollout_action(self, rng: random.Random) -> int:
        Echo.echoed += 1
        return self.calls[0]

    def apply(self, action: int) -> None:
        self.calls.append(action)

    def is_terminal(self) -> bool:
        return len(self.calls) == 2

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        return Outcome(End.WIN, (int(self.calls[1] == self.calls[0]),))

    def clone(self) -> Echo:
        copy = Echo()
        copy.calls = list(self.calls)
        return copy


def test_playouts_play_the_states_own_rollout_policy_where_it_offers_one():
    """Below the root's children the playouts decide by `rollout_action`, never at random:
    seat 1 always echoes, so every call of seat 0 loses and each is tried once."""
    visits = MctsBot(4).search(Echo(), random.Random(1))
    assert Echo.echoed == 4 and sorted(visits) == [0, 1, 2, 3]


def test_an_engine_declares_its_playouts_horizon_and_exploration():
    """The horizon and exploration in the engine's hooks reach the mcts seats; without
    them the defaults."""
    from types import SimpleNamespace

    from pnp.contract.hooks import EngineHooks
    from pnp.play.mcts import EXPLORATION, PLAYOUT_TURNS
    from pnp.sim.seats import mcts_bot

    hooks = EngineHooks[object](playout_turns=6, mcts_exploration=0.2)
    engine = SimpleNamespace(COOPERATIVE=False, HOOKS=hooks)
    assert (mcts_bot(engine, 9).playout_turns, mcts_bot(engine, 9).exploration) == (6, 0.2)
    plain = mcts_bot(SimpleNamespace(COOPERATIVE=True, HOOKS=EngineHooks()), 9)
    assert (plain.playout_turns, plain.cooperative, plain.budget) == (PLAYOUT_TURNS, True, 9)
    assert plain.exploration == EXPLORATION


def _over(state: Guess, action: int) -> Guess:
    state.apply(action)
    return state


def _cut() -> Guess:
    return Guess(4)  # not over: no outcome


def test_mcts_is_deterministic_for_a_seed():
    args = dict(games=2, players=2, bot="mcts", budget=6)
    a = run_simulation("exploding-dice", seed=4, **args)
    b = run_simulation("exploding-dice", seed=4, **args)
    c = run_simulation("exploding-dice", seed=5, **args)
    assert a.summary == b.summary
    assert a.summary["bot_budget"] == 6 and a.summary["bot"] == "mcts"
    assert a.summary["metrics"] != c.summary["metrics"]


def test_mixed_seats_are_the_same_for_any_jobs():
    args = dict(games=4, bots="mcts,random,greedy", players=3, budget=4, seed=2)
    one = run_simulation("exploding-dice", jobs=1, **args)
    two = run_simulation("exploding-dice", jobs=2, **args)
    assert one.summary == two.summary
    assert one.summary["bots"] == ["mcts", "random", "greedy"]
    assert one.summary["bot"] == "mcts,random,greedy"


def test_mixed_seats_take_every_seat_order_and_measure_the_bots():
    """Game i turns the lineup i places; the JSON pools each bot's share over the seat
    orders and gives no first-player verdict, which would measure the bots."""
    seats = Lineup(("mcts", "random", "greedy"), 4)
    assert [seats.seated(i).bots for i in range(4)] == [
        ("mcts", "random", "greedy"),
        ("greedy", "mcts", "random"),
        ("random", "greedy", "mcts"),
        ("mcts", "random", "greedy"),
    ]
    assert Lineup(("greedy",) * 3, 4).seated(1).bots == ("greedy",) * 3
    sim = run_simulation("exploding-dice", games=30, players=2, bots="greedy,random", seed=3)
    s = sim.summary
    assert "fairness" not in s and s["seat_order"] == "rotated"
    greedy, rnd = s["bot_shares"]["greedy"], s["bot_shares"]["random"]
    assert greedy["seat_games"] == rnd["seat_games"] == 30
    assert sim.acc.bot_games["greedy", 0] == sim.acc.bot_games["greedy", 1] == 15
    assert greedy["share"] + rnd["share"] == pytest.approx(sim.acc.team_wins / 30, abs=1e-3)
    lo, hi = greedy["ci"]
    assert lo <= greedy["share"] <= hi and greedy["fair"] == 0.5
    same = run_simulation("exploding-dice", games=30, players=2, bot="greedy", seed=3)
    assert "fairness" in same.summary and "bot_shares" not in same.summary


@pytest.mark.parametrize("slug", ["exploding-dice", "building-community", "parcheesi"])
def test_the_generic_path_plays_as_the_engine_does(slug):
    """Random seats through `pnp.play.forward.play` give the engine's own records, counters
    included: the generic path is the same game, not a look-alike."""
    gdef = get_game(slug)
    engine = gdef.engine
    players = engine.DEFAULT_PLAYERS
    model = engine.prepare(gdef.default_params(), players)
    for i in range(2):
        mine = play_lineup(
            engine, model, players, Lineup(("random",) * players, 1), random.Random(f"5:{i}")
        )
        assert mine == engine.play_one(model, players, "random", random.Random(f"5:{i}"))


@pytest.mark.slow
@pytest.mark.parametrize("slug", sorted(registry()))
def test_mcts_plays_every_game_to_its_end(slug):
    if registry()[slug].engine is None:
        pytest.skip("no engine")
    players = registry()[slug].engine.DEFAULT_PLAYERS
    bots = ",".join(["mcts", *["random"] * (players - 1)])
    sim = run_simulation(slug, games=1, bots=bots, budget=1, seed=1)
    assert sim.summary["games"] == 1 and sum(sim.summary["end_reasons"].values()) == 1
    assert sim.summary["bots"][0] == "mcts"


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--bots", "mcts,random"], "--bots names 2 bots for 4 seats"),
        (["--bots", "mcts,clever,random,random"], "unknown bot 'clever'"),
        (["--bots", "mcts,,random,random"], "--bots takes one bot per seat"),
        (["--bot", "mcts", "--bot-budget", "0"], "--bot-budget must be 1 to"),
        (["--bot", "mcts", "--bot-budget", "2.5"], "not a whole number"),
        (["--skill-trace", "--bots", "mcts,random,random,random"], "--skill-trace chooses"),
    ],
)
def test_bad_bots_are_one_line(capsys, args, needle):
    code, out, err = run(capsys, "simulate", "exploding-dice", "--games", "2", "--jobs", "1", *args)
    assert code == 2 and "Traceback" not in out + err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and needle in lines[0], err


def test_skill_trace_reports_a_share_with_its_interval(capsys):
    code, out, err = run(
        capsys,
        "simulate",
        "exploding-dice",
        "--skill-trace",
        "--games",
        "4",
        "--bot-budget",
        "4",
        "--jobs",
        "1",
        "--json",
        "-",
    )
    assert code == 0, err
    trace = json.loads(out)
    assert trace["fair_share"] == 0.25 and set(trace["skill_trace"]) == {"random", "greedy"}
    for entry in trace["skill_trace"].values():
        lo, hi = entry["ci"]
        assert entry["games"] == 4 and lo <= entry["share"] <= hi
        assert len(entry["by_seat"]) == 4  # one game in each seat order


class Endless(Guess):
    """A toy that never ends: every playout is cut off, so the search learns nothing."""

    def __init__(self) -> None:
        super().__init__(6)
        self.steps = 0

    @property
    def turns(self) -> int:
        return self.steps

    def current_player(self) -> int:
        return self.steps % 2

    def apply(self, action: int) -> None:
        self.steps += 1

    def is_terminal(self) -> bool:
        return False

    def clone(self) -> Endless:
        copy = Endless()
        copy.steps = self.steps
        return copy


def test_a_search_that_learnt_nothing_plays_at_random():
    """Ties are drawn, not given to the first action listed (a bias that made the bot pass
    far more often than a random player in Home in One Piece)."""
    picks = [MctsBot(8, playout_turns=3).choose(Endless(), random.Random(s)) for s in range(60)]
    assert set(picks) == set(range(6))
