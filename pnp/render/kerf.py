"""Kerf compensation, one rule for every cut file (DXF parts, SVG and DXF cut sheets).

The blade removes `kerf` mm centred on its path, so `cut` outlines move outward and
`inner-cut` holes inward by kerf/2 (geometry.shapes.kerf_offset): the finished part keeps
its drawn size. Score and drill marks are not cut through and stay where they are; open
cut lines (a common-line sheet's shared edges) enclose nothing and stay too.
"""

from __future__ import annotations

from dataclasses import replace

from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from geometry.shapes import kerf_offset
from pnp.scene import Component, Item, Shape

KERF_LAYERS: tuple[str, ...] = ("cut", "inner-cut")


def with_kerf(component: Component, kerf: float) -> Component:
    """The component with its cut paths moved by kerf/2 (outlines out, holes in)."""
    if kerf < 0:
        raise ValueError(f"kerf must not be negative, got {kerf}")
    if kerf == 0:
        return component
    return replace(component, items=[_offset(it, kerf) for it in component.items])


def _offset(item: Item, kerf: float) -> Item:
    if not isinstance(item, Shape) or item.layer not in KERF_LAYERS:
        return item
    outward = item.layer == "cut"
    geom = item.geom
    if _is_closed_ring(geom):  # a card's rounded trim is a ring: offset it as the area
        geom = kerf_offset(Polygon(geom.coords), kerf, outward=outward).exterior
    elif geom.geom_type in ("Polygon", "MultiPolygon"):
        geom = kerf_offset(geom, kerf, outward=outward)
    radius = item.radius
    if radius > 0:
        radius = radius + kerf / 2 if outward else radius - kerf / 2
    return replace(item, geom=geom, radius=radius)


def _is_closed_ring(geom: BaseGeometry) -> bool:
    kind = geom.geom_type
    return kind == "LinearRing" or (
        kind == "LineString" and geom.is_closed and len(geom.coords) > 3
    )
