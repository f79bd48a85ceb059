"""Boards: one centred page each, or tiled over several sheets with an assembly map.

Tiles overlap by a glue margin. Each sheet to the right of (or below) a neighbour is
cut along its left (or top) edge and laid over that neighbour's glue strip; half
registration crosses on the cut line meet the other halves on the sheet underneath.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from shapely.geometry import LineString, box

from pnp.contract.paper import Paper
from pnp.draw.layout.furniture import GREY, INK, corner_tick, label, registration_cross
from pnp.draw.layout.page import Box, Page, Placement, Rotation, blank_page, box_size, content_box
from pnp.draw.scene import Component, Item, Shape, Style
from pnp.runtime.errors import PnpError

GLUE_OVERLAP = 10.0
"""Default overlap between neighbouring tiles (mm): at least the printer margin."""
CUT_GUIDE = Style(stroke="#555555", stroke_width=0.15, dash=(2.0, 1.5))
GLUE_SHADE = Style(fill="#000000", stroke=None, opacity=0.06)
MAP_TILE = Style(fill=None, stroke="#333333", stroke_width=0.3)
MAP_OVERLAP = Style(fill="#cccccc", stroke=None, opacity=0.6)
MAP_BOARD = Style(fill=None, stroke="#999999", stroke_width=0.2)
MAP_LABEL = Style(fill="#ffffff", stroke=None, opacity=0.8)


@dataclass(frozen=True)
class Tile:
    """One sheet of a tiled board: its region in board coordinates and its grid place."""

    row: int  # 0 = top row
    col: int  # 0 = left column
    rows: int
    cols: int
    region: Box  # board coordinates (extent frame), (x0, y0, x1, y1)

    @property
    def name(self) -> str:
        return f"{chr(ord('A') + self.row)}{self.col + 1}"

    @property
    def label(self) -> str:
        return f"{self.name} (row {self.row + 1}, col {self.col + 1}) of {self.rows} x {self.cols}"


def _spans(
    start: float, length: float, capacity: float, overlap: float
) -> list[tuple[float, float]]:
    """Cut [start, start+length] into equal spans that overlap by `overlap`, each <= capacity."""
    if length <= capacity + 1e-9:
        return [(start, start + length)]
    if capacity <= overlap:
        raise PnpError(f"glue overlap {overlap:g} mm leaves no room on the sheet")
    n = math.ceil((length - overlap) / (capacity - overlap) - 1e-9)
    span = (length + (n - 1) * overlap) / n
    return [(start + i * (span - overlap), start + i * (span - overlap) + span) for i in range(n)]


def plan_tiles(extent: Box, capacity: tuple[float, float], overlap: float) -> list[Tile]:
    """Tiles covering `extent` (board coordinates), row 0 at the top, row-major order."""
    xs = _spans(extent[0], extent[2] - extent[0], capacity[0], overlap)
    ys = _spans(extent[1], extent[3] - extent[1], capacity[1], overlap)
    ys = ys[::-1]  # row 0 is the top of the board
    return [
        Tile(r, c, len(ys), len(xs), (x0, y0, x1, y1))
        for r, (y0, y1) in enumerate(ys)
        for c, (x0, x1) in enumerate(xs)
    ]


def board_extent(c: Component, scale: float = 1.0) -> Box:
    """A board's printed frame: the trim grown by its own bleed, at the print scale."""
    b = max(0.0, c.bleed)
    return (-b * scale, -b * scale, (c.width + b) * scale, (c.height + b) * scale)


def frame_box(b: Box, c: Component, rot: Rotation, scale: float = 1.0) -> Box:
    """Box `b` (board coordinates, already at the print scale) as seen on the sheet when
    the board is turned `rot`.

    A Placement at (dx, dy) with that rotation puts the frame point (X, Y) at
    (X + dx, Y + dy); for 90 degrees a board point (u, v) has frame (height - v, u).
    """
    if rot == 0:
        return b
    h = c.height * scale
    return (h - b[3], b[0], h - b[1], b[2])


def scale_label(scale: float) -> str:
    """How a reduced board names its scale: '1:2', '1:2.5'; '' at real size."""
    return "" if scale >= 1 else f"1:{1 / scale:.3g}"


def scaled_title(title: str, scale: float) -> str:
    return f"{title} (scale {scale_label(scale)})" if scale < 1 else title


def board_pages(
    component: Component,
    paper: Paper,
    title: str | None = None,
    section: str = "",
    overlap: float = GLUE_OVERLAP,
    scale: float = 1.0,
) -> list[Page]:
    """One centred page if the board fits (turned a quarter if that makes it fit), else
    tiled sheets followed by an assembly map page. A `scale` below 1 prints the board
    reduced; every sheet's title then says the scale (the page's scale bars stay true)."""
    title = scaled_title(title or component.title, scale)
    area = content_box(paper)
    aw, ah = box_size(area)
    pages: list[Page] = []
    for _ in range(component.copies):
        for rot in (0, 90):
            extent = board_extent(component, scale)
            fx0, fy0, fx1, fy1 = frame_box(extent, component, rot, scale)
            if fx1 - fx0 <= aw + 1e-9 and fy1 - fy0 <= ah + 1e-9:
                pages.append(_single(component, rot, paper, area, title, section, scale))
                break
        else:
            pages.extend(tile_board(component, paper, title, section, overlap, scale=scale))
    return pages


def _single(
    c: Component,
    rot: Rotation,
    paper: Paper,
    area: Box,
    title: str,
    section: str,
    scale: float = 1.0,
) -> Page:
    f = frame_box(board_extent(c, scale), c, rot, scale)
    fw, fh = f[2] - f[0], f[3] - f[1]
    x0 = (area[0] + area[2]) / 2 - fw / 2
    y0 = (area[1] + area[3]) / 2 - fh / 2
    page = blank_page(paper, title, section)
    clip = (x0, y0, x0 + fw, y0 + fh)
    page.placements.append(Placement(c, x0 - f[0], y0 - f[1], rot, clip, scale=scale))
    return page


def tile_board(
    component: Component,
    paper: Paper,
    title: str | None = None,
    section: str = "",
    overlap: float = GLUE_OVERLAP,
    rotate: bool = True,
    scale: float = 1.0,
) -> list[Page]:
    """Tile a board over sheets, then add its assembly map.

    Each sheet shows its region, clipped, centred on the sheet. The board is turned a
    quarter on the sheets when that needs fewer of them.
    """
    overlap = max(overlap, paper.margin)
    title = title or component.title
    area = content_box(paper)
    best: tuple[Rotation, list[Tile]] | None = None
    for rot in (0, 90) if rotate else (0,):
        extent = frame_box(board_extent(component, scale), component, rot, scale)
        tiles = plan_tiles(extent, box_size(area), overlap)
        if best is None or len(tiles) < len(best[1]):
            best = (rot, tiles)
    assert best is not None
    rot, tiles = best
    pages = [
        _tile_page(component, rot, t, tiles, paper, area, title, section, overlap, scale)
        for t in tiles
    ]
    pages.append(assembly_map(component, tiles, paper, title, section, overlap, rot, scale))
    return pages


def _tile_page(
    c: Component,
    rot: Rotation,
    t: Tile,
    tiles: list[Tile],
    paper: Paper,
    area: Box,
    title: str,
    section: str,
    overlap: float,
    scale: float = 1.0,
) -> Page:
    rx0, ry0, rx1, ry1 = t.region
    tw, th = rx1 - rx0, ry1 - ry0
    px = (area[0] + area[2]) / 2 - tw / 2
    py = (area[1] + area[3]) / 2 - th / 2
    dx, dy = px - rx0, py - ry0  # board -> page offset for this sheet
    clip = (px, py, px + tw, py + th)
    page = blank_page(paper, f"{title} — tile {t.label}", section)
    page.placements.append(Placement(c, dx, dy, rot, clip, scale=scale))
    page.items.extend(_tile_marks(t, tiles, dx, dy, overlap))
    return page


def _neighbour(tiles: list[Tile], row: int, col: int) -> Tile | None:
    for t in tiles:
        if t.row == row and t.col == col:
            return t
    return None


def _clipped(items: list[Item], clip: Box) -> list[Item]:
    """Keep the parts of mark lines inside `clip` (marks are lines, circles become arcs)."""
    frame = box(*clip)
    out: list[Item] = []
    for it in items:
        if not isinstance(it, Shape):
            out.append(it)
            continue
        geom = it.geom.buffer(it.radius, quad_segs=16).exterior if it.radius > 0 else it.geom
        part = geom.intersection(frame)
        if not part.is_empty:
            out.append(Shape(part, it.layer, it.style))
    return out


def _tile_marks(t: Tile, tiles: list[Tile], dx: float, dy: float, overlap: float) -> list[Item]:
    """Cut guides, glue strips and registration marks, in page coordinates for tile `t`.

    Seams: tile (r, c+1) lies over tile (r, c); tile (r+1, c) lies over tile (r, c).
    A seam line is the upper tile's cut edge; crosses are centred on it.
    """
    rx0, ry0, rx1, ry1 = t.region
    clip = (rx0 + dx, ry0 + dy, rx1 + dx, ry1 + dy)
    items: list[Item] = []
    marks: list[Item] = []

    def seam_marks(vertical: bool, at: float, lo: float, hi: float) -> list[Item]:
        out: list[Item] = []
        span = hi - lo
        for f in (0.2, 0.5, 0.8) if span > 120 else (0.5,):
            p = lo + f * span
            out += (
                registration_cross(at + dx, p + dy)
                if vertical
                else registration_cross(p + dx, at + dy)
            )
        return out

    # Seam on my left: I lie over my left neighbour; cut along my left edge.
    if t.col > 0:
        x = rx0
        items.append(
            Shape(LineString([(x + dx, ry0 + dy), (x + dx, ry1 + dy)]), "guide", CUT_GUIDE)
        )
        marks += seam_marks(True, x, ry0, ry1)
    # Seam on my top: I lie over the tile above; cut along my top edge.
    if t.row > 0:
        y = ry1
        items.append(
            Shape(LineString([(rx0 + dx, y + dy), (rx1 + dx, y + dy)]), "guide", CUT_GUIDE)
        )
        marks += seam_marks(False, y, rx0, rx1)
    # Glue strip on my right: the right neighbour's left edge lands at its region's x0.
    right = _neighbour(tiles, t.row, t.col + 1)
    if right is not None:
        x = right.region[0]
        items.append(Shape(box(x + dx, ry0 + dy, rx1 + dx, ry1 + dy), "guide", GLUE_SHADE))
        marks += seam_marks(True, x, ry0, ry1)
        marks += corner_tick(x + dx, ry1 + dy, 1, -1) + corner_tick(x + dx, ry0 + dy, 1, 1)
        glue = label(
            x + dx + overlap / 2 + 1.0,
            (ry0 + ry1) / 2 + dy,
            f"glue under {right.name}",
            size=6.0,
            anchor="middle",
            fill=GREY,
        )
        items.append(replace(glue, rotate=90.0))
    below = _neighbour(tiles, t.row + 1, t.col)
    if below is not None:
        y = below.region[3]
        items.append(Shape(box(rx0 + dx, ry0 + dy, rx1 + dx, y + dy), "guide", GLUE_SHADE))
        marks += seam_marks(False, y, rx0, rx1)
        marks += corner_tick(rx0 + dx, y + dy, 1, -1) + corner_tick(rx1 + dx, y + dy, -1, -1)
        items.append(
            label(
                (rx0 + rx1) / 2 + dx,
                ry0 + dy + overlap / 2 - 1.0,
                f"glue under {below.name}",
                size=6.0,
                anchor="middle",
                fill=GREY,
            )
        )
    return items + _clipped(marks, clip)


def assembly_map(
    component: Component,
    tiles: list[Tile],
    paper: Paper,
    title: str,
    section: str = "",
    overlap: float = GLUE_OVERLAP,
    rot: Rotation = 0,
    scale: float = 1.0,
) -> Page:
    """A schematic of the sheets, with their labels, in the order they are glued: a page
    to read, never cut, so another such page may print on its reverse."""
    area = content_box(paper)
    ax0, ay0, ax1, ay1 = area
    page = blank_page(paper, f"{title} — assembly map", section)
    page.reading = True
    ex = (
        min(t.region[0] for t in tiles),
        min(t.region[1] for t in tiles),
        max(t.region[2] for t in tiles),
        max(t.region[3] for t in tiles),
    )
    ew, eh = ex[2] - ex[0], ex[3] - ex[1]
    rows, cols = tiles[0].rows, tiles[0].cols
    top = ay1 - 4.0
    items: list[Item] = [
        label(ax0, top, f"Assembly map: {title}", size=14.0, bold=True),
        label(
            ax0,
            top - 7.0,
            f"{len(tiles)} sheets in {rows} rows x {cols} columns; "
            f"finished size {component.width * scale:.4g} x {component.height * scale:.4g} mm"
            + (f" (the board at {scale_label(scale)})" if scale < 1 else "")
            + (", shown turned a quarter as on the sheets." if rot else "."),
            size=9.0,
        ),
    ]
    steps = [
        "1. Cut each sheet along its dashed line (left and top edges), never the glue strips.",
        "2. Lay it over its neighbour's grey glue strip so the half crosses meet whole ones.",
        f"3. Glue: the strips are {overlap:g} mm wide. Work row by row, left to right.",
    ]
    for i, step in enumerate(steps):
        items.append(label(ax0, top - 14.0 - 5.0 * i, step, size=8.0, fill=INK))
    map_top = top - 14.0 - 5.0 * len(steps) - 4.0
    room_w, room_h = ax1 - ax0 - 20.0, map_top - ay0 - 10.0
    s = min(room_w / ew, room_h / eh, 1.0)
    mx = (ax0 + ax1) / 2 - ew * s / 2
    my = map_top - eh * s

    def to_map(x: float, y: float) -> tuple[float, float]:
        return (mx + (x - ex[0]) * s, my + (y - ex[1]) * s)

    trim = frame_box(
        (0.0, 0.0, component.width * scale, component.height * scale), component, rot, scale
    )
    bx0, by0 = to_map(trim[0], trim[1])
    bx1, by1 = to_map(trim[2], trim[3])
    # The board itself, small, under the sheet outlines: a maker matches pictures, not grids.
    x0, y0 = to_map(0.0, 0.0)
    page.placements.append(Placement(component, x0, y0, rot, (bx0, by0, bx1, by1), scale=scale * s))
    items.append(Shape(box(bx0, by0, bx1, by1), "guide", MAP_BOARD))
    for t in tiles:
        for other in tiles:
            if other is t or (other.row, other.col) <= (t.row, t.col):
                continue
            ov = box(*t.region).intersection(box(*other.region))
            if ov.area > 0:
                ox0, oy0, ox1, oy1 = ov.bounds
                p0, p1 = to_map(ox0, oy0), to_map(ox1, oy1)
                items.append(Shape(box(p0[0], p0[1], p1[0], p1[1]), "guide", MAP_OVERLAP))
    for t in tiles:
        p0, p1 = to_map(t.region[0], t.region[1]), to_map(t.region[2], t.region[3])
        items.append(
            Shape(box(p0[0] + 0.4, p0[1] + 0.4, p1[0] - 0.4, p1[1] - 0.4), "guide", MAP_TILE)
        )
        cx, cy = (p0[0] + p1[0]) / 2, (p0[1] + p1[1]) / 2
        items.append(Shape(box(cx - 13.0, cy - 7.5, cx + 13.0, cy + 7.0), "guide", MAP_LABEL))
        items.append(label(cx, cy, t.name, size=16.0, bold=True, anchor="middle"))
        items.append(
            label(
                cx,
                cy - 5.0,
                f"row {t.row + 1}, col {t.col + 1}",
                size=7.0,
                anchor="middle",
                fill=GREY,
            )
        )
    items.append(
        label(
            (ax0 + ax1) / 2,
            my - 6.0,
            f"map scale 1 : {1 / s:.1f}" if s < 1 else "map at full size",
            size=7.0,
            anchor="middle",
            fill=GREY,
        )
    )
    page.items.extend(items)
    return page
