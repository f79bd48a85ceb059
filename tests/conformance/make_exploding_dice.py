"""Write `exploding-dice.json`: recorded games and perft counts of the readable rules.

Run from the repository root when the rules change on purpose (never by the tests):

    .venv/bin/python tests/conformance/make_exploding_dice.py

Each game is played by `pnp.forward.play` on `engine.new_state`, with one generator for
the deal and the play, as `engine.play_one` uses it; so the fast path must end each game
the same way for the same seed. The seeds were picked to cover every ending and the rare
turns: blind draws among unequal dice, a redraw, the first die going in with the
restriction lifted, a stall.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from pnp.conformance import Recorded, perft
from pnp.forward import play
from pnp.games.exploding_dice import engine
from pnp.games.exploding_dice.params import ExplodingDiceParams, PlayModel, play_model
from pnp.games.exploding_dice.rules import State
from pnp.params import apply_values
from pnp.state import CHANCE
from pnp.state import State as AnyState

OUT = Path(__file__).with_name("exploding-dice.json")

KITS: dict[str, dict[str, Any]] = {
    "default": {},
    "skip": {"stall": "skip", "faces": {"red": [1, 1, 2, 2, 3, 3]}},
    "per-die": {
        "dice_per_colour": 3,
        "faces": {"green": [[1, 2, 3, 4, 5, 6], [2, 2, 2, 2, 2, 2], [1, 1, 1, 6, 6, 6]]},
    },
    "pinwheel-4": {"arrows": "pinwheel"},
    "pinwheel-6": {"n": 6, "arrows": "pinwheel", "dice_per_colour": 9},
}

# (kit, players, bot, two colours each, seed): what each game shows
GAMES: list[tuple[str, int, str, bool, str]] = [
    ("default", 2, "random", False, "default:2:random:17"),
    ("default", 3, "greedy", False, "default:3:greedy:56"),  # ends full
    ("default", 4, "random", False, "default:4:random:28"),
    ("default", 4, "greedy", False, "default:4:greedy:29"),
    ("default", 2, "random", True, "two:random:1"),
    ("default", 2, "greedy", True, "two:greedy:1"),
    ("skip", 2, "greedy", False, "skip:2:greedy:47"),  # stalled
    ("skip", 3, "random", False, "skip:3:random:41"),
    ("per-die", 2, "random", False, "per-die:2:random:18"),  # blind draws; reserve
    ("per-die", 4, "greedy", False, "per-die:4:greedy:12"),
    ("pinwheel-6", 3, "random", False, "pinwheel-6:3:random:20"),  # a redraw
    ("pinwheel-4", 2, "random", False, "pin4:2:random:80"),  # restriction lifted
    ("pinwheel-4", 4, "greedy", False, "pin4:4:greedy:172"),  # restriction lifted
]

# (game index, steps of it played, depth): perft counts at depths 1..depth from there
PERFT: list[tuple[int, int, int]] = [
    (2, 0, 7),  # the start, four players
    (0, 0, 6),  # the start, two players
    (1, 40, 6),  # mid-game, three players
    (8, 5, 5),  # per-die kit: a blind draw among three green dice
    (10, 24, 6),  # 6 x 6 pinwheel: the turn of a redraw
    (12, 48, 7),  # 4 x 4 pinwheel: redraws, then the first die with the restriction lifted
]


def model_of(kit: str) -> PlayModel:
    return play_model(apply_values(ExplodingDiceParams(), KITS[kit]))


def start(game: dict[str, Any]) -> State:
    """The recorded game's first position: the deal its seed makes."""
    model = model_of(game["kit"])
    rng = random.Random(game["seed"])
    return engine.new_state(model, game["players"], rng, game["two_colours"])


def record(kit: str, players: int, bot: str, two: bool, seed: str) -> dict[str, Any]:
    """One game and every step of it (`pnp.conformance.record_game`, with the deal drawn
    from the same generator as the play)."""
    model = model_of(kit)
    rng = random.Random(seed)
    state = engine.new_state(model, players, rng, two)
    rec = Recorded(seed)

    def keep(s: AnyState[int], action: int) -> None:
        rec.actions.append(s.action_str(action))
        rec.legal.append(0 if s.current_player() == CHANCE else len(s.legal_actions()))

    play(state, engine.make_bot(bot, model), rng, on_step=keep)
    outcome = state.outcome()
    assert outcome is not None
    rec.end, rec.winners = outcome.end, list(outcome.winners)
    rec.turns, rec.scores = state.turns, list(state.record().scores)
    meta = {"kit": kit, "players": players, "bot": bot, "two_colours": two}
    return meta | rec.as_json()


def walk(state: State, actions: list[str]) -> State:
    """`state` after `actions`, given in the game's notation."""
    for text in actions:
        options = (
            [a for a, _ in state.chance_outcomes()]
            if state.current_player() == CHANCE
            else state.legal_actions()
        )
        state.apply({state.action_str(a): a for a in options}[text])
    return state


def main() -> None:
    games = [record(*g) for g in GAMES]
    positions = []
    for index, steps, depth in PERFT:
        state = walk(start(games[index]), games[index]["actions"][:steps])
        assert not state.is_terminal(), "a perft position must be in play"
        counts = [perft(state, d) for d in range(1, depth + 1)]
        positions.append({"game": index, "steps": steps, "counts": counts})
    data = {"game": "exploding-dice", "kits": KITS, "games": games, "perft": positions}
    text = json.dumps(data, indent=1)
    # every list of plain values on one line: a game is a few lines a reviewer can scan
    text = re.sub(r"\[\s+([^\[\]{}]*?)\s+\]", lambda m: f"[{' '.join(m[1].split())}]", text)
    OUT.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
