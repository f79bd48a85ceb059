"""Cut geometry read back from written files (SVG and DXF), as a cutter's importer sees it,
and measured with shapely alone: the tests compare files with each other and with the spec."""

from __future__ import annotations

import io
import itertools
import re
import xml.etree.ElementTree as ET
from typing import Any

import ezdxf
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

from pnp.scene import Component

SVG = "{http://www.w3.org/2000/svg}"
NUM = r"-?\d+(?:\.\d+)?"
Bounds = tuple[float, float, float, float]


def svg_cut_lines(svg_text: str, layer: str) -> list[BaseGeometry]:
    """Every subpath (closed: a ring, else a line) and circle on one SVG layer, in scene
    coordinates (y up, mm). A polygon with holes is one path of several subpaths."""
    root = ET.fromstring(svg_text)
    height = float(root.get("viewBox", "0 0 0 0").split()[3])
    groups = [g for g in root.iter(f"{SVG}g") if g.get("id") == f"layer-{layer}"]
    out: list[BaseGeometry] = []
    for el in (el for g in groups for el in g):
        if el.tag == f"{SVG}circle":
            cx, cy, r = (float(el.get(k, "0")) for k in ("cx", "cy", "r"))
            out.append(Point(cx, height - cy).buffer(r, quad_segs=64).exterior)
        elif el.tag == f"{SVG}path":
            for sub in re.findall(r"M[^M]*", el.get("d", "")):
                nums = [float(v) for v in re.findall(NUM, sub)]
                pts = [(x, height - y) for x, y in zip(nums[0::2], nums[1::2], strict=True)]
                out.append(Polygon(pts).exterior if "Z" in sub else LineString(pts))
    return out


def dxf_cut_lines(data: bytes, layer: str) -> list[BaseGeometry]:
    """Every LWPOLYLINE (closed: a ring) and CIRCLE on one DXF layer (mm, y up)."""
    doc = ezdxf.read(io.StringIO(data.decode("utf-8")))
    out: list[BaseGeometry] = []
    entities: list[Any] = list(doc.modelspace())  # polyline and circle fields are on subtypes
    for e in entities:
        if e.dxf.layer != layer:
            continue
        if e.dxftype() == "CIRCLE":
            c = e.dxf.center
            out.append(Point(c.x, c.y).buffer(e.dxf.radius, quad_segs=64).exterior)
        elif e.dxftype() == "LWPOLYLINE":
            pts = [(p[0], p[1]) for p in e.get_points("xy")]
            out.append(Polygon(pts).exterior if e.closed else LineString(pts))
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
