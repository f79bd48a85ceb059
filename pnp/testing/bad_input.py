"""Bad input, tried as a hostile user would, through a game's schema (Hypothesis).

Whatever the values (NaN, infinities, zero, negatives, huge numbers, wrong types, range
edges, lists and tables nested thousands deep, unknown or another game's keys), `check`
and `build` either work or raise the project's one error type (a `PnpError`, or
`ChecksFailed` for a kit that fails its checks) in one line; a failed build leaves the
output folder exactly as it was.

Hostile values are drawn against parameter validation, which refuses nearly all of them
before any layout: hundreds of examples cost seconds. Whole layouts and builds run only on
what validation accepts (range edges and the odd values that are legal), a few examples
each, since one layout of a large kit costs seconds.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.build import ChecksFailed, build_game, check_game, resolve_params
from pnp.contract.params import PrintParams, spec_of
from pnp.games import get_game, registry
from pnp.runtime.errors import PnpError


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


def validated(slug: str, values: dict[str, Any]) -> bool:
    """Does parameter validation alone (no layout) accept `values`? A refusal must be one
    line; anything but a `PnpError` raises."""
    game = get_game(slug)
    return outcome(lambda: resolve_params(game, values=values)) == "ok"


ODD_CONSTANTS: list[object] = [
    *[math.nan, math.inf, -math.inf, 0, -1, 0.0, 1e300, -1e300, 10**20, -(2**63)],
    *["", " ", "a4", "LETTER", "red\nx", "x" * 300, True, False, None, [], {}],
]


def accepted_pairs(slug: str) -> list[tuple[str, object]]:
    """Each (key, value) of the game's and the print settings' keys with an odd constant,
    and each range edge, that validation accepts on its own: the legal corners a layout
    meets."""
    params = get_game(slug).default_params()
    keys = sorted(names(params) | names(PrintParams()))
    pairs = [(k, v) for k in keys for v in ODD_CONSTANTS] + edges(type(params))
    return [(k, v) for k, v in pairs if validated(slug, {k: v})]


def accepted_configs(slug: str) -> st.SearchStrategy[dict[str, Any]]:
    """One to three accepted pairs at once (together they may still fail the kit's checks
    or be refused: the outcome says which)."""
    return st.lists(st.sampled_from(accepted_pairs(slug)), min_size=1, max_size=3).map(dict)


def check_validation_never_crashes(slug: str, examples: int = 300) -> None:
    """Parameter validation on hostile values accepts them or refuses them in one line."""

    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(configs(slug))
    def run(values: dict[str, Any]) -> None:
        validated(slug, values)

    run()


def check_never_crashes(slug: str, examples: int = 300, layouts: int = 5) -> None:
    """`check` on hostile values works or says one line: validation on `examples` hostile
    configs (none: 0), then the whole check (layout included) on `layouts` accepted ones."""
    if examples:
        check_validation_never_crashes(slug, examples)

    @settings(max_examples=layouts, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(accepted_configs(slug))
    def run(values: dict[str, Any]) -> None:
        outcome(lambda: check_game(slug, values=values, paper="a4"))

    run()


def check_build_leaves_nothing(
    slug: str, folder: Callable[[], Path], examples: int = 60, builds: int = 2
) -> None:
    """`build` on hostile values works, or fails leaving the output folder (a fresh one
    from `folder()` each example, holding a file of the user's) exactly as it was: on
    `examples` hostile configs validation refuses (the build stops before a file is
    written), and whole builds on `builds` accepted ones."""

    def build(values: dict[str, Any]) -> None:
        out = folder()
        (out / "keep.txt").write_text("mine")
        what = outcome(lambda: build_game(slug, ["a4"], out, formats=["pdf", "svg"], values=values))
        if what != "ok":
            assert sorted(p.name for p in Path(out).rglob("*")) == ["keep.txt"], what
            assert (out / "keep.txt").read_text() == "mine"

    quiet = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]

    def refused(values: dict[str, Any]) -> None:
        if not validated(slug, values):
            build(values)

    def accepted(values: dict[str, Any]) -> None:
        build(values)

    # Hypothesis takes no zero count: a property left out is not made at all
    for prop, strategy, count in (
        (refused, configs(slug), examples),
        (accepted, accepted_configs(slug), builds),
    ):
        if count:
            settings(max_examples=count, deadline=None, suppress_health_check=quiet)(
                given(strategy)(prop)
            )()
