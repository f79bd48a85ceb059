"""Folding a board so it fits a container (a mint tin), and the fit test itself."""

from __future__ import annotations

from dataclasses import dataclass

from shapely import affinity
from shapely.geometry.base import BaseGeometry

from geometry.shapes import centred_rounded_rect


@dataclass(frozen=True)
class FoldPlan:
    """How to fold a w x h board: `cols` x `rows` panels; fold lines in board mm."""

    cols: int
    rows: int
    width: float
    height: float

    @property
    def folded_size(self) -> tuple[float, float]:
        return (self.width / self.cols, self.height / self.rows)

    @property
    def lines(self) -> tuple[tuple[tuple[float, float], tuple[float, float]], ...]:
        out = []
        for i in range(1, self.cols):
            x = self.width * i / self.cols
            out.append(((x, 0.0), (x, self.height)))
        for j in range(1, self.rows):
            y = self.height * j / self.rows
            out.append(((0.0, y), (self.width, y)))
        return tuple(out)


def container(width: float, height: float, radius: float) -> BaseGeometry:
    """A rounded-rectangle container (a tin's inside), centred on the origin."""
    return centred_rounded_rect(0, 0, width, height, radius)


def fits_inside(outline: BaseGeometry, box_: BaseGeometry, tolerance: float = 1e-6) -> bool:
    """Does `outline`, centred on the container (turned 90 degrees if that helps), fit?"""
    for angle in (0, 90):
        g = affinity.rotate(outline, angle, origin="centroid") if angle else outline
        c = g.envelope.centroid
        g = affinity.translate(g, -c.x, -c.y)
        if box_.buffer(tolerance).contains(g):
            return True
    return False


def fold_plan(width: float, height: float, box_: BaseGeometry) -> FoldPlan | None:
    """The fewest folds (halves, then quarters) that make the board fit; None if none do."""
    for cols, rows in ((1, 1), (2, 1), (1, 2), (2, 2), (3, 1), (1, 3), (3, 2), (2, 3), (3, 3)):
        plan = FoldPlan(cols, rows, width, height)
        w, h = plan.folded_size
        if fits_inside(centred_rounded_rect(0, 0, w, h, 0.5), box_):
            return plan
    return None
