"""Conformance as data: recorded games and perft counts every implementation must reproduce.

After python-chess's perft files and OpenSpiel's playthroughs. A recorded game is a seed,
the actions played (in the game's notation), the number of legal actions at each seat's
step, and the outcome; replaying it through `State` must meet the same counts and end the
same way, and `engine.play_one` (a kernel or fast path) playing the same seed must end
with the same record. Perft counts the paths of a given depth from a position, chance
outcomes included, so a rules change that adds or drops a single move shows up as a
different number.

One schema for every game (``tests/conformance/<slug>.json``)::

    {"game": slug,
     "games": [{"config": {kit param overrides}, "players": n, "bot": name,
                "options": {keyword arguments of prepare/new_state/play_one}, "seed": s,
                "note": why this game is here (optional),
                "actions": [...], "legal": [...], "end": e, "winners": [...],
                "turns": t, "scores": [...], "counters": {the record's counters},
                "turn_ends": [step after which each turn ended, ...],
                "standings": [each seat's `standing()` then, ...] (where the state has one),
                "searches": [[step, [[action, visits], ...]], ...]}],
     "perft": [{"config": {...}, "players": n, "options": {...}, "seed": s,
                "prefix": [actions from the start], "depth": d, "nodes": N}]}

The trace (``turn_ends``, ``standings``) pins the game between its steps, and
``searches`` pins the tree search: at a few decisions, `pnp.play.mcts.MctsBot`'s root visits at
`SEARCH_BUDGET` playouts from a generator seeded by the step (the engine's own horizon,
exploration and scoring). Every implementation a game declares (`GameDef.implementations`,
picked by `pnp.play.fastpath.using`) is held to all of it: the readable rules step by step, a
kernel's move lists, playouts, shuffles and compiled search, a fast path's whole games.

A case's ``options`` go to `new_state` and `play_one`; those the engine declares in
``OPTIONS`` (the ``pnp simulate`` options) go to `prepare` too. One ``random.Random(seed)``
draws the set-up and then the play, as `engine.play_one` draws. This module sits below the
games: it takes a `GameDef` and never imports the registry (`pnp.reference.conformance_data` does,
to rewrite a game's file).
"""

from __future__ import annotations

import json
import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any, TypeVar

from pnp.contract.gamedef import Engine, GameDef, mcts_exploration, mcts_sizing, playout_turns
from pnp.contract.params import apply_values, validate_params
from pnp.play import fastpath
from pnp.play.forward import play
from pnp.play.mcts import EXPLORATION, PLAYOUT_TURNS, MctsBot
from pnp.play.state import CHANCE, TERMINAL, State, parses_actions, stands
from pnp.runtime.errors import PnpError

A = TypeVar("A", bound=Hashable)
Case = dict[str, Any]

RESULTS = (
    "actions",
    "legal",
    "end",
    "winners",
    "turns",
    "scores",
    "counters",
    "turn_ends",
    "standings",
    "searches",
)
"""A recorded game's fields that `record_game` writes (the rest of an entry is its case)."""
READABLE = "readable rules"
FAST = "play_one (fast path or kernel)"
SEARCH_BUDGET = 40
"""Playouts of each recorded search: enough for the visits to differ, few enough for the
readable search to replay them quickly."""
SEARCHES = 3
"""Searches recorded per game: at its first, middle and last decision among several."""
PERFT_NODES = 50_000
"""The default perft of a new game goes as deep as 3 while the count stays under this."""
MAX_BYTES = 100_000
"""A data file stays small enough to review (the tests hold every file to it)."""


class Mismatch(AssertionError):
    """Where an implementation leaves the data: which one, the case, the step, what differed."""


@dataclass
class Recorded:
    """One game's results as data: what `record_game` keeps and `replay` checks."""

    seed: str
    actions: list[str] = field(default_factory=list)  # every step, chance included
    legal: list[int] = field(default_factory=list)  # legal actions at each seat's step; 0 at chance
    end: str = ""
    winners: list[int] = field(default_factory=list)
    turns: int = 0
    scores: list[int] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)
    turn_ends: list[int] = field(default_factory=list)  # the step after which a turn ended
    standings: list[list[float]] = field(default_factory=list)  # `standing()` then
    searches: list[list[Any]] = field(default_factory=list)  # [step, [[action, visits]...]]

    def as_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in RESULTS}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Recorded:
        return cls(str(data["seed"]), **{k: data[k] for k in RESULTS if k in data})


def perft(state: State[A], depth: int) -> int:
    """Paths of `depth` steps from `state` (a seat's action or a chance outcome is a step;
    a path that ends the game early counts once)."""
    if depth == 0 or state.current_player() == TERMINAL:
        return 1
    if state.current_player() == CHANCE:
        branches: Sequence[A] = [a for a, _ in state.chance_outcomes()]
    else:
        branches = state.legal_actions()
    total = 0
    for action in branches:
        child = state.clone()
        child.apply(action)
        total += perft(child, depth - 1)
    return total


def label(case: Mapping[str, Any]) -> str:
    """A case in a few words, for test ids and failure messages."""
    config = ",".join(f"{k}={v}" for k, v in case.get("config", {}).items()) or "default"
    options = ",".join(f"{k}={v}" for k, v in case.get("options", {}).items())
    parts = [config, options, f"{case['players']}p", case.get("bot", ""), f"seed {case['seed']}"]
    if "depth" in case:
        parts.append(f"+{len(case.get('prefix', []))} steps depth {case['depth']}")
    return " ".join(p for p in parts if p)


def engine_of(game: GameDef) -> Engine:
    """The game's engine; a game without one has no conformance to check."""
    if game.engine is None:
        raise PnpError(f"{game.slug} has no rules engine: nothing to record")
    return game.engine


def model_of(game: GameDef, case: Mapping[str, Any]) -> Any:
    """The case's play model: the kit's defaults with its config, prepared with its
    ``pnp simulate`` options."""
    params = validate_params(apply_values(game.default_params(), dict(case.get("config", {}))))
    sim = {o.name for o in engine_of(game).OPTIONS}
    options = {k: v for k, v in case.get("options", {}).items() if k in sim}
    return engine_of(game).prepare(params, case["players"], **options)


def start(game: GameDef, case: Mapping[str, Any], rng: random.Random) -> tuple[Any, State[Any]]:
    """The case's play model and first position (set-up draws from `rng`)."""
    model = model_of(game, case)
    options = dict(case.get("options", {}))
    return model, engine_of(game).new_state(model, case["players"], rng, **options)


def find_action(state: State[A], text: str, where: str) -> A:
    """The action `text` names at `state`: looked up among the legal actions (or chance
    outcomes), or read by the state's optional ``parse_action`` (continuous actions)."""
    if parses_actions(state):
        try:
            action: A = state.parse_action(text)
        except ValueError as exc:
            raise Mismatch(f"{where}: {text} is not legal ({exc})") from None
        return action
    chance = state.current_player() == CHANCE
    options = [a for a, _ in state.chance_outcomes()] if chance else state.legal_actions()
    by_name = {state.action_str(a): a for a in options}
    if text not in by_name:
        raise Mismatch(f"{where}: {text} is not legal")
    return by_name[text]


def walk(state: State[Any], actions: Sequence[str], where: str = READABLE) -> State[Any]:
    """`state` after `actions` (the game's notation), each legal where it is played."""
    for step, text in enumerate(actions):
        if state.current_player() == TERMINAL:
            raise Mismatch(f"{where}, step {step}: the game is over before {text}")
        state.apply(find_action(state, text, f"{where}, step {step}"))
    return state


def record_game(game: GameDef, case: Mapping[str, Any]) -> Case:
    """Play `case` on the readable rules with the game's bot and keep every step: the case
    with its results (`RESULTS`) filled in."""
    with fastpath.using(fastpath.READABLE):
        rec = played_game(game, case)
        rec.turn_ends, rec.standings = trace(game, case, rec.actions)
        rec.searches = [
            [step, searched(game, case, rec.actions, step)] for step in search_steps(rec.legal)
        ]
    return {**case_of(case), **rec.as_json()}


def played_game(game: GameDef, case: Mapping[str, Any]) -> Recorded:
    """`case` played by the game's bot on the rules that run: its actions, legal counts
    and ending."""
    rng = random.Random(case["seed"])
    model, state = start(game, case, rng)
    rec = Recorded(str(case["seed"]))

    def keep(s: State[Any], action: Any) -> None:
        rec.actions.append(s.action_str(action))
        rec.legal.append(0 if s.current_player() == CHANCE else len(s.legal_actions()))

    bot = engine_of(game).make_bot(case["bot"], model)
    played = play(state, [bot] * case["players"], rng, on_step=keep)
    outcome = played.state.outcome()
    assert outcome is not None
    final = played.state.record()
    rec.end, rec.winners = outcome.end, list(outcome.winners)
    rec.turns, rec.scores = final.turns, list(final.scores)
    rec.counters = dict(final.counters)
    return rec


def trace(
    game: GameDef, case: Mapping[str, Any], actions: Sequence[str], who: str = READABLE
) -> tuple[list[int], list[list[float]]]:
    """The steps after which a turn ended, and each seat's `standing()` then (where the
    state offers one), replaying `actions` from the case's start."""
    _, state = start(game, case, random.Random(case["seed"]))
    standing = state.standing if stands(state) else None
    ends: list[int] = []
    standings: list[list[float]] = []
    for step, text in enumerate(actions):
        turns = state.turns
        state.apply(find_action(state, text, f"{who}, {label(case)}, step {step}"))
        if state.turns != turns:
            ends.append(step)
            if standing is not None:
                standings.append([exact(v) for v in standing()])
    return ends, standings


def exact(value: float) -> float:
    """A standing as the data keeps it: whole numbers as they are, others to 9 places."""
    return value if isinstance(value, int) else round(float(value), 9)


def search_steps(legal: Sequence[int]) -> list[int]:
    """The steps whose search is recorded: the first, middle and last of the decisions
    among several actions (fewer where the game has fewer)."""
    choices = [step for step, n in enumerate(legal) if n > 1]
    if len(choices) <= SEARCHES:
        return choices
    picks = [choices[round(i * (len(choices) - 1) / (SEARCHES - 1))] for i in range(SEARCHES)]
    return sorted(set(picks))


def searched(
    game: GameDef, case: Mapping[str, Any], actions: Sequence[str], step: int, who: str = READABLE
) -> list[list[Any]]:
    """`pnp.play.mcts.MctsBot`'s root visits at `step` of the recorded game (before its action):
    `SEARCH_BUDGET` playouts (as the engine sizes the decision), the engine's horizon,
    exploration and scoring, from a generator seeded by the case's seed and the step;
    each root action by name, in the order the search first tried them."""
    _, state = start(game, case, random.Random(case["seed"]))
    walk(state, actions[:step], f"{who}, {label(case)}")
    engine = engine_of(game)
    bot = MctsBot(
        SEARCH_BUDGET,
        cooperative=engine.COOPERATIVE,
        playout_turns=playout_turns(engine, PLAYOUT_TURNS),
        exploration=mcts_exploration(engine, EXPLORATION),
        sizing=mcts_sizing(engine),
    )
    visits = bot.search(state, random.Random(f"{case['seed']}:search:{step}"))
    return [[state.action_str(a), n] for a, n in visits.items()]


def same_end(who: str, case: Mapping[str, Any], got: tuple, want: Mapping[str, Any]) -> None:
    """`got` (end, winners, turns, scores, counters) is the recorded ending, or a
    `Mismatch`. The counters the data records are compared (a whole game's record may
    add the forward model's own, such as its decisions)."""
    end, winners, turns, scores, counters = got
    mine = (end, list(winners), turns, list(scores))
    theirs = (want["end"], list(want["winners"]), want["turns"], list(want["scores"]))
    if mine != theirs:
        raise Mismatch(
            f"{who}, {label(case)}: ended (end, winners, turns, scores) {mine}, recorded {theirs}"
        )
    recorded: Mapping[str, int] = want.get("counters") or {}
    differ = sorted(k for k in recorded if counters.get(k) != recorded[k])
    if differ:
        raise Mismatch(
            f"{who}, {label(case)}: ended with counters "
            + ", ".join(f"{k} {counters.get(k)} (recorded {recorded.get(k)})" for k in differ)
        )


def replay(game: GameDef, entry: Mapping[str, Any], who: str = READABLE) -> None:
    """Replay a recorded game through the State API, raising `Mismatch` at the first step
    whose legal count, action, turn or standing differs, or at a different ending."""
    where = f"{who}, {label(entry)}"
    _, state = start(game, entry, random.Random(entry["seed"]))
    standings = entry.get("standings") or repeat(None)
    ends = iter(zip(entry.get("turn_ends", []), standings, strict=False))
    next_end = next(ends, None)
    for step, (text, legal) in enumerate(zip(entry["actions"], entry["legal"], strict=True)):
        player = state.current_player()
        if player == TERMINAL:
            raise Mismatch(f"{where}, step {step}: the game is over before {text}")
        if player != CHANCE and len(state.legal_actions()) != legal:
            raise Mismatch(
                f"{where}, step {step}: {len(state.legal_actions())} legal actions, "
                f"recorded {legal}"
            )
        turns = state.turns
        state.apply(find_action(state, text, f"{where}, step {step}"))
        if "turn_ends" not in entry:
            continue
        ended = state.turns != turns
        recorded = next_end is not None and next_end[0] == step
        if ended != recorded:
            said = "ended a turn" if ended else "did not end a turn"
            raise Mismatch(f"{where}, step {step}: {said}, recorded the other")
        if recorded:
            assert next_end is not None
            want = next_end[1]
            if want is not None:
                got = [exact(v) for v in state.standing()]  # type: ignore[attr-defined]
                if got != want:
                    raise Mismatch(f"{where}, step {step}: standing {got}, recorded {want}")
            next_end = next(ends, None)
    outcome, final = state.outcome(), state.record()
    if outcome is None:
        raise Mismatch(f"{where}: not over after the recorded actions")
    ending = (outcome.end, outcome.winners, final.turns, final.scores, final.counters)
    same_end(who, entry, ending, entry)


def check_searches(game: GameDef, entry: Mapping[str, Any], who: str = READABLE) -> None:
    """The tree search makes the recorded root visits at each recorded decision."""
    for step, want in entry.get("searches", []):
        got = searched(game, entry, entry["actions"], step, who)
        if got != want:
            raise Mismatch(
                f"{who}, {label(entry)}, step {step}: the search's root visits {got}, "
                f"recorded {want}"
            )


def check_play_one(game: GameDef, entry: Mapping[str, Any], who: str = FAST) -> None:
    """`engine.play_one` with the entry's seed ends the recorded game the same way."""
    model, options = model_of(game, entry), dict(entry.get("options", {}))
    rng = random.Random(entry["seed"])
    got = engine_of(game).play_one(model, entry["players"], entry["bot"], rng, **options)
    same_end(who, entry, (got.end, got.winners, got.turns, got.scores, got.counters), entry)


def check_bots(game: GameDef, entry: Mapping[str, Any]) -> None:
    """The readable rules played by the game's bots (`pnp.play.forward.play`) make the recorded
    choices: the first step that differs is named."""
    who = f"{READABLE} with the {entry['bot']} bot"
    got = played_game(game, case_of(entry)).as_json()
    for step, (mine, theirs) in enumerate(zip(got["actions"], entry["actions"], strict=False)):
        if mine != theirs:
            raise Mismatch(f"{who}, {label(entry)}, step {step}: played {mine}, recorded {theirs}")
    if len(got["actions"]) != len(entry["actions"]):
        raise Mismatch(
            f"{who}, {label(entry)}: {len(got['actions'])} steps, recorded {len(entry['actions'])}"
        )
    ending = ("end", "winners", "turns", "scores", "counters")
    same_end(who, entry, tuple(got[k] for k in ending), entry)


def check_perft(game: GameDef, case: Mapping[str, Any]) -> None:
    """The readable rules count the recorded perft nodes from the case's position."""
    nodes = perft(perft_position(game, case), case["depth"])
    if nodes != case["nodes"]:
        raise Mismatch(f"{READABLE}, perft {label(case)}: {nodes} paths, recorded {case['nodes']}")


def perft_position(game: GameDef, case: Mapping[str, Any]) -> State[Any]:
    """A perft case's position: its start (seeded set-up) with its prefix played."""
    _, state = start(game, case, random.Random(case["seed"]))
    return walk(state, case.get("prefix", []), f"{READABLE}, perft {label(case)}")


def count_perft(game: GameDef, case: Mapping[str, Any]) -> Case:
    """A perft case with its node count filled in."""
    return {**case_of(case), "nodes": perft(perft_position(game, case), case["depth"])}


def case_of(entry: Mapping[str, Any]) -> Case:
    """An entry without its results: what regenerating it starts from."""
    return {k: v for k, v in entry.items() if k not in (*RESULTS, "nodes")}


def make_data(game: GameDef, cases: Mapping[str, Sequence[Mapping[str, Any]]]) -> Case:
    """A game's whole data file from its cases (the games and perft positions to keep)."""
    return {
        "game": game.slug,
        "games": [record_game(game, c) for c in cases.get("games", [])],
        "perft": [count_perft(game, c) for c in cases.get("perft", [])],
    }


def default_games(game: GameDef) -> list[Case]:
    """A new game's recorded games: each player count (to 4), each bot, two seeds."""
    engine = engine_of(game)
    counts = range(engine.MIN_PLAYERS, min(engine.MAX_PLAYERS, 4) + 1)
    return [
        {
            "config": {},
            "players": n,
            "bot": bot,
            "options": {},
            "seed": f"{game.slug}:{bot}:{n}:{k}",
        }
        for n in counts
        for bot in engine.BOTS
        for k in range(2)
    ]


def default_perft(game: GameDef) -> Case:
    """A new game's perft case: at the start, as deep as 3 while the count stays under
    `PERFT_NODES`."""
    at: Case = {"config": {}, "players": engine_of(game).DEFAULT_PLAYERS, "options": {}}
    at |= {"seed": f"{game.slug}:perft", "prefix": []}
    depth = 1
    for d in (2, 3):
        if perft(perft_position(game, at), d) > PERFT_NODES:
            break
        depth = d
    return {**at, "depth": depth}


def default_cases(game: GameDef) -> dict[str, list[Case]]:
    """A new game's cases: `default_games` and `default_perft`."""
    return {"games": default_games(game), "perft": [default_perft(game)]}


def regenerate(game: GameDef, old: Mapping[str, Any] | None) -> Case:
    """The data file rewritten from the cases already in `old` (or the default cases).
    Cases the engine no longer plays (a player count or bot it dropped) are left out, and
    a player count or bot no case has any more (one it gained) gets the default cases."""
    if old is None:
        data = make_data(game, default_cases(game))
        if len(dumps(data)) > MAX_BYTES:  # long games: keep the shortest of each pair
            short: dict[tuple[int, str], Case] = {}
            for g in data["games"]:
                kept = short.setdefault((g["players"], g["bot"]), g)
                if len(g["actions"]) < len(kept["actions"]):
                    short[g["players"], g["bot"]] = g
            data["games"] = list(short.values())
        return data
    engine = engine_of(game)
    cases = {
        key: [case_of(e) for e in old.get(key, []) if plays(engine, e)]
        for key in ("games", "perft")
    }
    players = {c["players"] for c in cases["games"]}
    bots = {c["bot"] for c in cases["games"]}
    default = default_games(game)
    cases["games"] += [c for c in default if c["players"] not in players or c["bot"] not in bots]
    if not cases["perft"]:
        cases["perft"] = [default_perft(game)]
    return make_data(game, cases)


def plays(engine: Engine, case: Mapping[str, Any]) -> bool:
    """The engine still plays this case: its player count is in range, its bot one of the
    engine's (after a change of either, the cases it no longer plays are dropped)."""
    in_range = engine.MIN_PLAYERS <= case["players"] <= engine.MAX_PLAYERS
    return in_range and case.get("bot", engine.BOTS[0]) in engine.BOTS


LINE = 96
"""A list of lists that fits in this many characters is written on one line."""


def dumps(data: Any, indent: str = "") -> str:
    """JSON with every list of plain values on one line, and a short list of lists too (a
    recorded search): a game is a few lines to scan."""
    inner = indent + " "
    if isinstance(data, dict) and data:
        items = [f"{inner}{json.dumps(k)}: {dumps(v, inner)}" for k, v in data.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    flat = json.dumps(data, ensure_ascii=False)
    nested = isinstance(data, list) and any(isinstance(v, dict) for v in data)
    if isinstance(data, list) and not nested and len(indent) + len(flat) <= LINE:
        return flat
    if isinstance(data, list) and any(isinstance(v, dict | list) for v in data):
        return "[\n" + ",\n".join(inner + dumps(v, inner) for v in data) + "\n" + indent + "]"
    return json.dumps(data, ensure_ascii=False)


def line_str(state: State[A], line: Sequence[A]) -> list[str]:
    """A line of actions from `state` in the game's notation (the state is left unchanged)."""
    walk_on, out = state.clone(), []
    for action in line:
        out.append(walk_on.action_str(action))
        walk_on.apply(action)
    return out
