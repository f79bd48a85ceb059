"""`GameSuite`: the bar pnp holds its built-in games to, as one class a game in a package
of its own subclasses in its tests::

    from pathlib import Path

    from pnp.testing.suite import GameSuite


    class TestLanternRace(GameSuite):
        slug = "lantern-race"
        reference = Path(__file__).parent  # golden/lantern-race/, conformance/lantern-race.json

The game is found in pnp's registry, through the package's `pnp.games` entry point, so the
package is installed first (`pip install -e .`). The tests: the registry contract
(`pnp.testing.contract`), the golden files (`pnp.testing.golden`, rewritten by
`pytest --update-golden`), the conformance data (`pnp.testing.conformance`, rewritten by
`python -m pnp.reference.conformance_data SLUG`) and, in the slow tier, the bad-input properties
(`pnp.testing.bad_input`) and the PDFs' pages read back.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest

from pnp.contract.gamedef import GameDef
from pnp.contract.paper import PAPERS
from pnp.games import get_game, registry
from pnp.reference.golden import KitParts, places
from pnp.runtime.errors import PnpError
from pnp.testing import bad_input, contract, golden
from pnp.testing import conformance as data


class GameSuite:
    """Subclass with `slug` (the game's) and `reference` (the folder holding `golden/` and
    `conformance/`); name the subclass `Test...` so pytest collects it."""

    slug: ClassVar[str]
    reference: ClassVar[Path]

    # --- what the tests are parametrized by --------------------------------------------------

    @classmethod
    def game(cls) -> GameDef:
        return get_game(cls.slug)

    @classmethod
    def _installed(cls) -> GameDef | None:
        try:
            return cls.game()
        except PnpError:
            return None  # test_the_game_is_installed says so

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        cls = type(self)
        game = cls._installed()
        recorded = data.load(cls.reference / "conformance", cls.slug) if game else None
        params: dict[str, tuple[list[Any], Callable[[Any], str] | None]] = {
            "golden_place": (places(game) if game else [], None),
            "golden_key": (golden.golden_keys(cls.reference / "golden", [cls.slug]), None),
            "recorded_game": (data.entries(recorded, "games"), data.label),
            "perft_case": (data.entries(recorded, "perft"), data.label),
        }
        for name, (values, ids) in params.items():
            if name in metafunc.fixturenames:
                metafunc.parametrize(name, values, ids=ids)

    def engine_game(self) -> GameDef:
        game = self.game()
        if game.engine is None:
            pytest.skip(f"{self.slug} has no rules engine")
        return game

    # --- the game is there ---------------------------------------------------------------------

    def test_the_game_is_installed(self) -> None:
        assert self.slug in registry(), (
            f"pnp does not list {self.slug}: install its package (pip install -e .), whose "
            'pyproject.toml declares it under [project.entry-points."pnp.games"]'
        )

    # --- the registry contract -----------------------------------------------------------------

    def test_kit_builds_checks_and_renders(self, tmp_path: Path) -> None:
        contract.check_kit_builds(self.slug, tmp_path)

    @pytest.mark.slow
    @pytest.mark.parametrize("paper", list(PAPERS))
    def test_every_sheet_is_a_front_and_its_own_back(self, paper: str, tmp_path: Path) -> None:
        contract.check_sheets(self.slug, paper, tmp_path)

    @pytest.mark.slow
    def test_the_print_pdf_carries_no_machine_cut_lines(self, tmp_path: Path) -> None:
        contract.machine_hairlines(self.slug, tmp_path)

    def test_the_simulated_set_is_the_printed_set(self) -> None:
        self.engine_game()
        contract.check_simulated_set_is_printed(self.slug)

    def test_a_short_simulation_reports_what_the_game_declares(self) -> None:
        self.engine_game()
        contract.check_short_simulation(self.slug)

    def test_a_small_solve_where_the_game_has_a_solver(self) -> None:
        if not contract.check_small_solve(self.slug):
            pytest.skip(f"{self.slug} has no solver")

    def test_the_rule_keys_are_the_keys_the_play_model_is_made_from(self) -> None:
        self.engine_game()
        contract.check_rule_keys(self.slug)

    # --- golden files --------------------------------------------------------------------------

    def test_every_part_has_its_golden_files(
        self, golden_place: str, golden_kits: KitParts, update_golden: bool
    ) -> None:
        golden.check_place(self.reference / "golden", golden_place, golden_kits, update_golden)

    def test_part_is_byte_identical_to_its_golden_svg(
        self, golden_key: str, golden_kits: KitParts, update_golden: bool, golden_pictures: Path
    ) -> None:
        golden.check_svg(
            self.reference / "golden", golden_key, golden_kits, update_golden, golden_pictures
        )

    def test_part_data_matches_its_golden_data(
        self, golden_key: str, golden_kits: KitParts, update_golden: bool, golden_pictures: Path
    ) -> None:
        golden.check_data(
            self.reference / "golden", golden_key, golden_kits, update_golden, golden_pictures
        )

    def test_part_cut_lines_match_golden_within_tolerance(
        self, golden_key: str, golden_kits: KitParts, update_golden: bool, golden_pictures: Path
    ) -> None:
        golden.check_cuts(
            self.reference / "golden", golden_key, golden_kits, update_golden, golden_pictures
        )

    # --- conformance data ----------------------------------------------------------------------

    def test_ships_its_conformance_data(self) -> None:
        data.check_data(self.engine_game(), self.reference / "conformance")

    def test_declares_its_implementations(self) -> None:
        data.check_implementations(self.engine_game())

    def test_every_implementation_replays_each_recorded_game(
        self, recorded_game: dict[str, Any]
    ) -> None:
        """Step by step, its searches too, and `play_one`'s ending, on each declared
        implementation (the readable rules, and any kernel or fast path)."""
        game = self.engine_game()
        for name in game.implementations:
            with data.implementation(game, name):
                data.replay(game, recorded_game, name)
                data.check_searches(game, recorded_game, name)
                data.check_play_one(game, recorded_game, name)

    def test_the_games_bots_make_the_recorded_choices(self, recorded_game: dict[str, Any]) -> None:
        game = self.engine_game()
        with data.readable_rules(game):
            data.check_bots(game, recorded_game)

    def test_perft_counts_from_each_recorded_position(self, perft_case: dict[str, Any]) -> None:
        game = self.engine_game()
        with data.readable_rules(game):
            data.check_perft(game, perft_case)

    # --- bad input -----------------------------------------------------------------------------

    @pytest.mark.slow
    def test_check_never_crashes(self) -> None:
        bad_input.check_never_crashes(self.slug)

    @pytest.mark.slow
    def test_build_never_crashes_and_a_failure_leaves_nothing(
        self, tmp_path_factory: pytest.TempPathFactory
    ) -> None:
        bad_input.check_build_leaves_nothing(self.slug, lambda: tmp_path_factory.mktemp("out"))
