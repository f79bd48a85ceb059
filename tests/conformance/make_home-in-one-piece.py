"""Write tests/conformance/home-in-one-piece.json: recorded games and perft counts.

Run by hand after a deliberate rules change (never by the tests):

    .venv/bin/python tests/conformance/make_home-in-one-piece.py

Games are long on the printed kit, so the data uses a small one (two or three blobs a
player) and seeds whose games are short; every game is also what `engine.play_one` plays
for the same kit, reach, bot and seed. Perft counts the canonical sample of turns
(`legal_actions`) and the rolls, from the start and from a recorded game's middle.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from pnp.conformance import perft, record_game
from pnp.games.home_in_one_piece import engine
from pnp.games.home_in_one_piece.params import HomeInOnePieceParams
from pnp.games.home_in_one_piece.state import State, parse_action

SLUG = "home-in-one-piece"
OUT = Path(__file__).with_name(f"{SLUG}.json")
GAMES = (  # (blobs a player, reach, bot, seed): short games, both bots, both reaches
    (2, "overlap", "random", "conformance:random:8"),
    (2, "overlap", "random", "conformance:random:10"),
    (2, "overlap", "greedy", "conformance:greedy:0"),
    (2, "half", "greedy", "conformance:greedy:5"),
    (3, "overlap", "greedy", "conformance:greedy:9"),
)
PERFT = (  # (blobs a player, reach, from: game index or None for the start, steps, depth)
    (2, "overlap", None, 0, 6),
    (3, "overlap", None, 0, 5),
    (2, "overlap", 0, 20, 5),
    (3, "overlap", 4, 11, 4),
)


def kit(blobs: int, reach: str) -> Any:
    params = dataclasses.replace(HomeInOnePieceParams(), blobs_per_player=blobs)
    return engine.prepare(params, 2, reach=reach)


def position(blobs: int, reach: str, actions: list[str], steps: int) -> State:
    """The start of a small kit, with the first `steps` recorded actions played."""
    state = engine.new_state(kit(blobs, reach), 2)
    for text in actions[:steps]:
        state.apply(parse_action(text))
    return state


def main() -> None:
    games = []
    for blobs, reach, bot, seed in GAMES:
        model = kit(blobs, reach)
        rec = record_game(engine.new_state(model, 2), engine.make_bot(bot, model), seed)
        games.append({"blobs": blobs, "reach": reach, "bot": bot, "game": rec.as_json()})
    counts = []
    for blobs, reach, source, steps, depth in PERFT:
        actions = [] if source is None else games[source]["game"]["actions"]
        state = position(blobs, reach, actions, steps)
        counts.append(
            {
                "blobs": blobs,
                "reach": reach,
                "game": source,
                "steps": steps,
                "depth": depth,
                "paths": perft(state, depth),
            }
        )
    data = {"game": SLUG, "games": games, "perft": counts}
    OUT.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({OUT.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
