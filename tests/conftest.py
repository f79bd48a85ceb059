"""Shared test options: pnp's pytest plugin (`pnp.testing.plugin`: `--update-golden`);
`--game SLUG` keeps the tests about one game (`make test GAME=slug`, see `game_tests`); each
test's waits on the processes it starts share one deadline (`procs.TOTAL`)."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import procs
import pytest
from game_tests import about
from hypothesis import settings

pytest_plugins = ["pnp.testing.plugin"]  # also an entry point; named here for a stale venv


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--game",
        metavar="SLUG",
        help="only the tests about this game (its files, its cases; see tests/game_tests.py)",
    )


@pytest.fixture
def ctrl_c_raises() -> Iterator[None]:
    """SIGINT raises KeyboardInterrupt in this process, as from an interactive shell, even
    when pytest was started with Ctrl-C ignored (a background job, some CI runners)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


@pytest.fixture(autouse=True)
def _signals_as_they_were() -> Iterator[None]:
    """Every test leaves SIGINT and SIGTERM as it found them. A command run in this process
    that was stopped ends by ignoring both (`pnp.runtime.interrupt.finish`), as a process
    that is exiting should; here the worker goes on, and a later test's subprocesses would
    be born ignoring Ctrl-C."""
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    yield
    for signum, handler in before.items():
        if handler is not None and signal.getsignal(signum) is not handler:
            signal.signal(signum, handler)


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
    config.stash[PROFILE] = _profile(config)
    settings.load_profile(config.stash[PROFILE])


def fewer_examples(n: int) -> int:
    """A quarter of a property test's own examples, at least three (or all if fewer)."""
    return min(n, max(3, n // 4))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """`--game` keeps one game's tests; under the `fast` profile a test's own
    `@settings(max_examples=N)` is cut too."""
    slug = config.getoption("--game")
    if slug:
        from pnp.games import registry

        if slug not in registry():
            raise pytest.UsageError(f"--game {slug}: no such game ({', '.join(registry())})")
        config.hook.pytest_deselected(items=[i for i in items if not about(i, slug)])
        items[:] = [i for i in items if about(i, slug)]
    if config.stash[PROFILE] != "fast":
        return
    for item in items:
        test = getattr(item, "obj", None)
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if isinstance(own, settings):
            cut = settings(own, max_examples=fewer_examples(own.max_examples))
            test._hypothesis_internal_use_settings = cut  # type: ignore[union-attr]
