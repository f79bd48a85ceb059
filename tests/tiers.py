"""Which cases of a parametrized test CI runs: the rest are marked `long` (docs/testing.md
lists every long test beside the proof CI makes instead)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest


def ci_keeps(cases: Iterable[Any], *kept: int) -> list[Any]:
    """`cases` as parameters, all but those at the `kept` positions marked long."""
    out: list[Any] = []
    for i, case in enumerate(cases):
        if i in kept:
            out.append(case)
        elif isinstance(case, tuple):
            out.append(pytest.param(*case, marks=pytest.mark.long))
        else:
            out.append(pytest.param(case, marks=pytest.mark.long))
    return out
