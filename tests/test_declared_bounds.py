"""A parameter's bounds are its own declaration's, and nothing else's.

`solver_budget` declares 1 to 10,000,000,000, but a global `abs(value) > 1e9` refused 2e9
with a line saying it was allowed. Here every number every game's parameters hold (a
plain number, or the numbers inside a list) is drawn across its declared range and must
be taken; a value just outside must be refused with a line whose range and value are
true: the declared range, and the value as given, which lies outside it."""

from __future__ import annotations

import dataclasses
import math
import re
from typing import Any, get_args, get_origin

import pytest
from cli_run import one_error_line, run
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.contract.params import PrintParams, apply_values, field_hints, spec_of
from pnp.games import registry
from pnp.runtime.errors import PnpError


@dataclasses.dataclass(frozen=True)
class Number:
    """One declared number: a field, or the first number inside a field's list."""

    owner: type
    field: str
    kind: type  # int or float
    lo: float
    hi: float
    lo_open: bool
    depth: int  # 0: the field itself; 1: in a list; 2: in a list of lists
    step: float | None = None  # only lo, lo + step, ... are allowed (an even grid size)

    @property
    def name(self) -> str:
        return self.field + "[0]" * self.depth

    def placed(self, value: float) -> Any:
        """The field's value with this number set to `value` (the rest as the default)."""
        if self.depth == 0:
            return value
        default = _default(self.owner, self.field)
        return _set_first(default, self.depth, value)

    def read_back(self, params: Any) -> Any:
        value = getattr(params, self.field)
        for _ in range(self.depth):
            value = value[0]
        return value


def _default(cls: type, name: str) -> Any:
    f = next(f for f in dataclasses.fields(cls) if f.name == name)
    return f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc]


def _set_first(value: Any, depth: int, x: float) -> Any:
    if depth == 0:
        return x
    items = list(value)
    items[0] = _set_first(items[0], depth - 1, x)
    return items


def _leaf(hint: Any) -> tuple[Any, int]:
    """The number type inside `tuple[tuple[int, ...], ...]`, and how deep it lies."""
    depth = 0
    while get_origin(hint) is tuple:
        hint, depth = get_args(hint)[0], depth + 1
    return hint, depth


def declared(cls: type) -> list[Number]:
    """Every number `cls` declares, with the bounds it declares; `undeclared` lists the
    numbers without both bounds."""
    hints = field_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        s = spec_of(f)
        leaf, depth = _leaf(hints[f.name])
        if leaf not in (int, float) or s.parse is not None:
            continue
        lo, hi = (s.lo, s.hi) if depth == 0 else (s.item_lo, s.item_hi)
        assert lo is not None and hi is not None, f"{cls.__name__}.{f.name} declares no range"
        step = s.step if depth == 0 else None
        out.append(Number(cls, f.name, leaf, lo, hi, s.lo_open and depth == 0, depth, step))
    return out


def every_number() -> list[Number]:
    classes = {type(g.default_params()) for g in registry().values()} | {PrintParams}
    return [n for cls in sorted(classes, key=lambda c: c.__name__) for n in declared(cls)]


NUMBERS = every_number()
IDS = [f"{n.owner.__name__}.{n.name}" for n in NUMBERS]


def test_the_numbers_are_found_in_every_game():
    """The walk reaches plain numbers and numbers inside lists (and lists of lists) in
    every game, so the property below covers them all."""
    owners = {n.owner for n in NUMBERS}
    assert owners >= {type(g.default_params()) for g in registry().values()} | {PrintParams}
    assert {n.depth for n in NUMBERS} == {0, 1, 2}
    assert any(n.field == "solver_budget" and n.hi == 10_000_000_000 for n in NUMBERS)


def inside(n: Number) -> st.SearchStrategy:
    if n.step is not None:
        steps = int((n.hi - n.lo) // n.step)
        return st.integers(0, steps).map(lambda k: n.kind(n.lo + k * n.step))
    if n.kind is int:
        lo = int(n.lo) + (1 if n.lo_open and n.lo == int(n.lo) else 0)
        return st.one_of(st.sampled_from([lo, int(n.hi)]), st.integers(lo, int(n.hi)))
    ends = [n.hi] if n.lo_open else [n.lo, n.hi]
    return st.one_of(
        st.sampled_from(ends),
        st.floats(n.lo, n.hi, exclude_min=n.lo_open, allow_nan=False),
    )


def outside(n: Number) -> st.SearchStrategy:
    """Just past each end (the next float, the next whole number), and further off; for a
    stepped number, between two steps as well."""
    if n.step is not None and n.kind is int:
        between = [v for v in range(int(n.lo), int(n.hi) + 1) if (v - n.lo) % n.step]
        return st.one_of(
            st.sampled_from([int(n.lo) - 1, int(n.hi) + 1, *between]),
            st.integers(max_value=int(n.lo) - 1),
            st.integers(min_value=int(n.hi) + 1),
        )
    if n.kind is int:
        below = int(n.lo) if n.lo_open else int(n.lo) - 1
        return st.one_of(
            st.sampled_from([below, int(n.hi) + 1]),
            st.integers(max_value=below),
            st.integers(min_value=int(n.hi) + 1),
        )
    below = n.lo if n.lo_open else math.nextafter(n.lo, -math.inf)
    return st.one_of(
        st.sampled_from([below, math.nextafter(n.hi, math.inf)]),
        st.floats(max_value=below, allow_nan=False, allow_infinity=False),
        st.floats(min_value=math.nextafter(n.hi, math.inf), allow_nan=False, allow_infinity=False),
    )


def apply(n: Number, value: float) -> Any:
    return apply_values(n.owner(), {n.field: n.placed(value)})


RANGE = re.compile(
    r"'(?P<name>[^']+)' must be (?:from (?P<lo>\S+) to (?P<hi>\S+?)|above (?P<olo>\S+), "
    r"at most (?P<ohi>\S+?))(?: in steps of (?P<step>\S+?))?(?: \(.*\))?, got (?P<got>\S+)"
)


def taken(n: Number, value: float) -> None:
    assert n.read_back(apply(n, value)) == value


def refused_truly(n: Number, value: float) -> None:
    """Refused, with the declared range and the value as given, which lies outside it."""
    with pytest.raises(PnpError) as refused:
        apply(n, value)
    said = RANGE.fullmatch(str(refused.value))
    assert said, str(refused.value)
    assert said["name"] == n.name
    lo, hi = float(said["lo"] or said["olo"]), float(said["hi"] or said["ohi"])
    assert (lo, hi) == (n.lo, n.hi)  # the declared range, not another
    assert bool(said["olo"]) == n.lo_open
    assert (None if said["step"] is None else float(said["step"])) == n.step
    if len(said["got"]) < 40:  # a longer one is cut short
        got = int(said["got"]) if n.kind is int else float(said["got"])
        assert got == value  # as given, not rounded onto the range it missed
        off_step = n.step is not None and (got - n.lo) % n.step != 0
        assert got < lo or got > hi or (n.lo_open and got == lo) or off_step


@pytest.mark.parametrize("n", NUMBERS, ids=IDS)
def test_each_end_is_taken_and_the_next_value_past_it_refused(n):
    if n.step is not None:  # the ends, and a value between two steps
        ins, outs = [int(n.lo), int(n.hi)], [int(n.lo) - 1, int(n.lo) + 1, int(n.hi) + 1]
    elif n.kind is int:
        first = int(n.lo) + 1 if n.lo_open else int(n.lo)
        ins, outs = [first, (first + int(n.hi)) // 2, int(n.hi)], [first - 1, int(n.hi) + 1]
    else:
        below = n.lo if n.lo_open else math.nextafter(n.lo, -math.inf)
        ins = [math.nextafter(below, math.inf), (n.lo + n.hi) / 2, n.hi]
        outs = [below, math.nextafter(n.hi, math.inf), n.hi * 1e300]
    for value in ins:
        taken(n, value)
    for value in outs:
        refused_truly(n, value)


@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_any_value_of_any_declared_range_is_taken_and_any_outside_refused(data):
    """The property: anywhere in a number's range is taken, anywhere outside is refused."""
    n = data.draw(st.sampled_from(NUMBERS), label="number")
    taken(n, data.draw(inside(n), label="inside"))
    refused_truly(n, data.draw(outside(n), label="outside"))


@pytest.mark.parametrize("budget", ["2000000000", "10000000000"])
def test_the_solver_budget_the_schema_declares_is_taken_by_the_cli(capsys, tmp_path, budget):
    """The declared top of `solver_budget` is taken through a config (a simulation reads the
    config without solving), one more is refused with the declared range."""
    config = tmp_path / "kit.toml"
    config.write_text(f"solver_budget = {budget}\n")
    code, _, err = run(
        capsys, "simulate", "building-community", "--config", str(config), "--games", "2"
    )
    assert code == 0, err
    config.write_text(f"solver_budget = {int(budget) + 10_000_000_000}\n")
    code, _, err = run(
        capsys, "simulate", "building-community", "--config", str(config), "--games", "2"
    )
    assert code == 2
    assert (
        "'solver_budget' must be from 1 to 10000000000 (positions the layout check may "
        f"search), got {int(budget) + 10_000_000_000}" in one_error_line(err)
    )
