"""Play-dough blobs: their size from the dough's physics, the board they start on, and the
soft blob drawn on a die face.

Lengths are millimetres, masses grams, densities g/cm^3. A blob matters to the board only
through its footprint (what it covers seen from above), so every size here follows from one
blob's volume spread at a thickness: the start circles from a blob resting in one, the home
zone from each player's whole dough as one disc. The board's width is not chosen: it is
the row of start circles plus the margins.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from shapely.geometry import Point, Polygon, box

MM3_PER_CM3 = 1000.0
DISC_SEGMENTS = 32  # quarter-circle segments of a drawn disc: the fit checks use exact maths


# --- one blob ---------------------------------------------------------------------------


def blob_volume(grams: float, blobs: int, density: float) -> float:
    """Volume of one of `blobs` equal pieces of `grams` of dough, mm^3."""
    if grams <= 0 or blobs < 1 or density <= 0:
        raise ValueError(
            f"dough needs positive mass, count and density: {grams}, {blobs}, {density}"
        )
    return grams / blobs / density * MM3_PER_CM3


def ball_radius(volume: float) -> float:
    """Radius of a ball of `volume` mm^3: a blob rolled round."""
    return math.pow(3 * volume / (4 * math.pi), 1 / 3)


def disc_radius(volume: float, thickness: float) -> float:
    """Radius of a flat disc of `volume` mm^3 pressed to `thickness` mm."""
    if thickness <= 0:
        raise ValueError(f"a disc needs a positive thickness, got {thickness}")
    return math.sqrt(volume / (math.pi * thickness))


def resting_radius(volume: float, thickness: float) -> float:
    """Footprint radius of a blob left at `thickness`: a disc, but never narrower than the
    ball it would slump to if asked to stand taller than one."""
    return max(disc_radius(volume, thickness), ball_radius(volume))


def disc(x: float, y: float, r: float) -> Polygon:
    """A disc to draw or to test with shapely."""
    return Point(x, y).buffer(r, quad_segs=DISC_SEGMENTS)


# --- the board ---------------------------------------------------------------------------


@dataclass(frozen=True)
class StartRow:
    """The row of start circles along the bottom edge; circle 0 is at the left."""

    count: int
    circle_radius: float
    gap: float  # between neighbouring circles' edges
    margin: float  # board edge to the circles

    @property
    def pitch(self) -> float:
        return 2 * self.circle_radius + self.gap

    @property
    def y(self) -> float:
        return self.margin + self.circle_radius

    @property
    def top(self) -> float:
        """Height of the circles' top edge above the board's bottom edge."""
        return self.margin + 2 * self.circle_radius

    @property
    def width(self) -> float:
        """The board's width: the circles side by side plus a margin at each end."""
        return 2 * self.margin + self.count * self.pitch - self.gap

    def centres(self) -> tuple[tuple[float, float], ...]:
        x0 = self.margin + self.circle_radius
        return tuple((x0 + i * self.pitch, self.y) for i in range(self.count))


def start_row(
    count: int, blob_radius: float, circle_margin: float, gap: float, board_margin: float
) -> StartRow:
    """Circles that each hold a blob of `blob_radius` with `circle_margin` to spare."""
    return StartRow(count, blob_radius + circle_margin, gap, board_margin)


def home_zone(width: float, height: float, margin: float, depth: float) -> Polygon:
    """The home zone: the full width inside the margins, `depth` deep along the top edge."""
    return box(margin, height - margin - depth, width - margin, height - margin)


def min_board_height(row: StartRow, home_depth: float) -> float:
    """The board must be taller than this so the home zone clears the start circles."""
    return row.top + home_depth + row.margin


@dataclass(frozen=True)
class StartFit:
    """Do the circles hold their blobs, and how far apart do neighbouring blobs sit?"""

    holds: bool
    neighbour_gap: float  # edge to edge between blobs in neighbouring circles, mm

    @property
    def apart(self) -> bool:
        return self.neighbour_gap > 0


def start_fit(row: StartRow, blob_radius: float) -> StartFit:
    """Blobs centred in the circles: each inside its circle, neighbours not touching.

    Worked with shapely on the drawn discs, so the answer is about the printed shapes.
    """
    centres = row.centres()
    blobs = [disc(x, y, blob_radius) for x, y in centres]
    circles = [disc(x, y, row.circle_radius) for x, y in centres]
    holds = all(c.buffer(1e-6).contains(b) for c, b in zip(circles, blobs, strict=True))
    gaps = [a.distance(b) for a, b in zip(blobs, blobs[1:], strict=False)]
    gap = min(gaps) if gaps else math.inf
    if gap == 0:  # shapely reports 0 for touching and overlapping alike
        gap = row.pitch - 2 * blob_radius
    return StartFit(holds, gap)


@dataclass(frozen=True)
class HomeFit:
    """Whether the home zone holds each player's whole dough as one disc, both at once.

    `clearance` is the widest gap the two discs can have (negative: they must overlap);
    `discs` is a placement that shows it (side by side when they fit so, else corners).
    """

    ok: bool
    clearance: float
    discs: tuple[Polygon, ...]
    centres: tuple[tuple[float, float], ...]
    reason: str


def home_fit(home: Polygon, radii: Sequence[float]) -> HomeFit:
    """Prove or disprove that discs of `radii` (one per player) fit in `home` apart.

    Two discs in a rectangle are furthest apart in opposite corners, so that placement
    decides: it fits iff each disc is narrower than the zone and the corner-to-corner
    distance exceeds the sum of the radii. The placement returned is confirmed with shapely.
    """
    x0, y0, x1, y1 = home.bounds
    w, h = x1 - x0, y1 - y0
    r0, r1 = radii
    for r in radii:
        if 2 * r > min(w, h):
            return HomeFit(
                False,
                -math.inf,
                (),
                (),
                f"a {2 * r:.0f} mm disc of dough is wider than the {w:.0f} x {h:.0f} mm home zone",
            )
    span = math.hypot(w - r0 - r1, h - r0 - r1)
    clearance = span - r0 - r1
    side_gap = (w - 2 * r0 - 2 * r1) / 3
    if side_gap > 0:  # side by side across the middle, gaps spread evenly
        ym = (y0 + y1) / 2
        centres = ((x0 + side_gap + r0, ym), (x1 - side_gap - r1, ym))
    else:
        centres = ((x0 + r0, y0 + r0), (x1 - r1, y1 - r1))
    discs = tuple(disc(x, y, r) for (x, y), r in zip(centres, radii, strict=True))
    ok = clearance > 0 and not discs[0].intersects(discs[1])
    ok = ok and all(home.buffer(1e-6).contains(d) for d in discs)
    reason = (
        f"both discs fit, up to {clearance:.0f} mm apart"
        if ok
        else f"two discs of {2 * r0:.0f} and {2 * r1:.0f} mm cannot lie apart in the "
        f"{w:.0f} x {h:.0f} mm home zone"
    )
    return HomeFit(ok, clearance, discs, centres, reason)


# --- the die face -----------------------------------------------------------------------

HARMONICS = (2, 3, 4)  # low frequencies only: a soft lump, never a star
POINTS = 96


def blob_face(size: float, seed: int | str = 0, cx: float = 0.0, cy: float = 0.0) -> Polygon:
    """A soft, irregular dough blob `size` mm across (its larger side), centred on (cx, cy).

    The outline is a circle whose radius wobbles with a few low harmonics; `seed` fixes
    their strength and phase, so each die face can carry its own blob, the same every build.
    """
    if size <= 0:
        raise ValueError(f"a blob needs a positive size, got {size}")
    rng = random.Random(f"blob-face:{seed}")
    waves = [(k, rng.uniform(0.03, 0.09), rng.uniform(0, 2 * math.pi)) for k in HARMONICS]
    pts = []
    for i in range(POINTS):
        t = 2 * math.pi * i / POINTS
        r = 1 + sum(a * math.cos(k * t + phase) for k, a, phase in waves)
        pts.append((r * math.cos(t), r * math.sin(t)))
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    scale = size / max(max(xs) - min(xs), max(ys) - min(ys))
    mx, my = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    return Polygon([(cx + (x - mx) * scale, cy + (y - my) * scale) for x, y in pts])
