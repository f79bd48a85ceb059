"""Kerf at corners, read back from the written files: a part of straight edges (Building
Community's hexagons, Desert Home's octagons, every paper die net) keeps its corners, each
edge moved kerf/2 with mitred joins, in the DXF (ezdxf), the cut-sheet SVG and the
LightBurn project alike; a part with true curves keeps its arcs as arcs. No corner
becomes a string of tiny segments."""

from __future__ import annotations

import io
import itertools
import math
import re
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import ezdxf
import pytest
from cut_geometry import svg_subpath_points
from ezdxf.math import bulge_to_arc
from shapely.geometry import Point, Polygon
from shapely.geometry.polygon import orient

from pnp.build import build_game
from pnp.draw.render.lbrn2 import read_lbrn2

KERF = 0.2


@cache
def built(tmp: Path, slug: str, kerf: float) -> Path:
    out = tmp / f"kerf-{kerf}"
    build_game(slug, ["a4"], out, formats=["dxf", "svg", "lbrn2"], values={"kerf": kerf})
    return out / slug


@pytest.fixture(scope="module")
def tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("kerf")


Ring = list[tuple[float, float, float]]  # (x, y, bulge)


def dxf_rings(path: Path, layer: str = "cut") -> list[Ring]:
    doc = ezdxf.read(io.StringIO(path.read_text()))
    return [
        [(x, y, b) for x, y, b in e.get_points("xyb")]
        for e in doc.modelspace()
        if e.dxftype() == "LWPOLYLINE" and e.dxf.layer == layer and e.closed
    ]


def svg_rings(path: Path, layer: str = "cut") -> list[tuple[list[tuple[float, float]], int]]:
    """(points, arcs) of every closed subpath on one layer: M and L points as written."""
    root = ET.fromstring(path.read_text())
    group = next(
        g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("id") == f"layer-{layer}"
    )
    out = []
    for el in group.iter("{http://www.w3.org/2000/svg}path"):
        for sub in re.findall(r"M[^M]*", el.get("d", "")):
            if "Z" in sub:
                arcs = sub.count("A")
                pts = [] if arcs else svg_subpath_points(sub)[0]
                out.append((pts, arcs))
    return out


def _straight(ring: Ring) -> Polygon:
    assert all(b == 0 for _, _, b in ring)
    return Polygon([(x, y) for x, y, _ in ring])


def _matches_offset(kerfed: Polygon, drawn: Polygon) -> None:
    """The kerfed outline is the drawn one with each edge moved kerf/2 outward: as many
    corners, every edge's middle kerf/2 from the drawn outline, no corner nearer."""
    assert len(kerfed.exterior.coords) == len(drawn.exterior.coords)
    boundary = drawn.exterior
    ring = list(kerfed.exterior.coords)
    for p, q in itertools.pairwise(ring):
        mid = Point((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
        assert boundary.distance(mid) == pytest.approx(KERF / 2, abs=1e-4)
        assert not drawn.contains(mid)
        assert boundary.distance(Point(p)) >= KERF / 2 - 1e-4


def _by_centre(polys: list[Polygon]) -> dict[tuple[float, float], Polygon]:
    return {(round(p.centroid.x, 2), round(p.centroid.y, 2)): p for p in polys}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("slug", "sheet", "corners"),
    [("building-community", "tiles-1", 6), ("desert-home", "octagons-1", 8)],
)
def test_straight_edged_tiles_keep_their_corners_in_dxf_svg_and_lightburn(
    tmp, slug, sheet, corners
):
    drawn = [_straight(r) for r in dxf_rings(built(tmp, slug, 0.0) / "cut" / f"{sheet}.dxf")]
    folder = built(tmp, slug, KERF)
    dxf = dxf_rings(folder / "cut" / f"{sheet}.dxf")
    assert len(dxf) == len(drawn) > 10
    assert {len(r) for r in dxf} == {corners}  # no vertex added at any corner
    at = _by_centre(drawn)
    for ring in dxf:
        kerfed = _straight(ring)
        _matches_offset(kerfed, at[(round(kerfed.centroid.x, 2), round(kerfed.centroid.y, 2))])
    svg = svg_rings(folder / "cut" / f"{sheet}.svg")
    assert len(svg) == len(dxf) and all(arcs == 0 for _, arcs in svg)
    assert {len(pts) for pts, _ in svg} == {corners}  # M + L points; Z closes
    shapes = [
        s
        for s in read_lbrn2((folder / "cut" / f"{sheet}.lbrn2").read_text()).shapes
        if s.layer == "cut"
    ]
    assert len(shapes) == len(dxf)
    assert all(s.kind == "ring" and not s.beziers and len(s.points) == corners for s in shapes)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("slug", "part"),
    [
        ("exploding-dice", "paper-die-red-1"),
        ("home-in-one-piece", "paper-die-1"),
        ("desert-home", "paper-die-red"),
    ],
)
def test_a_die_net_keeps_its_corners_concave_ones_included(tmp, slug, part):
    """A cross of six faces with glue tabs: convex and concave corners, all kept sharp."""
    (before,) = dxf_rings(built(tmp, slug, 0.0) / "dxf" / f"{part}.dxf")
    (after,) = dxf_rings(built(tmp, slug, KERF) / "dxf" / f"{part}.dxf")
    drawn, kerfed = _straight(before), _straight(after)
    turns = [_turn(drawn, i) for i in range(len(drawn.exterior.coords) - 1)]
    assert any(t < 0 for t in turns) and any(t > 0 for t in turns)  # concave and convex
    _matches_offset(kerfed, drawn)


def _turn(poly: Polygon, i: int) -> float:
    """The signed turn at corner i (positive: convex on a counter-clockwise ring)."""
    pts = list(orient(poly).exterior.coords)[:-1]
    (ax, ay), (bx, by), (cx, cy) = pts[i - 1], pts[i], pts[(i + 1) % len(pts)]
    return (bx - ax) * (cy - by) - (by - ay) * (cx - bx)


@pytest.mark.slow
def test_a_curved_part_keeps_its_arcs_and_only_its_arcs(tmp):
    """Desert Home's plywood blade: its kerfed outline has the drawn outline's vertices
    and arcs, each arc about the same centre, its radius kerf/2 off, in the DXF and the SVG."""
    drawn = dxf_rings(built(tmp, "desert-home", 0.0) / "cut" / "plywood-1.dxf")
    folder = built(tmp, "desert-home", KERF)
    kerfed = dxf_rings(folder / "cut" / "plywood-1.dxf")
    assert [len(r) for r in kerfed] == [len(r) for r in drawn] and len(kerfed) == 12
    assert [sum(b != 0 for *_, b in r) for r in kerfed] == [
        sum(b != 0 for *_, b in r) for r in drawn
    ]
    for a, b in zip(drawn, kerfed, strict=True):
        for (p, q), (p2, q2) in zip(_arcs(a), _arcs(b), strict=True):
            # outer arcs grow, the fillets between the sides and the hub shrink
            assert math.dist(p, p2) < 1e-5 and abs(q2 - q) == pytest.approx(KERF / 2, abs=1e-5)
    svg = svg_rings(folder / "cut" / "plywood-1.svg")
    assert sorted(n for _, n in svg) == sorted(sum(b != 0 for *_, b in r) for r in kerfed)


def _arcs(ring: Ring) -> list[tuple[tuple[float, float], float]]:
    """(centre, radius) of every bulged stretch, from the DXF's bulges."""
    out = []
    for i, (x, y, b) in enumerate(ring):
        if b:
            nx, ny, _ = ring[(i + 1) % len(ring)]
            centre, _, _, r = bulge_to_arc((x, y), (nx, ny), b)
            out.append(((centre.x, centre.y), r))
    return out
