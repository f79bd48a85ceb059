"""Floating-point noise must not change a shape's type: dense sweeps of every game's sizes.

A union of spaces whose shared corners differ in the last bit, or a cut through a vertex,
used to leave a MultiPolygon where code read `.exterior` (Building Community crashed at
tile_size 28.1, clearance 1.27). `geometry.shapes.polygon_of` makes such results one
polygon; these sweeps run sizes on dense grids, not only the defaults. The wide grids are
`slow`; a subset that includes the sizes that crashed runs every time."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from shapely.geometry import LinearRing, Polygon, box
from shapely.ops import unary_union
from tiers import ci_keeps

from geometry import hexgrid
from geometry.dice import cube_net
from geometry.fan import blade_outline
from geometry.shapes import SYMBOLS, polygon_of, symbol, union_of
from pnp.build import resolve_params
from pnp.contract.params import PrintParams, field_hints, spec_of
from pnp.games import get_game, registry
from pnp.games.building_community.kit.board import FIELD_EDGE, board
from pnp.games.building_community.params import BuildingCommunityParams
from pnp.runtime.errors import PnpError

# --- the helper ---------------------------------------------------------------------------


def test_two_squares_a_bit_apart_make_one_polygon():
    left = box(0, 0, 1, 1)
    gap = np.nextafter(1.0, 2.0)  # the shared edge one bit apart
    right = Polygon([(gap, 0), (2, 0), (2, 1), (gap, 1)])
    assert unary_union([left, right]).geom_type == "MultiPolygon"  # the noise
    merged = union_of([left, right])
    assert merged.geom_type == "Polygon" and not list(merged.interiors)
    assert merged.area == pytest.approx(2.0, abs=1e-6)
    assert merged.bounds == pytest.approx((0, 0, 2, 1), abs=1e-6)


def test_a_clean_polygon_comes_back_unchanged():
    ring = box(0, 0, 10, 10).difference(box(4, 4, 6, 6))
    assert polygon_of(ring) is ring


def test_slivers_and_pinholes_are_dropped_real_holes_kept():
    plate = box(0, 0, 10, 10)
    pinhole = box(5, 5, 5 + 1e-4, 5 + 1e-4)  # 1e-8 mm^2
    hole = box(2, 2, 3, 3)
    sliver = box(10.5, 0, 10.5 + 1e-7, 1)
    got = polygon_of(unary_union([plate.difference(pinhole).difference(hole), sliver]))
    assert got.geom_type == "Polygon"
    assert len(got.interiors) == 1
    assert Polygon(got.interiors[0]).area == pytest.approx(1.0)


def test_two_real_pieces_are_an_error():
    with pytest.raises(ValueError, match="2 separate pieces"):
        union_of([box(0, 0, 1, 1), box(3, 0, 4, 1)], "test shape")


# --- Building Community's board: tile sizes and clearances -----------------------------


def _field_ring(p: BuildingCommunityParams) -> LinearRing:
    """The drawn outline of the field (the heavy edge round all spaces), read back."""
    comp = board(p, PrintParams())
    rings = [
        s.geom
        for s in comp.shapes("art")
        if s.style.stroke == FIELD_EDGE and s.style.stroke_width == 0.6
    ]
    assert len(rings) == 1
    return rings[0]


def _assert_board_draws(tile: float, clearance: float, radius: int = 3) -> None:
    p = BuildingCommunityParams(tile_size=tile, clearance=clearance, radius=radius)
    ring = _field_ring(p)
    assert ring.geom_type == "LinearRing" and ring.is_valid
    pitch = tile + clearance
    want = hexgrid.cell_count(radius) * hexgrid.hexagon(pitch, "flat").area
    assert Polygon(ring).area == pytest.approx(want, rel=1e-9)


CRASHED = [(28.1, 1.27), (33.3, 1.27), (11.4, 1.0), (24.0, 8.46153846153846)]
"""Sizes that crashed before the fix (the issue's two and two of the sweep's)."""


@pytest.mark.parametrize(("tile", "clearance"), CRASHED)
def test_sizes_that_crashed_draw_one_field(tile, clearance):
    _assert_board_draws(tile, clearance)


@pytest.mark.long  # CI: the sizes that crashed, and 100 clearances at one of them
def test_tile_sizes_every_millimetre_draw_one_field():
    for tile in np.arange(10.0, 200.1, 1.0):
        _assert_board_draws(round(float(tile), 1), 1.27)


@pytest.mark.long  # CI: every millimetre, the sizes that crashed, a thousand clearances
@pytest.mark.parametrize("clearance", [1.0, 1.27])
def test_tile_sizes_every_tenth_of_a_millimetre_draw_one_field(clearance):
    for tile in np.arange(10.0, 200.01, 0.1):
        _assert_board_draws(round(float(tile), 1), clearance)


@pytest.mark.slow
@pytest.mark.parametrize("steps", ci_keeps([100, 1000], 0))
def test_clearances_from_0_to_10_mm_draw_one_field(steps):
    for clearance in np.linspace(0.0, 10.0, steps, endpoint=False):
        _assert_board_draws(28.1, float(clearance))


# --- shapes every game draws --------------------------------------------------------------


@pytest.mark.parametrize("kind", SYMBOLS)
def test_every_symbol_is_one_polygon_at_every_size(kind):
    for size in np.arange(0.5, 60.0, 0.37):
        for cx in (0.0, 13.7, 123.45):
            shape = symbol(kind, cx, cx / 3, float(size))
            assert shape.geom_type == "Polygon" and shape.is_valid and shape.area > 0


@pytest.mark.slow
def test_die_nets_are_one_polygon_for_dense_die_sizes():
    for size in np.arange(5.0, 40.0, 0.05):
        net = cube_net(float(size))
        tabs = sum(t.area for t in net.tabs)
        assert net.outline.geom_type == "Polygon" and not list(net.outline.interiors)
        assert net.outline.area == pytest.approx(6 * size * size + tabs, rel=1e-9)


@pytest.mark.slow
def test_fan_blades_are_one_polygon_for_dense_sizes():
    for length in np.arange(20.0, 300.0, 2.9):
        for radius in np.arange(1.0, 50.0, 1.3):
            try:
                blade = blade_outline(float(length), float(radius), 30.0)
            except ValueError:  # too short for its corners: the params check says so
                continue
            assert blade.geom_type == "Polygon" and blade.is_valid


# --- every game's size parameters through its kit and checks -----------------------------

SOLVER_OFF = {"building-community": {"solver_budget": 1}}  # geometry only: no search


def size_fields(slug: str) -> list[tuple[str, float, float]]:
    """(name, lo, hi) of each game's number parameters with a declared range."""
    cls = type(get_game(slug).default_params())
    hints = field_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        s = spec_of(f)
        if hints[f.name] is float and s.lo is not None and s.hi is not None:
            out.append((f.name, s.lo, s.hi))
    return out


def kit_and_checks(slug: str, values: dict[str, float]) -> None:
    """Build the kit's geometry and run its checks (no rendering): a clean PnpError is a
    refusal, anything else escapes and fails the test."""
    game = get_game(slug)
    try:
        params, printing, _ = resolve_params(game, values={**SOLVER_OFF.get(slug, {}), **values})
        kit = game.build_kit(params, dataclasses.replace(printing, paper="a4"))
        game.checks(kit)
    except PnpError:
        pass


def _sweep(slug: str, points: int) -> None:
    for name, lo, hi in size_fields(slug):
        for value in np.linspace(lo, hi, points):
            kit_and_checks(slug, {name: float(value)})


@pytest.mark.parametrize(
    "slug",
    [  # one game's bounds in the slow tier (CI), the others' in the long one
        pytest.param(s, marks=pytest.mark.slow if s == "building-community" else pytest.mark.long)
        for s in registry()
    ],
)
def test_every_size_parameter_at_both_bounds(slug):
    _sweep(slug, 2)


@pytest.mark.long  # CI: every size parameter at both bounds (above), through kit and checks
@pytest.mark.parametrize("slug", list(registry()))
def test_every_size_parameter_on_a_dense_grid(slug):
    _sweep(slug, 8)  # with the fast test's bounds: 8 values a parameter, 6 of them inside
