"""Every built-in game goes through the whole product (`pnp.testing.contract`, the checks a
plugin game's suite runs too): kit, checks, every renderer, every document, cut sheets, the
gallery, a short simulation of the same kit and, where the game has one, a small solve. A
throwaway toy game (tests/toy_game.py) that uses every extension point passes the same
contract without any general module knowing it."""

from __future__ import annotations

import dataclasses
import random

import pytest
from toy_game import GAME as TOY
from toy_game import BareEngine

from pnp.build import cut_sheets_of, make_kit
from pnp.contract.hooks import EngineHooks
from pnp.contract.paper import PAPERS
from pnp.games import built_in_slugs, registered
from pnp.play.forward import play
from pnp.play.mcts import DEFAULT_BUDGET
from pnp.sim.command import run_simulation
from pnp.sim.seats import lineup
from pnp.sim.solve import run_solve
from pnp.testing import contract

GAMES = list(built_in_slugs())
CHEAP = "building-community"
"""The real game whose whole-product build takes a second or so: it stays in the fast tier
with the toy; the other real games' builds, and every real game's build of each variant
on each paper or with its print PDF parsed, run in the slow tier."""


DEAREST = ("desert-home", "exploding-dice")
"""The real games whose whole builds take longest (about 15 and 9 s of CPU): CI builds and
reads them in their own kit tests (tests/shared.py builds each kit once a run), and goes
through the contract with them in `make test-long` only (docs/testing.md)."""


def _tiered(
    *, real_fast: bool = True, papers: tuple[str, ...] = (), long: tuple[str, ...] = ()
) -> list:
    """(slug[, paper]) cases: the toy's fast, `CHEAP`'s fast if `real_fast`, the `long`
    games' long, the rest slow."""
    cases = []
    for slug in [*GAMES, "lamps"]:
        fast = slug == "lamps" or (real_fast and slug == CHEAP)
        for paper in papers or (None,):
            values = (slug,) if paper is None else (slug, paper)
            marks = () if fast else pytest.mark.long if slug in long else pytest.mark.slow
            cases.append(pytest.param(*values, marks=marks, id="-".join(values)))
    return cases


def _sheet_cases() -> list:
    """`_tiered`'s (slug, paper) cases, the real games' Letter ones and all but `CHEAP`'s
    long: CI checks the toy's and one real game's variants on A4 (and test_print_sheets
    every kit's default sheets on A4)."""
    return [
        pytest.param(
            *case.values,
            id=case.id,
            marks=pytest.mark.long
            if case.values[1] == "letter" and case.values[0] != "lamps"
            else case.marks,
        )  # fmt: skip
        for case in _tiered(
            real_fast=False, papers=tuple(PAPERS), long=tuple(g for g in GAMES if g != CHEAP)
        )
    ]


HAIRLINES_IN_CI = ("exploding-dice", "desert-home", "lamps")
"""The print PDF's layer filter is one renderer's for every game: CI reads the prints of
a kit with cut lines on its pieces and of the one with a pattern that asks for them."""


def _hairline_cases() -> list:
    return [
        case
        if case.values[0] in HAIRLINES_IN_CI
        else pytest.param(*case.values, id=case.id, marks=pytest.mark.long)
        for case in _tiered(real_fast=False)
    ]


@pytest.fixture(params=[*GAMES, "lamps"])
def slug(request):
    if request.param == "lamps":
        with registered(TOY):
            yield "lamps"
    else:
        yield request.param


@pytest.mark.parametrize("slug", _tiered(long=DEAREST), indirect=True)
def test_kit_builds_checks_and_renders(slug, tmp_path):
    contract.check_kit_builds(slug, tmp_path)


@pytest.mark.parametrize(("slug", "paper"), _sheet_cases(), indirect=["slug"])
def test_every_sheet_of_every_config_is_a_front_and_its_own_back(slug, paper, tmp_path):
    """Printed as the cover says, each double-sided sheet (pages 2k-1 and 2k) is a front
    and its own backs, or a page and a blank saying so, or two pages to read; every
    variant, every document (`pnp.testing.sheets` reads the PDF; the modes:
    test_print_sheets)."""
    contract.check_sheets(slug, paper, tmp_path)


@pytest.mark.parametrize("slug", _hairline_cases(), indirect=True)
def test_the_print_pdf_carries_no_machine_cut_lines(slug, tmp_path):
    """A printer draws a laser's red hairline as a solid red line: the print PDFs leave the
    cut layers to the cut files, only a document that asks (a scroll-saw pattern) has them."""
    hairlines = contract.machine_hairlines(slug, tmp_path)
    if slug == "desert-home":  # its scroll-saw pattern asks for every machine layer
        pattern = [h for doc, found in hairlines.items() if doc for h in found]
        assert pattern and {c for _, c in pattern} >= {(1.0, 0.0, 0.0)}


def test_the_simulated_set_is_the_printed_set(slug):
    contract.check_simulated_set_is_printed(slug)


def test_a_short_simulation_reports_what_the_game_declares(slug):
    contract.check_short_simulation(slug)


def test_a_small_solve_where_the_game_has_a_solver(slug):
    if not contract.check_small_solve(slug):
        pytest.skip(f"{slug} has no solver")


def test_the_toy_reports_cooperative_metrics_and_scale():
    with registered(TOY):
        m = run_simulation("lamps", games=200, jobs=1).summary["metrics"]
        figures = {"duration_turns", "completion", "timeouts", "toggles", "toggles_per_turn"}
        assert set(m) == figures | {"completion_ci", "timeouts_ci"}  # and the intervals
        assert 0 < m["completion"] <= 1
        answer = run_solve("lamps", budget=10_000)
        assert answer["result"] == "win" and answer["shortest"] and answer["lamps"] == 5
        _, kit = make_kit("lamps", paper="a4")
        from pnp.build import kit_pages

        titles = [p.title for p in kit_pages(kit)]
        assert any("(scale 1:2)" in t for t in titles)
        assert len(cut_sheets_of(kit)) == 1


def test_nothing_optional_is_required_of_an_engine():
    """An engine that declares no optional member (empty hooks: no ratios, totals, warm)
    plays and reports."""
    assert BareEngine.HOOKS == EngineHooks()
    bare = dataclasses.replace(TOY, engine=BareEngine())
    with registered(bare):
        s = run_simulation("lamps", games=40, jobs=2).summary
    figures = {"duration_turns", "completion", "timeouts", "toggles"}
    assert set(s["metrics"]) == figures | {"completion_ci", "timeouts_ci"}


def test_the_toy_rules_and_its_fast_path_play_the_same_games():
    """`new_state` played by the forward model with `make_bot` is the game `play_one` plays."""
    engine = TOY.engine
    model = engine.prepare(TOY.default_params(), 2)
    for i in range(20):
        state = engine.new_state(model, 2, random.Random(i))
        walked = play(state, engine.make_bot("random", model), random.Random(f"toy:{i}"))
        assert walked.record(engine.COUNTERS) == engine.play_one(model, 2, "random", f"toy:{i}")
    with pytest.raises(ValueError, match="unknown bot"):
        engine.make_bot("clever", model)


@pytest.mark.parametrize(
    "slug",
    [
        pytest.param(s, marks=pytest.mark.slow if s == "desert-home" else ())  # 1.6 s
        for s in [*GAMES, "lamps"]
    ],
    indirect=True,
)
def test_the_rule_keys_are_the_keys_the_play_model_is_made_from(slug):
    """A game's declared `rule_keys` hold against its engine: changing any other key leaves
    the play model equal, and every declared key has a value that changes it."""
    contract.check_rule_keys(slug)


def test_an_engine_may_set_its_mcts_budget_by_player_count():
    """`mcts_budgets` names the counts it changes; other counts spend `mcts_budget`, and an
    engine that declares neither spends the search's default."""
    bare = BareEngine()
    assert {lineup(bare, p, "mcts").budget for p in (1, 2, 3)} == {DEFAULT_BUDGET}
    bare.HOOKS = EngineHooks(mcts_budget=50, mcts_budgets={3: 20})
    assert [lineup(bare, p, "mcts").budget for p in (1, 2, 3)] == [50, 50, 20]
    assert lineup(bare, 3, "mcts", budget=70).budget == 70
