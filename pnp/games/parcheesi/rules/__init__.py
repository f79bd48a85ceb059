"""Parcheesi rules: the readable reference engine.

Every rule of the spec and every pinned decision (1-14) lives here as a small function
over plain values; `state.py` walks a game through them as the game-state API. This is
the engine the rule tests exercise; the compiled kernel (`_kernel.c`) plays the same
games and is checked against this one game by game (same seed, same game:
`tests/conformance/parcheesi.json`).

A pawn is its progress along its colour's path: `NEST` (-1), 0 (its entry space) ...
`model.home` (71). Nodes are `geometry.track`'s; the play model maps progress to nodes.

How a roll is played (decisions 2-12): the roll gives values (dice, a 5-pair, bonuses
earned on the way); a step spends one value on one pawn; a complete play is a sequence of
legal steps after which no unused value has a legal step. The plays a player may choose
are the complete plays with the most entries, then among those the most dice pips. The
player chooses among the distinct resulting positions (pawns of one colour are
interchangeable), listed in a fixed order (`Position` ordering).

Option `standard` (documented for the rule card):
- a double gives its bottom faces (n, n, 7 - n, 7 - n) only when none of the mover's
  pawns is in its nest, else just n, n;
- after a double the same player rolls again, in the same turn;
- a third double in a row in one turn is not played: the mover's pawn with the most
  progress that is not yet home (track or strip) goes back to its nest and the turn ends;
- a pawn reaching home earns a bonus of 10, used like a capture bonus (one pawn, unsplit);
- the blockade rule (8) applies to each roll: its pairs are the blockades at that roll.

Other choices the spec leaves open: the leader is the seat with the most total progress
(a nest pawn counts 0, a pawn on progress p counts p + 1); a seat's score is its pawns
at home. All chance goes through `State.sample_chance` and the bots, in a fixed order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from pnp.games.parcheesi.rules.model import PlayModel
from pnp.play.chance import below

if TYPE_CHECKING:  # the functions below read and change a game's state
    from pnp.games.parcheesi.rules.state import State

NEST = -1
PAWNS = 4
MAX_TURNS = 1000
CAPTURE_BONUS = 20
HOME_BONUS = 10
COUNTERS = ("captures", "entries", "passes")
"""What the rules count; decisions and legal moves offered are the forward model's."""


def roll_die(rng: random.Random) -> int:
    return below(rng, 6) + 1


def seat_colours(players: int) -> tuple[int, ...]:
    """Decision 1: seat s (seat 0 starts, then clockwise) plays colour -s mod 4; two
    players sit opposite, on colours 0 and 2."""
    if players == 2:
        return (0, 2)
    return tuple(-s % 4 for s in range(players))


@dataclass(frozen=True, order=True)
class Position:
    """What a play leaves: the mover's pawns (progress, sorted) and the set of nodes whose
    opposing pawn went back to its nest (a bit set, bit n = node n). Positions are listed
    for a choice in this dataclass's order: `own` first, then `captured` as a number."""

    own: tuple[int, ...]
    captured: int = 0


# --- one roll: values, steps, complete plays -------------------------------------------


@dataclass(frozen=True)
class Situation:
    """A roll part-played: the mover's pawns by index, unused dice (sorted), whether the
    two dice may still enter together as a 5, unused bonuses (sorted), captured nodes."""

    own: tuple[int, ...]
    dice: tuple[int, ...]
    pair: bool
    bonuses: tuple[int, ...] = ()
    captured: int = 0


@dataclass(frozen=True)
class Step:
    """Spend one value on one pawn; an entry is a step whose pawn is in the nest."""

    pawn: int
    value: int
    source: Literal["die", "pair", "bonus"]


@dataclass(frozen=True)
class Roll:
    """What a roll is played against: the board outside the mover, fixed for the roll."""

    model: PlayModel
    colour: int
    others: dict[int, tuple[int, ...]]  # node -> colours of the opposing pawns on it
    locked: frozenset[frozenset[int]]  # decision 8: pawn pairs in a blockade at the start
    standard: bool


def roll_values(own: Sequence[int], dice: Sequence[int], standard: bool) -> Situation:
    """Decisions 2 and 3: the values a roll gives. One die gives one value; two different
    dice two (and a 5-pair when they total 5); a double n gives n, n, 7 - n, 7 - n (with
    `standard`, only once no pawn is in the nest: else n, n)."""
    if len(dice) == 1:
        return Situation(tuple(own), (dice[0],), False)
    a, b = dice
    if a != b:
        return Situation(tuple(own), tuple(sorted(dice)), a + b == 5)
    if standard and NEST in own:
        return Situation(tuple(own), (a, a), False)
    return Situation(tuple(own), tuple(sorted((a, a, 7 - a, 7 - a))), False)


def start_roll(state: State) -> Roll:
    colour = state.colour
    path = state.model.paths
    home = state.model.home
    others: dict[int, list[int]] = {}
    for c, pawns in enumerate(state.pawns):
        if c != colour:
            for p in pawns:
                if p != NEST and p != home:
                    others.setdefault(path[c][p], []).append(c)
    own = state.pawns[colour]
    locked = frozenset(
        frozenset((i, j))
        for i in range(len(own))
        for j in range(i + 1, len(own))
        if own[i] == own[j] and own[i] not in (NEST, home)
    )
    return Roll(
        state.model, colour, {n: tuple(cs) for n, cs in others.items()}, locked, state.standard
    )


def occupants(roll: Roll, sit: Situation) -> dict[int, list[tuple[int, int]]]:
    """Node -> (colour, pawn index) of every pawn on it; opposing pawns have index -1."""
    path = roll.model.paths[roll.colour]
    home = roll.model.home
    found: dict[int, list[tuple[int, int]]] = {}
    for i, p in enumerate(sit.own):
        if p != NEST and p != home:
            found.setdefault(path[p], []).append((roll.colour, i))
    for node, colours in roll.others.items():
        if not sit.captured >> node & 1:
            found.setdefault(node, []).extend((c, -1) for c in colours)
    return found


def pawns_on(roll: Roll, sit: Situation, node: int) -> list[tuple[int, int]]:
    """`occupants` of one node."""
    path = roll.model.paths[roll.colour]
    home = roll.model.home
    found = [
        (roll.colour, i) for i, p in enumerate(sit.own) if p not in (NEST, home) and path[p] == node
    ]
    if not sit.captured >> node & 1:
        found += [(c, -1) for c in roll.others.get(node, ())]
    return found


def is_blockade(pawns: list[tuple[int, int]]) -> bool:
    """Two pawns of one colour on one space (decision 6)."""
    return len(pawns) == 2 and pawns[0][0] == pawns[1][0]


def can_enter(roll: Roll, sit: Situation, board: dict[int, list[tuple[int, int]]]) -> bool:
    """Decision 4: a pawn in the nest, and no two pawns on the entry space but a mixed pair
    holding one of the mover's (a blockade, or two pawns of other colours, bar it; with
    one own pawn beside one opposing pawn, the entering pawn captures that one)."""
    there = board.get(roll.model.entry[roll.colour], [])
    own = sum(colour == roll.colour for colour, _ in there)
    return NEST in sit.own and (len(there) < 2 or (len(there) == 2 and own == 1))


def can_move(
    roll: Roll, sit: Situation, board: dict[int, list[tuple[int, int]]], pawn: int, value: int
) -> bool:
    """Decisions 5-8 and 10 for one pawn and one value: exact count home, no blockade
    passed or landed on, at most two pawns on a space, a broken blockade stays broken."""
    p = sit.own[pawn]
    home = roll.model.home
    if p == NEST or p == home or p + value > home:
        return False
    path = roll.model.paths[roll.colour]
    for q in range(p + 1, min(p + value, home - 1) + 1):
        if is_blockade(board.get(path[q], [])):
            return False
    if p + value == home:
        return True
    there = board.get(path[p + value], [])
    if len(there) == 2:
        return False
    if there and there[0][0] == roll.colour:
        return frozenset((pawn, there[0][1])) not in roll.locked
    return True


def legal_steps(roll: Roll, sit: Situation) -> list[Step]:
    """Every legal step: entries first (by die 5, then by the pair), then moves."""
    board = occupants(roll, sit)
    out: list[Step] = []
    if can_enter(roll, sit, board):
        nest_pawn = sit.own.index(NEST)
        if 5 in sit.dice:
            out.append(Step(nest_pawn, 5, "die"))
        if sit.pair:
            out.append(Step(nest_pawn, 5, "pair"))
    values = [(v, "die") for v in sorted(set(sit.dice))]
    values += [(v, "bonus") for v in sorted(set(sit.bonuses))]
    for value, source in values:
        for pawn in range(len(sit.own)):
            if can_move(roll, sit, board, pawn, value):
                out.append(Step(pawn, value, source))  # type: ignore[arg-type]
    return out


def _without(values: tuple[int, ...], v: int) -> tuple[int, ...]:
    i = values.index(v)
    return values[:i] + values[i + 1 :]


def take_step(roll: Roll, sit: Situation, step: Step) -> Situation:
    """Apply a legal step: the value is spent; a capture (decision 9, also on entering)
    sends the single opposing pawn to its nest and earns 20; `standard` home earns 10."""
    path = roll.model.paths[roll.colour]
    home = roll.model.home
    p = sit.own[step.pawn]
    q = 0 if p == NEST else p + step.value
    own = sit.own[: step.pawn] + (q,) + sit.own[step.pawn + 1 :]
    dice, pair, bonuses = sit.dice, False, sit.bonuses
    if step.source == "die":
        dice = _without(dice, step.value)
    elif step.source == "pair":
        dice = ()
    else:
        bonuses = _without(bonuses, step.value)
    captured = sit.captured
    if q != home:
        node = path[q]
        theirs = [c for c, _ in pawns_on(roll, sit, node) if c != roll.colour]
        may_capture = p == NEST or not roll.model.safe[node]
        if len(theirs) == 1 and may_capture:  # legal, so a lone opposing pawn (decision 4)
            captured |= 1 << node
            bonuses = tuple(sorted((*bonuses, CAPTURE_BONUS)))
    elif roll.standard:
        bonuses = tuple(sorted((*bonuses, HOME_BONUS)))
    return Situation(own, dice, pair, bonuses, captured)


@dataclass(frozen=True)
class Play:
    """A complete play's summary: what rule 12 ranks it by, and where it leads."""

    entries: int
    pips: int
    position: Position


def complete_plays(roll: Roll, start: Situation) -> list[Play]:
    """Every complete play (decision 11: go on while an unused value has a legal step),
    one per distinct end of the search; part-played situations reached twice are
    searched once (the same situation has the same continuations)."""
    seen: set[Situation] = set()
    ends: set[Play] = set()
    pips0, nest0 = sum(start.dice), start.own.count(NEST)

    def search(sit: Situation) -> None:
        if sit in seen:
            return
        seen.add(sit)
        steps = legal_steps(roll, sit)
        if not steps:
            position = Position(tuple(sorted(sit.own)), sit.captured)
            ends.add(Play(nest0 - sit.own.count(NEST), pips0 - sum(sit.dice), position))
        for step in steps:
            search(take_step(roll, sit, step))

    search(start)
    return list(ends)


def allowed_positions(state: State, dice: Sequence[int]) -> list[Position]:
    """Decision 12: of the complete plays, those with the most entries, then the most
    dice pips (an entry counts 5, bonuses nothing); their distinct results, in order."""
    roll = start_roll(state)
    plays = complete_plays(roll, roll_values(state.pawns[state.colour], dice, roll.standard))
    most = max(p.entries for p in plays)
    pips = max(p.pips for p in plays if p.entries == most)
    return sorted({p.position for p in plays if p.entries == most and p.pips == pips})


def apply_position(state: State, position: Position) -> None:
    """Make the chosen result the board: the mover's pawns, and captured pawns nested."""
    colour = state.colour
    before = state.pawns[colour]
    state.pawns[colour] = list(position.own)
    state.counters["entries"] += before.count(NEST) - position.own.count(NEST)
    captured = position.captured
    paths = state.model.paths
    node = 0
    while captured:
        if captured & 1:
            state.counters["captures"] += 1
            for c, pawns in enumerate(state.pawns):
                if c != colour:
                    for i, p in enumerate(pawns):
                        if 0 <= p < state.model.home and paths[c][p] == node:
                            pawns[i] = NEST
        captured >>= 1
        node += 1


# --- turns and games ----------------------------------------------------------------------


def three_doubles_penalty(state: State) -> None:
    """Option `standard`: the mover's most advanced pawn not yet home goes to its nest."""
    pawns = state.pawns[state.colour]
    out = [p for p in pawns if p != NEST and p != state.model.home]
    if out:
        pawns[pawns.index(max(out))] = NEST


def has_won(state: State) -> bool:
    return all(p == state.model.home for p in state.pawns[state.colour])


def progress(state: State) -> list[int]:
    """Per seat: total progress, a nest pawn counting 0 and a pawn on progress p, p + 1."""
    return [sum(p + 1 for p in state.pawns[c]) for c in state.seats]


def with_rules(model: PlayModel, rules: str | None = None, dice: str | None = None) -> PlayModel:
    """The same board played under other rules, or with another way of rolling (the
    simulation's `rules` and `dice` options; None keeps the model's)."""
    rules, dice = rules or model.rules, dice or model.dice
    same = model.rules == rules and model.dice == dice
    return model if same else replace(model, rules=rules, dice=dice)
