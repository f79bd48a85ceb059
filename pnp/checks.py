"""Rule-aware layout checks: findings with a level, a component and a message."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from geometry.folding import fits_inside
from geometry.webs import holds_together, narrowest_web
from pnp.colour import CVD_MATRICES, delta_e
from pnp.errors import PnpError
from pnp.palette import ink
from pnp.scene import Component, enclosed

Level = Literal["error", "warning", "info"]


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
