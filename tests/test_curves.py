"""True curves: arcs kept from the scene to the files, read back by independent readers.

The geometry is checked against shapely (flattening, offsets), the files against the kit's
own parameters (card and sticker corner radii, the pivot hole, the blade's arcs): ezdxf
reads the DXF's bulges and circles, a spec-following parser the SVG's `A` commands and
circles, pdfplumber the PDF's Bézier curves.
"""

from __future__ import annotations

import io
import math
from functools import cache

import ezdxf
import pdfplumber
import pytest
from cut_geometry import dxf_arcs, dxf_cut_lines, svg_arcs
from shapely.geometry import Point, Polygon

from geometry.curves import (
    FLAT_TOL,
    Curve,
    CurveError,
    Path,
    arc_of,
    circle_of,
    circle_path,
    cubics,
    rounded_rect_path,
)
from geometry.fan import HUB_FILLET, blade_path
from geometry.shapes import kerf_offset, rounded_rect_curve
from pnp.build import make_kit
from pnp.draw.layout import Page, Placement
from pnp.draw.prepare import with_kerf
from pnp.draw.render.dxf import component_dxf
from pnp.draw.render.pdf import render_pdf
from pnp.draw.render.svg import component_svg
from pnp.draw.scene import CUT_STYLE, Component, Style, curved
from pnp.games.desert_home.params import fan

TOL = 0.001  # mm: the arcs' centres and radii against the spec


def _fine(curve: Curve, d: float = 0.0) -> Polygon:
    """An independent reference: the outline flattened very finely, then shapely's buffer."""
    rings = [p.coords(tol=1e-5) for p in curve.paths]
    poly = Polygon(rings[0], rings[1:])
    return poly if d == 0 else poly.buffer(d, quad_segs=512)


SHAPES = {
    "card": Curve((rounded_rect_path(0, 0, 63, 88, 3.0),)),
    "stadium": Curve((rounded_rect_path(0, 0, 30, 10, 9.0),)),
    "disc": Curve((circle_path(5, -2, 7.5),)),
    "ring": Curve((circle_path(0, 0, 10), circle_path(0, 0, 4))),
    "blade": Curve((blade_path(60, 7, 66),)),
}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_the_flattened_polygon_is_the_curve_to_a_micron(name: str) -> None:
    curve = SHAPES[name]
    poly, ref = curve.polygon(), _fine(curve)
    assert poly.is_valid
    assert poly.hausdorff_distance(ref) <= FLAT_TOL + 1e-6
    exact = curve.paths[0].signed_area() - sum(abs(h.signed_area()) for h in curve.paths[1:])
    assert abs(exact) == pytest.approx(ref.area, abs=ref.length * 1e-5)
    assert poly.area == pytest.approx(abs(exact), abs=poly.length * FLAT_TOL)


@pytest.mark.parametrize(
    "p, q, bulge",
    [((1, 0), (0, 1), math.tan(math.pi / 8)), ((3, 4), (-3, 4), -0.6), ((0, 0), (10, 0), 2.5)],
)
def test_an_arc_from_its_ends_and_bulge(p, q, bulge) -> None:
    arc = arc_of(p, q, bulge)
    assert math.dist(p, (arc.cx, arc.cy)) == pytest.approx(arc.r)
    assert math.dist(q, (arc.cx, arc.cy)) == pytest.approx(arc.r)
    assert math.radians(arc.sweep) == pytest.approx(4 * math.atan(bulge))
    for start, c1, c2, end in cubics(p, q, bulge):  # Béziers hug the arc to 1e-5 radii
        for t in (0.25, 0.5, 0.75):
            u = 1 - t
            pt = [
                u**3 * a + 3 * u * u * t * b + 3 * u * t * t * c + t**3 * d
                for a, b, c, d in zip(start, c1, c2, end, strict=True)
            ]
            assert abs(math.dist(pt, (arc.cx, arc.cy)) - arc.r) <= 1e-5 * arc.r


@pytest.mark.parametrize("name", sorted(SHAPES))
@pytest.mark.parametrize("d", [0.1, 0.35, -0.2])
def test_an_offset_curve_is_shapelys_buffer_with_arcs_about_the_same_centres(name, d) -> None:
    curve = SHAPES[name]
    moved = curve.offset_area(d)
    assert moved.polygon().hausdorff_distance(_fine(curve, d)) <= 2 * FLAT_TOL
    before, after = curve.arcs(), moved.arcs()
    assert len(before) == len(after)
    for a, b in zip(before, after, strict=True):
        assert (b.cx, b.cy) == pytest.approx((a.cx, a.cy), abs=1e-9)
        assert abs(b.r - a.r) == pytest.approx(abs(d), abs=1e-9)


def test_sharp_corners_grow_round_joins_and_an_inward_offset_refuses_them() -> None:
    triangle = Curve((Path(((0, 0, 0.0), (20, 0, 0.0), (0, 15, 0.0))),))
    grown = triangle.offset_area(0.5)
    assert [round(a.r, 9) for a in grown.arcs()] == [0.5, 0.5, 0.5]
    shapely_round = triangle.polygon().buffer(0.5, quad_segs=256)
    assert grown.polygon().hausdorff_distance(shapely_round) <= 2 * FLAT_TOL
    with pytest.raises(CurveError):
        triangle.offset_area(-0.5)


def test_turns_moves_and_mirrors_keep_arcs_and_stretches_refuse() -> None:
    curve = SHAPES["blade"]
    turned = curve.rotated(37, (3, 4)).translated(10, -2)
    assert turned.polygon().area == pytest.approx(curve.polygon().area, rel=1e-9)
    assert [round(a.r, 9) for a in turned.arcs()] == [round(a.r, 9) for a in curve.arcs()]
    mirrored = curve.affine((-1, 0, 0, 1, 0, 0))
    assert mirrored.polygon().equals_exact(
        Polygon([(-x, y) for x, y in curve.polygon().exterior.coords]), 1e-9
    )
    with pytest.raises(CurveError):
        curve.affine((2, 0, 0, 1, 0, 0))


def test_a_stale_curve_is_refused() -> None:
    shape = curved(rounded_rect_curve(0, 0, 40, 30, 4), "cut", CUT_STYLE, "ring")
    moved = shape.moved(5, 5)
    assert moved.curve is not None and moved.curve.bounds() == pytest.approx((5, 5, 45, 35))
    with pytest.raises(ValueError, match="curve"):
        type(shape)(Point(100, 100).buffer(1), "cut", CUT_STYLE, curve=shape.curve)


# --- the kits' files ---------------------------------------------------------------------


@cache
def _kit(slug: str):
    return make_kit(slug, paper="a4")[1]


def _component(slug: str, name: str) -> Component:
    return next(c for c in _kit(slug).components if c.name == name)


def _dxf(component: Component) -> ezdxf.document.Drawing:
    data = component_dxf(component)
    assert data is not None
    return ezdxf.read(io.StringIO(data.decode("utf-8")))


def _audit_clean(component: Component) -> None:
    auditor = _dxf(component).audit()
    assert not auditor.has_errors and not auditor.has_fixes


def _corners(w: float, h: float, r: float, x: float = 0, y: float = 0) -> list[tuple[float, ...]]:
    return sorted(
        [(x + r, y + r, r), (x + w - r, y + r, r), (x + w - r, y + h - r, r), (x + r, y + h - r, r)]
    )


def _match(found: list[tuple[float, float, float]], want: list[tuple[float, ...]]) -> None:
    """One found arc (centre, radius) within TOL of each wanted one, one to one."""
    assert len(found) == len(want)
    left = list(found)
    for exp in want:
        near = [g for g in left if max(abs(a - b) for a, b in zip(g, exp, strict=True)) <= TOL]
        assert near, f"no arc at {exp}"
        left.remove(near[0])


@pytest.mark.slow
@pytest.mark.parametrize("kerf", [0.0, 0.2])
def test_the_mint_tin_cards_corners_are_arcs_of_the_cut_radius(kerf: float) -> None:
    """Exploding Dice's rule card: four quarter arcs of the radius the tin needs, centred
    r in from each corner; with a kerf, the same centres and r + kerf/2."""
    card = _component("exploding-dice", "rule-card-1")
    r, w, h = float(card.meta["radius"]), card.width, card.height
    assert r > 0
    prepared = with_kerf(card, kerf)
    data = component_dxf(prepared)
    assert data is not None
    want = [(x, y, r + kerf / 2) for x, y, _ in _corners(w, h, r)]  # the same centres
    _match(dxf_arcs(data, "cut"), want)
    (outline,) = dxf_cut_lines(data, "cut")
    exact = (w + kerf) * (h + kerf) - (4 - math.pi) * (r + kerf / 2) ** 2
    assert Polygon(outline).area == pytest.approx(exact, abs=outline.length * 1e-4)
    assert Polygon(outline).area == pytest.approx(
        kerf_offset(card.outline, kerf).area if kerf else card.outline.area, abs=0.05
    )
    _match(svg_arcs(component_svg(prepared), "cut"), want)
    _audit_clean(prepared)


@pytest.mark.slow
def test_the_dice_stickers_kiss_cuts_have_their_corner_radius() -> None:
    from geometry.dice import sticker_radius

    block = next(c for c in _kit("exploding-dice").components if c.meta.get("kind") == "stickers")
    s = float(block.meta["face_size"])
    r = sticker_radius(s)
    centres = [(x, y) for x, y in (st["centre"] for st in block.meta["stickers"])]  # type: ignore[attr-defined]
    data = component_dxf(block)
    assert data is not None
    want = [c for x, y in centres for c in _corners(s, s, r, x - s / 2, y - s / 2)]
    _match(dxf_arcs(data, "cut"), want)
    _audit_clean(block)


@pytest.mark.slow
@pytest.mark.parametrize("kerf", [0.0, 0.3])
def test_a_blades_pivot_hole_corners_hub_and_fillets_are_true_arcs(kerf: float) -> None:
    """Desert Home's plywood blade: the pivot hole a CIRCLE of the spec's diameter (less the
    kerf), and the outline's arcs those of the fan (corner and hub radius, hub fillet)."""
    kit = _kit("desert-home")
    p = kit.params
    blade = next(
        c for c in kit.components if c.name.startswith("blade-") and "overlay" not in c.name
    )
    prepared = with_kerf(blade, kerf)
    data = component_dxf(prepared)
    assert data is not None
    doc = ezdxf.read(io.StringIO(data.decode("utf-8")))
    (hole,) = [e for e in doc.modelspace() if e.dxf.layer == "inner-cut"]
    assert hole.dxftype() == "CIRCLE"
    assert 2 * hole.dxf.radius == pytest.approx(p.pivot_hole - kerf, abs=TOL)  # type: ignore[attr-defined]
    px, py = blade.meta["pivot"]  # type: ignore[misc]
    assert (hole.dxf.center.x, hole.dxf.center.y) == pytest.approx((px, py), abs=TOL)
    arcs = dxf_arcs(data, "cut")
    assert len(arcs) == 5  # two outer corners, two fillets, the hub
    radii = sorted(round(r, 6) for _, _, r in arcs)
    corner = fan(p).corner_radius  # type: ignore[arg-type]
    assert radii == pytest.approx(
        sorted([HUB_FILLET - kerf / 2] * 2 + [corner + kerf / 2] * 3), abs=TOL
    )
    hub = min(arcs, key=lambda a: math.dist(a[:2], (px, py)))
    assert hub[:2] == pytest.approx((px, py), abs=TOL)
    _audit_clean(prepared)


@pytest.mark.slow
def test_round_pips_are_svg_circles_of_the_pip_size() -> None:
    from geometry.dice import PIP_SIZE

    block = next(c for c in _kit("exploding-dice").components if c.meta.get("kind") == "stickers")
    s = float(block.meta["face_size"])
    pips = [r for _, _, r in svg_arcs(component_svg(block), "art")]
    assert any(r == pytest.approx(PIP_SIZE * s * 0.46, abs=TOL) for r in pips)


def test_the_pdf_draws_a_rounded_outline_as_bezier_curves() -> None:
    comp = Component("t", "t", 40, 30, imposition="cutout")
    comp.add(curved(rounded_rect_curve(0, 0, 40, 30, 5), style=Style(fill="#E69F00")))
    page = Page(100, 100, placements=[Placement(comp, 10, 10)])
    with pdfplumber.open(io.BytesIO(render_pdf([page], "t"))) as pdf:
        (shape,) = pdf.pages[0].curves
        pts = shape["pts"]
    mm = 25.4 / 72
    xs, ys = [x * mm for x, _ in pts], [y * mm for _, y in pts]
    assert (min(xs), max(xs)) == pytest.approx((10, 50), abs=TOL)
    top = 100 - 10  # pdfplumber's y runs down from the top of the page
    assert (min(ys), max(ys)) == pytest.approx((top - 30, top), abs=TOL)
    # the outline passes through a corner arc's midpoint, 5 mm from its centre
    mid = (10 + 5 - 5 * math.sqrt(0.5), top - (5 - 5 * math.sqrt(0.5)))
    assert any(math.dist(mid, (x, y)) < 0.05 for x, y in zip(xs, ys, strict=True))


def test_a_lone_circle_is_a_circle_entity_everywhere() -> None:
    path = circle_path(12.5, 12.5, 4)
    assert circle_of(path) == pytest.approx((12.5, 12.5, 4))
    comp = Component("disc", "disc", 25, 25, imposition="cutout")
    comp.add(curved(Curve((path,)), "cut", CUT_STYLE, "ring"))
    assert [e.dxftype() for e in _dxf(comp).modelspace()] == ["CIRCLE"]
    assert "<circle" in component_svg(comp)
