"""The config a tune saves replays its answer: the seat count is one of its keys, and the
`pnp simulate` line it names plays the best setting's evidence again, game for game."""

from __future__ import annotations

import json
import shlex
import tomllib

import pytest
from cli_run import run
from tune_toy import GAME as ONES

from pnp.games import registered
from pnp.tune import plan_tune, run_tune

pytest.importorskip("optuna")


@pytest.fixture
def ones():
    with registered(ONES):
        yield


def _replay_line(config: str) -> list[str]:
    (line,) = [ln for ln in config.splitlines() if "pnp simulate" in ln]
    return shlex.split(line.split("pnp ", 1)[1])


def test_a_saved_config_replays_the_answer_players_included(ones, capsys, tmp_path):
    # neither seat count is the game's default (2), which a config without one would play
    over = ["players=3,4", "sides=4..8:2"]
    setup, dims, budget = plan_tune("ones", ["turns in 3.5..6.5"], over, budget="3000games", seed=5)
    tuned = run_tune(setup, dims, budget, check_kits=False)
    best = tuned.json["best"]
    assert tuned.config is not None and best["players"] in (3, 4)
    saved = tmp_path / "saved.toml"
    saved.write_text(tuned.config)
    assert tomllib.loads(tuned.config) == best  # every key of the answer, as config keys

    args = [str(saved) if a == "FILE" else a for a in _replay_line(tuned.config)]
    code, out, _ = run(capsys, *args, "--jobs", "1", "--json", "-", "--progress", "none")
    assert code == 0
    replayed = json.loads(out)
    assert replayed["players"] == best["players"]
    assert replayed["params"]["sides"] == best["sides"]
    evidence = tuned.json["recommended"][0]
    assert evidence["setting"] == best
    (turns,) = evidence["targets"]
    assert replayed["games"] == turns["games"]
    assert replayed["metrics"]["duration_turns"]["mean"] == turns["value"]
    assert replayed["metrics"]["duration_turns"]["ci"] == turns["ci"]


def test_an_explicit_players_wins_over_the_configs(ones, capsys, tmp_path):
    saved = tmp_path / "saved.toml"
    saved.write_text("players = 3\nsides = 6\n")
    common = ("--games", "20", "--jobs", "1", "--json", "-", "--progress", "none")
    code, out, _ = run(capsys, "simulate", "ones", "--config", str(saved), *common)
    assert code == 0 and json.loads(out)["players"] == 3
    code, out, _ = run(
        capsys, "simulate", "ones", "--config", str(saved), "--players", "4", *common
    )
    assert code == 0 and json.loads(out)["players"] == 4


def test_a_tune_around_a_saved_config_keeps_its_players(ones, tmp_path):
    """Without --players or --over players, the config's seat count is fixed: it is not
    searched, and the saved answer keeps it and the config's other keys."""
    saved = tmp_path / "saved.toml"
    saved.write_text("players = 3\nhits = 2\n")
    setup, dims, budget = plan_tune(
        "ones", ["turns in 2..4"], ["sides=4..8:2"], budget="600games", config=saved
    )
    assert setup.players == 3 and [d.key for d in dims] == ["sides"]
    tuned = run_tune(setup, dims, budget, check_kits=False)
    again = tomllib.loads(tuned.config or "")
    assert again == {"players": 3, "hits": 2, "sides": tuned.json["best"]["sides"]}
    setup, dims, _ = plan_tune("ones", ["turns in 3.5..6.5"], config=saved)
    assert setup.players == 3 and "players" not in [d.key for d in dims]
    setup, dims, _ = plan_tune("ones", ["turns in 3.5..6.5"], ["players"], config=saved)
    assert setup.players is None and [d.key for d in dims] == ["players"]
