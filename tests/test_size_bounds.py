"""Every size has a physical lower bound, and `check` fails whatever `build` would fail.

A 0.01 mm die passed `check` and then failed to render ("The SVG size is undefined"); a
5e-324 mm die failed with an internal message. Sizes now start where a thing can be held
(a die from 5 mm, a tile from 10 mm, a board reduced at most to a tenth), parts smaller
than `MIN_PART` are a check error, and a shape the geometry cannot make is one line for
`check` and `build` alike. The property test builds random valid configs."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from cli_run import one_error_line, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.build import ChecksFailed, build_game, check_game
from pnp.contract.params import MIN_DIE, field_hints, spec_of
from pnp.draw.checks import MIN_PART, check_part_sizes, has_errors
from pnp.draw.scene import Component
from pnp.games import get_game, registry
from pnp.runtime.errors import PnpError

DICE_GAMES = [s for s, g in registry().items() if hasattr(g.default_params(), "die_size")]


def test_four_games_have_dice():
    assert sorted(DICE_GAMES) == [
        "desert-home",
        "exploding-dice",
        "home-in-one-piece",
        "parcheesi",
    ]


@pytest.mark.parametrize("slug", DICE_GAMES)
@pytest.mark.parametrize("size", ["0.01", "5e-324", "4.99"])
def test_a_die_too_small_to_hold_is_one_line_for_check_and_build(tmp_path, capsys, slug, size):
    config = tmp_path / "kit.toml"
    config.write_text(f"die_size = {size}\n")
    for command in (["check", slug], ["build", slug, "--out", str(tmp_path / "out")]):
        code, _, err = run(capsys, *command, "--config", str(config))
        assert code == 2
        assert "'die_size' must be from 5 to 40" in one_error_line(err)
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
@pytest.mark.parametrize("slug", DICE_GAMES)
def test_the_smallest_die_builds(slug):
    """5 mm dice lay out and pass, or fail, their checks with findings, never a crash."""
    check_game(slug, paper="a4", values={"die_size": MIN_DIE, "sticker_margin": 1.0})


def test_every_game_size_in_mm_has_a_positive_lower_bound():
    """A size of 'mm' must start above zero unless zero means 'none' (a margin, a bleed,
    a kerf, a clearance, a corner radius, a gap, a sticker margin or a bridge's span)."""
    may_be_zero = ("margin", "bleed", "kerf", "clearance", "radius", "gap", "offset", "span")
    for slug, game in registry().items():
        cls = type(game.default_params())
        hints = field_hints(cls)
        for f in dataclasses.fields(cls):
            s = spec_of(f)
            if hints[f.name] is not float or "mm" not in s.help:
                continue
            if any(word in f.name for word in may_be_zero):
                continue
            assert s.lo is not None and s.lo > 0, (slug, f.name, s)


def test_a_part_under_the_smallest_size_is_a_check_error():
    tiny = Component("speck", "Speck", MIN_PART / 2, 10.0)
    fine = Component("card", "Card", 63.5, 88.9)
    found = check_part_sizes([tiny, fine])
    assert [f.component for f in found] == ["speck"] and has_errors(found)
    assert "cannot be printed" in found[0].message


def test_a_shape_the_geometry_cannot_make_is_one_line(monkeypatch):
    """A ValueError from the geometry (an impossible size) is a PnpError for check and build."""
    import pnp.build

    game = get_game("parcheesi")

    def impossible(*_args):
        raise ValueError("glue tab depth must be in (0, 0) mm")

    broken = dataclasses.replace(game, build_kit=impossible)
    monkeypatch.setattr(pnp.build, "get_game", lambda _slug: broken)
    with pytest.raises(PnpError, match="cannot be made with these sizes: glue tab depth"):
        check_game("parcheesi", paper="a4")


# --- the property: a kit that passes check builds ----------------------------------------


def _sizes(slug: str) -> list[tuple[str, type, float, float]]:
    cls = type(get_game(slug).default_params())
    hints = field_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        s = spec_of(f)
        if hints[f.name] in (int, float) and s.lo is not None and s.hi is not None:
            if f.name != "solver_budget":
                out.append((f.name, hints[f.name], s.lo, s.hi))
    return out


@st.composite
def configs(draw, slug: str) -> dict[str, float]:
    """One to three of a game's number parameters, each anywhere in its declared range
    (often at a bound, where the trouble was)."""
    fields = draw(st.lists(st.sampled_from(_sizes(slug)), min_size=1, max_size=3, unique=True))
    out: dict[str, float] = {}
    for name, kind, lo, hi in fields:
        if kind is int:
            out[name] = draw(st.integers(int(lo), int(hi)))
        else:
            share = draw(st.one_of(st.sampled_from([0.0, 1.0]), st.floats(0, 1)))
            out[name] = lo + (hi - lo) * share  # an open bound is refused: one line
    return out


def _built_configs() -> list:
    """One config of each game in CI (Desert Home's, 11 s of CPU, long), four long."""
    return [
        pytest.param(
            slug,
            n,
            id=f"{'one' if n == 1 else 'four'}-{slug}",
            marks=pytest.mark.slow if n == 1 and slug != "desert-home" else pytest.mark.long,
        )
        for n in (1, 4)
        for slug in registry()
    ]


@pytest.mark.parametrize(("slug", "examples"), _built_configs())
def test_a_config_that_passes_check_builds(slug, examples):
    """A build runs the same checks first: it either stops on their errors (or refuses a
    value in one line) or renders every format."""
    quick = {"solver_budget": 1} if slug == "building-community" else {}

    @settings(max_examples=examples, suppress_health_check=[HealthCheck.too_slow])
    @given(configs(slug))
    def prop(values):
        values = {**quick, **values}
        try:
            result = build_game(slug, ["a4"], Path("/dev/null"), values=values)
        except ChecksFailed as failed:
            assert has_errors(failed.findings)
            return
        except PnpError:
            return  # refused with one line
        assert result.files  # every format rendered, nothing kept

    prop()
