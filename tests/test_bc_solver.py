"""Building Community solver: its lines replay with the reference rules; its verdicts."""

from __future__ import annotations

import io
import os
import random
import resource
import subprocess
import sys

import pytest
from cli_run import bad_config_error, one_error_line, run
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.games.building_community import engine, rules
from pnp.games.building_community.fast import solver
from pnp.games.building_community.fast.bitboard import fast_board
from pnp.games.building_community.kit import checks as bc_checks
from pnp.games.building_community.params import (
    MAX_SOLVER_BUDGET,
    STORED_POSITIONS,
    BuildingCommunityParams,
)
from pnp.games.building_community.rules.model import play_model
from pnp.reference import conformance
from pnp.runtime import progress


def replays_to_a_win(model, players: int, line) -> bool:
    state = rules.replay(model, players, list(line))
    return state.ended is rules.End.WIN and state.turns == len(line)


def test_radius_2_two_players_wins_in_six_turns_at_best():
    model = play_model(BuildingCommunityParams(radius=2))
    result = solver.solve(model, 2, 2_000_000)
    assert result.result == "win" and result.shortest
    assert result.length == 6
    assert replays_to_a_win(model, 2, result.line)
    assert result.start == rules.start_json(model, 2)
    assert result.info == {"radius": 2, "players": 2, "scope": "near"}
    assert 0 < result.nodes <= 2_000_000


def test_a_small_budget_still_finds_a_line_on_the_default_board():
    model = play_model(BuildingCommunityParams())
    result = solver.solve(model, 2, 3_000)
    assert result.result == "win" and not result.shortest
    assert replays_to_a_win(model, 2, result.line)
    assert all(set(turn) in ({"pawn", "swap", "to"}, {"pawn", "pass"}) for turn in result.line)


def test_a_budget_too_small_for_any_line_says_unknown():
    model = play_model(BuildingCommunityParams())
    result = solver.solve(model, 2, 10)
    assert result.result == "unknown" and result.line == () and result.length is None
    assert not result.shortest
    assert result.start["pawns"] == [[2, 0], [-2, 0]]


def test_a_position_nobody_can_move_from_is_no_win():
    """Two pawns that can only pass: the search runs out of positions."""
    model = play_model(BuildingCommunityParams(radius=2))
    picture = ["Y R R", "Y B B R", "Y Y R R Y", "R Y B B", "R Y B"]  # tests/test_bc_rules BLOCKED
    tiles = ["RBY".index(c) for row in picture for c in row.split()]
    search = solver._Search(fast_board(model), 2, 1_000)
    t = search.t
    masks = [0, 0, 0]
    for cell, colour in enumerate(tiles):
        masks[colour] |= 1 << t.bit_of[cell]
    pawns = (t.bit_of[model.index((0, 0))], t.bit_of[model.index((2, 0))])
    search.start = search.encode(masks[0], masks[1], pawns, 0)
    search.start_left = t.isolated(*masks).bit_count()
    line, complete = search.best_first(0, True, None, 1_000)
    assert line is None and complete
    assert search.nodes == 2  # a pass each, then the first position again


@settings(max_examples=20, deadline=None)
@given(st.sampled_from([2, 3]), st.integers(2, 6), st.integers(0, 2**32))
def test_keys_decode_to_what_was_encoded(radius, players, seed):
    model = play_model(BuildingCommunityParams(radius=radius))
    search = solver._Search(fast_board(model), players, 0)
    rng = random.Random(seed)
    m0, m1 = rng.getrandbits(search.S), rng.getrandbits(search.S)
    pawns = [search.t.bit_of[c] for c in rng.sample(range(model.size), players)]
    k = rng.randrange(players)
    assert search.decode(search.encode(m0, m1, tuple(pawns), k)) == (m0, m1, pawns, k)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([2, 3]), st.data())
def test_one_swap_joins_up_at_most_six_isolated_tiles(radius, data):
    """The bound the shortest-line proof rests on, over arbitrary colourings."""
    model = play_model(BuildingCommunityParams(radius=radius))
    tiles = data.draw(st.lists(st.integers(0, 2), min_size=model.size, max_size=model.size))
    before = len(rules.isolated_cells(model, tiles))
    for a in range(model.size):
        for b in model.neighbours[a]:
            after = len(rules.isolated_cells(model, rules.swapped(tiles, (a, b))))
            assert before - after <= solver.MAX_DROP


def test_lines_of_every_player_count_replay_on_radius_2():
    model = play_model(BuildingCommunityParams(radius=2))
    for players in range(3, 7):
        result = solver.solve(model, players, 20_000)
        assert result.result == "win"
        assert replays_to_a_win(model, players, result.line)
        assert [t["pawn"] for t in result.line] == [i % players for i in range(result.length)]


def test_anywhere_scope_lines_replay_too():
    model = play_model(BuildingCommunityParams(radius=2, scope="anywhere"))
    result = solver.solve(model, 3, 20_000)
    assert result.result == "win" and result.info["scope"] == "anywhere"
    assert replays_to_a_win(model, 3, result.line)


@pytest.mark.parametrize("players", [2, 3])
def test_the_solvers_line_replays_to_a_win_through_the_state_api(players):
    """The line, turned into actions, walks the game-state API (`engine.new_state`) to a
    win by every seat in as many turns as it has."""
    model = play_model(BuildingCommunityParams(radius=2))
    result = solver.solve(model, players, 20_000)
    assert result.result == "win"
    actions = [rules.turn_from_json(model, turn) for turn in result.line]
    state = engine.new_state(model, players)
    conformance.walk(state, conformance.line_str(state, actions))
    outcome = state.outcome()
    assert outcome is not None and outcome.finished
    assert outcome.winners == tuple(range(players)) and state.turns == len(result.line)


# --- bounded memory and progress -----------------------------------------------------------


def test_the_search_reports_its_progress_as_it_goes():
    model = play_model(BuildingCommunityParams(radius=5))
    calls: list[tuple[int, int]] = []
    result = solver.solve(model, 2, 100_000, lambda nodes, budget: calls.append((nodes, budget)))
    assert len(calls) >= 100_000 // solver.REPORT_EVERY - 1
    assert all(budget == 100_000 for _, budget in calls)
    nodes = [n for n, _ in calls]
    assert nodes == sorted(nodes) and nodes[-1] <= result.nodes
    assert all(b - a >= solver.REPORT_EVERY for a, b in zip(nodes, nodes[1:], strict=False))


def test_the_budget_is_capped_and_the_stored_positions_where_the_memory_is_known():
    """`--budget` and `solver_budget` share one cap (time); the phases that store
    positions stop at STORED_POSITIONS whatever the budget (memory)."""
    assert solver.MAX_BUDGET == MAX_SOLVER_BUDGET == 10_000_000_000
    assert STORED_POSITIONS * solver.BYTES_PER_NODE <= 2 * 1024**3


def test_the_storing_phases_stop_at_their_cap(monkeypatch):
    """A budget above STORED_POSITIONS does not let the Python phases store more."""
    monkeypatch.setattr(solver, "STORED_POSITIONS", 5_000)
    model = play_model(BuildingCommunityParams(radius=5))  # beyond the compiled proof
    result = solver.solve(model, 2, 1_000_000)
    assert result.nodes < 5_000 + 200  # the last expansion's children may pass the cap


def test_a_budget_above_the_cap_is_one_line(capsys, tmp_path):
    for budget in (str(solver.MAX_BUDGET + 1), "100000000000"):
        code, out, err = run(capsys, "solve", "building-community", "--budget", budget)
        assert code == 2 and not out
        assert "--budget must be from 1 to 10,000,000,000 nodes" in one_error_line(err)
    toml = f"solver_budget = {solver.MAX_BUDGET + 1}"
    config_error = bad_config_error(capsys, tmp_path, "check", "building-community", toml)
    assert "'solver_budget' must be from 1 to 10000000000" in config_error


def test_a_long_check_says_what_it_is_doing(monkeypatch, capsys):
    """With a large solver_budget the layout check prints progress lines on stderr; the
    default budget's check stays silent. (Lines are due every EVERY seconds: 0 here.)"""
    monkeypatch.setattr(progress, "EVERY", 0.0)
    model = play_model(BuildingCommunityParams(radius=6))
    bc_checks.check_solvable(model, 3, 70_001)
    lines = capsys.readouterr().err.splitlines()
    assert lines and all(
        line.startswith("building-community: solving the start for 3 players: ") for line in lines
    )
    assert lines[0].endswith(f"{solver.REPORT_EVERY:,} of 70,001 positions\u2026")


def test_a_quick_check_prints_nothing(capsys):
    model = play_model(BuildingCommunityParams())
    bc_checks.check_solvable(model, 2, 20_001)
    assert capsys.readouterr().err == ""


def test_the_ticker_waits_before_its_first_line():
    out = io.StringIO()
    tick = progress.Ticker("job", "things", every=3600.0, stream=out)
    tick(5, 10)
    assert out.getvalue() == ""
    now = progress.Ticker("job", "things", every=0.0, stream=out)
    now(5, 10)
    assert out.getvalue() == "job: 5 of 10 things\u2026\n"


MEMORY_CAP = 200 * 1024**2
"""Bytes of address space: pnp starts (it needs under 120 MB here) and the search soon
runs out (10,000,000 stored positions cannot fit); the less room, the sooner."""
BEYOND_THE_PROOF = "radius = 5\n"  # a board the compiled proof does not take: positions are stored


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def _pnp_capped(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "pnp.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        preexec_fn=_capped,
        timeout=600,
    )


@pytest.mark.slow
def test_running_out_of_memory_in_solve_is_one_line(tmp_path):
    config = tmp_path / "kit.toml"
    config.write_text(BEYOND_THE_PROOF)
    budget = str(STORED_POSITIONS)
    r = _pnp_capped("solve", "building-community", "--budget", budget, "--config", str(config))
    assert r.returncode == 1, r.stderr[-2000:]
    assert "Traceback" not in r.stderr
    errors = [ln for ln in r.stderr.splitlines() if not ln.startswith("building-community:")]
    assert errors == ["error: out of memory after part of a 10,000,000-node search: lower --budget"]


@pytest.mark.slow
def test_running_out_of_memory_in_check_is_one_finding(tmp_path):
    config = tmp_path / "kit.toml"
    config.write_text(BEYOND_THE_PROOF + f"solver_budget = {STORED_POSITIONS}\n")
    r = _pnp_capped("check", "building-community", "--paper", "a4", "--config", str(config))
    assert r.returncode == 1, r.stderr[-2000:]
    assert "Traceback" not in r.stderr
    assert "the solver ran out of memory within solver_budget 10,000,000" in r.stdout
