"""DXF cut files: the machine layers of one component, in millimetres, for laser and cutter.

Only what cutters reliably read goes on the machine layers: closed and open LWPOLYLINEs
and CIRCLEs (no splines, no text); R2000 so old laser software opens it. What a maker
must know besides the lines (a cut sheet's grain and laser preset) is text on a `notes`
layer that never plots. A shape with a true curve
(`geometry.curves`) keeps its arcs: LWPOLYLINE vertices with bulges (a rounded corner is
one quarter arc, not 16 chords), a full circle a CIRCLE. `$INSUNITS` is set to 4 (mm):
ezdxf's default of metres would make a 40 mm card 40 m in some programs. DXF is y-up like
the scene, so coordinates are written unchanged.

The component comes prepared for the machine (`pnp.draw.prepare`: kerf, common lines,
hairline), the same pipeline the SVG cut sheets went through, and is written as given.

ezdxf stamps files with dates, GUIDs and its version; its fixed-metadata option replaces
them with constants, so the same component always gives byte-identical DXF.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import ezdxf
from ezdxf import bbox
from ezdxf.document import Drawing
from ezdxf.layouts import Modelspace
from shapely.geometry.base import BaseGeometry

from geometry.curves import circle_of
from pnp.draw.scene import Component, Shape

DXF_VERSION = "R2000"
INSUNITS_MM = 4
# AutoCAD colour index per machine layer: cut red, inner-cut blue, score white/black, drill green
LAYER_ACI: dict[str, int] = {"cut": 1, "inner-cut": 5, "score": 7, "drill": 3}
DXF_LAYER_ORDER: tuple[str, ...] = ("inner-cut", "cut", "score", "drill")
"""Inner cuts first: a part cut free of the sheet before its holes shifts under the beam."""


NOTES_LAYER = "notes"
"""A layer of plain text for the maker (bed, grain, laser preset), switched off for
plotting: no cutter cuts it."""
NOTE_HEIGHT = 3.0  # mm


def component_dxf(component: Component, notes: Iterable[str] = ()) -> bytes | None:
    """The component's cut, inner-cut, score and drill layers as DXF bytes (mm), and
    `notes` as text lines on a non-plotting `notes` layer under the part.

    None when the component has no cut lines: a printed card is cut with scissors or a
    guillotine from the PDF, and an empty cut file would only confuse.
    """
    if not component.has_cut_lines():
        return None
    with _fixed_metadata():
        doc = ezdxf.new(DXF_VERSION, setup=False, units=INSUNITS_MM)
        doc.header["$INSUNITS"] = INSUNITS_MM
        doc.header["$MEASUREMENT"] = 1
        msp = doc.modelspace()
        for layer in DXF_LAYER_ORDER:
            shapes = component.shapes(layer)
            if not shapes:
                continue
            doc.layers.add(layer, color=LAYER_ACI[layer])
            for shape in shapes:
                _add_shape(msp, shape)
        _add_notes(doc, list(notes))
        _set_extents(doc)
        stream = io.StringIO()
        doc.write(stream)
    return doc.encode(stream.getvalue())


@contextmanager
def _fixed_metadata() -> Iterator[None]:
    """ezdxf stamps dates, GUIDs and a creation marker when a document is made and written;
    its global fixed-metadata option makes them constants. Restored afterwards."""
    previous = ezdxf.options.write_fixed_meta_data_for_testing
    ezdxf.options.write_fixed_meta_data_for_testing = True
    try:
        yield
    finally:
        ezdxf.options.write_fixed_meta_data_for_testing = previous


def _add_notes(doc: Drawing, notes: list[str]) -> None:
    """Each note a TEXT line below the drawing (y < 0), on a layer that never plots."""
    if not notes:
        return
    doc.layers.add(NOTES_LAYER, color=8).dxf.plot = 0
    msp = doc.modelspace()
    for k, line in enumerate(notes, start=1):
        msp.add_text(
            line,
            height=NOTE_HEIGHT,
            dxfattribs={"layer": NOTES_LAYER, "insert": (0.0, -k * NOTE_HEIGHT * 1.6)},
        )


def _set_extents(doc: Drawing) -> None:
    """Record the drawing extents and centre the view on them, so a viewer opens on the part."""
    msp = doc.modelspace()
    ext = bbox.extents(msp)
    if not ext.has_data:
        return
    msp.dxf.extmin = ext.extmin
    msp.dxf.extmax = ext.extmax
    size = ext.size
    doc.set_modelspace_vport(height=max(size.x, size.y) * 1.1, center=ext.center.vec2)


def _add_shape(msp: Modelspace, shape: Shape) -> None:
    attribs = {"layer": shape.layer}
    if shape.curve is not None:  # true arcs: LWPOLYLINE vertices with bulges
        for path in shape.curve.paths:
            if (circle := circle_of(path)) is not None:
                cx, cy, r = circle
                msp.add_circle((round(cx, 6), round(cy, 6)), r, dxfattribs=attribs)
                continue
            points = [(round(x, 6), round(y, 6), 0, 0, round(b, 9)) for x, y, b in path.vertices]
            msp.add_lwpolyline(points, format="xyseb", close=path.closed, dxfattribs=attribs)
        return
    for kind, part in machine_parts(shape.geom):
        if kind == "point":
            if shape.radius > 0:
                msp.add_circle((part.x, part.y), shape.radius, dxfattribs=attribs)
        elif kind == "ring":
            msp.add_lwpolyline(_xy(part.coords, drop_last=True), close=True, dxfattribs=attribs)
        else:
            msp.add_lwpolyline(_xy(part.coords), close=False, dxfattribs=attribs)


def machine_parts(geom: BaseGeometry) -> Iterator[tuple[str, BaseGeometry]]:
    """Split any geometry into points, closed rings (exteriors and holes) and open lines: one
    DXF entity, or one LightBurn shape (`pnp.draw.render.lbrn2`), each."""
    if geom.is_empty:
        return
    kind = geom.geom_type
    if kind == "Point":
        yield "point", geom
    elif kind == "Polygon":
        yield "ring", geom.exterior
        for hole in geom.interiors:
            yield "ring", hole
    elif kind == "LinearRing":
        yield "ring", geom
    elif kind == "LineString":
        yield ("ring" if geom.is_closed and len(geom.coords) > 3 else "line"), geom
    else:  # Multi* and GeometryCollection
        for part in geom.geoms:
            yield from machine_parts(part)


def _xy(coords: Iterable[tuple[float, ...]], drop_last: bool = False) -> list[tuple[float, float]]:
    pts = [(round(c[0], 6), round(c[1], 6)) for c in coords]
    if drop_last and len(pts) > 1 and pts[0] == pts[-1]:
        pts = pts[:-1]
    return pts
