"""LightBurn projects (.lbrn2): a prepared cut sheet as layers with speeds and powers set.

LightBurn's project file is XML (its format is not published; this follows the structure
its own files have, as documented by the projects that read them): a `<LightBurnProject>`
root, one `<CutSetting type="Cut">` per layer (`index` picks LightBurn's layer colour,
`name`, `speed` in mm/s, `maxPower`/`minPower` in %, `numPasses`, `priority`), and the
shapes: `<Shape Type="Ellipse" Rx Ry>` for a circle and `<Shape Type="Path">` with a
`<VertList>` ("V<x> <y>" per vertex) and a `<PrimList>` ("L<a> <b>" per straight line
between vertices a and b; a closed outline's last line returns to vertex 0). A true
curve's arcs are "B<a> <b>" cubic Béziers, the first control point written on vertex a
as "c0x<x>c0y<y>", the second on vertex b as "c1x<x>c1y<y>". Every shape
has an `<XForm>` (an affine matrix a b c d e f), here a pure move. Units are mm, y up, as
in the scene and the DXF twin, so coordinates are written unchanged.

Layers run by priority (lowest first, with the optimiser's "order by priority" on):
engrave, score, drill marks, then inner cuts, then outlines, so a part is cut free of the
sheet only after its holes and marks are done and nothing shifts under the beam.

The sheet comes prepared (`pnp.draw.prepare`: kerf, common lines), the same geometry as its
SVG and DXF twins. Numbers have 4 decimals and a fixed form, so a rebuild is
byte-identical; `read_lbrn2` reads a file back into layers and shapes for the tests.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from xml.sax.saxutils import quoteattr

from shapely.geometry.base import BaseGeometry

from geometry.curves import Path, circle_of, cubics
from pnp.draw.render.dxf import machine_parts
from pnp.draw.render.laser import Preset, sheet_notes
from pnp.draw.scene import Component

LBRN_LAYERS: tuple[tuple[str, int, int], ...] = (
    # (scene layer or "engrave", LightBurn layer index = its colour, priority)
    ("engrave", 4, 0),
    ("score", 0, 1),
    ("drill", 3, 2),
    ("inner-cut", 1, 3),
    ("cut", 2, 4),
)
"""LightBurn colours as the SVG's: cut red (2), inner-cut blue (1), score black (0), drill
green (3), engrave (4); inner cuts run before outlines."""
ART_LAYER = "art"


@dataclass(frozen=True)
class LbrnShape:
    """One shape read back: a closed or open path's vertices, or a circle (centre, radius)."""

    layer: str
    kind: str  # "ring", "line" or "circle"
    points: tuple[tuple[float, float], ...]
    radius: float = 0.0
    beziers: tuple[tuple[tuple[float, float], tuple[float, float]] | None, ...] = ()
    """Per stretch from points[i] to the next: its two Bézier control points, or None for
    a straight line; empty when the path is all straight lines."""


@dataclass
class LbrnProject:
    """A .lbrn2 file read back: its cut settings by layer name, and its shapes in order."""

    settings: dict[str, dict[str, str]] = field(default_factory=dict)
    shapes: list[LbrnShape] = field(default_factory=list)

    def layer(self, name: str) -> list[LbrnShape]:
        return [s for s in self.shapes if s.layer == name]


def _num(v: float) -> str:
    text = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "", "-") else text


def sheet_lbrn2(sheet: Component, preset: Preset, engrave: bool = False) -> str | None:
    """The prepared cut sheet as a LightBurn project cut with `preset`; `engrave` adds the
    parts' art as a fill layer. None when the sheet has nothing to cut."""
    if not sheet.has_cut_lines():
        return None
    used = [
        (layer, index, priority)
        for layer, index, priority in LBRN_LAYERS
        if any(True for _ in _paths(sheet, layer, engrave))
    ]
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<LightBurnProject AppVersion="1.7.00" FormatVersion="1" MaterialHeight="0"'
        ' MirrorX="False" MirrorY="False">',
        "    <UIPrefs>",
        '        <Optimize_ByLayer Value="0"/>',
        '        <Optimize_ByGroup Value="-1"/>',
        '        <Optimize_ByPriority Value="1"/>',
        '        <Optimize_InnerToOuter Value="1"/>',
        '        <Optimize_ReduceTravel Value="1"/>',
        "    </UIPrefs>",
    ]
    for layer, index, priority in used:
        lines += _cut_setting(layer, index, priority, preset)
    for layer, index, _ in used:
        for kind, part, radius in _paths(sheet, layer, engrave):
            if isinstance(part, Path):
                lines += _curve_shape(part, index)
            else:
                lines += _shape(kind, part, radius, index)
    notes = sheet_notes(
        sheet.name, sheet.meta, (sheet.width, sheet.height), preset, tuple(u[0] for u in used)
    )
    lines.append(f'    <Notes ShowOnLoad="1" Notes={quoteattr(" ".join(notes))}/>')
    lines.append("</LightBurnProject>")
    return "\n".join(lines) + "\n"


def _cut_setting(layer: str, index: int, priority: int, preset: Preset) -> list[str]:
    s = preset.layers[layer]
    kind = "Scan" if layer == "engrave" else "Cut"
    values = [
        ("index", str(index)),
        ("name", layer),
        ("minPower", _num(s.power)),
        ("maxPower", _num(s.power)),
        ("speed", _num(s.speed)),
        ("numPasses", str(s.passes)),
        ("priority", str(priority)),
    ]
    if kind == "Scan":
        values.append(("interval", "0.1"))
    body = [f"        <{k} Value={quoteattr(v)}/>" for k, v in values]
    return [f'    <CutSetting type="{kind}">', *body, "    </CutSetting>"]


def _shape(kind: str, part: BaseGeometry, radius: float, index: int) -> list[str]:
    if kind == "circle":
        r = _num(radius)
        return [
            f'    <Shape Type="Ellipse" CutIndex="{index}" Rx="{r}" Ry="{r}">',
            f"        <XForm>1 0 0 1 {_num(part.x)} {_num(part.y)}</XForm>",
            "    </Shape>",
        ]
    pts = [(float(x), float(y)) for x, y, *_ in part.coords]
    if kind == "ring" and len(pts) > 1 and pts[0] == pts[-1]:
        pts = pts[:-1]
    verts = "".join(f"V{_num(x)} {_num(y)}" for x, y in pts)
    n = len(pts)
    prims = [f"L{i} {i + 1}" for i in range(n - 1)]
    if kind == "ring":
        prims.append(f"L{n - 1} 0")
    return [
        f'    <Shape Type="Path" CutIndex="{index}">',
        "        <XForm>1 0 0 1 0 0</XForm>",
        f"        <VertList>{verts}</VertList>",
        f"        <PrimList>{''.join(prims)}</PrimList>",
        "    </Shape>",
    ]


def _curve_shape(path: Path, index: int) -> list[str]:
    """A true curve: a full circle as an Ellipse, anything else a Path whose arcs are
    cubic Béziers ("B" primitives; each vertex carries its outgoing control point as
    c0x/c0y and its incoming one as c1x/c1y)."""
    if (circle := circle_of(path)) is not None:
        cx, cy, r = circle
        return [
            f'    <Shape Type="Ellipse" CutIndex="{index}" Rx="{_num(r)}" Ry="{_num(r)}">',
            f"        <XForm>1 0 0 1 {_num(cx)} {_num(cy)}</XForm>",
            "    </Shape>",
        ]
    x, y, _ = path.vertices[0]
    points: list[tuple[float, float]] = [(x, y)]
    c0: dict[int, tuple[float, float]] = {}
    c1: dict[int, tuple[float, float]] = {}
    prims: list[str] = []
    segments = list(path.segments())
    for n, (p, q, b) in enumerate(segments):
        pieces = [(p, p, q, q)] if b == 0 else cubics(p, q, b)
        for k, (_, a, z, end) in enumerate(pieces):
            last = path.closed and n == len(segments) - 1 and k == len(pieces) - 1
            i, j = len(points) - 1, 0 if last else len(points)
            if not last:
                points.append(end)
            if b == 0:
                prims.append(f"L{i} {j}")
            else:
                c0[i], c1[j] = a, z
                prims.append(f"B{i} {j}")
    verts = "".join(
        f"V{_num(px)} {_num(py)}" + _controls(c0.get(i), c1.get(i))
        for i, (px, py) in enumerate(points)
    )
    return [
        f'    <Shape Type="Path" CutIndex="{index}">',
        "        <XForm>1 0 0 1 0 0</XForm>",
        f"        <VertList>{verts}</VertList>",
        f"        <PrimList>{''.join(prims)}</PrimList>",
        "    </Shape>",
    ]


def _controls(c0: tuple[float, float] | None, c1: tuple[float, float] | None) -> str:
    out = ""
    if c0 is not None:
        out += f"c0x{_num(c0[0])}c0y{_num(c0[1])}"
    if c1 is not None:
        out += f"c1x{_num(c1[0])}c1y{_num(c1[1])}"
    return out


def _paths(
    sheet: Component, layer: str, engrave: bool
) -> Iterator[tuple[str, BaseGeometry | Path, float]]:
    """(kind, part, radius) of every path on a LightBurn layer, in the sheet's order; a
    shape's true curve comes as its `geometry.curves.Path`s."""
    source = ART_LAYER if layer == "engrave" else layer
    if layer == "engrave" and not engrave:
        return
    for shape in sheet.shapes(source):
        if layer == "engrave" and shape.style.fill is None:
            continue  # only filled art engraves; outlines and guides would be scored
        if shape.curve is not None and not shape.geom.is_empty:
            for path in shape.curve.paths:
                yield ("ring" if path.closed else "line"), path, 0.0
            continue
        for kind, part in machine_parts(shape.geom):
            if kind == "point":
                if shape.radius > 0:
                    yield "circle", part, shape.radius
            else:
                yield kind, part, 0.0


# --- Reading -----------------------------------------------------------------------------

_NUM = r"(-?[0-9.eE+-]+)"
_VERT = re.compile(rf"V{_NUM} {_NUM}((?:c[01][xy]{_NUM})*)")
_CONTROL = re.compile(rf"c([01])([xy]){_NUM}")
_PRIM = re.compile(r"([LB])(\d+) (\d+)")


def _mapper(
    a: float, b: float, c: float, d: float, e: float, f: float
) -> Callable[[float, float], tuple[float, float]]:
    """A shape's XForm as a function of a point."""
    return lambda x, y: (a * x + c * y + e, b * x + d * y + f)


def read_lbrn2(text: str | bytes) -> LbrnProject:
    """A .lbrn2 file's cut settings and shapes (paths as vertex lists, ellipses as circles).

    Raises ValueError for anything this reader does not know (a shape on an undeclared
    layer, a Bezier without its control points), so a test finds it."""
    root = ET.fromstring(text)
    if root.tag != "LightBurnProject":
        raise ValueError(f"not a LightBurn project: root is <{root.tag}>")
    project = LbrnProject()
    names: dict[str, str] = {}
    for cs in root.iter("CutSetting"):
        values = {child.tag: child.get("Value", "") for child in cs}
        values["type"] = cs.get("type", "")
        names[values["index"]] = values["name"]
        project.settings[values["name"]] = values
    for shape in root.iter("Shape"):
        index = shape.get("CutIndex", "")
        if index not in names:
            raise ValueError(f"shape on layer index {index}, which has no CutSetting")
        layer = names[index]
        xform = [float(v) for v in (shape.findtext("XForm") or "1 0 0 1 0 0").split()]
        a, b, c, d, e, f = xform
        kind = shape.get("Type")
        if kind == "Ellipse":
            rx, ry = float(shape.get("Rx", "0")), float(shape.get("Ry", "0"))
            if rx != ry or (a, b, c, d) != (1, 0, 0, 1):
                raise ValueError("only circles without rotation or scale are read")
            project.shapes.append(LbrnShape(layer, "circle", ((e, f),), rx))
        elif kind == "Path":
            to = _mapper(a, b, c, d, e, f)
            verts: list[tuple[float, float]] = []
            controls: list[dict[str, tuple[float, float]]] = []
            for x, y, extra, _ in _VERT.findall(shape.findtext("VertList") or ""):
                verts.append(to(float(x), float(y)))
                got = {f"c{k}{axis}": float(v) for k, axis, v in _CONTROL.findall(extra)}
                controls.append(
                    {k: to(got[f"{k}x"], got[f"{k}y"]) for k in ("c0", "c1") if f"{k}x" in got}
                )
            prims = _PRIM.findall(shape.findtext("PrimList") or "")
            pairs = [(int(p), int(q)) for _, p, q in prims]
            beziers: list[tuple[tuple[float, float], tuple[float, float]] | None] = []
            for (t, _, _), (p, q) in zip(prims, pairs, strict=True):
                if t == "B":
                    if "c0" not in controls[p] or "c1" not in controls[q]:
                        raise ValueError(f"a Bezier from vertex {p} to {q} lacks control points")
                    beziers.append((controls[p]["c0"], controls[q]["c1"]))
                else:
                    beziers.append(None)
            chain = [i for i, _ in pairs]
            if pairs and pairs[-1][1] == 0:
                kind_read = "ring"
            else:
                kind_read = "line"
                chain.append(pairs[-1][1] if pairs else 0)
            points = tuple(verts[i] for i in chain)
            bent = tuple(beziers) if any(z is not None for z in beziers) else ()
            project.shapes.append(LbrnShape(layer, kind_read, points, beziers=bent))
        else:
            raise ValueError(f"shape type {kind} is not read")
    return project
