"""Building Community layout checks: the rules' facts measured on the kit that will print.

The start colouring is read back from the drawn board, not recomputed, so a drawing that
drifts from the play model is caught; a tile's fit is measured on its cut line against
the board's space; the solver says whether the printed start can be won at all.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from shapely import affinity
from shapely.geometry import Polygon

from geometry import hexgrid
from pnp.contract.palette import ink
from pnp.draw.checks import Finding, check_cut_outlines, check_on_background, check_palette
from pnp.draw.kit import Kit
from pnp.draw.scene import Component
from pnp.games.building_community.fast import solver
from pnp.games.building_community.kit.board import ORIENTATION, printed_colouring
from pnp.games.building_community.kit.pawns import RIM_COLOUR
from pnp.games.building_community.params import BuildingCommunityParams
from pnp.games.building_community.rules.model import MAX_PLAYERS, MIN_PLAYERS, PlayModel
from pnp.play.outcome import SolveResult
from pnp.runtime.progress import Ticker

SPEC_COUNTS = {3: (13, 12, 12), 4: (19, 21, 21)}
"""Tiles per start colour the spec states for these radii."""
MIN_GAP = 0.25  # mm of air round a tile in its space, below which tiles jam


def run(kit: Kit) -> list[Finding]:
    p: BuildingCommunityParams = kit.params  # type: ignore[assignment]
    model: PlayModel = kit.model  # type: ignore[assignment]
    board = kit.component("board")
    tiles = [c for c in kit.components if c.name.startswith("tile-")]
    findings: list[Finding] = []
    for c in kit.components:
        findings += check_cut_outlines(c)
    findings += check_start_colouring(board, tiles, p, model)
    findings += check_start_spaces(model)
    findings += check_tile_fits(board, tiles[0], p.clearance)
    findings += check_pawns_on_tiles(p)
    findings += check_palette(p.colours, "tiles")
    findings += check_palette(p.pawn_colours, "pawns")
    findings += check_solvable(model, p.players, p.solver_budget)
    return findings


def check_start_colouring(
    board: Component, tiles: list[Component], p: BuildingCommunityParams, model: PlayModel
) -> list[Finding]:
    """Every space printed once, no two neighbours alike, the spec's counts, one tile per
    space of each colour, and the colouring the engine plays."""
    printed = printed_colouring(board, p.colours)
    cells = hexgrid.board(p.radius)
    if sorted(printed) != sorted(cells):
        return [
            Finding(
                "error",
                "board",
                f"prints {len(printed)} tinted spaces; a board of radius {p.radius} has "
                f"{len(cells)}",
            )
        ]
    out: list[Finding] = []
    clashes = [
        (a, b)
        for a in cells
        for b in hexgrid.neighbours(a, p.radius)
        if a < b and printed[a] == printed[b]
    ]
    if clashes:
        a, b = clashes[0]
        out.append(
            Finding(
                "error",
                "board",
                f"{len(clashes)} pairs of neighbouring spaces start alike, e.g. {a} and {b} "
                f"({p.colours[printed[a]]}): a tile would not start isolated",
            )
        )
    n = Counter(printed.values())
    counts = tuple(n[i] for i in range(3))
    shown = ", ".join(f"{c} {name}" for c, name in zip(counts, p.colours, strict=True))
    want = SPEC_COUNTS.get(p.radius)
    if want is not None and counts != want:
        out.append(Finding("error", "board", f"start colouring has {shown}; the spec gives {want}"))
    for tile in tiles:
        i = int(tile.meta["colour_index"])  # type: ignore[call-overload]
        if tile.copies != counts[i]:
            out.append(
                Finding(
                    "error",
                    tile.name,
                    f"{tile.copies} tiles for {counts[i]} {p.colours[i]} spaces on the board",
                )
            )
    if tuple(printed[c] for c in model.cells) != model.start_colours:
        out.append(
            Finding("error", "board", "the printed start colouring is not the one the engine plays")
        )
    if not out:
        out.append(
            Finding("info", "board", f"{len(cells)} spaces start {shown}; no two neighbours alike")
        )
    return out


def check_start_spaces(model: PlayModel) -> list[Finding]:
    """For every player count: start spaces on the board, all different, none a corner."""
    out: list[Finding] = []
    corners = set(hexgrid.corners(model.radius))
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        starts = [model.cells[i] for i in model.starts(players)]
        bad = [c for c in starts if not hexgrid.on_board(c, model.radius) or c in corners]
        if bad or len(set(starts)) != len(starts):
            out.append(
                Finding(
                    "error",
                    "board",
                    f"{players} players start on {starts}: each start must be a different "
                    "space on the board, and no corner",
                )
            )
    return out


def _cut_polygon(tile: Component) -> Polygon:
    return Polygon(tile.shapes("cut")[0].geom.coords)


def check_tile_fits(board: Component, tile: Component, clearance: float) -> list[Finding]:
    """The tile's cut hexagon, centred in a board space, must lie inside it with air."""
    pitch = float(board.meta["pitch"])  # type: ignore[arg-type]
    space = hexgrid.hexagon(pitch, ORIENTATION)
    cut = _cut_polygon(tile)
    c = cut.centroid
    cut = affinity.translate(cut, -c.x, -c.y)
    if not space.contains(cut):
        return [
            Finding(
                "error",
                tile.name,
                f"the tile does not fit its {pitch:g} mm board space",
            )
        ]
    gap = space.exterior.distance(cut)
    if gap < MIN_GAP:
        return [
            Finding(
                "warning",
                tile.name,
                f"only {gap:.2f} mm of air round a tile in its space: tiles will jam when "
                f"swapped (raise clearance, now {clearance:g} mm)",
            )
        ]
    return [Finding("info", tile.name, f"fits its {pitch:g} mm space with {gap:.2f} mm all round")]


def check_pawns_on_tiles(p: BuildingCommunityParams) -> list[Finding]:
    """Pawns must stand out on every tile colour. Their white rim does that (measured
    here); a pawn whose own colour is close to a tile's shows on it by the rim alone."""
    out: list[Finding] = []
    for tile in p.colours:
        where = f"{tile} tiles"
        out += check_on_background((RIM_COLOUR,), ink(tile).hex, where, "pawns")
        for colour in p.pawn_colours:
            if check_on_background((colour,), ink(tile).hex, where, "pawns"):
                out.append(
                    Finding(
                        "warning",
                        "pawns",
                        f"the {colour} pawn looks like a {tile} tile: on {where} only its "
                        "white rim shows it; choose a pawn colour that is no tile colour",
                    )
                )
    return out


@lru_cache(maxsize=8)
def _solve(model: PlayModel, players: int, budget: int) -> SolveResult:
    """One search per kit: `pnp check` builds the kit once per paper. A long search (a
    large solver_budget) says on stderr how far it is every few seconds."""
    tick = Ticker(f"building-community: solving the start for {players} players", "positions")
    return solver.solve(model, players, budget, tick)


def check_solvable(model: PlayModel, players: int, budget: int) -> list[Finding]:
    """Warn when the solver finds no win for the printed start within its budget."""
    where = f"with {players} players"
    result = None
    try:
        result = _solve(model, players, budget)
    except MemoryError:
        pass  # reported below, once leaving this block has freed the search's positions
    if result is None:
        return [
            Finding(
                "error",
                "layout",
                f"{where} the solver ran out of memory within solver_budget {budget:,}: "
                "lower solver_budget",
            )
        ]
    if result.result == "win":
        best = " (shortest)" if result.shortest else ""
        return [
            Finding(
                "info",
                "layout",
                f"{where} the team can win: a {result.length}-turn line{best} found in "
                f"{result.nodes:,} positions",
            )
        ]
    if result.result == "no-win":
        return [
            Finding(
                "warning",
                "layout",
                f"{where} no win exists: all {result.nodes:,} reachable positions searched",
            )
        ]
    return [
        Finding(
            "warning",
            "layout",
            f"{where} the solver found no win within {budget:,} positions (solver_budget): "
            "the start may be unwinnable; try 'pnp solve' with a larger budget",
        )
    ]
