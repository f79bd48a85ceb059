"""Rule-aware layout checks: findings with a level, a component and a message."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, cast

import numpy as np
import shapely
from shapely.geometry import LineString
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from geometry.folding import fits_inside
from geometry.webs import holds_together, narrowest_web
from pnp.contract.palette import ink
from pnp.draw.colour import CVD_MATRICES, blend, contrast_ratio, delta_e
from pnp.draw.paint import (
    PAPER,
    linework,
    paints,
    samples,
    style_of,
    touching,
    unseen_outlines,
)
from pnp.draw.scene import LAYERS, MIN_GUIDE_CONTRAST, Component, Shape, enclosed
from pnp.runtime.errors import PnpError

Level = Literal["error", "warning", "info", "ok"]  # ok: verified, shown under --verbose


@dataclass(frozen=True)
class Finding:
    level: Level
    component: str
    message: str

    def __str__(self) -> str:
        return f"{self.level:7} {self.component}: {self.message}"


def has_errors(findings: list[Finding]) -> bool:
    return any(f.level == "error" for f in findings)


def check_cut_outlines(component: Component) -> list[Finding]:
    """Every cut outline must be a closed, valid ring a cutter can follow."""
    out = []
    for shape in component.shapes():
        if shape.layer not in ("cut", "inner-cut") or shape.radius > 0:
            continue
        g = shape.geom
        parts = getattr(g, "geoms", [g])
        for part in parts:
            if part.geom_type in ("LinearRing", "Polygon", "MultiPolygon"):
                if not part.is_valid:
                    out.append(
                        Finding("error", component.name, f"{shape.layer} outline is not valid")
                    )
            elif part.geom_type == "LineString":
                if not part.is_closed or not part.is_valid or part.length == 0:
                    out.append(
                        Finding(
                            "error", component.name, f"{shape.layer} line is not a closed outline"
                        )
                    )
    return out


MIN_PART = 2.0
"""mm: the smallest side a printed or cut part may have. Smaller parts cannot be cut out or
held, and a part that rounds to nothing in the files cannot be rendered at all."""


def check_part_sizes(components: list[Component]) -> list[Finding]:
    """Every part (and its back) at least `MIN_PART` each way: `check` then fails every kit
    whose parts `build` could not draw, whatever parameter made them small."""
    out = []
    for comp in components:
        for c in (comp, comp.back) if comp.back is not None else (comp,):
            if not (c.width >= MIN_PART and c.height >= MIN_PART):
                out.append(
                    Finding(
                        "error",
                        c.name,
                        f"is {c.width:.3g} x {c.height:.3g} mm: a part under {MIN_PART:g} mm "
                        "cannot be printed, cut or held; make it larger",
                    )
                )
    return out


def check_fits(
    component: Component, name: str, container: BaseGeometry, outline: BaseGeometry | None = None
) -> list[Finding]:
    """Does the component's physical outline fit inside `container` (a tin, a lid)?"""
    shape = outline if outline is not None else component.shape_outline
    if fits_inside(shape, container):
        return []
    b = shape.bounds
    return [
        Finding(
            "error",
            component.name,
            f"{b[2] - b[0]:.1f} x {b[3] - b[1]:.1f} mm does not fit inside the {name}",
        )
    ]


def check_palette(
    colours: tuple[str, ...] | list[str], component: str = "palette"
) -> list[Finding]:
    """Colours must differ for every common colour vision, and each needs its own symbol."""
    out: list[Finding] = []
    try:
        inks = [ink(c) for c in colours]
    except PnpError as exc:
        return [Finding("error", component, str(exc))]
    symbols = [k.symbol for k in inks]
    if len(set(symbols)) != len(symbols):
        out.append(Finding("error", component, "two colours share a symbol: greyscale play breaks"))
    for i, a in enumerate(inks):
        for b in inks[i + 1 :]:
            for vision in CVD_MATRICES:
                d = delta_e(a.hex, b.hex, vision)
                if d < MIN_DELTA_E:
                    level: Level = "error" if vision == "normal" else "warning"
                    out.append(
                        Finding(
                            level,
                            component,
                            f"{a.name} and {b.name} are hard to tell apart with "
                            f"{vision} vision (delta E {d:.0f} < {MIN_DELTA_E})",
                        )
                    )
    return out


MIN_DELTA_E = 10.0


def check_on_background(
    colours: tuple[str, ...] | list[str],
    background: str,
    where: str,
    component: str = "palette",
    outlined: tuple[str, ...] = (),
) -> list[Finding]:
    """Each ink must stand out from the `background` (a '#rrggbb') it stands on, in every
    common colour vision: black figures on black tile backs vanish. An ink listed in
    `outlined` carries a contrasting outline, so it passes whatever its fill."""
    out: list[Finding] = []
    for name in colours:
        try:
            k = ink(name)
        except PnpError as exc:
            return [Finding("error", component, str(exc))]
        if name in outlined:
            continue
        for vision in CVD_MATRICES:
            d = delta_e(k.hex, background, vision)
            if d < MIN_DELTA_E:
                level: Level = "error" if vision == "normal" else "warning"
                out.append(
                    Finding(
                        level,
                        component,
                        f"{name} pieces are hard to see on {where} with {vision} vision "
                        f"(delta E {d:.0f} < {MIN_DELTA_E:g}): change the colour or outline it",
                    )
                )
                break
    return out


def part_region(component: Component) -> BaseGeometry:
    """The material a cut part keeps: inside its `cut` outlines, outside its `inner-cut`
    holes (print-and-cut.md: holes are cut first, then the outline)."""

    def areas(layer: str) -> BaseGeometry:
        return unary_union([enclosed(s) for s in component.shapes(layer)])

    return areas("cut").difference(areas("inner-cut"))


def check_narrowest_web(component: Component, limit: float, material: str) -> list[Finding]:
    """No bridge of material narrower than `limit` (its thickness): eroding the part by
    half the limit must not split it (print-and-cut.md). Reports the narrowest value."""
    region = part_region(component)
    if region.is_empty or region.area <= 0:
        return [Finding("error", component.name, "has no closed cut outline to measure")]
    web = narrowest_web(region)
    if not holds_together(region, limit):
        return [
            Finding(
                "error",
                component.name,
                f"narrowest web {web:.1f} mm is thinner than the {limit:g} mm {material}: "
                "it would snap",
            )
        ]
    return [Finding("info", component.name, f"narrowest web {web:.1f} mm (>= {limit:g} mm)")]


# --- guide lines against the ink they cross ----------------------------------------------

GUIDE_LAYERS = ("guide", "score", "inner-cut", "cut", "drill")
"""Layers whose lines a maker must see on the print: folds, cuts, holes, drill marks, guides."""
EDGE = 0.3  # mm: a line this close to the edge of a fill runs along it, and the edge shows
CUT_EDGE = 0.5  # mm: the same for a cut (stickers' art runs 0.4 mm past their kiss cut)


def far_from(line: BaseGeometry, where: np.ndarray, edge: float) -> np.ndarray:
    """Which points lie at least `edge` from the line: the near ones are found on the
    line's index, and only they are measured exactly."""
    shapely.prepare(line)
    near = shapely.dwithin(line, where, edge)
    far = ~near
    if near.any():
        far[near] = shapely.distance(line, where[near]) >= edge
    return far


def guide_contrasts(component: Component) -> list[tuple[str, str, str, float]]:
    """(layer, line colour, ground colour, contrast ratio) for every guide line of the
    component, at the place along it where it shows least.

    The ground is what is painted under the line there, in the renderers' order (layer by
    layer, item by item): fills, opacity blended, and strokes wider than the line (a halo).
    A cut is a machine hairline; what a maker follows is the printed line under it (an
    edge line wider than the hairline), so that line is measured against its own ground
    where there is one. Points within EDGE of a fill's edge (CUT_EDGE for cuts: a sticker's
    art runs just past its kiss cut) are left out: the line runs along the edge there. Whether
    that edge itself shows (not for a white piece on white paper) is `check_outline_shows`;
    a card's outer cut is left out altogether, its crop marks show it."""
    painted = paints(component)
    out: list[tuple[str, str, str, float]] = []
    for i, it in enumerate(component.items):
        if not isinstance(it, Shape) or it.layer not in GUIDE_LAYERS:
            continue
        if it.layer == "cut" and component.imposition == "card" and component.bleed > 0:
            continue
        st = style_of(it)
        if st.stroke is None or st.stroke_width <= 0:
            continue
        line = linework(it)
        pts = samples(line)
        if not pts:
            continue
        is_cut = it.layer in ("cut", "inner-cut")
        order = (LAYERS.index(it.layer), i)
        below = [p for p in touching(painted, line.envelope.buffer(1.0)) if p.order < order]
        xs = np.array([x for x, _ in pts])
        ys = np.array([y for _, y in pts])
        where = shapely.points(xs, ys)
        grounds = [PAPER] * len(pts)
        guides: list[tuple[str, str] | None] = [None] * len(pts)  # a printed line under a cut
        widest = [0.0] * len(pts)
        keep = np.ones(len(pts), dtype=bool)
        edge = CUT_EDGE if is_cut else EDGE
        for p in below:
            if p.fill is not None and p.fill_colour is not None:
                keep &= far_from(p.fill.boundary, where, edge)
                for k in np.flatnonzero(shapely.contains_xy(p.fill, xs, ys)):
                    grounds[k] = blend(grounds[k], p.fill_colour, p.opacity)
            if p.stroke is not None and p.stroke_colour is not None:
                if p.stroke_width > st.stroke_width:
                    for k in np.flatnonzero(shapely.contains_xy(p.stroke, xs, ys)):
                        if is_cut and p.stroke_width > widest[k]:  # the widest shows
                            guides[k] = (p.stroke_colour, grounds[k])
                            widest[k] = p.stroke_width
                        grounds[k] = blend(grounds[k], p.stroke_colour, p.opacity)
        measured = []
        for k in np.flatnonzero(keep):
            colour, ground = guides[k] or (st.stroke, grounds[k])
            measured.append((contrast_ratio(colour, ground), colour, ground))
        if measured:
            ratio, colour, ground = min(measured)
            out.append((it.layer, colour, ground, ratio))
    return out


def check_guide_contrast(component: Component) -> list[Finding]:
    """Every fold, cut, drill and guide line must show on the ink it crosses (WCAG's 3:1
    for lines): a black fold on a black figure cannot be folded on. One finding per
    layer, for its worst line."""
    worst: dict[str, tuple[float, str, str]] = {}
    for layer, stroke, ground, ratio in guide_contrasts(component):
        if layer not in worst or ratio < worst[layer][0]:
            worst[layer] = (ratio, stroke, ground)
    return [
        Finding(
            "error",
            component.name,
            f"{'an' if layer[0] in 'aeiou' else 'a'} {layer} line ({stroke}) on {ground} "
            f"shows at contrast {ratio:.1f}:1, under "
            f"{MIN_GUIDE_CONTRAST:g}:1: draw it with a halo (pnp.draw.scene.shown_on)",
        )
        for layer, (ratio, stroke, ground) in sorted(worst.items())
        if ratio < MIN_GUIDE_CONTRAST
    ]


def check_outline_shows(component: Component, printed: tuple[str, ...]) -> list[Finding]:
    """Every piece's outline must show on a print that draws only the machine layers
    `printed`: by its own ink reaching the edge, or by a printed line along it (a white
    sticker on white paper has neither, once the cut hairline is left out; see
    `pnp.draw.paint.with_trim_lines`). A piece with bleed is trimmed by its crop marks."""
    unseen = unseen_outlines(component, printed)
    if not unseen:
        return []
    lost = sum(u.length for u in unseen)
    return [
        Finding(
            "error",
            component.name,
            f"{len(unseen)} cut outline(s) do not show on the print ({lost:.0f} mm of edge near "
            "paper white, with no printed line along it): draw a trim line "
            "(pnp.draw.paint.with_trim_lines)",
        )
    ]


def printed_checks(documents: list[tuple[tuple[str, ...], list[Component]]]) -> list[Finding]:
    """The checks a printed document gets: (machine layers it draws, the components on its
    pages). Each component once per document."""
    out: list[Finding] = []
    for printed, components in documents:
        seen: set[str] = set()
        for c in components:
            if c.name not in seen:
                seen.add(c.name)
                out += check_outline_shows(c, printed)
    return out


def fold_crossings(component: Component) -> list[tuple[int, str]]:
    """(fold number, what) for every fold line of `component` that runs over something
    its kit keeps clear of folds (`meta["fold_clear"]`: (what, shape) pairs, such as a
    board's arrows and die points). A fold that only touches a shape's edge is clear."""
    keep = cast("list[tuple[str, BaseGeometry]]", component.meta.get("fold_clear", []))
    out = []
    for k, (a, b) in enumerate(component.fold_lines, start=1):
        line = LineString([a, b])
        for what, shape in keep:
            inner = shape.buffer(-FOLD_TOUCH)
            if not inner.is_empty and line.intersects(inner):
                out.append((k, what))
    return out


FOLD_TOUCH = 0.01
"""mm a fold may graze a shape it keeps clear of (it runs along a gap's edge)."""


def check_fold_crossings(component: Component) -> list[Finding]:
    """A fold over an arrow or a die point puts a crease where the play happens: one
    error per fold that crosses what its kit keeps clear."""
    crossed: dict[int, list[str]] = {}
    for k, what in fold_crossings(component):
        crossed.setdefault(k, []).append(what)
    out = []
    for k, whats in sorted(crossed.items()):
        (x0, y0), (x1, y1) = component.fold_lines[k - 1]
        where = f"x = {x0:.2f} mm" if abs(x0 - x1) < 1e-9 else f"y = {y0:.2f} mm"
        counts = {w: whats.count(w) for w in dict.fromkeys(whats)}
        named = " and ".join(f"{n} {w}" + ("s" if n > 1 else "") for w, n in counts.items())
        out.append(Finding("error", component.name, f"the fold at {where} crosses {named}"))
    return out


def scene_checks(components: list[Component]) -> list[Finding]:
    """The checks every kit gets, whatever its game: each component and each back once."""
    out: list[Finding] = []
    seen: set[str] = set()
    for comp in components:
        for c in (comp, comp.back):
            if c is not None and c.name not in seen:
                seen.add(c.name)
                out += check_guide_contrast(c)
                out += check_fold_crossings(c)
    return out


def verified(
    components: list[Component], documents: list[tuple[tuple[str, ...], list[Component]]]
) -> list[Finding]:
    """What the checks every kit gets verified, one "ok" line each with the value measured
    (`pnp check --verbose`): measured again here, so the default check stays as fast."""
    parts = [c for comp in components for c in (comp, comp.back) if c is not None]
    smallest = min((min(c.width, c.height) for c in parts), default=0.0)
    out = [
        Finding(
            "ok",
            "parts",
            f"{len(parts)} parts and backs, the smallest side {smallest:.1f} mm "
            f"(at least {MIN_PART:g} mm)",
        )
    ]
    seen: dict[str, Component] = {c.name: c for c in parts}
    ratios = [r for c in seen.values() for *_, r in guide_contrasts(c)]
    if ratios:
        out.append(
            Finding(
                "ok",
                "guide lines",
                f"{len(ratios)} fold, cut, drill and guide line(s) checked, the lowest contrast "
                f"{min(ratios):.1f}:1 (at least {MIN_GUIDE_CONTRAST:g}:1)",
            )
        )
    shown = sum(len({c.name for c in comps}) for _, comps in documents)
    out.append(
        Finding(
            "ok",
            "outlines",
            f"cut outlines checked to show on the print for {shown} placed part(s) "
            f"over {len(documents)} document(s)",
        )
    )
    return out
