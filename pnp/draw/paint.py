"""What a print shows: the painted items of a component as areas of colour, and the colour
a point ends up (the ground a line is drawn on, the ink a piece's edge shows).

Used by the guide-contrast check (pnp.draw.checks) and by the trim lines a print draws round a
piece whose edge is paper-white (`with_trim_lines`).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, replace
from itertools import groupby

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import substring, unary_union

from pnp.draw.colour import blend, contrast_ratio, delta_e
from pnp.draw.scene import (
    CUT_LAYERS,
    GUIDE_STYLE,
    LAYERS,
    MIN_GUIDE_CONTRAST,
    Component,
    Shape,
    Style,
    enclosed,
    halo_under,
)

PAPER = "#FFFFFF"
SAMPLE = 0.5  # mm between the points measured along a line
MAX_SAMPLES = 400  # per line: long board lines are measured more sparsely

MIN_EDGE_CONTRAST = 1.5
"""A piece's edge shows on the paper when the ink along it reaches this contrast ratio
against paper white (a pale grey, #dddddd, is 1.4:1: hard to follow with a knife) ..."""
MIN_EDGE_DELTA_E = 20.0
"""... or differs from it this much in colour (CIE76): yellow #f0e442 is only 1.3:1 but
77 apart, and its edge is plain to see. Near-white ink fails both."""
EDGE_INSET = 0.3  # mm inside the outline where the piece's own ink is read
MIN_UNSEEN = 2.0  # mm: a shorter stretch of unseen edge is bridged by the edge either side

TRIM_STYLE = Style(stroke="#949494", stroke_width=0.25)
"""The printed trim line round a piece whose edge would not show: a thin neutral grey on
the guide layer, never a machine layer's colour (a cutter must not read it as a cut); the
lightest grey that keeps the 3:1 every printed guide line keeps on white paper."""


@dataclass(frozen=True)
class Paint:
    """One painted item as the checks see it: where its fill and its stroke lie."""

    order: tuple[int, int]
    fill: BaseGeometry | None
    fill_colour: str | None
    stroke: BaseGeometry | None
    stroke_colour: str | None
    stroke_width: float
    opacity: float


def linework(shape: Shape) -> BaseGeometry:
    """The lines a stroke follows: a line itself, an area's rings, a circle's rim."""
    g = shape.geom
    if g.geom_type == "Point":
        return g.buffer(shape.radius, quad_segs=32).exterior if shape.radius > 0 else Polygon()
    if g.geom_type in ("Polygon", "MultiPolygon"):
        return g.boundary
    if hasattr(g, "geoms"):
        return unary_union([linework(Shape(p, shape.layer, shape.style)) for p in g.geoms])
    return g


def fill_area(shape: Shape) -> BaseGeometry | None:
    g = shape.geom
    if g.geom_type == "Point":
        return g.buffer(shape.radius, quad_segs=32) if shape.radius > 0 else None
    if g.geom_type in ("Polygon", "MultiPolygon"):
        return g  # holes stay open: areas are painted even-odd
    area = enclosed(shape)
    return None if area.is_empty else area


def style_of(shape: Shape) -> Style:
    """The style a renderer paints: a bare guide shape takes the guide look."""
    return GUIDE_STYLE if shape.layer == "guide" and shape.style == Style() else shape.style


def paints(component: Component, layers: tuple[str, ...] = LAYERS) -> list[Paint]:
    """The component's shapes on `layers`, in the renderers' order (layer, then item)."""
    out = []
    for i, it in enumerate(component.items):
        if not isinstance(it, Shape) or it.layer not in layers:
            continue
        st = style_of(it)
        fill = fill_area(it) if st.fill is not None else None
        stroke = None
        if st.stroke is not None and st.stroke_width > 0:
            stroke = linework(it).buffer(st.stroke_width / 2, cap_style="flat")
        for area in (fill, stroke):  # asked about hundreds of points: index them once
            if area is not None:
                shapely.prepare(area)
        out.append(
            Paint(
                (LAYERS.index(it.layer), i),
                fill,
                st.fill,
                stroke,
                st.stroke,
                st.stroke_width,
                st.opacity,
            )
        )
    return out


def sample_count(line: BaseGeometry) -> int:
    """How many points `samples` spreads along the line: one every SAMPLE, capped."""
    return max(2, min(MAX_SAMPLES, int(line.length / SAMPLE) + 1))


def sample_points(line: BaseGeometry) -> np.ndarray:
    """`samples` as shapely points (one call into GEOS for them all)."""
    n = sample_count(line)
    return shapely.line_interpolate_point(line, line.length * (np.arange(n) + 0.5) / n)


def samples(line: BaseGeometry) -> list[tuple[float, float]]:
    """Points spread evenly along a line, each in the middle of its stretch."""
    if line.is_empty or line.length == 0:
        return []
    return [(x, y) for x, y in shapely.get_coordinates(sample_points(line)).tolist()]


def touching(painted: list[Paint], box: BaseGeometry) -> list[Paint]:
    """The paints whose fill or stroke meets `box`: the only ones that can lie under a
    line inside it."""
    if not painted:
        return []
    fills = np.array([p.fill for p in painted], dtype=object)
    strokes = np.array([p.stroke for p in painted], dtype=object)
    meets = shapely.intersects(fills, box) | shapely.intersects(strokes, box)
    return [p for p, m in zip(painted, meets.tolist(), strict=True) if m]


def shown_along(shape: Shape, below: list[Paint]) -> list[Shape]:
    """A straight guide line over printed art (`below`), with a halo under each stretch
    whose ground would swallow it (`pnp.draw.scene.shown_on` for a line over many grounds).
    The line stays one shape, so a laser still scores it in one pass. Crossing a thin line
    (one sample) needs no halo: the line shows either side of it."""
    stroke, line = shape.style.stroke, shape.geom
    if stroke is None or line.is_empty or line.length == 0:
        return [shape]
    n = sample_count(line)
    mids = samples(line)
    grounds = colours_at(below, np.array([x for x, _ in mids]), np.array([y for _, y in mids]))
    weak = [contrast_ratio(stroke, g) < MIN_GUIDE_CONTRAST for g in grounds]
    halos, k = [], 0
    for needed, run in groupby(weak):
        m = len(list(run))
        if needed and m > 1:  # from the first sample it vanishes at to the last
            a, b = line.length * (k + 0.5) / n, line.length * (k + m - 0.5) / n
            halos.append(halo_under(shape, substring(line, a, b)))
        k += m
    return [*halos, shape]


def colours_at(below: list[Paint], xs: np.ndarray, ys: np.ndarray) -> list[str]:
    """The colour the print shows at each point: paper, then every paint over it."""
    out = [PAPER] * len(xs)
    for p in below:
        for area, colour in ((p.fill, p.fill_colour), (p.stroke, p.stroke_colour)):
            if area is None or colour is None:
                continue
            for k in np.flatnonzero(shapely.contains_xy(area, xs, ys)):
                out[k] = blend(out[k], colour, p.opacity)
    return out


# --- a piece's edge on the paper ---------------------------------------------------------


def painted_layers(machine: tuple[str, ...]) -> tuple[str, ...]:
    """The layers a print paints when it draws only the `machine` layers it names."""
    return tuple(x for x in LAYERS if x not in CUT_LAYERS or x in machine)


def shows_on_paper(colour: str) -> bool:
    """Does an edge of ink in `colour` show against the paper it is cut out of?"""
    return (
        contrast_ratio(colour, PAPER) >= MIN_EDGE_CONTRAST
        or delta_e(colour, PAPER) >= MIN_EDGE_DELTA_E
    )


def edge_shown(
    component: Component,
    cut: Shape,
    printed: tuple[str, ...],
    painted: list[Paint] | None = None,
) -> list[bool]:
    """For points spread along the cut outline `cut` (one ring): does the print, drawing
    the machine layers `printed`, show the edge there?

    It does where the ink on the outline, or just inside it (EDGE_INSET: the piece's own
    ink), stands out from the paper outside by MIN_EDGE_CONTRAST. Only `printed` layers
    paint: a machine layer the print leaves out (the cut hairline itself) shows nothing.
    `painted` is `paints(component, painted_layers(printed))` when the caller has it (every
    ring of a component is tested against the same paints: work them out once)."""
    line = linework(cut)
    area = enclosed(cut)
    if line.is_empty or area.is_empty:
        return []
    at = sample_points(line)
    inner = area.buffer(-EDGE_INSET).boundary
    # each point's nearest on the outline moved EDGE_INSET inwards
    ins = (
        at
        if inner.is_empty
        else shapely.line_interpolate_point(inner, shapely.line_locate_point(inner, at))
    )
    if painted is None:
        painted = paints(component, painted_layers(printed))
    below = touching(painted, line.envelope.buffer(1.0))
    shown = []
    for pts in (at, ins):
        xy = shapely.get_coordinates(pts)
        shown.append([shows_on_paper(c) for c in colours_at(below, xy[:, 0], xy[:, 1])])
    return [a or b for a, b in zip(*shown, strict=True)]


def unseen_stretches(
    component: Component,
    cut: Shape,
    printed: tuple[str, ...],
    painted: list[Paint] | None = None,
) -> BaseGeometry:
    """The stretches of a cut outline the print does not show, as lines (empty if none):
    runs of unseen points longer than MIN_UNSEEN, each closed over its half steps."""
    shown = edge_shown(component, cut, printed, painted)
    line = linework(cut)
    if not shown or all(shown):
        return Polygon()
    if not any(shown):
        return line
    n = len(shown)
    step = line.length / n
    start = shown.index(True)  # walk the ring from a shown point, so no run wraps round
    runs: list[tuple[int, int]] = []
    k = 0
    while k < n:
        i = (start + k) % n
        if shown[i]:
            k += 1
            continue
        j = k
        while j < n and not shown[(start + j) % n]:
            j += 1
        runs.append(((start + k) % n, j - k))
        k = j
    parts = []
    for first, count in runs:
        if count * step < MIN_UNSEEN:
            continue
        a, b = first * step, (first + count) * step
        if b <= line.length:
            parts.append(substring(line, a, b))
        else:
            parts += [substring(line, a, line.length), substring(line, 0, b - line.length)]
    return unary_union(parts) if parts else Polygon()


_UNSEEN: OrderedDict[tuple[int, int, tuple[str, ...]], tuple[Component, list]] = OrderedDict()
_UNSEEN_MOST = 512


def unseen_outlines(component: Component, printed: tuple[str, ...]) -> list[BaseGeometry]:
    """Every stretch of the component's `cut` outlines that a print drawing the machine
    layers `printed` would not show: none where the cut itself is printed, or where the art
    runs past the trim (bleed) and crop marks show it.

    Remembered for the very component object (and its item count): a build asks twice, once
    to draw trim lines and once to check the printed page, and a part that needs no trim
    line is the same object both times."""
    if "cut" in printed or component.bleed > 0:
        return []
    key = (id(component), len(component.items), printed)
    known = _UNSEEN.get(key)
    if known is not None and known[0] is component:
        _UNSEEN.move_to_end(key)
        return known[1]
    out = _unseen_outlines(component, printed)
    _UNSEEN[key] = (component, out)
    if len(_UNSEEN) > _UNSEEN_MOST:
        _UNSEEN.popitem(last=False)
    return out


def _unseen_outlines(component: Component, printed: tuple[str, ...]) -> list[BaseGeometry]:
    out = []
    painted: list[Paint] | None = None
    for cut in component.shapes("cut"):
        for ring in shapely.get_parts(linework(cut)):
            if painted is None:
                painted = paints(component, painted_layers(printed))
            outline = replace(cut, geom=ring, radius=0.0, curve=None)
            unseen = unseen_stretches(component, outline, printed, painted)
            if not unseen.is_empty:
                out.append(unseen)
    return out


def trim_lines(component: Component, printed: tuple[str, ...]) -> list[Shape]:
    """Printed grey lines along every stretch of a `cut` outline whose edge the print
    would not show (a white sticker on white paper); none where the art reaches it."""
    return [Shape(u, "guide", TRIM_STYLE) for u in unseen_outlines(component, printed)]


def with_trim_lines(component: Component, printed: tuple[str, ...]) -> Component:
    """The component as a print that leaves out `printed`'s missing machine layers draws
    it: with trim lines where its edge would not show (and so its back)."""
    back = component.back
    if back is not None:
        back = with_trim_lines(back, printed)
    lines = trim_lines(component, printed)
    if not lines and back is component.back:
        return component
    return replace(component, items=[*component.items, *lines], back=back)
