"""A command imports what it uses and nothing else (issue 22's start-up): `pnp simulate
GAME` loads that game's rules, not its print side, not another game, not the drawing
libraries; a plain command (`params`, `check`) does not load the simulation library. Each
command runs in a fresh interpreter that writes down every module it imported: a
behaviour test, not a timing test (the times are `make bench`'s)."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys

import pytest

from pnp.games import BUILT_IN, built_in_slugs, get_game, registry

DRAWING = ("reportlab", "matplotlib", "PIL", "jinja2")
"""Libraries only printing needs (PDF, plots, pictures, rule-card templates)."""
PRINT_SIDE = "kit"
"""A game's package that makes its printed parts (its board, cards, checks...)."""
GEOMETRY_FREE = ("exploding-dice", "building-community", "parcheesi")
"""Games whose rules do without shapely (Desert Home checks its fan's geometry when its
parameters are read; Home in One Piece plays on the discs' shapes)."""


PROBE = """
import atexit, json, sys
out, sys.argv = sys.argv[1], ["pnp", *sys.argv[2:]]
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
from pnp.__main__ import main
main()
"""
"""`pnp ARGS` as the console script runs it, writing the names of every module the process
ended up with (`sys.modules`) to a file as it exits."""


def imported(tmp_path, *args: str) -> set[str]:
    """Every module a fresh `pnp ARGS` imports (it must succeed)."""
    out = tmp_path / "modules.json"
    run = subprocess.run(
        [sys.executable, "-c", PROBE, str(out), *args],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    names = set(json.loads(out.read_text()))
    assert "pnp.cli" in names, "the module list was not written"
    return names


def top_level(names: set[str]) -> set[str]:
    return {name.split(".")[0] for name in names}


@pytest.mark.parametrize(  # a fresh process each: one game in the fast tier, all in CI
    "slug",
    [
        s if s == "exploding-dice" else pytest.param(s, marks=pytest.mark.slow)
        for s in built_in_slugs()
    ],
)
def test_simulate_imports_its_game_rules_and_nothing_that_draws(slug, tmp_path):
    names = imported(tmp_path, "simulate", slug, "--games", "1")
    pkg = built_in_slugs()[slug]
    assert f"pnp.games.{pkg}.engine" in names  # it did play
    assert not top_level(names) & set(DRAWING)
    others = {f"pnp.games.{p}" for p in BUILT_IN if p != pkg}
    assert not names & others, "another game was imported"
    print_side = f"pnp.games.{pkg}.{PRINT_SIDE}"
    assert not {n for n in names if n == print_side or n.startswith(print_side + ".")}
    drawing = ("pnp.draw.layout", "pnp.draw.render", "pnp.draw.cards")
    assert not {n for n in names if n.startswith(drawing)}
    builds = ("pnp.build", "pnp.draw.checks", "pnp.draw.components")
    assert not {n for n in names if n.startswith(builds)}
    if slug in GEOMETRY_FREE:
        assert not top_level(names) & {"shapely", "numpy"}


def test_simulate_does_not_load_the_tuner_or_optuna(tmp_path):
    """`pnp tune` registers beside simulate, but its library and Optuna load only when a
    tune runs."""
    names = imported(tmp_path, "simulate", "exploding-dice", "--games", "1")
    assert not {n for n in names if n.startswith(("pnp.tune", "optuna"))}


def test_simulate_loads_no_other_command_nor_a_process_pool_for_one_job(tmp_path):
    """The other play commands (`solve`, `new`, `studio`, `tune`) are not registered, so
    their modules do not load; one job plays in this process, without multiprocessing;
    and no bootstrap interval, no hashlib. `pnp --help` still lists every command."""
    names = imported(tmp_path, "simulate", "exploding-dice", "--games", "1", "--jobs", "1")
    others = {f"pnp.cli.{c}" for c in ("solve", "new", "studio", "tune")}
    assert not names & others
    assert not {n for n in names if n.startswith(("multiprocessing", "hashlib", "_hashlib"))}
    helped = imported(tmp_path, "--help")
    assert others <= helped


def test_a_plain_command_does_not_load_the_simulation_library(tmp_path):
    names = imported(tmp_path, "params", "parcheesi")
    assert not {n for n in names if n.startswith("pnp.sim")}
    assert not top_level(names) & {"shapely", "numpy", *DRAWING}


@pytest.mark.slow  # a whole kit is laid out and checked
def test_check_loads_its_game_and_no_plotting_or_simulation(tmp_path):
    names = imported(tmp_path, "check", "exploding-dice", "--paper", "a4")
    assert "pnp.games.exploding_dice.kit.checks" in names  # it did check
    others = {f"pnp.games.{p}" for p in BUILT_IN if p != "exploding_dice"}
    assert not names & others
    assert "matplotlib" not in top_level(names)
    assert not {n for n in names if n.startswith(("pnp.sim", "pnp.draw.render"))}


def test_resolving_a_game_imports_it_alone_and_its_kit_on_demand():
    """In a fresh interpreter: `get_game` loads one game's registration (rules, no print
    side); its `build_kit` then loads the kit, which is the same kit as ever."""
    code = (
        "import json, sys\n"
        "from pnp.games import get_game\n"
        "game = get_game('parcheesi')\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('pnp.games.'))))\n"
        "print(json.dumps([m for m in ('shapely', 'reportlab') if m in sys.modules]))\n"
        "from pnp.draw.kit import PrintParams\n"
        "kit = game.build_kit(game.default_params(), PrintParams())\n"
        "print(kit.game, 'pnp.games.parcheesi.kit' in sys.modules)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    games, heavy, built = run.stdout.splitlines()
    assert all(m.startswith("pnp.games.parcheesi") for m in json.loads(games))
    assert not [m for m in json.loads(games) if m.endswith((".kit", ".board", ".checks"))]
    assert json.loads(heavy) == []
    assert built == "parcheesi True"


def test_the_registry_lists_every_built_in_game_in_order_under_its_own_slug():
    games = registry()
    assert list(games)[: len(BUILT_IN)] == list(built_in_slugs())
    for slug in built_in_slugs():
        assert games[slug].slug == slug and get_game(slug) is games[slug]
        build_kit = get_game(slug).build_kit
        assert pickle.loads(pickle.dumps(build_kit)) == build_kit  # as a module function is
