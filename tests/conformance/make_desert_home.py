"""Write tests/conformance/desert-home.json: Desert Home games recorded on the readable
rules, and perft counts from fixed positions, which every implementation must reproduce
(tests/test_conformance_desert_home.py checks them; the tests never run this).

Run it by hand after a deliberate change of the rules, and review the diff:

    .venv/bin/python tests/conformance/make_desert_home.py

A game's set-up draws (the deck's shuffle) and its play draw from one generator seeded with
the game's seed, as `engine.play_one` and the kernel draw, so the kernel's game for that
seed is the recorded one.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))

from test_conformance_desert_home import model_of, walk  # noqa: E402

from pnp.conformance import Recorded, perft  # noqa: E402
from pnp.forward import play  # noqa: E402
from pnp.games.desert_home.bots import make_bot  # noqa: E402
from pnp.games.desert_home.state import State, new_state  # noqa: E402
from pnp.state import CHANCE  # noqa: E402

SHORTAGE = {"figures_per_colour": 4, "tents_per_colour": 1, "road_bonus": "compulsory"}
GAMES: list[tuple[dict[str, Any], str, str, int]] = [  # kit changes, bot, seed, round limit
    ({}, "random", "conformance:0", 8),
    ({}, "random", "conformance:1", 8),
    ({}, "greedy", "conformance:2", 300),
    ({"deck_safe": 4, "deck_thirst": 2}, "random", "conformance:3", 30),  # the deck ends
    (SHORTAGE, "greedy", "conformance:4", 30),
    ({"rows": 3, "path_columns": 3, "refuge_rows": [0, 2]}, "random", "conformance:5", 25),
]
PERFT: list[tuple[dict[str, Any], str, int, int]] = [  # kit changes, seed, steps, depth
    ({}, "perft:0", 0, 5),  # the start: seat 0's first dice
    ({}, "perft:1", 120, 4),
    ({}, "perft:2", 400, 4),
    (SHORTAGE, "perft:3", 300, 3),
]


def record(kit: dict[str, Any], bot: str, seed: str, max_rounds: int) -> Recorded:
    """`pnp.conformance.record_game`, with the set-up drawn from the game's own generator."""
    rng = random.Random(seed)
    state = new_state(model_of(kit), 2, rng, max_rounds)
    rec = Recorded(seed)

    def keep(s: State, action: tuple[int, ...]) -> None:
        rec.actions.append(s.action_str(action))
        rec.legal.append(0 if s.current_player() == CHANCE else len(s.legal_actions()))

    play(state, make_bot(bot), rng, on_step=keep)
    outcome = state.outcome()
    assert outcome is not None
    rec.end, rec.winners = outcome.end, list(outcome.winners)
    rec.turns, rec.scores = state.turns, list(state.record().scores)
    return rec


def main() -> None:
    data = {
        "games": [
            {
                "kit": kit,
                "bot": bot,
                "max_rounds": rounds,
                **record(kit, bot, seed, rounds).as_json(),
            }
            for kit, bot, seed, rounds in GAMES
        ],
        "perft": [
            {
                "kit": kit,
                "seed": seed,
                "steps": steps,
                "depth": depth,
                "count": perft(walk(model_of(kit), seed, steps), depth),
            }
            for kit, seed, steps, depth in PERFT
        ],
    }
    out = HERE / "desert-home.json"
    out.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"{out}: {out.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
