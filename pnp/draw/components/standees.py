"""A standee any game can reuse: one strip, cut out and folded into a tent that stands.

The geometry (panels, feet, folds) is `geometry.folding.TentFold`; this draws it: the
piece's colour, its picture on the front and turned half round on the back (so it reads
the right way up from both sides), glue marks on the feet, fold lines that show on the
colour (a halo where they would vanish), an edge line and the cut.
"""

from __future__ import annotations

from dataclasses import replace

from shapely.geometry import LineString

from geometry.folding import TentFold
from geometry.shapes import rounded_rect, rounded_rect_curve
from pnp.draw.scene import (
    CUT_STYLE,
    SCORE_STYLE,
    Component,
    Item,
    Shape,
    Style,
    Text,
    curved,
    shown_on,
)

GLUE_PT = 4.0  # the word on each foot
CAP = 0.73  # digit and capital height per point size
PT_PER_MM = 72 / 25.4


def tent_standee(
    comp: Component,
    tent: TentFold,
    fill: str,
    picture: list[Item],
    *,
    edge: str,
    feet_fill: str,
    feet_text: str = "#000000",
    radius: float = 1.0,
    edge_width: float = 0.25,
) -> tuple[tuple[tuple[float, float], tuple[float, float]], ...]:
    """Draw one tent standee into `comp`; `picture` is drawn for the front panel. Returns
    the fold lines (for `Component.fold_lines`)."""
    curve = rounded_rect_curve(tent.x0, tent.y0, tent.width, tent.length, radius)
    outline = rounded_rect(tent.x0, tent.y0, tent.width, tent.length, radius)
    comp.add(Shape(outline, style=Style(fill=fill, stroke=None), curve=curve))
    for foot in tent.feet():
        comp.add(Shape(foot.intersection(outline), style=Style(fill=feet_fill, stroke=None)))
        c = foot.centroid
        y = c.y - GLUE_PT * CAP / PT_PER_MM / 2
        comp.add(Text(c.x, y, "glue", GLUE_PT, False, "middle", feet_text))
    cx, cy = tent.apex
    for item in picture:
        comp.add(item)
        if isinstance(item, Text):
            turned = replace(item, x=2 * cx - item.x, y=2 * cy - item.y, rotate=item.rotate + 180)
            comp.add(turned)
        else:
            comp.add(item.transformed([-1, 0, 0, -1, 2 * cx, 2 * cy]))  # a half turn
    folds = tent.folds()
    for fold in folds:  # a foot's fold runs along the panel's colour too
        comp.add(*shown_on(Shape(fold, "score", SCORE_STYLE), fill))
    comp.add(curved(curve, style=Style(stroke=edge, stroke_width=edge_width), kind="ring"))
    comp.add(curved(curve, "cut", CUT_STYLE, "ring"))
    return tuple(_ends(f) for f in folds)


def _ends(line: LineString) -> tuple[tuple[float, float], tuple[float, float]]:
    (x0, y0), (x1, y1) = line.coords[0], line.coords[-1]
    return ((x0, y0), (x1, y1))
