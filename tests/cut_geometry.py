"""Cut geometry read back from written files (SVG and DXF), as a cutter's importer sees it,
and measured with shapely alone: the tests compare files with each other and with the spec."""

from __future__ import annotations

import io
import itertools
import math
import re
import xml.etree.ElementTree as ET
from typing import Any

import ezdxf
from ezdxf.math import bulge_to_arc
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

from pnp.draw.scene import Component
from pnp.testing.svg import Arc3, svg_subpath_points

SVG = "{http://www.w3.org/2000/svg}"
Bounds = tuple[float, float, float, float]


def svg_cut_lines(svg_text: str, layer: str) -> list[BaseGeometry]:
    """Every subpath (closed: a ring, else a line) and circle on one SVG layer, in scene
    coordinates (y up, mm). A polygon with holes is one path of several subpaths; arcs
    (`A`) are followed as the SVG spec draws them, in chords of at most a micron's stray."""
    return [g for g, _ in _svg_read(svg_text, layer)]


def svg_arcs(svg_text: str, layer: str) -> list[tuple[float, float, float]]:
    """(cx, cy, r) of every circle and arc on one SVG layer, scene coordinates."""
    return [a for _, arcs in _svg_read(svg_text, layer) for a in arcs]


def _svg_read(svg_text: str, layer: str) -> list[tuple[BaseGeometry, list[Arc3]]]:
    root = ET.fromstring(svg_text)
    _, y0, _, vb_height = (float(v) for v in root.get("viewBox", "0 0 0 0").split())
    height = vb_height + 2 * y0  # the trim's height: a bleed widens the viewBox both ways
    groups = [g for g in root.iter(f"{SVG}g") if g.get("id") == f"layer-{layer}"]
    out: list[tuple[BaseGeometry, list[Arc3]]] = []
    for el in (el for g in groups for el in g):
        if el.tag == f"{SVG}circle":
            cx, cy, r = (float(el.get(k, "0")) for k in ("cx", "cy", "r"))
            ring = Point(cx, height - cy).buffer(r, quad_segs=256).exterior
            out.append((ring, [(cx, height - cy, r)]))
        elif el.tag == f"{SVG}path":
            for sub in re.findall(r"M[^M]*", el.get("d", "")):
                pts, arcs = svg_subpath_points(sub)
                flipped = [(x, height - y) for x, y in pts]
                geom = Polygon(flipped).exterior if "Z" in sub else LineString(flipped)
                out.append((geom, [(cx, height - cy, r) for cx, cy, r in arcs]))
    return out


def svg_path_nums(d: str) -> list[float]:
    """A path's points (SVG coordinates) as x0, y0, x1, y1...: its M and L points, and
    points along each `A` arc; what tests that read numbers off a path need."""
    out: list[float] = []
    for sub in re.findall(r"M[^M]*", d):
        for x, y in svg_subpath_points(sub)[0]:
            out += [x, y]
    return out


def pdf_path_points(curve: dict[str, Any], steps: int = 64) -> list[tuple[float, float]]:
    """Points along a pdfplumber curve object's path (points, page coordinates), each
    Bézier followed along its length: the control points pdfplumber's own box counts lie
    off the curve."""
    pts: list[tuple[float, float]] = []
    for cmd, *args in curve["path"]:
        if cmd in ("m", "l"):
            pts.append(args[0])
        elif cmd == "c" and pts:
            p0, (c1, c2, p1) = pts[-1], args
            for k in range(1, steps + 1):
                t = k / steps
                u = 1 - t
                pts.append(
                    tuple(  # type: ignore[arg-type]
                        u**3 * a + 3 * u * u * t * b + 3 * u * t * t * c + t**3 * d
                        for a, b, c, d in zip(p0, c1, c2, p1, strict=True)
                    )
                )
    return pts


def dxf_cut_lines(data: bytes, layer: str) -> list[BaseGeometry]:
    """Every LWPOLYLINE (closed: a ring; bulges followed as ezdxf draws them) and CIRCLE
    on one DXF layer (mm, y up)."""
    doc = ezdxf.read(io.StringIO(data.decode("utf-8")))
    out: list[BaseGeometry] = []
    entities: list[Any] = list(doc.modelspace())  # polyline and circle fields are on subtypes
    for e in entities:
        if e.dxf.layer != layer:
            continue
        if e.dxftype() == "CIRCLE":
            c = e.dxf.center
            out.append(Point(c.x, c.y).buffer(e.dxf.radius, quad_segs=256).exterior)
        elif e.dxftype() == "LWPOLYLINE":
            pts = _lwpolyline_points(e)
            if e.closed:
                out.append(Polygon(pts).exterior)
            else:
                out.append(LineString(pts))
    return out


def _lwpolyline_points(e: Any) -> list[tuple[float, float]]:
    """A polyline's points as ezdxf breaks it into LINE and ARC entities, each arc
    flattened with chords a tenth of a micron from it (ezdxf's own path flattening goes
    through quarter-circle Béziers, up to 0.03 % of the radius off)."""
    pts: list[tuple[float, float]] = []
    for part in e.virtual_entities():
        if part.dxftype() == "LINE":
            run = [part.dxf.start, part.dxf.end]
        else:
            run = list(part.flattening(1e-4))
        xy = [(v.x, v.y) for v in run]
        if pts and math.dist(pts[-1], xy[0]) > math.dist(pts[-1], xy[-1]):
            xy.reverse()  # ezdxf's ARC always runs counter-clockwise
        pts.extend(xy if not pts else xy[1:])
    return pts


def dxf_arcs(data: bytes, layer: str) -> list[tuple[float, float, float]]:
    """(cx, cy, r) of every CIRCLE, ARC and LWPOLYLINE bulge on one DXF layer."""
    doc = ezdxf.read(io.StringIO(data.decode("utf-8")))
    out: list[tuple[float, float, float]] = []
    entities: list[Any] = list(doc.modelspace())
    for e in entities:
        if e.dxf.layer != layer:
            continue
        if e.dxftype() in ("CIRCLE", "ARC"):
            out.append((e.dxf.center.x, e.dxf.center.y, e.dxf.radius))
        elif e.dxftype() == "LWPOLYLINE":
            pts = list(e.get_points("xyb"))
            n = len(pts)
            for i, (x, y, b) in enumerate(pts):
                if b and (e.closed or i < n - 1):
                    c, _, _, r = bulge_to_arc((x, y), pts[(i + 1) % n][:2], b)
                    out.append((c.x, c.y, r))
    return out


def sizes(lines: list[BaseGeometry]) -> list[tuple[float, float]]:
    """Width and height of each cut line, smallest first."""
    return sorted(_size(g.bounds) for g in lines)


def _size(b: Bounds) -> tuple[float, float]:
    return (b[2] - b[0], b[3] - b[1])


def same_cuts(a: list[BaseGeometry], b: list[BaseGeometry], tol: float) -> bool:
    """Two readings of the same cut layer: each line of one is a line of the other, within
    `tol` mm (Hausdorff distance), one to one."""
    if len(a) != len(b):
        return False
    left = list(b)
    for p in a:
        near = [
            q
            for q in left
            if max(abs(u - v) for u, v in zip(p.bounds, q.bounds, strict=True)) <= tol
            and p.hausdorff_distance(q) <= tol
        ]
        if not near:
            return False
        left.remove(near[0])
    return True


def shared_length(a: BaseGeometry, b: BaseGeometry) -> float:
    """How far two cut lines run together (within 0.1 µm), measured with shapely alone."""
    return a.intersection(b.buffer(1e-4)).length


def no_duplicate_cuts(sheet: Component) -> None:
    """Every stretch is cut once: no two cut lines run together for more than a touch."""
    lines = [
        s.geom.boundary if isinstance(s.geom, Polygon) else s.geom for s in sheet.shapes("cut")
    ]
    for a, b in itertools.combinations(lines, 2):
        assert shared_length(a, b) < 1e-3
