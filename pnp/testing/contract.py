"""The registry contract: a registered game goes through the whole product. Its kit builds,
passes its checks and renders to every format and document; the cut sheets and the gallery
follow; its engine plays the set that prints and reports what it declares; a solver (where
there is one) answers; and its declared rule keys are the keys its play model is made of.

One function a check, each taking a game's slug: pnp's tests run them for every built-in
game, `GameSuite` for a plugin's.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

from pnp.build import build_gallery_for, build_game, cut_sheets_of, make_kit, pdf_name
from pnp.contract.config import split_config
from pnp.contract.gamedef import GameDef, ratios, rule_keys
from pnp.contract.palette import INKS
from pnp.contract.params import field_hints, spec_of
from pnp.draw.checks import has_errors
from pnp.draw.scene import PT_PER_MM
from pnp.games import get_game
from pnp.runtime.errors import PnpError
from pnp.sim.command import run_simulation
from pnp.sim.solve import run_solve
from pnp.testing.sheets import print_ranges, read_pages, sheet_faults


def check_kit_builds(slug: str, out: Path) -> None:
    """The kit builds for Letter with no check error, in every format: its PDFs (the kit's
    and each document's, two pages at least), an SVG and a PNG of every part, a DXF of
    every part with cut lines, its cut sheets, and a gallery whose links all resolve."""
    from pypdf import PdfReader

    game, kit = make_kit(slug, paper="letter")
    assert not has_errors(game.checks(kit))
    result = build_game(slug, ["letter"], out, formats=["pdf", "svg", "png", "dxf"])
    names = {p.relative_to(out / slug).as_posix() for p in result.files}
    for doc, _title in [("", "")] + list(game.documents):
        pdf = out / slug / pdf_name(slug, doc, "letter")
        assert pdf.name in names and len(PdfReader(pdf).pages) >= 2
    for comp in kit.components:
        assert f"svg/{comp.name}.svg" in names and f"png/{comp.name}.png" in names
        assert (f"dxf/{comp.name}.dxf" in names) == comp.has_cut_lines()
    sheets = cut_sheets_of(kit)
    assert bool(sheets) == bool(kit.cut_parts)
    for sheet in sheets:
        assert {f"cut/{sheet.name}.svg", f"cut/{sheet.name}.dxf"} <= names
    assert not list(out.rglob("*.tmp")), "a temporary file was left behind"
    html = build_gallery_for(out).read_text(encoding="utf-8")
    for href in re.findall(r'(?:href|src)="([^"#:]+)"', html):
        assert (out / href).exists(), href
    assert f"{slug}/{slug}-letter.pdf" in html


MACHINE_HAIRLINE = 0.05 * PT_PER_MM
"""Thinner than any printed line (pt): only a cutter's 0.01 mm cut line is this fine."""


def check_sheets(slug: str, paper: str, out: Path) -> None:
    """Printed as the cover says, each sheet of a double-sided job (its pages 2k-1 and 2k)
    is a front and its own backs, or a page and a blank saying so, or two pages to read; for the
    default kit and each named variant, every document (`pnp.testing.sheets` reads the
    PDFs back)."""
    variants: dict[str, Any] = {"": None, **get_game(slug).variants}
    for name, values in variants.items():
        folder = out / (name or "default")
        build_game(slug, [paper], folder, formats=["pdf"], values=values)
        for pdf_path in sorted((folder / slug).glob("*.pdf")):
            pages = read_pages(pdf_path)
            faults = sheet_faults(pages, print_ranges(pages[0]))
            assert faults == [], f"{pdf_path.name} ({name or 'default config'}): {faults}"


Hairline = tuple[int, Any]


def machine_hairlines(slug: str, out: Path) -> dict[str, list[Hairline]]:
    """The cutter's hairlines (page, colour) in each of the game's A4 PDFs, by document
    ("" the kit's own); the kit's own has none: a printer draws a laser's red hairline as
    a solid red line, so the print PDFs leave the cut layers to the cut files. A document
    that asks for them (a scroll-saw pattern) has them."""
    import pdfplumber

    game = get_game(slug)
    build_game(slug, ["a4"], out, formats=["pdf"])
    found: dict[str, list[Hairline]] = {}
    for doc, _title in [("", "")] + list(game.documents):
        with pdfplumber.open(out / slug / pdf_name(slug, doc, "a4")) as pdf:
            found[doc] = [
                (pg.page_number, o["stroking_color"])
                for pg in pdf.pages
                for o in pg.lines + pg.rects + pg.curves
                if o.get("stroke") and o["linewidth"] < MACHINE_HAIRLINE
            ]
    assert not found[""], found[""][:5]
    return found


def check_simulated_set_is_printed(slug: str) -> None:
    """The engine plays the kit that prints (its model is the kit's), with every bot."""
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


def check_short_simulation(slug: str, games: int = 30) -> None:
    """A short simulation reports every counter and ratio the engine declares, the seats'
    win rates unless the game is cooperative, and is plain JSON."""
    engine = get_game(slug).engine
    assert engine is not None, f"{slug} has no rules engine"
    s = run_simulation(slug, games=games, jobs=1).summary
    assert s["games"] == games and sum(s["end_reasons"].values()) == games
    m = s["metrics"]
    assert set(engine.COUNTERS) | set(ratios(engine)) <= set(m)
    assert ("win_rate_by_seat" in m) != engine.COOPERATIVE
    assert ("abstraction" in s) == bool(engine.ABSTRACTION)
    json.dumps(s)


def check_small_solve(slug: str, budget: int = 5000) -> bool:
    """A small solve answers in the solver's terms and as JSON; False if the game has no
    solver (nothing to check)."""
    if get_game(slug).solver is None:
        return False
    answer = run_solve(slug, budget=budget)
    assert answer["game"] == slug and answer["result"] in ("win", "no-win", "unknown")
    if answer["result"] == "win":
        assert answer["length"] == len(answer["line"]) > 0
    json.dumps(answer)
    return True


def other_values(game: GameDef, key: str) -> list[Any]:
    """Valid-looking values of `key` other than its default: numbers a step either way and
    at their bounds, the other choices, the switch flipped, list items swapped or changed,
    and what the game's variants set it to. A value the game refuses is skipped later."""
    params = game.default_params()
    cls: type = type(params)
    f = next(f for f in dataclasses.fields(cls) if f.name == key)
    hint, spec, default = field_hints(type(params))[key], spec_of(f), getattr(params, key)
    out: list[Any] = [v[key] for v in game.variants.values() if key in v]
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


def check_rule_keys(slug: str) -> None:
    """A game's declared `rule_keys` hold against its engine: changing any other key of its
    parameters leaves the play model equal (the rules play the same games), and every
    declared key has a value that changes it. A sweep (and `pnp tune`) rely on this."""
    game = get_game(slug)
    engine = game.engine
    assert engine is not None, f"{slug} has no rules engine"
    players = engine.DEFAULT_PLAYERS
    base = engine.prepare(game.default_params(), players)
    declared = rule_keys(game)
    tried: dict[str, list[Any]] = {}
    cls: type = type(game.default_params())
    for f in dataclasses.fields(cls):
        changes: list[Any] = []
        same: list[Any] = []
        for value in other_values(game, f.name):
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
