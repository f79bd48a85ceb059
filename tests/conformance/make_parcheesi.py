"""Write `parcheesi.json`: recorded games and perft counts of Parcheesi's readable rules.

Run from the repository root when the rules change on purpose (never by the tests):

    .venv/bin/python tests/conformance/make_parcheesi.py

Each game is played by `pnp.forward.play` on `engine.new_state` with the generator
`engine.play_one` would get for its seed, so the compiled kernel must end each game the
same way. The games cover both bots, two to four players, both rule sets, captures, a
penalised third double, a timeout-free finish (no seed reaches 1000 turns). A perft
position is the position a number of steps into a recorded game: counts at depths
1..depth, a seat's choice or a roll of the dice being one step.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from pnp.conformance import perft, record_game
from pnp.games.parcheesi import engine
from pnp.games.parcheesi.model import PlayModel
from pnp.games.parcheesi.params import ParcheesiParams
from pnp.games.parcheesi.state import State
from pnp.state import CHANCE

OUT = Path(__file__).with_name("parcheesi.json")

# (rules, players, bot, seed)
GAMES: list[tuple[str, int, str, str]] = [
    ("seed", 2, "random", "seed:2:random:1"),
    ("seed", 3, "greedy", "seed:3:greedy:1"),
    ("seed", 4, "random", "seed:4:random:1"),
    ("seed", 4, "greedy", "seed:4:greedy:1"),
    ("standard", 2, "greedy", "standard:2:greedy:4"),  # a third double, penalised
    ("standard", 4, "random", "standard:4:random:1"),  # a third double, penalised
]

# (game index, steps of it played, depth)
PERFT: list[tuple[int, int, int]] = [
    (2, 0, 4),  # the start, four players: a roll, a choice, a roll, a choice
    (0, 0, 4),  # the start, two players
    (1, 120, 3),  # mid-game, three players, at a roll
    (2, 201, 3),  # mid-game, four players, at a choice
    (5, 0, 3),  # the start, standard rules: a double rolls again
]


def model_of(rules: str) -> PlayModel:
    return engine.prepare(ParcheesiParams(), 2, rules=rules)


def start(game: dict[str, Any]) -> State:
    """A recorded game's first position (Parcheesi draws nothing before the first roll)."""
    return engine.new_state(model_of(game["rules"]), game["players"])


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


def record(rules: str, players: int, bot: str, seed: str) -> dict[str, Any]:
    """One game and every step of it."""
    model = model_of(rules)
    state = engine.new_state(model, players)
    rec = record_game(state, engine.make_bot(bot, model), seed)
    return {"rules": rules, "players": players, "bot": bot} | rec.as_json()


def main() -> None:
    games = [record(*g) for g in GAMES]
    positions = []
    for index, steps, depth in PERFT:
        state = walk(start(games[index]), games[index]["actions"][:steps])
        assert not state.is_terminal(), "a perft position must be in play"
        counts = [perft(state, d) for d in range(1, depth + 1)]
        positions.append({"game": index, "steps": steps, "counts": counts})
    data = {"game": "parcheesi", "games": games, "perft": positions}
    text = json.dumps(data, indent=1)
    # every list of plain values on one line: a game is a few lines a reviewer can scan
    text = re.sub(r"\[\s+([^\[\]{}]*?)\s+\]", lambda m: f"[{' '.join(m[1].split())}]", text)
    OUT.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
