"""Bad input, tried as a hostile user would, through every built-in game's schema
(`pnp.testing.bad_input`, the properties a plugin game's suite runs too).

Whatever the values (NaN, infinities, zero, negatives, huge numbers, wrong types, range
edges, lists and tables nested thousands deep, unknown or another game's keys), `check`
and `build` either work or raise the project's one error type (a `PnpError`, or
`ChecksFailed` for a kit that fails its checks); a failed build leaves the output folder
exactly as it was."""

from __future__ import annotations

import pytest

from pnp.build import check_game
from pnp.games import built_in_slugs
from pnp.runtime.errors import PnpError
from pnp.testing.bad_input import check_build_leaves_nothing, check_never_crashes, nested

GAMES = list(built_in_slugs())


# CI: every game's hundreds of hostile configs against validation, and one whole check and
# one whole build on a config validation accepts; `make test-all` lays out five and builds two.
@pytest.mark.slow
@pytest.mark.parametrize("slug", GAMES)
def test_check_never_crashes(slug):
    check_never_crashes(slug, layouts=1)


@pytest.mark.slow
@pytest.mark.parametrize("slug", GAMES)
def test_build_never_crashes_and_a_failure_leaves_nothing(slug, tmp_path_factory):
    check_build_leaves_nothing(slug, lambda: tmp_path_factory.mktemp("out"), builds=1)


@pytest.mark.long
@pytest.mark.parametrize("slug", GAMES)
def test_check_never_crashes_on_many_accepted_layouts(slug):
    check_never_crashes(slug, examples=0, layouts=5)


@pytest.mark.long
@pytest.mark.parametrize("slug", GAMES)
def test_builds_of_many_accepted_configs_never_crash(slug, tmp_path_factory):
    check_build_leaves_nothing(slug, lambda: tmp_path_factory.mktemp("out"), examples=0, builds=2)


@pytest.mark.parametrize("key", ["paper", "cut_bed"])
@pytest.mark.parametrize("table", [False, True])
def test_a_deep_value_for_a_named_choice_is_one_line(key, table):
    """A paper or a cutter bed given as a list or table thousands deep: its name cannot
    be shown (its repr would exceed the recursion limit), so the line says so."""
    with pytest.raises(PnpError) as err:
        check_game("desert-home", values={key: nested(5000, table)}, paper="a4")
    assert "nested too deeply" in str(err.value) and "\n" not in str(err.value)
