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


def _register_with_games(config: pytest.Config) -> None:
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
# a fixed derandomised run so a red build always reproduces. The fast tier (`-m "not slow"`
# outside CI) runs each property test on a quarter of its examples (`fast`); CI, `make
# test-slow` and `make test-all` run them all. HYPOTHESIS_PROFILE=NAME chooses one.
settings.register_profile("default", deadline=None)
settings.register_profile("fast", deadline=None, max_examples=25)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)


PROFILE = pytest.StashKey[str]()


def _profile(config: pytest.Config) -> str:
    if os.environ.get("HYPOTHESIS_PROFILE"):
        return os.environ["HYPOTHESIS_PROFILE"]
    if os.environ.get("CI"):
        return "ci"
    return "fast" if "not slow" in (config.option.markexpr or "") else "default"


def pytest_configure(config: pytest.Config) -> None:
    _register_with_games(config)
    config.stash[PROFILE] = _profile(config)
    settings.load_profile(config.stash[PROFILE])


def fewer_examples(n: int) -> int:
    """A quarter of a property test's own examples, at least three (or all if fewer)."""
    return min(n, max(3, n // 4))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under the `fast` profile a test's own `@settings(max_examples=N)` is cut too."""
    if config.stash[PROFILE] != "fast":
        return
    for item in items:
        test = getattr(item, "obj", None)
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if isinstance(own, settings):
            cut = settings(own, max_examples=fewer_examples(own.max_examples))
            test._hypothesis_internal_use_settings = cut  # type: ignore[union-attr]
