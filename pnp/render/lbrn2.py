"""LightBurn projects (.lbrn2): a prepared cut sheet as layers with speeds and powers set.

LightBurn's project file is XML (its format is not published; this follows the structure
its own files have, as documented by the projects that read them): a `<LightBurnProject>`
root, one `<CutSetting type="Cut">` per layer (`index` picks LightBurn's layer colour,
`name`, `speed` in mm/s, `maxPower`/`minPower` in %, `numPasses`, `priority`), and the
shapes: `<Shape Type="Ellipse" Rx Ry>` for a circle and `<Shape Type="Path">` with a
`<VertList>` ("V<x> <y>" per vertex) and a `<PrimList>` ("L<a> <b>" per straight line
between vertices a and b; a closed outline's last line returns to vertex 0). Every shape
has an `<XForm>` (an affine matrix a b c d e f), here a pure move. Units are mm, y up, as
in the scene and the DXF twin, so coordinates are written unchanged.

Layers run by priority (lowest first, with the optimiser's "order by priority" on):
engrave, score, drill marks, then inner cuts, then outlines, so a part is cut free of the
sheet only after its holes and marks are done and nothing shifts under the beam.

The sheet comes prepared (`pnp.prepare`: kerf, common lines), the same geometry as its
SVG and DXF twins. Numbers have 4 decimals and a fixed form, so a rebuild is
byte-identical; `read_lbrn2` reads a file back into layers and shapes for the tests.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from xml.sax.saxutils import quoteattr

from shapely.geometry.base import BaseGeometry

from pnp.render.dxf import machine_parts
from pnp.render.laser import Preset
from pnp.scene import Component

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
            lines += _shape(kind, part, radius, index)
    lines.append(f'    <Notes ShowOnLoad="0" Notes={quoteattr(_notes(sheet, preset))}/>')
    lines.append("</LightBurnProject>")
    return "\n".join(lines) + "\n"


def _notes(sheet: Component, preset: Preset) -> str:
    w, h = sheet.width, sheet.height
    return (
        f"pnp cut sheet {sheet.name}, bed {_num(w)} x {_num(h)} mm. Material preset: "
        f"{preset.title} ({preset.name}); check speeds and powers on a test piece first."
    )


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


def _paths(
    sheet: Component, layer: str, engrave: bool
) -> Iterator[tuple[str, BaseGeometry, float]]:
    """(kind, part, radius) of every path on a LightBurn layer, in the sheet's order."""
    source = ART_LAYER if layer == "engrave" else layer
    if layer == "engrave" and not engrave:
        return
    for shape in sheet.shapes(source):
        if layer == "engrave" and shape.style.fill is None:
            continue  # only filled art engraves; outlines and guides would be scored
        for kind, part in machine_parts(shape.geom):
            if kind == "point":
                if shape.radius > 0:
                    yield "circle", part, shape.radius
            else:
                yield kind, part, 0.0


# --- Reading -----------------------------------------------------------------------------

_VERT = re.compile(r"V(-?[0-9.eE+-]+) (-?[0-9.eE+-]+)")
_PRIM = re.compile(r"([LB])(\d+) (\d+)")


def read_lbrn2(text: str | bytes) -> LbrnProject:
    """A .lbrn2 file's cut settings and shapes (paths as vertex lists, ellipses as circles).

    Raises ValueError for anything this reader does not know (a Bezier segment, a shape
    on an undeclared layer), so a test finds it."""
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
            verts = [
                (a * float(x) + c * float(y) + e, b * float(x) + d * float(y) + f)
                for x, y in _VERT.findall(shape.findtext("VertList") or "")
            ]
            prims = _PRIM.findall(shape.findtext("PrimList") or "")
            if any(t != "L" for t, _, _ in prims):
                raise ValueError("curved path segments are not read")
            pairs = [(int(p), int(q)) for _, p, q in prims]
            chain = [i for i, _ in pairs]
            if pairs and pairs[-1][1] == 0:
                kind_read = "ring"
            else:
                kind_read = "line"
                chain.append(pairs[-1][1] if pairs else 0)
            project.shapes.append(LbrnShape(layer, kind_read, tuple(verts[i] for i in chain)))
        else:
            raise ValueError(f"shape type {kind} is not read")
    return project
