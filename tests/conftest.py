"""Shared test options: `--update-golden` rewrites the golden files instead of comparing;
each test's waits on the processes it starts share one deadline (`procs.TOTAL`)."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import procs
import pytest
from hypothesis import settings


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite tests/golden/ from the current output (review the diff)",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture
def ctrl_c_raises() -> Iterator[None]:
    """SIGINT raises KeyboardInterrupt in this process, as from an interactive shell, even
    when pytest was started with Ctrl-C ignored (a background job, some CI runners)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


@pytest.fixture(autouse=True)
def _process_deadline() -> None:
    """A test's waits on its processes add up to `procs.TOTAL` at most, never minutes."""
    procs.new_test()


# Hypothesis: no per-example deadline (speed lives in `make bench`, not in tests), and in CI
# a fixed derandomised run so a red build always reproduces.
settings.register_profile("default", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")
