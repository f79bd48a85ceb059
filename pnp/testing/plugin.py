"""pnp's pytest plugin (the `pytest11` entry point `pnp.testing.plugin`): the option that
rewrites golden files, the `slow` and `long` markers, and the fixtures the golden checks share.

Loaded in every pytest run where pnp is installed, so it imports nothing heavy until a
fixture is asked for; `-p no:pnp.testing.plugin` leaves it out.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pnp.reference.golden import KitParts


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("pnp").addoption(
        "--update-golden",
        action="store_true",
        help="rewrite the golden files from the current output instead of comparing "
        "(review the diff)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: property tests and end-to-end runs of a few seconds (-m 'not slow')"
    )
    config.addinivalue_line(
        "markers", "long: runs of a minute or more, left to `make test-all` (-m 'not long')"
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    """True under `--update-golden`: the golden checks write instead of comparing."""
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(scope="session")
def golden_kits() -> KitParts:
    """Every kit the golden checks look at, built once a session when first needed."""
    from pnp.reference.golden import KitParts

    return KitParts()


@pytest.fixture
def golden_pictures(request: pytest.FixtureRequest) -> Path:
    """Where a failed golden check leaves its side-by-side picture."""
    return request.config.rootpath / ".pytest_cache" / "golden-diff"
