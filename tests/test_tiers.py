"""The test tiers as docs/testing.md lists them: every test marked `long` (left out of CI)
is named on that page beside the proof CI makes instead."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
PAGE = TESTS.parent / "docs" / "testing.md"


def _marks_long(node: ast.AST) -> bool:
    """Whether `pytest.mark.long` appears anywhere in the expression."""
    return any(
        isinstance(n, ast.Attribute) and n.attr == "long" and ast.unparse(n.value) == "pytest.mark"
        for n in ast.walk(node)
    )


def _calls(node: ast.AST) -> set[str]:
    return {
        n.func.id
        for n in ast.walk(node)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }


def long_tests(source: str) -> set[str]:
    """The test functions a module marks long, whole or in some of their parameters (in
    their decorators, or through module-level helpers that build their parameters)."""
    tree = ast.parse(source)
    functions = [f for f in tree.body if isinstance(f, ast.FunctionDef)]
    helpers = {f.name for f in functions if not f.name.startswith("test_") and _marks_long(f)}
    helpers.add("ci_keeps")  # tests/tiers.py: marks all but the cases CI keeps
    grown = True
    while grown:  # a helper that calls a helper marks long too
        more = {
            f.name
            for f in functions
            if not f.name.startswith("test_") and f.name not in helpers and _calls(f) & helpers
        }
        helpers |= more
        grown = bool(more)
    return {
        f.name
        for f in functions
        if f.name.startswith("test_")
        and any(_marks_long(d) or _calls(d) & helpers for d in f.decorator_list)
    }


def test_the_finder_sees_a_long_mark_in_each_place_it_can_be():
    source = """
import pytest

def tier(n):
    return pytest.mark.long if n else pytest.mark.slow

def cases():
    return [pytest.param(n, marks=tier(n)) for n in (0, 1)]

@pytest.mark.long
def test_whole():
    pass

@pytest.mark.parametrize("n", [1, pytest.param(2, marks=pytest.mark.long)])
def test_one_case(n):
    pass

@pytest.mark.parametrize("n", cases())
def test_built(n):
    pass

@pytest.mark.slow
def test_slow_only():
    pass
"""
    assert long_tests(source) == {"test_whole", "test_one_case", "test_built"}


def test_every_long_test_is_listed_with_its_proof_in_ci():
    page = PAGE.read_text()
    found = {
        f"{path.name}::{name}"
        for path in sorted(TESTS.glob("test_*.py"))
        for name in long_tests(path.read_text())
    }
    assert found, "no test is marked long: the finder is broken"
    missing = sorted(
        t for t in found if f"`{t}`" not in page and f"`{t.split('::')[1]}`" not in page
    )
    assert not missing, f"marked long but not on docs/testing.md: {missing}"
