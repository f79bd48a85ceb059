"""Desert Home layout checks: the spec's facts measured on the parts that will print and
be sawn, not on the numbers that made them.

The board's fields are read from the board component (their drawn octagons), the tiles'
size from their cut outlines, the blades from their outlines and holes; so a drawing bug
shows up here as a finding.
"""

from __future__ import annotations

from collections.abc import Sequence

from shapely import affinity
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

from geometry.octagons import connected
from geometry.shapes import kerf_offset
from pnp.contract.palette import ink
from pnp.draw.checks import (
    MIN_DELTA_E,
    Finding,
    check_cut_outlines,
    check_palette,
)
from pnp.draw.colour import CVD_MATRICES, delta_e
from pnp.draw.kit import Kit
from pnp.draw.scene import Component
from pnp.games.desert_home.kit.blade_checks import TOL, check_blades, check_pivot_fit, check_webs
from pnp.games.desert_home.kit.board import CAMP_FIELD
from pnp.games.desert_home.kit.refuges import place_fill
from pnp.games.desert_home.kit.supply import one_can_win, supply_verdict
from pnp.games.desert_home.kit.tiles import BACK, FACE, GOLD
from pnp.games.desert_home.params import DesertHomeParams, colours_in_play
from pnp.games.desert_home.rules.model import PlayModel

SPEC_PATH_FIELDS = 4  # the rules leave room for four path fields between refuge and camp
MIN_MAGNET_RIM = 1.0  # mm of token round a magnet on each side
SHOW_FIELDS = 6  # fields named in a finding before it says "..."


def run(kit: Kit) -> list[Finding]:
    """Every Desert Home check on a built kit (components found by name and kind)."""
    p: DesertHomeParams = kit.params  # type: ignore[assignment]
    findings: list[Finding] = []
    for c in kit.components:
        findings += check_cut_outlines(c)
    board = next((c for c in kit.components if c.name == "board"), None)
    if board is not None:
        findings += check_board(board, p)
        findings += check_camp(board, p)
        octagons = [c for c in kit.components if c.meta.get("kind") in TILE_KINDS]
        findings += check_tiles_fit(board, octagons)
    blades = [c for c in kit.components if c.meta.get("kind") == "plywood"]
    overlays = [c for c in kit.components if c.meta.get("kind") == "overlay"]
    findings += check_blades(blades, overlays, p)
    findings += check_pivot_fit(blades, p)
    findings += check_webs(blades, p)
    findings += check_kerf(kit.components, kit.printing.kerf)
    findings += check_figure_contrast(p)
    findings += check_magnets(p)
    findings += check_supply(kit.model)  # type: ignore[arg-type]
    findings += check_palette(colours_in_play(p))
    return findings


TILE_KINDS = ("safe", "thirst", "protection")


# --- board ---------------------------------------------------------------------------


def _slots(board: Component) -> list[dict]:
    return list(board.meta.get("slots", []))  # type: ignore[call-overload]


def _adjacent(a: dict, b: dict, play: float) -> bool:
    """Two fields share a flat side: they are within the play of each other and in line
    (diagonal neighbours are kept apart by a gap square)."""
    (ax, ay), (bx, by) = a["centre"], b["centre"]
    in_line = abs(ax - bx) < TOL or abs(ay - by) < TOL
    return in_line and a["outline"].distance(b["outline"]) <= play + TOL


def check_board(board: Component, p: DesertHomeParams) -> list[Finding]:
    """Four path slots between each refuge entry and the camp along its row; every field
    reachable by orthogonal steps; the slots on one regular square grid."""
    slots = _slots(board)
    if not slots:
        return [Finding("error", board.name, "the board lists no fields")]
    out: list[Finding] = []
    out += _check_rows(board.name, slots, p)
    out += _check_connected(board.name, slots)
    out += _check_regular(board.name, slots)
    if p.path_columns != SPEC_PATH_FIELDS:
        out.append(
            Finding(
                "warning",
                board.name,
                f"{p.path_columns} path fields per row: the game as written leaves room "
                f"for {SPEC_PATH_FIELDS}",
            )
        )
    return out


def check_camp(board: Component, p: DesertHomeParams) -> list[Finding]:
    """Every colour's lane in the camp has a place for each of its figures and tents,
    drawn inside the lane and none over another, so the whole supply fits the camp."""
    lanes = list(board.meta.get("camp_lanes", []))  # type: ignore[call-overload]
    out = []
    for lane in lanes:
        spots = [(k, Point(c).buffer(r, quad_segs=32)) for k, c, r in lane["places"]]
        figures = sum(1 for k, _ in spots if k == "figure")
        tents = sum(1 for k, _ in spots if k == "tent")
        inside = all(lane["lane"].contains(g) for _, g in spots)
        apart = all(
            a.intersection(b).area < 1e-6
            for i, (_, a) in enumerate(spots)
            for _, b in spots[i + 1 :]
        )
        if (figures, tents) != (p.figures_per_colour, p.tents_per_colour) or not (inside and apart):
            out.append(
                Finding(
                    "error",
                    board.name,
                    f"the {lane['colour']} camp lane holds {figures} figures and {tents} tents "
                    f"{'' if inside and apart else '(not all inside it, apart) '}of the "
                    f"{p.figures_per_colour} and {p.tents_per_colour} in the supply",
                )
            )
    if lanes and not out:
        out.append(
            Finding(
                "info",
                board.name,
                f"each camp lane has a place for its {p.figures_per_colour} figures and "
                f"{p.tents_per_colour} tents",
            )
        )
    return out


def _check_rows(name: str, slots: list[dict], p: DesertHomeParams) -> list[Finding]:
    out = []
    play = _play(slots)
    refuges = [s for s in slots if s["kind"] == "refuge-entry"]
    if len(refuges) != len(p.refuge_rows):
        out.append(
            Finding(
                "error",
                name,
                f"{len(refuges)} refuge entry fields, the refuges need {len(p.refuge_rows)}",
            )
        )
    for entry in refuges:
        ex, ey = entry["centre"]
        camps = [s for s in slots if s["kind"] == "camp-entry" and abs(s["centre"][1] - ey) < TOL]
        if not camps:
            out.append(Finding("error", name, f"row {entry['row']} has no camp entry field"))
            continue
        cx = camps[0]["centre"][0]
        between = sorted(
            (
                s
                for s in slots
                if s["kind"] == "path"
                and abs(s["centre"][1] - ey) < TOL
                and min(ex, cx) < s["centre"][0] < max(ex, cx)
            ),
            key=lambda s: s["centre"][0],
        )
        if len(between) != p.path_columns:
            out.append(
                Finding(
                    "error",
                    name,
                    f"row {entry['row']}: {len(between)} path slots between the refuge entry "
                    f"and the camp, not {p.path_columns}",
                )
            )
        chain = [entry, *between, camps[0]]
        if any(not _adjacent(a, b, play) for a, b in zip(chain, chain[1:], strict=False)):
            out.append(
                Finding("error", name, f"row {entry['row']}: a gap breaks the row of fields")
            )
    return out


def _check_connected(name: str, slots: list[dict]) -> list[Finding]:
    """Connectivity measured on the drawn octagons, then also on the rows and columns."""
    play = _play(slots)
    seen = {0}
    todo = [0]
    while todo:
        i = todo.pop()
        for j, s in enumerate(slots):
            if j not in seen and _adjacent(slots[i], s, play):
                seen.add(j)
                todo.append(j)
    cells = [(s["row"], s["col"]) for s in slots]
    if len(seen) != len(slots) or not connected(cells):
        lost = [f"({s['row']}, {s['col']})" for j, s in enumerate(slots) if j not in seen]
        if len(lost) > SHOW_FIELDS:
            lost = [*lost[:SHOW_FIELDS], "..."]
        return [
            Finding(
                "error",
                name,
                f"fields {', '.join(lost) or 'of the grid'} cannot be reached by orthogonal steps",
            )
        ]
    return [Finding("info", name, f"{len(slots)} fields, all reachable by orthogonal steps")]


def _play(slots: list[dict]) -> float:
    """The narrowest space between two fields in line: their play."""
    gaps = [
        a["outline"].distance(b["outline"])
        for i, a in enumerate(slots)
        for b in slots[i + 1 :]
        if abs(a["centre"][0] - b["centre"][0]) < TOL or abs(a["centre"][1] - b["centre"][1]) < TOL
    ]
    return min(gaps) if gaps else 0.0


def _check_regular(name: str, slots: list[dict]) -> list[Finding]:
    """All centres on one square lattice: the nearest spacing, refined over the widest
    span so rounding does not add up, divides every offset from the first field."""
    xs = [s["centre"][0] for s in slots]
    ys = [s["centre"][1] for s in slots]
    steps = [
        d
        for v in (sorted(set(_rounded(xs))), sorted(set(_rounded(ys))))
        for d in (b - a for a, b in zip(v, v[1:], strict=False))
    ]
    pitch = min(steps) if steps else 0.0
    if pitch:
        span = max(max(xs) - min(xs), max(ys) - min(ys))
        pitch = span / round(span / pitch)
    off = [
        (s["row"], s["col"])
        for s in slots
        if pitch
        and any(
            abs(v - round(v)) * pitch > TOL
            for v in ((s["centre"][0] - xs[0]) / pitch, (s["centre"][1] - ys[0]) / pitch)
        )
    ]
    sizes = {round(s["outline"].bounds[2] - s["outline"].bounds[0], 2) for s in slots}
    if off or len(sizes) > 1:
        return [Finding("error", name, "the octagon slots are not on one regular grid")]
    return [Finding("info", name, f"octagon slots on a regular {pitch:.2f} mm grid")]


def _rounded(values: Sequence[float]) -> list[float]:
    return [round(v / TOL) * TOL for v in values]


# --- tiles -----------------------------------------------------------------------------


def check_tiles_fit(board: Component, tiles: Sequence[Component]) -> list[Finding]:
    """A tile laid on a slot stays inside it and clear of tiles on the neighbouring slots."""
    slots = [s for s in _slots(board) if s["kind"] == "path"]
    if not slots:
        return []
    play = _play(_slots(board))
    here = slots[0]
    near = [
        s
        for s in slots
        if s is not here
        and s["outline"].distance(here["outline"])
        < 2 * (here["outline"].bounds[2] - here["outline"].bounds[0])
    ]
    out = []
    for tile in tiles:
        shape = _centred(tile.shape_outline, here["centre"])
        size = tile.shape_outline.bounds[2] - tile.shape_outline.bounds[0]
        slot = here["outline"].bounds[2] - here["outline"].bounds[0]
        clash = any(
            shape.intersection(_centred(tile.shape_outline, s["centre"])).area > 1e-6 for s in near
        )
        if clash or not shape.within(here["outline"].buffer(play / 2 + TOL)):
            out.append(
                Finding(
                    "error",
                    tile.name,
                    f"a {size:.2f} mm octagon does not fit a {slot:.2f} mm slot with "
                    f"{play:.2f} mm play: neighbouring tiles would overlap",
                )
            )
        else:
            out.append(
                Finding(
                    "info",
                    tile.name,
                    f"{size:.2f} mm octagons fit their slots ({play + slot - size:.2f} mm play)",
                )
            )
    return out


def _centred(geom: BaseGeometry, at: tuple[float, float]) -> BaseGeometry:
    x0, y0, x1, y1 = geom.bounds
    return affinity.translate(geom, at[0] - (x0 + x1) / 2, at[1] - (y0 + y1) / 2)


# --- pieces ----------------------------------------------------------------------------


GROUNDS = {
    "path tile faces": FACE,
    "path tile backs": BACK,
    "protection cards": GOLD,
    "refuge entry fields": ink("grey").hex,
    "camp entry fields": CAMP_FIELD,
}
"""Everything a figure stands on besides its own blade, by name."""


def check_figure_contrast(p: DesertHomeParams) -> list[Finding]:
    """A figure colour too close to a ground it stands on is flagged: a warning when it
    fails for normal vision (its symbol still tells it), a note for colour-blind vision."""
    out = []
    for colour in colours_in_play(p):
        k = ink(colour)
        mine = {**GROUNDS, f"its {colour} blade's places": place_fill(k)}
        for ground, hex_colour in mine.items():
            d = delta_e(k.hex, hex_colour)
            if d < MIN_DELTA_E:
                out.append(
                    Finding(
                        "warning",
                        f"tokens-{colour}",
                        f"{colour} figures are hard to see on {ground} (delta E {d:.0f} < "
                        f"{MIN_DELTA_E:g}): they rely on their ring and {k.symbol} symbol",
                    )
                )
                continue
            weak = [v for v in CVD_MATRICES if delta_e(k.hex, hex_colour, v) < MIN_DELTA_E]
            if weak:
                out.append(
                    Finding(
                        "info",
                        f"tokens-{colour}",
                        f"{colour} figures on {ground} are close with {', '.join(weak)} "
                        f"vision: the {k.symbol} symbol tells them apart",
                    )
                )
    return out


def check_magnets(p: DesertHomeParams) -> list[Finding]:
    """A magnet glued under a figure must not stick out past it."""
    room = p.figure_size - 2 * MIN_MAGNET_RIM
    if p.magnet_diameter > room:
        return [
            Finding(
                "error",
                "figures",
                f"a {p.magnet_diameter:g} mm magnet does not fit under a {p.figure_size:g} mm "
                f"figure (at most {room:g} mm, leaving a {MIN_MAGNET_RIM:g} mm rim)",
            )
        ]
    return []


def check_supply(model: PlayModel) -> list[Finding]:
    """Can the figure supply ever satisfy both players' goal? Nobody: an error (no game
    can end in a win); only one: a warning (the other can be locked out); both: a note."""
    ok, why = supply_verdict(model)
    if ok:
        return [Finding("info", "figures", why)]
    return [Finding("warning" if one_can_win(model) else "error", "figures", why)]


# --- cut files ---------------------------------------------------------------------------


def check_kerf(components: Sequence[Component], kerf: float) -> list[Finding]:
    """The cut files offset outlines outward and holes inward by half the kerf, so a
    finished blade keeps its drawn size (and the printed saw line follows the outward
    path). Measured on each plywood blade: its offset outline must run kerf/2 outside the
    drawn one everywhere, and every pivot hole must stay a hole once shrunk by kerf/2."""
    blades = [c for c in components if c.meta.get("kind") == "plywood"]
    if not blades:
        return []
    if kerf <= 0:
        return [
            Finding(
                "info",
                "blades",
                "kerf 0 mm: the cut files follow the drawn lines (set 'kerf' for a laser or a "
                "saw blade)",
            )
        ]
    out = []
    for c in blades:
        for s in c.shapes("cut"):
            drawn = Polygon(s.geom.exterior if s.geom.geom_type == "Polygon" else s.geom)
            path = kerf_offset(drawn, kerf, outward=True)
            near, far = drawn.buffer(kerf / 2 - TOL), drawn.buffer(kerf / 2 + TOL)
            if not (path.contains(near) and far.contains(path)):
                out.append(
                    Finding("error", c.name, f"the outline is not cut {kerf / 2:g} mm outside")
                )
        for s in c.shapes("inner-cut"):
            if s.radius - kerf / 2 <= 0:
                out.append(
                    Finding(
                        "error",
                        c.name,
                        f"a {2 * s.radius:g} mm hole vanishes when cut {kerf / 2:g} mm inside",
                    )
                )
    if out:
        return out
    return [
        Finding(
            "info",
            "blades",
            f"kerf {kerf:g} mm: outlines cut {kerf / 2:g} mm outside, pivot holes {kerf / 2:g} "
            "mm inside, so the blades keep their drawn size",
        )
    ]
