"""Folding: a board so it fits a container (a mint tin), the fit test itself, and the
tent fold a standee is cut and folded to."""

from __future__ import annotations

import math
from dataclasses import dataclass

from shapely import affinity
from shapely.geometry import LineString, Polygon, box
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


@dataclass(frozen=True)
class TentFold:
    """A standee cut as one strip and folded into a tent, `x0, y0` its lower-left corner.

    Bottom to top: a foot (`base` deep), the front panel, the back panel, the other foot,
    each `width` wide and the panels `height` high. Folded at the top (between the
    panels) and at both feet, with the feet turned in under it and glued one on the other,
    it stands on a `width` x `base` footprint as a three-sided prism: a picture the right
    way up on the front shows on the back too when drawn turned half round about `apex`.
    `base` 0 is the plain A-frame (two panels, one fold), which stands only while the card
    springs it open.
    """

    x0: float
    y0: float
    width: float
    height: float
    base: float = 0.0

    def __post_init__(self) -> None:
        if self.width <= 0 or self.height <= 0 or self.base < 0:
            raise ValueError("a tent fold needs a positive width and height and no negative base")
        if self.base >= 2 * self.height:
            raise ValueError(
                f"a {self.base:g} mm base is too deep for {self.height:g} mm panels to meet"
            )

    @property
    def length(self) -> float:
        """The strip's length, flat."""
        return 2 * self.height + 2 * self.base

    @property
    def apex(self) -> tuple[float, float]:
        """The middle of the top fold: the centre the back's picture is turned about."""
        return (self.x0 + self.width / 2, self.y0 + self.base + self.height)

    @property
    def standing_height(self) -> float:
        """How high the folded tent stands: its panels lean in over half the base."""
        return math.sqrt(self.height**2 - (self.base / 2) ** 2)

    def front(self) -> Polygon:
        """The panel whose picture is drawn the right way up."""
        return box(self.x0, self.y0 + self.base, self.x0 + self.width, self.apex[1])

    def back(self) -> Polygon:
        return box(self.x0, self.apex[1], self.x0 + self.width, self.apex[1] + self.height)

    def feet(self) -> tuple[Polygon, ...]:
        """The two glue tabs (none for an A-frame)."""
        if self.base == 0:
            return ()
        top = self.y0 + self.length
        return (
            box(self.x0, self.y0, self.x0 + self.width, self.y0 + self.base),
            box(self.x0, top - self.base, self.x0 + self.width, top),
        )

    def folds(self) -> tuple[LineString, ...]:
        """Fold lines across the strip: the feet's (if any) and the top."""
        ys = [self.apex[1]]
        if self.base > 0:
            ys = [self.y0 + self.base, *ys, self.y0 + self.length - self.base]
        return tuple(LineString([(self.x0, y), (self.x0 + self.width, y)]) for y in ys)


def tent_for_footprint(x0: float, y0: float, diameter: float, height: float) -> TentFold:
    """A tent fold whose footprint just fits a circle of `diameter` (a token's place):
    0.8 of it wide and 0.6 deep, so the footprint's diagonal is the diameter."""
    return TentFold(x0, y0, 0.8 * diameter, height, 0.6 * diameter)
