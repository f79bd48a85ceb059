"""`pnp params` marks the keys the rules read (the ones a sweep or a tune may vary), and
`pnp tune --help` reads whole on an 80-column terminal."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from pnp.contract.gamedef import rule_keys
from pnp.games import get_game


def _pnp(*args: str, columns: int) -> str:
    env = {**os.environ, "COLUMNS": str(columns), "NO_COLOR": "1", "TERM": "dumb"}
    done = subprocess.run(
        [sys.executable, "-m", "pnp.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("game", ["exploding-dice", "home-in-one-piece"])
def test_params_marks_exactly_the_keys_the_rules_read(game):
    table = _pnp("params", game, columns=200)
    marked, unmarked = set(), set()
    for line in table.splitlines():
        cells = [c.strip() for c in line.split("│")[1:-1]]
        if len(cells) == 5 and cells[0] and cells[0] != "key":
            (marked if cells[4] == "yes" else unmarked).add(cells[0])
    read = set(rule_keys(get_game(game)))
    assert marked == read
    assert unmarked and not unmarked & read
    assert "die_size" in unmarked or game != "exploding-dice"


@pytest.mark.slow
@pytest.mark.parametrize("command", [("tune", "--help"), ("params", "exploding-dice")])
def test_help_and_tables_read_whole_at_80_columns(command):
    text = _pnp(*command, columns=80)
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= 80
