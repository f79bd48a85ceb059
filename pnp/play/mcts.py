"""A bot that thinks ahead for every game: Monte Carlo tree search over the State API alone.

UCT (UCB1 applied to trees) with chance nodes. Each playout starts from a clone of the
position asked about; where the rules draw, the playout draws from the search's own
generator, so the tree holds one child per outcome seen. A state that hides an order
(`pnp.play.state.Resamples`) draws it anew on each playout's clone.

The reward of a playout, for each seat:

- a finished game: its share of the win (a shared win split; in a cooperative game every
  seat gets the team's result);
- the game's own cut-off (a turn limit): its place on `record().scores`, linearly from
  nothing (last) to `LEAD_REWARD` (first); nothing when the scores are level or absent;
- the search's cut-off, `playout_turns` turns beyond the root (the engine may set its
  own): the state's `win_chances()` where it offers them (`pnp.play.state.EstimatesWins`),
  else its place on `standing()` (`pnp.play.state.Stands`) as above, else nothing.

Playouts play the state's own `playout` (`pnp.play.state.PlaysOut`), else its policy
(`rollout_action`, `pnp.play.state.HasPolicy`) or random play, on a generator seeded by one draw
of the search's. A compiled kernel may run this very search, its playouts and its
resampling (`pnp/play/_uct.h`, attached through `pnp.play.fastpath`), returning the same visits and
leaving `rng` where this search would; `MctsBot(compiled=False)` keeps the readable search,
the reference the compiled one is checked against.

All randomness comes from the `rng` given to `choose`: one draw of it seeds the search, so
the game's own generator moves on by the same amount whatever the budget, and the
search's draws go through `pnp.play.chance.below`, which a kernel makes in C draw for draw.
docs/decisions.md says why the rewards are scored so.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from pnp.play import fastpath
from pnp.play.chance import below
from pnp.play.forward import play_on
from pnp.play.state import (
    CHANCE,
    TERMINAL,
    State,
    estimates_wins,
    has_policy,
    plays_out,
    resamples,
    stands,
)
from pnp.runtime import interrupt

DEFAULT_BUDGET = 200
"""Playouts per decision when the game declares no budget of its own."""
MAX_BUDGET = 1_000_000
PLAYOUT_TURNS = 40
"""Turns a playout may run beyond the position searched before it is cut off."""
EXPLORATION = math.sqrt(2)
"""UCB1's constant: rewards lie in 0..1."""
LEAD_REWARD = 0.5
"""What leading a cut-off playout is worth (a win is 1); the last gets nothing, the seats
between a share by their place between the two."""


Sizing = Callable[[Any, int], int]
"""(position, budget) -> the playouts a decision there spends: a game whose decisions
differ much in what a playout costs sizes each (`MctsBot.playouts` keeps it in 1..budget)."""


class Node:
    """One position of the tree: its visits, each seat's summed reward, its children
    (keyed by the action played, or by the chance outcome drawn)."""

    __slots__ = ("visits", "reward", "children", "untried")

    def __init__(self, players: int) -> None:
        self.visits = 0
        self.reward = [0.0] * players
        self.children: dict[Hashable, Node] = {}
        self.untried: list[Any] | None = None  # a decision's actions not yet expanded


class MctsBot:
    """UCT with `budget` playouts per decision (or what the game's `sizing` gives a decision,
    at most `budget`); `cooperative` scores the team's result."""

    name = "mcts"

    def __init__(
        self,
        budget: int = DEFAULT_BUDGET,
        cooperative: bool = False,
        playout_turns: int = PLAYOUT_TURNS,
        exploration: float = EXPLORATION,
        compiled: bool = True,
        sizing: Sizing | None = None,
    ) -> None:
        if not 1 <= budget <= MAX_BUDGET:
            raise ValueError(f"the budget must be 1 to {MAX_BUDGET} playouts, got {budget}")
        self.budget = budget
        self.cooperative = cooperative
        self.playout_turns = playout_turns
        self.exploration = exploration
        self.compiled = compiled
        self.sizing = sizing

    def playouts(self, state: State[Any]) -> int:
        """The playouts a search from `state` spends: `budget`, or what `sizing` gives there
        (held to 1..budget). Both searches, readable and compiled, spend this many."""
        if self.sizing is None:
            return self.budget
        return max(1, min(self.budget, self.sizing(state, self.budget)))

    def choose(self, state: State[Any], rng: random.Random) -> Any:
        """The root action visited most by `budget` playouts (a forced action at once).
        Ties are drawn by the search's generator: a search that learnt nothing (no playout
        reached an end) then plays as the random bot would, not the first action listed."""
        legal = state.legal_actions()
        search = random.Random(rng.getrandbits(64))  # one draw, whatever the budget
        if len(legal) == 1:
            return legal[0]
        visits = self.search(state, search)
        counts = [visits.get(a, 0) for a in legal]
        most = max(counts)
        best = [a for a, n in zip(legal, counts, strict=True) if n == most]
        return best[below(search, len(best))]

    def search(self, state: State[Any], rng: random.Random) -> dict[Any, int]:
        """`playouts(state)` playouts from `state` drawing from `rng`: each root action's visits, in
        the order the actions were first tried. On the state's compiled search when it has
        one (and `compiled` is on), else on the readable loop below. A stop (Ctrl-C,
        SIGTERM) may end it with KeyboardInterrupt: a decision of a million playouts is not
        waited for (`pnp.runtime.interrupt.searching`)."""
        with interrupt.searching():
            return self._search(state, rng)

    def _search(self, state: State[Any], rng: random.Random) -> dict[Any, int]:
        budget = self.playouts(state)
        fast = fastpath.active(state)
        if fast is not None and fast.tree_search is not None and self.compiled:
            settings = fastpath.SearchSettings(
                budget, self.playout_turns, self.exploration, self.cooperative
            )
            visits = fast.tree_search(state, rng, settings)
            if visits is not None:  # None: the kernel does not take this position or kit
                return visits
        root = Node(state.players)
        root.untried = list(state.legal_actions())
        for _ in range(budget):
            playout = state.clone()
            resample(playout, rng)
            self._playout(root, playout, rng)
        return {a: child.visits for a, child in root.children.items()}

    def _playout(self, root: Node, state: State[Any], rng: random.Random) -> None:
        """Select down the tree, expand one node, play at random to a cut-off, back up."""
        stop = state.turns + self.playout_turns
        path = [root]
        node = root
        steps = 0
        while True:
            player = state.current_player()
            if player == TERMINAL or state.turns >= stop:
                break
            if player == CHANCE:
                action = state.sample_chance(rng)
                state.apply(action)
                steps += 1
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = Node(state.players)
                    path.append(child)
                    break
                node = child
                path.append(node)
                continue
            if node.untried is None:
                node.untried = list(state.legal_actions())
            if node.untried:
                action = node.untried.pop(below(rng, len(node.untried)))
                state.apply(action)
                steps += 1
                child = node.children[action] = Node(state.players)
                path.append(child)
                break
            action = self._select(node, player)
            state.apply(action)
            steps += 1
            node = node.children[action]
            path.append(node)
        reward = self._rollout(state, rng, stop, steps)
        for visited in path:
            visited.visits += 1
            total = visited.reward
            for seat, r in enumerate(reward):
                total[seat] += r

    def _select(self, node: Node, player: int) -> Any:
        """UCB1 among the children, for the seat to move; the first best in insertion order."""
        log_n, c, sqrt = math.log(node.visits), self.exploration, math.sqrt
        best_value, best = -math.inf, None
        for action, child in node.children.items():
            n = child.visits
            value = child.reward[player] / n + c * sqrt(log_n / n)
            if value > best_value:
                best_value, best = value, action
        return best

    def _rollout(self, state: State[Any], rng: random.Random, stop: int, steps: int) -> list[float]:
        """Play to the end or the cut-off (`playout`), each seat's reward."""
        playout(state, rng, stop, steps)
        return self.reward(state)

    def reward(self, state: State[Any]) -> list[float]:
        """Each seat's reward: its share of a finished game's win, else its place between
        the last and the first (on the record at the game's own cut-off, on `standing()`
        at the search's), or at the search's cut-off the state's own ``win_chances()``
        where it offers them (each seat's estimated chance to win: a graded reward)."""
        players = state.players
        outcome = state.outcome() if state.is_terminal() else None
        if outcome is not None and outcome.finished:
            return shares(outcome.winners, players, self.cooperative, 1.0)
        if self.cooperative:
            return [0.0] * players  # the team won nothing (yet)
        if outcome is None:
            if estimates_wins(state):
                return list(state.win_chances())  # the game's own estimate of each seat's win
            if not stands(state):
                return [0.0] * players  # cut off by the search, with no progress to score
            scores: Sequence[float] = state.standing()
        else:
            scores = state.record().scores
        if len(scores) != players or min(scores) == max(scores):
            return [0.0] * players
        low, top = min(scores), max(scores)
        return [LEAD_REWARD * (s - low) / (top - low) for s in scores]


def resample(state: State[Any], rng: random.Random) -> None:
    """Draw anew what the players cannot see, where the state hides something: its
    ``resample(rng)``, on its compiled fast path when one takes it."""
    if not resamples(state):
        return
    fast = fastpath.active(state)
    if fast is None or fast.resample is None or not fast.resample(state, rng):
        state.resample(rng)


def playout(state: State[Any], rng: random.Random, stop: int, steps: int = 0) -> None:
    """A playout from `state`, in place, to the end or until `turns` reaches `stop`: the
    state's own ``playout(rng, stop)`` where it has one, else its policy (its
    ``rollout_action``, or random play with the game's own draws) on a generator seeded by
    one draw of `rng` (none when there is nothing to play), as a kernel plays it. A
    compiled fast path (`pnp.play.fastpath`) plays it instead where it takes the position."""
    fast = fastpath.active(state)
    if fast is not None and fast.playout is not None and fast.playout(state, rng, stop):
        return
    if plays_out(state):
        state.playout(rng, stop)
        return
    if state.is_terminal() or state.turns >= stop:
        return
    policy = state.rollout_action if has_policy(state) else None
    play_on(state, random.Random(rng.getrandbits(64)), stop, policy, steps)


def shares(winners: tuple[int, ...], players: int, team: bool, worth: float) -> list[float]:
    """`worth` split among `winners`, or given whole to each of them when they are a team."""
    if not winners:
        return [0.0] * players
    each = worth if team else worth / len(winners)
    return [each if s in winners else 0.0 for s in range(players)]
