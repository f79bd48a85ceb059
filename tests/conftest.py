"""Shared test options: `--update-golden` rewrites the golden files instead of comparing;
`--with-game MODULE` tests a game not yet in the registry (`pnp new` writes a new game's
golden files this way); each test's waits on the processes it starts share one deadline
(`procs.TOTAL`)."""

from __future__ import annotations

import contextlib
import importlib
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
    parser.addoption(
        "--with-game",
        action="append",
        default=[],
        metavar="MODULE",
        help="also test the game whose `GAME` is in MODULE, as if it were registered",
    )


_WITH_GAMES = contextlib.ExitStack()


def pytest_configure(config: pytest.Config) -> None:
    """Register the `--with-game` games before collection, which parametrizes by game."""
    from pnp.games import registered

    for module in config.getoption("--with-game"):
        _WITH_GAMES.enter_context(registered(importlib.import_module(module).GAME))


def pytest_unconfigure(config: pytest.Config) -> None:
    _WITH_GAMES.close()


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
