"""DXF cut files read back with ezdxf and measured: units, versions, entities, sizes."""

from __future__ import annotations

from pathlib import Path

import ezdxf
import pytest
from shapely.geometry import LineString, box

from pnp.draw.prepare import with_kerf
from pnp.draw.render.dxf import component_dxf
from pnp.draw.scene import (
    CUT_LAYERS,
    CUT_STYLE,
    DRILL_STYLE,
    INNER_CUT_STYLE,
    SCORE_STYLE,
    Component,
    Shape,
    Style,
    Text,
    circle,
)

ALLOWED = {"LWPOLYLINE", "LINE", "CIRCLE", "ARC"}


def _plate() -> Component:
    """A 40 x 30 mm plate with a 10 mm square hole, a score line, a drill mark and some art."""
    c = Component("plate", "Plate", 40.0, 30.0)
    c.add(Shape(box(0, 0, 40, 30), "art", Style(fill="#cccccc")))
    c.add(Text(5, 5, "not in the cut file"))
    c.add(Shape(box(0, 0, 40, 30), "cut", CUT_STYLE))
    c.add(Shape(box(15, 10, 25, 20), "inner-cut", INNER_CUT_STYLE))
    c.add(Shape(LineString([(0, 25), (40, 25)]), "score", SCORE_STYLE))
    c.add(circle(5, 25, 1.0, "drill", DRILL_STYLE))
    c.add(Shape(LineString([(0, 0), (40, 30)]), "guide"))
    return c


def _read(data: bytes | None, tmp_path: Path) -> ezdxf.document.Drawing:
    assert data is not None, "no DXF written"
    path = tmp_path / "part.dxf"
    path.write_bytes(data)
    return ezdxf.readfile(path)


def _on(doc: ezdxf.document.Drawing, layer: str) -> list:
    return [e for e in doc.modelspace() if e.dxf.layer == layer]


def _size(polyline) -> tuple[float, float]:
    pts = list(polyline.get_points("xy"))
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return max(xs) - min(xs), max(ys) - min(ys)


def test_no_cut_lines_means_no_dxf() -> None:
    card = Component("card", "Card", 60, 40, items=[Shape(box(0, 0, 60, 40), "art")])
    assert component_dxf(card) is None
    card.add(Shape(LineString([(0, 20), (60, 20)]), "score", SCORE_STYLE))
    assert component_dxf(card) is None  # a fold line alone is not a cut file


def test_header_says_millimetres_and_r2000_or_later(tmp_path: Path) -> None:
    doc = _read(component_dxf(_plate()), tmp_path)
    assert doc.header["$INSUNITS"] == 4
    assert doc.header["$MEASUREMENT"] == 1
    assert doc.dxfversion >= "AC1015"


def test_only_machine_layers_and_simple_entities(tmp_path: Path) -> None:
    doc = _read(component_dxf(_plate()), tmp_path)
    entities = list(doc.modelspace())
    assert {e.dxftype() for e in entities} <= ALLOWED
    assert {e.dxf.layer for e in entities} == {"cut", "inner-cut", "score", "drill"}
    assert {layer.dxf.name for layer in doc.layers} <= {"0", "Defpoints", *CUT_LAYERS}
    assert doc.layers.get("cut").color == 1
    assert doc.layers.get("inner-cut").color == 5


def test_outlines_and_holes_keep_their_drawn_sizes(tmp_path: Path) -> None:
    doc = _read(component_dxf(_plate()), tmp_path)
    (outline,) = _on(doc, "cut")
    (hole,) = _on(doc, "inner-cut")
    assert outline.closed and hole.closed
    assert _size(outline) == pytest.approx((40.0, 30.0), abs=1e-6)
    assert _size(hole) == pytest.approx((10.0, 10.0), abs=1e-6)


def test_rebuilds_are_byte_identical_and_leave_ezdxf_options_alone() -> None:
    before = ezdxf.options.write_fixed_meta_data_for_testing
    first = component_dxf(_plate())
    second = component_dxf(_plate())
    assert first == second
    assert ezdxf.options.write_fixed_meta_data_for_testing == before
    assert component_dxf(with_kerf(_plate(), 0.3)) != first
