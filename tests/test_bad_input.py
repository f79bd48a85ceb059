"""Bad input, tried as a hostile user would, through every registered game's schema.

Whatever the values (NaN, infinities, zero, negatives, huge numbers, wrong types, range
edges, lists and tables nested thousands deep, unknown or another game's keys), `check`
and `build` either work or raise the project's one error type (a `PnpError`, or
`ChecksFailed` for a kit that fails its checks); a failed build leaves the output folder
exactly as it was."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.build import ChecksFailed, build_game, check_game
from pnp.errors import PnpError
from pnp.games import registry
from pnp.params import PrintParams, spec_of

GAMES = list(registry())


def nested(depth: int, table: bool) -> object:
    """A value `depth` lists (or one-key tables) deep, as a hostile TOML file gives one."""
    value: object = 1
    for _ in range(depth):
        value = {"red": value} if table else [value]
    return value


DEEP_VALUES = st.builds(nested, st.integers(1, 5000), st.booleans())
ODD_VALUES = st.one_of(
    DEEP_VALUES,
    st.sampled_from([math.nan, math.inf, -math.inf, 0, -1, 0.0, 1e300, -1e300, 10**20, -(2**63)]),
    st.sampled_from(["", " ", "a4", "LETTER", "red\nx", "x" * 300, True, False, None]),
    st.lists(st.integers(-3, 10), max_size=8),
    st.dictionaries(st.sampled_from(["red", "blue", "x"]), st.lists(st.integers(0, 7), max_size=7)),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-(10**6), 10**6),
)


def edges(cls) -> list[tuple[str, object]]:
    """Each declared range's edges and just past them: the values most likely to break."""
    out = []
    for f in dataclasses.fields(cls):
        s = spec_of(f)
        for bound in (s.lo, s.hi):
            if bound is not None:
                out += [(f.name, bound), (f.name, bound - 1e-9), (f.name, bound + 1e-9)]
    return out


def configs(slug: str):
    game = registry()[slug]
    params = game.default_params()
    keys = sorted(
        {f.name for f in dataclasses.fields(params)}
        | {f.name for f in dataclasses.fields(PrintParams)}
    )
    others = sorted(
        {
            k
            for s, g in registry().items()
            if s != slug
            for k in (f.name for f in dataclasses.fields(g.default_params()))
        }
        - set(keys)
    )
    key = st.sampled_from(keys + others + ["bogus_key"])
    pair = st.one_of(st.tuples(key, ODD_VALUES), st.sampled_from(edges(type(params))))
    return st.lists(pair, min_size=1, max_size=3).map(dict)


def _outcome(fn) -> str:
    try:
        fn()
    except ChecksFailed:
        return "checks failed"
    except PnpError as exc:
        assert "\n" not in str(exc), f"error message spans lines: {exc!r}"
        return "error"
    return "ok"


@pytest.mark.slow
@pytest.mark.parametrize("slug", GAMES)
def test_check_never_crashes(slug):
    @settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
    @given(configs(slug))
    def run(values):
        _outcome(lambda: check_game(slug, values=values, paper="a4"))

    run()


@pytest.mark.slow
@pytest.mark.parametrize("slug", GAMES)
def test_build_never_crashes_and_a_failure_leaves_nothing(slug, tmp_path_factory):
    @settings(
        max_examples=6,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(configs(slug))
    def run(values):
        out = tmp_path_factory.mktemp("out")
        (out / "keep.txt").write_text("mine")
        what = _outcome(
            lambda: build_game(slug, ["a4"], out, formats=["pdf", "svg"], values=values)
        )
        if what != "ok":
            assert sorted(p.name for p in Path(out).rglob("*")) == ["keep.txt"], what
            assert (out / "keep.txt").read_text() == "mine"

    run()


@pytest.mark.parametrize("key", ["paper", "cut_bed"])
@pytest.mark.parametrize("table", [False, True])
def test_a_deep_value_for_a_named_choice_is_one_line(key, table):
    """A paper or a cutter bed given as a list or table thousands deep: its name cannot
    be shown (its repr would exceed the recursion limit), so the line says so."""
    with pytest.raises(PnpError) as err:
        check_game("desert-home", values={key: nested(5000, table)}, paper="a4")
    assert "nested too deeply" in str(err.value) and "\n" not in str(err.value)
