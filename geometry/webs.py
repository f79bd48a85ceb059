"""The narrowest web of a cut part: the thinnest bridge of material anywhere in it.

A web narrower than the material's thickness snaps when sawn or used. Eroding the part
by half a width w (a negative buffer) removes exactly the regions thinner than w; if the
part then falls apart, a hole breaks through to the edge, or a piece vanishes, it has a
web narrower than w. The narrowest web is the smallest w at which that happens.
"""

from __future__ import annotations

from shapely.geometry.base import BaseGeometry

WEB_RESOLUTION = 32  # segments per quarter circle while eroding: rounding error far below 0.01 mm


def _topology(geom: BaseGeometry) -> tuple[int, int]:
    """(pieces, holes) of an areal geometry."""
    parts = [g for g in getattr(geom, "geoms", [geom]) if not g.is_empty and g.area > 0]
    return len(parts), sum(len(p.interiors) for p in parts)


def holds_together(geom: BaseGeometry, width: float) -> bool:
    """Does the part keep its pieces and holes when every web narrower than `width` goes?"""
    if width <= 0:
        return True
    eroded = geom.buffer(-width / 2, quad_segs=WEB_RESOLUTION)
    return not eroded.is_empty and _topology(eroded) == _topology(geom)


def narrowest_web(geom: BaseGeometry, tolerance: float = 0.01) -> float:
    """The narrowest web of an areal part in mm, to within `tolerance`.

    A plain disc or a fat blob reports its own thickness (erosion finally empties it), so
    the answer is never larger than the widest inscribed circle's diameter.
    """
    if geom.is_empty or geom.area <= 0:
        raise ValueError("a part needs an area to have webs")
    minx, miny, maxx, maxy = geom.bounds
    lo, hi = 0.0, float(max(maxx - minx, maxy - miny)) + tolerance
    while hi - lo > tolerance:
        mid = (lo + hi) / 2
        if holds_together(geom, mid):
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2
