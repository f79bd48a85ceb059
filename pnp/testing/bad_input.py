"""Bad input, tried as a hostile user would, through a game's schema (Hypothesis).

Whatever the values (NaN, infinities, zero, negatives, huge numbers, wrong types, range
edges, lists and tables nested thousands deep, unknown or another game's keys), `check`
and `build` either work or raise the project's one error type (a `PnpError`, or
`ChecksFailed` for a kit that fails its checks) in one line; a failed build leaves the
output folder exactly as it was.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.build import ChecksFailed, build_game, check_game
from pnp.errors import PnpError
from pnp.games import get_game, registry
from pnp.params import PrintParams, spec_of


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


def edges(cls: type) -> list[tuple[str, object]]:
    """Each declared range's edges and just past them: the values most likely to break."""
    out: list[tuple[str, object]] = []
    for f in dataclasses.fields(cls):
        s = spec_of(f)
        for bound in (s.lo, s.hi):
            if bound is not None:
                out += [(f.name, bound), (f.name, bound - 1e-9), (f.name, bound + 1e-9)]
    return out


def names(params: object) -> set[str]:
    """The field names of a game's parameters (a dataclass)."""
    cls: type = type(params)
    return {f.name for f in dataclasses.fields(cls)}


def configs(slug: str) -> st.SearchStrategy[dict[str, Any]]:
    """One to three keys of the game's own, the print settings', another registered
    game's or none at all, each with an odd value or at a range's edge."""
    params = get_game(slug).default_params()
    keys = sorted(names(params) | names(PrintParams()))
    others = sorted(
        {k for s, g in registry().items() if s != slug for k in names(g.default_params())}
        - set(keys)
    )
    key = st.sampled_from(keys + others + ["bogus_key"])
    pair = st.one_of(st.tuples(key, ODD_VALUES), st.sampled_from(edges(type(params))))
    return st.lists(pair, min_size=1, max_size=3).map(dict)


def outcome(fn: Callable[[], object]) -> str:
    """ "ok", "error" (a one-line `PnpError`) or "checks failed"; anything else raises."""
    try:
        fn()
    except ChecksFailed:
        return "checks failed"
    except PnpError as exc:
        assert "\n" not in str(exc), f"error message spans lines: {exc!r}"
        return "error"
    return "ok"


def check_never_crashes(slug: str, examples: int = 60) -> None:
    """`check` on hostile values works or says one line."""

    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(configs(slug))
    def run(values: dict[str, Any]) -> None:
        outcome(lambda: check_game(slug, values=values, paper="a4"))

    run()


def check_build_leaves_nothing(slug: str, folder: Callable[[], Path], examples: int = 6) -> None:
    """`build` on hostile values works, or fails leaving the output folder (a fresh one
    from `folder()` each example, holding a file of the user's) exactly as it was."""

    @settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(configs(slug))
    def run(values: dict[str, Any]) -> None:
        out = folder()
        (out / "keep.txt").write_text("mine")
        what = outcome(lambda: build_game(slug, ["a4"], out, formats=["pdf", "svg"], values=values))
        if what != "ok":
            assert sorted(p.name for p in Path(out).rglob("*")) == ["keep.txt"], what
            assert (out / "keep.txt").read_text() == "mine"

    run()
