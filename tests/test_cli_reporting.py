"""What the command line says beside the figures: game options in `list` and `simulate
--help`, plain progress lines off a terminal, and `check --verbose`."""

from __future__ import annotations

import json

import pytest
from cli_run import run

from pnp.runtime import progress


@pytest.fixture
def wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("NO_COLOR", "1")


def test_list_and_simulate_help_name_each_games_options(capsys, wide):
    code, out, _ = run(capsys, "list")
    assert code == 0
    assert "simulate --two-colours" in out and "--rules seed|standard (default seed)" in out
    code, out, _ = run(capsys, "simulate", "--help")
    assert code == 0
    assert "--reach overlap|half" in out and "--two-colours" in out and "parcheesi:" in out


def test_plain_progress_goes_to_stderr_never_into_the_json(capsys, wide, monkeypatch):
    monkeypatch.setattr(progress, "EVERY", 0.0)  # a line at every report of progress
    argv = ("simulate", "exploding-dice", "--games", "40", "--jobs", "1", "--json", "-")
    code, out, err = run(capsys, *argv)  # stderr is not a terminal here: plain by default
    assert code == 0
    json.loads(out)  # stdout holds the JSON object alone
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert lines and all(ln.startswith("exploding-dice: ") for ln in lines)
    assert lines[-1] == "exploding-dice: 40 of 40 games\u2026"
    code, out, err = run(capsys, *argv, "--progress", "none")
    assert code == 0 and err == "" and json.loads(out)["games"] == 40


def test_no_progress_inside_json_written_to_stderr(capsys, wide, monkeypatch, tmp_path):
    monkeypatch.setattr(progress, "EVERY", 0.0)
    # the file stands for /dev/stderr: pnp takes it for its standard error
    monkeypatch.setattr("pnp.cli.simulate.stream_named", lambda name: 2)
    argv = ("simulate", "exploding-dice", "--games", "40", "--jobs", "1", "--progress", "plain")
    code, _, err = run(capsys, *argv, "--json", str(tmp_path / "s.json"))
    assert code == 0 and "games\u2026" not in err


def test_an_unknown_progress_mode_is_one_line(capsys, wide):
    code, _, err = run(capsys, "simulate", "exploding-dice", "--progress", "loud")
    assert code == 2 and err.strip().startswith("error: --progress must be one of")


def test_the_table_shows_intervals_and_the_verdict(capsys, wide):
    code, out, _ = run(capsys, "simulate", "exploding-dice", "--games", "60", "--jobs", "1")
    assert code == 0
    assert "\u00b1" in out and "first-player advantage?" in out and "seats differ?" in out


@pytest.mark.slow
def test_check_verbose_lists_what_it_verified(capsys, wide):
    code, plain, _ = run(capsys, "check", "exploding-dice", "--paper", "a4")
    assert code == 0 and "ok " not in plain
    code, verbose, _ = run(capsys, "check", "exploding-dice", "--paper", "a4", "--verbose")
    assert code == 0
    ok = [ln for ln in verbose.splitlines() if ln.startswith("ok ")]
    assert [ln.split(":")[0].split()[-1] for ln in ok] == ["parts", "lines", "outlines"]
    assert "the smallest side 6.0 mm" in verbose and "the lowest contrast" in verbose
    assert verbose.replace("\n".join(ok) + "\n", "") == plain  # the default lines unchanged
