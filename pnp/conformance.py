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
                "turns": t, "scores": [...]}],
     "perft": [{"config": {...}, "players": n, "options": {...}, "seed": s,
                "prefix": [actions from the start], "depth": d, "nodes": N}]}

A case's ``options`` go to `new_state` and `play_one`; those the engine declares in
``OPTIONS`` (the ``pnp simulate`` options) go to `prepare` too. One ``random.Random(seed)``
draws the set-up and then the play, as `engine.play_one` draws. This module sits below the
games: it takes a `GameDef` and never imports the registry (`pnp.conformance_data` does,
to rewrite a game's file).
"""

from __future__ import annotations

import json
import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pnp.errors import PnpError
from pnp.forward import play
from pnp.gamedef import Engine, GameDef
from pnp.params import apply_values, validate_params
from pnp.state import CHANCE, TERMINAL, State

A = TypeVar("A", bound=Hashable)
Case = dict[str, Any]

RESULTS = ("actions", "legal", "end", "winners", "turns", "scores")
"""A recorded game's fields that `record_game` writes (the rest of an entry is its case)."""
READABLE = "readable rules"
FAST = "play_one (fast path or kernel)"
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

    def as_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in RESULTS}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Recorded:
        return cls(str(data["seed"]), **{k: data[k] for k in RESULTS})


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
    parse = getattr(state, "parse_action", None)
    if parse is not None:
        try:
            action: A = parse(text)
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
    return {**case_of(case), **rec.as_json()}


def same_end(who: str, case: Mapping[str, Any], got: tuple, want: Mapping[str, Any]) -> None:
    """`got` (end, winners, turns, scores) is the recorded ending, or a `Mismatch`."""
    end, winners, turns, scores = got
    mine = (end, list(winners), turns, list(scores))
    theirs = (want["end"], list(want["winners"]), want["turns"], list(want["scores"]))
    if mine != theirs:
        raise Mismatch(
            f"{who}, {label(case)}: ended (end, winners, turns, scores) {mine}, recorded {theirs}"
        )


def replay(game: GameDef, entry: Mapping[str, Any], who: str = READABLE) -> None:
    """Replay a recorded game through the State API, raising `Mismatch` at the first step
    whose legal count or action differs, or at a different ending."""
    where = f"{who}, {label(entry)}"
    _, state = start(game, entry, random.Random(entry["seed"]))
    for step, (text, legal) in enumerate(zip(entry["actions"], entry["legal"], strict=True)):
        player = state.current_player()
        if player == TERMINAL:
            raise Mismatch(f"{where}, step {step}: the game is over before {text}")
        if player != CHANCE and len(state.legal_actions()) != legal:
            raise Mismatch(
                f"{where}, step {step}: {len(state.legal_actions())} legal actions, "
                f"recorded {legal}"
            )
        state.apply(find_action(state, text, f"{where}, step {step}"))
    outcome, final = state.outcome(), state.record()
    if outcome is None:
        raise Mismatch(f"{where}: not over after the recorded actions")
    same_end(who, entry, (outcome.end, outcome.winners, final.turns, final.scores), entry)


def check_play_one(game: GameDef, entry: Mapping[str, Any], who: str = FAST) -> None:
    """`engine.play_one` with the entry's seed ends the recorded game the same way."""
    model, options = model_of(game, entry), dict(entry.get("options", {}))
    rng = random.Random(entry["seed"])
    got = engine_of(game).play_one(model, entry["players"], entry["bot"], rng, **options)
    same_end(who, entry, (got.end, got.winners, got.turns, got.scores), entry)


def check_bots(game: GameDef, entry: Mapping[str, Any]) -> None:
    """The readable rules played by the game's bots (`pnp.forward.play`) make the recorded
    choices: the first step that differs is named."""
    who = f"{READABLE} with the {entry['bot']} bot"
    got = record_game(game, case_of(entry))
    for step, (mine, theirs) in enumerate(zip(got["actions"], entry["actions"], strict=False)):
        if mine != theirs:
            raise Mismatch(f"{who}, {label(entry)}, step {step}: played {mine}, recorded {theirs}")
    if len(got["actions"]) != len(entry["actions"]):
        raise Mismatch(
            f"{who}, {label(entry)}: {len(got['actions'])} steps, recorded {len(entry['actions'])}"
        )
    same_end(who, entry, tuple(got[k] for k in ("end", "winners", "turns", "scores")), entry)


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


def dumps(data: Any, indent: str = "") -> str:
    """JSON with every list of plain values on one line: a game is a few lines to scan."""
    inner = indent + " "
    if isinstance(data, dict) and data:
        items = [f"{inner}{json.dumps(k)}: {dumps(v, inner)}" for k, v in data.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
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
