"""geometry.blobs: dough physics, start circles, home zone, and the die-face blob."""

from __future__ import annotations

import math

import pytest
from shapely.geometry import Point, box

from geometry.blobs import (
    ball_radius,
    blob_face,
    blob_volume,
    disc,
    disc_radius,
    home_fit,
    home_zone,
    min_board_height,
    resting_radius,
    start_fit,
    start_row,
)


def test_a_blob_is_an_eighth_of_150_g_at_1_2_g_per_cm3():
    assert blob_volume(150, 8, 1.2) == pytest.approx(15_625.0)  # mm^3, 15.625 cm^3


@pytest.mark.parametrize("bad", [(0, 8, 1.2), (150, 0, 1.2), (150, 8, 0)])
def test_blob_volume_rejects_empty_dough(bad):
    with pytest.raises(ValueError):
        blob_volume(*bad)


def test_ball_and_disc_radii_hold_the_volume():
    v = 15_625.0
    assert 4 / 3 * math.pi * ball_radius(v) ** 3 == pytest.approx(v)
    assert math.pi * disc_radius(v, 15.0) ** 2 * 15.0 == pytest.approx(v)
    assert disc_radius(v, 15.0) == pytest.approx(18.2091, abs=1e-4)


def test_a_resting_blob_is_a_disc_unless_taller_than_its_ball():
    v = 15_625.0
    assert resting_radius(v, 20.0) == disc_radius(v, 20.0)  # 15.77 mm: wider than the ball
    assert resting_radius(v, 60.0) == ball_radius(v)  # cannot stand 6 cm tall: a ball
    with pytest.raises(ValueError):
        disc_radius(v, 0)


def test_the_start_row_sets_the_board_width():
    row = start_row(16, blob_radius=15.0, circle_margin=3.0, gap=4.0, board_margin=10.0)
    assert row.circle_radius == 18.0
    assert row.pitch == 40.0
    assert row.width == 10 + 16 * 36 + 15 * 4 + 10  # circles side by side plus margins
    centres = row.centres()
    assert len(centres) == 16
    assert centres[0] == (28.0, 28.0)
    assert centres[-1][0] == pytest.approx(row.width - 28.0)
    assert all(
        b[0] - a[0] == pytest.approx(40.0) for a, b in zip(centres, centres[1:], strict=False)
    )
    assert row.top == 10 + 36


def test_circles_hold_their_blobs_and_neighbours_do_not_touch():
    row = start_row(16, 15.0, 3.0, 4.0, 10.0)
    fit = start_fit(row, 15.0)
    assert fit.holds and fit.apart
    assert fit.neighbour_gap == pytest.approx(10.0, abs=0.05)  # gap 4 + two 3 mm margins
    assert not start_fit(row, 18.5).holds  # a blob wider than its circle


def test_blobs_in_touching_circles_with_no_margin_touch():
    row = start_row(4, 15.0, 0.0, 0.0, 10.0)
    fit = start_fit(row, 15.0)
    assert fit.holds and not fit.apart
    assert fit.neighbour_gap == 0


def test_home_zone_is_the_top_band_inside_the_margins():
    assert home_zone(600, 400, 10, 130).bounds == (10, 260, 590, 390)
    row = start_row(16, 15.0, 3.0, 4.0, 10.0)
    assert min_board_height(row, 130) == 46 + 130 + 10


def test_home_holds_both_players_whole_dough_side_by_side():
    r = disc_radius(150 / 1.2 * 1000, 15.0)  # 51.5 mm: all 150 g at 1.5 cm
    home = home_zone(680, 400, 10, 130)
    fit = home_fit(home, (r, r))
    assert fit.ok
    a, b = fit.discs
    assert not a.intersects(b)
    assert home.contains(a) and home.contains(b)
    assert a.area == pytest.approx(math.pi * r * r, rel=2e-3)
    assert fit.centres[0][1] == fit.centres[1][1] == 325  # side by side across the middle


def test_a_shallow_home_cannot_hold_one_disc():
    fit = home_fit(box(0, 0, 600, 100), (51.5, 51.5))
    assert not fit.ok and not fit.discs
    assert "wider than" in fit.reason


def test_two_discs_fit_only_corner_to_corner_in_a_square_home():
    fit = home_fit(box(0, 0, 200, 200), (51.5, 51.5))  # too narrow side by side (206 mm)
    assert fit.ok
    assert fit.clearance == pytest.approx(math.hypot(97, 97) - 103)
    assert fit.centres == ((51.5, 51.5), (148.5, 148.5))
    tight = home_fit(box(0, 0, 150, 150), (51.5, 51.5))
    assert not tight.ok and tight.clearance < 0
    assert "cannot lie apart" in tight.reason


def test_blob_face_is_a_soft_irregular_blob_of_the_given_size():
    face = blob_face(10.0, 3, cx=5.0, cy=-2.0)
    assert face.is_valid
    x0, y0, x1, y1 = face.bounds
    assert max(x1 - x0, y1 - y0) == pytest.approx(10.0)
    assert ((x0 + x1) / 2, (y0 + y1) / 2) == pytest.approx((5.0, -2.0))
    c = face.centroid
    radii = [Point(p).distance(c) for p in face.exterior.coords]
    assert max(radii) / min(radii) > 1.05  # not a pip: visibly lumpy
    assert max(radii) / min(radii) < 1.8  # but soft, no spikes
    assert face.convex_hull.area / face.area < 1.15


def test_blob_faces_are_fixed_by_their_seed():
    assert blob_face(12.0, "A1").equals(blob_face(12.0, "A1"))
    assert not blob_face(12.0, 1).equals(blob_face(12.0, 2))
    with pytest.raises(ValueError):
        blob_face(0, 1)


def test_disc_is_a_shapely_circle():
    d = disc(1.0, 2.0, 3.0)
    assert d.area == pytest.approx(math.pi * 9, rel=1e-3)
    assert d.centroid.coords[0] == pytest.approx((1.0, 2.0))
