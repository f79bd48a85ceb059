"""Dice geometry measured against the print-and-cut spec: stickers, pips, candy, cube nets.

The cube-net tests fold the flat pieces in 3D with their own rotation maths (not the
module's), so a net that passes really closes into a cube.
"""

from __future__ import annotations

import math
from itertools import combinations

import pytest
from shapely import affinity
from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import polygonize, unary_union

from geometry.dice import (
    CROSS,
    cube_net,
    fold_net,
    opposite_slots,
    pip_centres,
    pips,
    sticker_outline,
    sticker_size,
)
from geometry.shapes import SYMBOLS
from pnp.contract.palette import ink
from pnp.games.exploding_dice.kit import candy_shapes as candy_mod
from pnp.games.exploding_dice.params import COLOURS

# --- independent folding -----------------------------------------------------------------

Vec = tuple[float, float, float]


def _rot(axis: Vec, angle: float) -> list[list[float]]:
    """Rodrigues rotation matrix about a unit axis."""
    x, y, z = axis
    c, s, t = math.cos(angle), math.sin(angle), 1 - math.cos(angle)
    return [
        [t * x * x + c, t * x * y - s * z, t * x * z + s * y],
        [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
        [t * x * z - s * y, t * y * z + s * x, t * z * z + c],
    ]


def _mul(m: list[list[float]], v: Vec) -> Vec:
    return tuple(sum(m[i][k] * v[k] for k in range(3)) for i in range(3))  # type: ignore[return-value]


def _matmul(a: list[list[float]], b: list[list[float]]) -> list[list[float]]:
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


class Folded:
    """Pieces of a flat net folded by 90 degrees along its fold lines, print side out."""

    def __init__(self, outline: Polygon, folds: list[LineString], size: float):
        pieces = list(polygonize(unary_union([outline.boundary, *folds])))
        self.size = size
        self.squares = [p for p in pieces if _is_square(p, size)]
        self.tabs = [p for p in pieces if not _is_square(p, size)]
        self.pieces = self.squares + self.tabs
        self.folds = folds
        self.edges: list[tuple[int, int, LineString]] = []
        for f in folds:
            (ax, ay), (bx, by) = f.coords[0], f.coords[-1]
            mx, my = (ax + bx) / 2, (ay + by) / 2
            nx, ny = -(by - ay), bx - ax
            ln = math.hypot(nx, ny)
            eps = 1e-3
            sides = [
                i
                for i, p in enumerate(self.pieces)
                for sgn in (1, -1)
                if p.contains(Point(mx + sgn * eps * nx / ln, my + sgn * eps * ny / ln))
            ]
            assert len(sides) == 2, f"fold {f} does not separate two pieces"
            self.edges.append((sides[0], sides[1], f))
        # BFS from square 0; transform = (R, t): local (x, y, 0) -> R p + t
        self.tf: dict[int, tuple[list[list[float]], Vec]] = {
            0: ([[1, 0, 0], [0, 1, 0], [0, 0, 1]], (0.0, 0.0, 0.0))
        }
        todo = [0]
        while todo:
            i = todo.pop(0)
            for a, b, f in self.edges:
                if i not in (a, b):
                    continue
                j = b if a == i else a
                if j in self.tf:
                    continue
                self.tf[j] = self._child(i, j, f)
                todo.append(j)
        assert len(self.tf) == len(self.pieces), "the net is not connected through its folds"

    def _child(self, i: int, j: int, f: LineString) -> tuple[list[list[float]], Vec]:
        (ax, ay), (bx, by) = f.coords[0], f.coords[-1]
        ln = math.hypot(bx - ax, by - ay)
        axis = ((bx - ax) / ln, (by - ay) / ln, 0.0)
        c = self.pieces[j].representative_point()
        for angle in (math.pi / 2, -math.pi / 2):
            rot = _rot(axis, angle)
            z = _mul(rot, (c.x - ax, c.y - ay, 0.0))[2]
            if z < 0:  # folds away from the printed side
                break
        r_par, t_par = self.tf[i]
        # child(p) = parent(rot (p - a) + a)
        a: Vec = (ax, ay, 0.0)
        ra = _mul(rot, a)
        shift = (a[0] - ra[0], a[1] - ra[1], a[2] - ra[2])
        r = _matmul(r_par, rot)
        ps = _mul(r_par, shift)
        return r, (ps[0] + t_par[0], ps[1] + t_par[1], ps[2] + t_par[2])

    def point(self, piece: int, x: float, y: float) -> Vec:
        r, t = self.tf[piece]
        p = _mul(r, (x, y, 0.0))
        return (round(p[0] + t[0], 6), round(p[1] + t[1], 6), round(p[2] + t[2], 6))

    def centre(self, piece: int) -> Vec:
        c = self.pieces[piece].centroid
        return self.point(piece, c.x, c.y)

    def cube_centre(self) -> Vec:
        cs = [self.centre(i) for i in range(len(self.squares))]
        return tuple(sum(c[k] for c in cs) / len(cs) for k in range(3))  # type: ignore[return-value]

    def normal(self, square: int) -> Vec:
        c, m = self.centre(square), self.cube_centre()
        return tuple(round((c[k] - m[k]) / (self.size / 2), 6) for k in range(3))  # type: ignore[return-value]

    def segment3(self, piece: int, line: LineString) -> frozenset[Vec]:
        return frozenset(self.point(piece, x, y) for x, y in (line.coords[0], line.coords[-1]))

    def square_edges(self, square: int) -> set[frozenset[Vec]]:
        cs = list(self.pieces[square].exterior.coords)[:-1]
        pts = [self.point(square, x, y) for x, y in cs]
        return {frozenset((pts[k], pts[(k + 1) % len(pts)])) for k in range(len(pts))}


def _is_square(p: Polygon, size: float) -> bool:
    minx, miny, maxx, maxy = p.bounds
    return (
        abs(p.area - size * size) < 1e-6 * size * size
        and abs(maxx - minx - size) < 1e-6
        and abs(maxy - miny - size) < 1e-6
    )


def assert_folds_to_cube(outline: Polygon, folds: list[LineString], size: float) -> Folded:
    """Six squares and seven tabs that fold into a closed cube, every seam glued once."""
    fo = Folded(outline, folds, size)
    assert len(fo.squares) == 6
    assert len(fo.tabs) == 7
    normals = {fo.normal(i) for i in range(6)}
    axes = {(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)}
    assert normals == axes, "the six squares do not land on six cube faces"
    square_folds = [(a, b) for a, b, _ in fo.edges if a < 6 and b < 6]
    tab_folds = [(a, b) for a, b, _ in fo.edges if (a >= 6) != (b >= 6)]
    assert len(square_folds) == 5
    assert len(tab_folds) == 7
    all_edges = set().union(*(fo.square_edges(i) for i in range(6)))
    assert len(all_edges) == 12
    fold_edges = set()
    for a, b, f in fo.edges:
        sq = a if a < 6 else b
        fold_edges.add(fo.segment3(sq, f))
    assert fold_edges == all_edges, "5 face folds and 7 tab roots must be the 12 cube edges"
    for t in range(6, 13):  # a tab, folded in, lies flat on the inside of another face
        ((a, b, f),) = [(a, b, f) for a, b, f in fo.edges if t in (a, b)]
        owner = a if b == t else b
        pts = [fo.point(t, x, y) for x, y in list(fo.pieces[t].exterior.coords)[:-1]]
        partner = [
            i for i in range(6) if i != owner and fo.segment3(owner, f) in fo.square_edges(i)
        ]
        assert len(partner) == 1
        n = fo.normal(partner[0])
        c = fo.centre(partner[0])
        k = next(i for i in range(3) if n[i] != 0)
        for p in pts:
            assert p[k] == pytest.approx(c[k], abs=1e-6), "tab not flat on its partner face"
            for m in range(3):
                if m != k:
                    assert abs(p[m] - c[m]) <= size / 2 + 1e-6, "tab sticks out of its face"
    return fo


# --- stickers and pips --------------------------------------------------------------------


@pytest.mark.parametrize("die", [10.0, 12.0, 16.0])
def test_sticker_is_the_face_less_two_mm(die):
    side = sticker_size(die, 2.0)
    assert side == pytest.approx(die - 2.0)
    cut = sticker_outline(0, 0, side)
    minx, miny, maxx, maxy = cut.bounds
    assert maxx - minx == pytest.approx(die - 2.0, abs=1e-9)
    assert maxy - miny == pytest.approx(die - 2.0, abs=1e-9)
    assert cut.area < side * side  # rounded corners
    assert box(-die / 2, -die / 2, die / 2, die / 2).contains(cut)


@pytest.mark.parametrize("margin", [-0.5, 5.0, 7.0])
def test_sticker_margin_must_leave_a_sticker(margin):
    with pytest.raises(ValueError):
        sticker_size(10.0, margin)


@pytest.mark.parametrize("value", range(1, 7))
@pytest.mark.parametrize("kind", ["circle", "triangle", "square", "diamond"])
def test_pips_count_fit_and_do_not_touch(value, kind):
    size = 8.0
    ps = pips(value, 0, 0, size, kind)
    assert len(ps) == value
    face = box(-size / 2, -size / 2, size / 2, size / 2).buffer(-0.5)
    for a in ps:
        assert face.contains(a)
    for a, b in combinations(ps, 2):
        assert a.distance(b) > 0.3  # mm: separate dots after printing


def test_pip_layouts_are_the_standard_ones():
    # 1, 3, 5 have a centre pip; 2, 4, 6 do not; 4 and 5 have all four corners
    for v in range(1, 7):
        centre = any(abs(x) < 1e-9 and abs(y) < 1e-9 for x, y in pip_centres(v, 0, 0, 10))
        assert centre == (v % 2 == 1)
    corners = {(sx, sy) for sx in (-1, 1) for sy in (-1, 1)}
    for v in (4, 5, 6):
        got = {
            (round(x / abs(x)), round(y / abs(y)))
            for x, y in pip_centres(v, 0, 0, 10)
            if abs(x) > 1e-9 and abs(y) > 1e-9
        }
        assert got == corners
    with pytest.raises(ValueError):
        pip_centres(7, 0, 0, 10)


def _normalised(g):
    c = g.centroid
    g = affinity.translate(g, -c.x, -c.y)
    return affinity.scale(g, 1 / math.sqrt(g.area), 1 / math.sqrt(g.area), origin=(0, 0))


def test_every_game_colour_gives_a_different_pip():
    kinds = [ink(c).symbol for c in COLOURS]
    assert len(set(kinds)) == 4
    shapes = {k: _normalised(pips(1, 0, 0, 10, k)[0]) for k in kinds}
    for a, b in combinations(kinds, 2):
        diff = shapes[a].symmetric_difference(shapes[b]).area
        assert diff > 0.1, f"{a} and {b} pips look alike"
    for v in range(1, 7):  # every symbol draws, same count
        assert all(len(pips(v, 0, 0, 10, k)) == v for k in SYMBOLS)


# --- candy ---------------------------------------------------------------------------------


def test_six_different_candies():
    sil = {v: _normalised(candy_mod.silhouette(v)) for v in range(1, 7)}
    for a, b in combinations(range(1, 7), 2):
        diff = sil[a].symmetric_difference(sil[b]).area
        assert diff > 0.25, f"{candy_mod.NAMES[a]} and {candy_mod.NAMES[b]} look alike"
    assert len(set(candy_mod.NAMES.values())) == 6


@pytest.mark.parametrize("value", range(1, 7))
def test_candy_fits_its_face_and_leaves_the_corners_free(value):
    size = 8.0
    parts = candy_mod.candy(value, 3.0, -2.0, size)
    assert parts and all(role in candy_mod.ROLES for role, _ in parts)
    sil = unary_union([g for _, g in parts])
    face = box(3.0 - size / 2, -2.0 - size / 2, 3.0 + size / 2, -2.0 + size / 2)
    assert face.buffer(-0.3).contains(sil)
    k = candy_mod.KEEP_OUT * size
    top_left = box(face.bounds[0], face.bounds[3] - k, face.bounds[0] + k, face.bounds[3])
    bottom_right = box(face.bounds[2] - k, face.bounds[1], face.bounds[2], face.bounds[1] + k)
    assert not sil.intersects(top_left)
    assert not sil.intersects(bottom_right)
    assert sil.area > 0.12 * size * size  # a picture, not a speck
    assert all(g.is_valid and not g.is_empty for _, g in parts)


def test_candy_rejects_other_values():
    with pytest.raises(ValueError):
        candy_mod.candy(0, 0, 0, 8)


# --- cube nets ------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [10.0, 12.0, 16.0, 25.0])
def test_cube_net_outline_is_one_closed_polygon_of_six_faces_and_seven_tabs(size):
    net = cube_net(size)
    out = net.outline
    assert out.geom_type == "Polygon" and out.is_valid
    assert not list(out.interiors)
    assert out.exterior.is_closed and out.exterior.is_ring
    h = net.tab
    assert 0 < h < size / 2
    # each tab is a trapezoid of depth h on a full edge: area between h(s-2h) and h*s
    tab_area = out.area - 6 * size * size
    assert 7 * h * (size - 2 * h) - 1e-6 < tab_area < 7 * h * size
    assert net.width == pytest.approx(out.bounds[2] - out.bounds[0])
    assert out.bounds[0] == pytest.approx(0) and out.bounds[1] == pytest.approx(0)
    assert len(net.face_folds) == 5 and len(net.tab_folds) == 7


@pytest.mark.parametrize("size", [10.0, 16.0])
def test_cube_net_folds_into_a_cube(size):
    net = cube_net(size)
    fo = assert_folds_to_cube(net.outline, [*net.face_folds, *net.tab_folds], size)
    # faces come back in slot order: slot i opposite slot 5 - i
    by_square = {}
    for slot, face in enumerate(net.faces):
        (i,) = [k for k in range(6) if fo.pieces[k].equals(face)]
        by_square[slot] = fo.normal(i)
    for slot in range(3):
        a, b = by_square[slot], by_square[5 - slot]
        assert tuple(-x for x in a) == b
    # front, top, left (1, 2, 3 on a standard die) run counterclockwise: a right-handed die
    n1, n2, n3 = by_square[0], by_square[1], by_square[2]
    cross = (
        n1[1] * n2[2] - n1[2] * n2[1],
        n1[2] * n2[0] - n1[0] * n2[2],
        n1[0] * n2[1] - n1[1] * n2[0],
    )
    assert sum(cross[k] * n3[k] for k in range(3)) > 0


def test_tab_depth_is_checked():
    with pytest.raises(ValueError):
        cube_net(10.0, tab=5.0)
    custom = cube_net(20.0, tab=4.0)
    assert custom.tab == 4.0
    assert custom.outline.area - 6 * 400 == pytest.approx(7 * 4.0 * (20 - 4.0))


def test_fold_net_rejects_shapes_that_are_not_cube_nets():
    with pytest.raises(ValueError):
        fold_net([(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)])  # 2 x 3 block
    with pytest.raises(ValueError):
        fold_net([(k, 0) for k in range(6)])  # a strip wraps onto itself
    with pytest.raises(ValueError):
        fold_net([(0, 0), (1, 0), (5, 5), (2, 0), (3, 0), (1, 1)])  # not connected
    assert sorted(opposite_slots(CROSS)) == [(0, 5), (1, 4), (2, 3)]


def test_another_valid_net_also_folds():
    # the 'staircase' hexomino is a cube net too; tab choice by rank must still glue every seam
    cells = [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2), (3, 2)]
    net = cube_net(10.0, cells=cells, tab_rank=[0, 1, 2, 3, 4, 5])
    assert_folds_to_cube(net.outline, [*net.face_folds, *net.tab_folds], 10.0)
