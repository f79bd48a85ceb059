"""Desert Home's two ways to play a random or greedy game: the compiled kernel when it is
built, else the readable rules, which say so once per process; either way the same record
for a seed."""

from __future__ import annotations

import random

import pytest
from kernels import without_compiler

from pnp.games.desert_home import engine
from pnp.games.desert_home.params import DesertHomeParams
from pnp.games.desert_home.rules.state import State
from pnp.runtime import notice

needs_kernel = pytest.mark.skipif(engine._kernel is None, reason="the kernel was not built")


@needs_kernel
@pytest.mark.parametrize(
    "changes",
    [{"rows": 2, "refuge_rows": (1, 0)}, {"rows": 3, "refuge_rows": (0, 2)}, {"rows": 15}],
    ids=["every-row-a-refuge", "refuges-on-the-edges", "tall"],
)
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_boards_of_every_shape_play_the_readable_games_in_the_kernel(changes, bot):
    model = engine.prepare(DesertHomeParams(**changes), 2)
    for i in range(3):
        kernel = engine.play_one(model, 2, bot, f"5:{i}", max_rounds=60)
        assert kernel == engine.play_one(model, 2, bot, f"5:{i}", 60, reference=True)


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_without_the_kernel_the_readable_rules_play_the_same_games_and_say_so_once(
    bot, monkeypatch, capsys
):
    model = engine.prepare(DesertHomeParams(), 2)
    seeds = [f"6:{i}" for i in range(3)]
    built = [engine.play_one(model, 2, bot, random.Random(s), 40) for s in seeds]
    capsys.readouterr()
    monkeypatch.setattr(notice, "_said", set())  # a fresh process has not warned yet
    with without_compiler(State):  # as installed without a C compiler
        missing = [engine.play_one(model, 2, bot, random.Random(s), 40) for s in seeds]
        engine.warm(model)  # the runner's call before its workers start: nothing to build
    assert missing == built
    err = capsys.readouterr().err
    assert err.splitlines() == [engine.NO_KERNEL]
    assert err.startswith("warning: Desert Home's compiled kernel is not built")
