"""Folding: a board so it fits a container (a mint tin), the fit test itself, and the
tent fold a standee is cut and folded to."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from shapely import affinity
from shapely.geometry import LineString, Polygon, box
from shapely.geometry.base import BaseGeometry

from geometry.shapes import centred_rounded_rect


@dataclass(frozen=True)
class FoldPlan:
    """How to fold a w x h board: `cols` x `rows` panels; fold lines in board mm.

    `xs` and `ys` place the folds (x of each vertical fold, y of each horizontal one);
    left empty they split the board evenly. A fold moved off the even split to keep clear
    of the art leaves panels of unequal size: the folded board is the largest one."""

    cols: int
    rows: int
    width: float
    height: float
    xs: tuple[float, ...] = ()
    ys: tuple[float, ...] = ()

    @property
    def fold_xs(self) -> tuple[float, ...]:
        return self.xs or tuple(self.width * i / self.cols for i in range(1, self.cols))

    @property
    def fold_ys(self) -> tuple[float, ...]:
        return self.ys or tuple(self.height * j / self.rows for j in range(1, self.rows))

    @property
    def folded_size(self) -> tuple[float, float]:
        return (_widest(self.fold_xs, self.width), _widest(self.fold_ys, self.height))

    @property
    def lines(self) -> tuple[tuple[tuple[float, float], tuple[float, float]], ...]:
        out = [((x, 0.0), (x, self.height)) for x in self.fold_xs]
        out += [((0.0, y), (self.width, y)) for y in self.fold_ys]
        return tuple(out)


def _widest(cuts: tuple[float, ...], length: float) -> float:
    edges = (0.0, *cuts, length)
    return max(b - a for a, b in zip(edges, edges[1:], strict=False))


def _placed(n: int, length: float, allowed: Sequence[float] | None) -> tuple[float, ...] | None:
    """Where `n - 1` folds go across `length`: evenly, or each on the allowed line nearest
    its even place (distinct, in order); None when there are too few allowed lines."""
    even = [length * i / n for i in range(1, n)]
    if allowed is None:
        return tuple(even)
    free = sorted(allowed)
    chosen: list[float] = []
    for target in even:
        rest = [a for a in free if not chosen or a > chosen[-1] + 1e-9]
        if not rest:
            return None
        chosen.append(min(rest, key=lambda a: abs(a - target)))
    return tuple(chosen)


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


def fold_plan(
    width: float,
    height: float,
    box_: BaseGeometry,
    allowed_x: Sequence[float] | None = None,
    allowed_y: Sequence[float] | None = None,
) -> FoldPlan | None:
    """The fewest folds (halves, then quarters) that make the board fit; None if none do.

    `allowed_x` and `allowed_y`, when given, are the only places a vertical or a
    horizontal fold may go (the lines between the art, say): each fold takes the allowed
    line nearest its even place, and a plan whose largest panel then misses the box gives
    way to one with more folds."""
    for cols, rows in ((1, 1), (2, 1), (1, 2), (2, 2), (3, 1), (1, 3), (3, 2), (2, 3), (3, 3)):
        xs = _placed(cols, width, allowed_x)
        ys = _placed(rows, height, allowed_y)
        if xs is None or ys is None:
            continue
        plan = FoldPlan(cols, rows, width, height, xs, ys)
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
