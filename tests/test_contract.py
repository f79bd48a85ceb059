"""Every registered game goes through the whole product: kit, checks, every renderer,
every document, cut sheets, the gallery, a short simulation of the same kit and, where
the game has one, a small solve. A throwaway toy game (tests/toy_game.py) that uses every
extension point passes the same contract without any general module knowing it."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from typing import Literal, get_args, get_origin

import pdfplumber
import pytest
from print_sheets import print_ranges, read_pages, sheet_faults
from pypdf import PdfReader
from toy_game import GAME as TOY
from toy_game import BareEngine

from pnp.build import build_gallery_for, build_game, cut_sheets_of, make_kit, pdf_name
from pnp.checks import has_errors
from pnp.config import split_config
from pnp.errors import PnpError
from pnp.forward import play
from pnp.gamedef import ratios, rule_keys
from pnp.games import get_game, registered, registry
from pnp.palette import INKS
from pnp.paper import PAPERS
from pnp.params import field_hints, spec_of
from pnp.scene import PT_PER_MM
from pnp.sim.command import run_simulation
from pnp.sim.solve import run_solve

GAMES = list(registry())
CHEAP = "building-community"
"""The real game whose whole-product build takes a second or so: it stays in the fast tier
with the toy; the other real games' builds, and every real game's build of each variant
on each paper or with its print PDF parsed, run in the slow tier."""


def _tiered(*, real_fast: bool = True, papers: tuple[str, ...] = ()) -> list:
    """(slug[, paper]) cases: the toy's fast, `CHEAP`'s fast if `real_fast`, the rest slow."""
    cases = []
    for slug in [*GAMES, "lamps"]:
        fast = slug == "lamps" or (real_fast and slug == CHEAP)
        for paper in papers or (None,):
            values = (slug,) if paper is None else (slug, paper)
            marks = () if fast else pytest.mark.slow
            cases.append(pytest.param(*values, marks=marks, id="-".join(values)))
    return cases


@pytest.fixture(params=[*GAMES, "lamps"])
def slug(request):
    if request.param == "lamps":
        with registered(TOY):
            yield "lamps"
    else:
        yield request.param


@pytest.mark.parametrize("slug", _tiered(), indirect=True)
def test_kit_builds_checks_and_renders(slug, tmp_path):
    game, kit = make_kit(slug, paper="letter")
    assert not has_errors(game.checks(kit))
    result = build_game(slug, ["letter"], tmp_path, formats=["pdf", "svg", "png", "dxf"])
    names = {p.relative_to(tmp_path / slug).as_posix() for p in result.files}
    for doc, _title in [("", "")] + list(game.documents):
        pdf = tmp_path / slug / pdf_name(slug, doc, "letter")
        assert pdf.name in names and len(PdfReader(pdf).pages) >= 2
    for comp in kit.components:
        assert f"svg/{comp.name}.svg" in names and f"png/{comp.name}.png" in names
        assert (f"dxf/{comp.name}.dxf" in names) == comp.has_cut_lines()
    sheets = cut_sheets_of(kit)
    assert bool(sheets) == bool(kit.cut_parts)
    for sheet in sheets:
        assert {f"cut/{sheet.name}.svg", f"cut/{sheet.name}.dxf"} <= names
    assert not list(tmp_path.rglob("*.tmp")), "a temporary file was left behind"
    html = build_gallery_for(tmp_path).read_text(encoding="utf-8")
    for href in re.findall(r'(?:href|src)="([^"#:]+)"', html):
        assert (tmp_path / href).exists(), href
    assert f"{slug}/{slug}-letter.pdf" in html


MACHINE_HAIRLINE = 0.05 * PT_PER_MM
"""Thinner than any printed line (pt): only a cutter's 0.01 mm cut line is this fine."""


@pytest.mark.parametrize(
    ("slug", "paper"), _tiered(real_fast=False, papers=tuple(PAPERS)), indirect=["slug"]
)
def test_every_sheet_of_every_config_is_a_front_and_its_own_back(slug, paper, tmp_path):
    """Printed as the cover says, each double-sided sheet (pages 2k-1 and 2k) is a front
    and its own backs, or a page and a blank saying so, or two pages to read; every
    variant, every document (`print_sheets` reads the PDF; the modes: test_print_sheets)."""
    variants = {"": None, **get_game(slug).variants}
    for name, values in variants.items():
        out = tmp_path / (name or "default")
        build_game(slug, [paper], out, formats=["pdf"], values=values)
        for pdf_path in sorted((out / slug).glob("*.pdf")):
            pages = read_pages(pdf_path)
            faults = sheet_faults(pages, print_ranges(pages[0]))
            assert faults == [], f"{pdf_path.name} ({name or 'default config'})"


@pytest.mark.parametrize("slug", _tiered(real_fast=False), indirect=True)
def test_the_print_pdf_carries_no_machine_cut_lines(slug, tmp_path):
    """A printer draws a laser's red hairline as a solid red line: the print PDFs leave the
    cut layers to the cut files, only a document that asks (a scroll-saw pattern) has them."""
    game = get_game(slug)
    build_game(slug, ["a4"], tmp_path, formats=["pdf"])
    for doc, _title in [("", "")] + list(game.documents):
        with pdfplumber.open(tmp_path / slug / pdf_name(slug, doc, "a4")) as pdf:
            hairlines = [
                (pg.page_number, o["stroking_color"])
                for pg in pdf.pages
                for o in pg.lines + pg.rects + pg.curves
                if o.get("stroke") and o["linewidth"] < MACHINE_HAIRLINE
            ]
        if doc == "":
            assert not hairlines, hairlines[:5]
    if slug == "desert-home":  # its scroll-saw pattern asks for every machine layer
        assert hairlines and {c for _, c in hairlines} >= {(1.0, 0.0, 0.0)}


def test_the_simulated_set_is_the_printed_set(slug):
    game, kit = make_kit(slug)
    engine = game.engine
    assert engine is not None, f"{slug} has no rules engine"
    players = engine.DEFAULT_PLAYERS
    model = engine.prepare(kit.params, players)
    assert model == kit.model, "the engine must play the kit that prints"
    for bot in engine.BOTS:
        record = engine.play_one(model, players, bot, random.Random(f"contract:{bot}"))
        assert record.turns > 0 and record.end
        assert set(record.counters) == set(engine.COUNTERS)


def test_a_short_simulation_reports_what_the_game_declares(slug):
    engine = get_game(slug).engine
    s = run_simulation(slug, games=30, jobs=1).summary
    assert s["games"] == 30 and sum(s["end_reasons"].values()) == 30
    m = s["metrics"]
    assert set(engine.COUNTERS) | set(ratios(engine)) <= set(m)
    assert ("win_rate_by_seat" in m) != engine.COOPERATIVE
    assert ("abstraction" in s) == bool(engine.ABSTRACTION)
    json.dumps(s)


def test_a_small_solve_where_the_game_has_a_solver(slug):
    game = get_game(slug)
    if game.solver is None:
        pytest.skip(f"{slug} has no solver")
    answer = run_solve(slug, budget=5000)
    assert answer["game"] == slug and answer["result"] in ("win", "no-win", "unknown")
    if answer["result"] == "win":
        assert answer["length"] == len(answer["line"]) > 0
    json.dumps(answer)


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
    """An engine with only the required members (no RATIOS, TOTALS, warm) plays and reports."""
    assert not any(hasattr(BareEngine, k) for k in ("RATIOS", "TOTALS", "warm"))
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


def _other_values(game, key: str) -> list:
    """Valid-looking values of `key` other than its default: numbers a step either way and
    at their bounds, the other choices, the switch flipped, list items swapped or changed,
    and what the game's variants set it to. A value the game refuses is skipped."""
    params = game.default_params()
    f = next(f for f in dataclasses.fields(params) if f.name == key)
    hint, spec, default = field_hints(type(params))[key], spec_of(f), getattr(params, key)
    out: list = [v[key] for v in game.variants.values() if key in v]
    if hint is bool:
        out.append(not default)
    elif hint in (int, float):
        for v in (default + 1, default - 1, default * 1.25, default * 0.8, spec.lo, spec.hi):
            if v is not None:
                out.append(hint(v))
    elif get_origin(hint) is Literal:
        out += [c for c in get_args(hint) if c != default]
    elif hint is str and spec.ink:
        out += [name for name in INKS if name != default]
    elif get_origin(hint) is tuple and default:
        items = list(default)
        for i in range(len(items) - 1):  # each neighbouring pair swapped
            out.append([*items[:i], items[i + 1], items[i], *items[i + 2 :]])
        item = get_args(hint)[0]
        if item in (int, float):
            out += [[items[0] + 1, *items[1:]], items[:-1], [*items, items[-1]]]
        if get_origin(item) is tuple:
            out += [[[items[0][0] + 1, *items[0][1:]], *items[1:]], items[:-1]]
    return [v for v in out if v != default]


@pytest.mark.parametrize(
    "slug",
    [
        pytest.param(s, marks=pytest.mark.slow if s == "desert-home" else ())  # 1.6 s
        for s in [*GAMES, "lamps"]
    ],
    indirect=True,
)
def test_the_rule_keys_are_the_keys_the_play_model_is_made_from(slug):
    """A game's declared `rule_keys` hold against its engine: changing any other key of its
    parameters leaves the play model equal (the rules play the same games), and every
    declared key has a value that changes it. A sweep (and `pnp tune`) rely on this."""
    game = get_game(slug)
    engine = game.engine
    assert engine is not None
    players = engine.DEFAULT_PLAYERS
    base = engine.prepare(game.default_params(), players)
    declared = rule_keys(game)
    tried: dict[str, list] = {}
    for f in dataclasses.fields(game.default_params()):
        changes, same = [], []
        for value in _other_values(game, f.name):
            try:
                params, _ = split_config({f.name: value}, game.default_params(), "test")
                model = engine.prepare(params, players)
            except PnpError:
                continue  # a value this kit refuses: tells nothing
            (same if model == base else changes).append(value)
        tried[f.name] = changes + same
        if f.name in declared:
            assert changes, f"{slug}: no value of rule key '{f.name}' changes the play model"
        else:
            assert not changes, f"{slug}: '{f.name}' changes the play model: declare it"
    untested = [k for k, values in tried.items() if not values and k not in declared]
    assert not untested, f"{slug}: no value tried for {untested}"
