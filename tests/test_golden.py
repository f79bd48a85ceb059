"""Golden files: every component of every built-in kit renders to the SVG on record, and
reads as the data on record (`pnp.reference.golden` writes them, `pnp.testing.golden` compares).

Per part, `golden/<game>/<part>.svg` is the byte-exact drawing and `<part>.json` its
readable data (size, layers, cut length and area, holes, texts); each game's named variants
keep `golden/<game>/<variant>/<part>.*` for every part that differs from the default kit.
A change shows as the fields that changed, whether the cut lines moved beyond a tolerance,
and a side-by-side picture under `.pytest_cache/golden-diff/`. After a deliberate change,
run `make golden` (GAME=slug for one game) and review the new files in git.

The built-in games only: a plugin game installed beside pnp keeps its golden files in its
own repository and checks them with its own suite (`pnp.testing.suite.GameSuite`). Kits
are built once, in a session fixture, when a test first needs one: collecting these tests
only lists files.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.games import built_in_slugs, get_game
from pnp.reference.golden import places
from pnp.testing.golden import check_cuts, check_data, check_place, check_svg, golden_keys

GOLDEN = Path(__file__).parent / "golden"
KITS = [where for slug in built_in_slugs() for where in places(get_game(slug))]
PARTS = golden_keys(GOLDEN, built_in_slugs())


@pytest.mark.parametrize("where", KITS)
def test_every_part_has_its_golden_files(where, golden_kits, update_golden):
    check_place(GOLDEN, where, golden_kits, update_golden)


@pytest.mark.parametrize("key", PARTS)
def test_part_is_byte_identical_to_its_golden_svg(key, golden_kits, update_golden, golden_pictures):
    check_svg(GOLDEN, key, golden_kits, update_golden, golden_pictures)


@pytest.mark.parametrize("key", PARTS)
def test_part_data_matches_its_golden_data(key, golden_kits, update_golden, golden_pictures):
    check_data(GOLDEN, key, golden_kits, update_golden, golden_pictures)


@pytest.mark.parametrize("key", PARTS)
def test_part_cut_lines_match_golden_within_tolerance(
    key, golden_kits, update_golden, golden_pictures
):
    check_cuts(GOLDEN, key, golden_kits, update_golden, golden_pictures)
