"""Parcheesi checks: the rules' facts measured on the board that prints and the model
that plays, and the tiled sheets measured on the pages the PDF will hold."""

from __future__ import annotations

import math

from shapely.geometry import Point, box
from shapely.ops import unary_union

from geometry import track
from pnp.contract.paper import get_paper
from pnp.draw.checks import Finding, check_cut_outlines, check_palette
from pnp.draw.kit import Kit, PrintParams
from pnp.draw.layout.page import content_box
from pnp.draw.layout.tiling import GLUE_OVERLAP, board_extent, board_pages, frame_box, scale_label
from pnp.draw.scene import Component
from pnp.games.parcheesi.kit.board import RING
from pnp.games.parcheesi.kit.pawns import printed_pawn
from pnp.games.parcheesi.params import ParcheesiParams
from pnp.games.parcheesi.rules.model import PlayModel

SAFE_SPACES = 12  # the spec's count, not the geometry's
LEAST_PAWN = 5.0  # mm: a smaller printed pawn cannot be cut out or picked up
TOUCH = 1e-6  # mm: spaces that meet


def run(kit: Kit) -> list[Finding]:
    p: ParcheesiParams = kit.params  # type: ignore[assignment]
    model: PlayModel = kit.model  # type: ignore[assignment]
    board = kit.component("board")
    findings: list[Finding] = []
    for c in kit.components:
        findings += check_cut_outlines(c)
    findings += check_track_loop(p.board_size)
    findings += check_safe_spaces(model, board)
    findings += check_entries(model, p.board_size)
    findings += check_strips(model, p.board_size)
    findings += check_pawn_fits(p)
    findings += check_tiles(board, kit.printing, p.board_scale)
    findings += check_palette(p.colours)
    return findings


def _walk_colour(node: int) -> int:
    """A colour that stays on the track from `node` (every colour but the one whose strip
    starts there)."""
    return next(c for c in range(track.COLOURS) if track.home_entry_space(c) != node)


def check_track_loop(size: float) -> list[Finding]:
    """The track is one loop of at least 68 spaces, walked on the graph, and each printed
    space meets the next one on the board."""
    spaces = track.spaces(size)
    start = next(sp.node for sp in spaces if sp.kind == "track")
    seen = [start]
    node = track.next_node(start, _walk_colour(start))
    while node != start and len(seen) <= len(spaces):
        if track.kind(node) != "track":
            return [Finding("error", "board", f"the track leaves the loop at space {seen[-1]}")]
        seen.append(node)
        node = track.next_node(node, _walk_colour(node))
    out = []
    if node != start:
        out.append(Finding("error", "board", "the track spaces do not close into one loop"))
    total = sum(sp.kind == "track" for sp in spaces)
    if len(seen) != total or total < track.COLOURS * track.PER_ARM:
        out.append(Finding("error", "board", f"the loop holds {len(seen)} of {total} track spaces"))
    for a, b in zip(seen, seen[1:] + seen[:1], strict=True):
        if spaces[a].polygon.distance(spaces[b].polygon) > TOUCH:
            out.append(Finding("error", "board", f"printed space {a} does not meet space {b}"))
    return out


def check_safe_spaces(model: PlayModel, board: Component) -> list[Finding]:
    """12 safe spaces in the model, and 12 rings on the printed board."""
    out = []
    if sum(model.safe) != SAFE_SPACES:
        out.append(Finding("error", "board", f"{sum(model.safe)} safe spaces; the rules have 12"))
    rings = [s for s in board.shapes("art") if s.radius > 0 and s.style.stroke_width == RING]
    if len(rings) != SAFE_SPACES:
        out.append(Finding("error", "board", f"{len(rings)} ringed spaces printed, not 12"))
    return out


def check_entries(model: PlayModel, size: float) -> list[Finding]:
    """Each colour enters on a safe space printed in its colour, beside its nest."""
    spaces = track.spaces(size)
    out = []
    for k, e in enumerate(model.entry):
        sp = spaces[e]
        if not model.safe[e] or not sp.safe:
            out.append(Finding("error", "board", f"colour {k} enters on {e}, not a safe space"))
        if sp.colour != k:
            out.append(Finding("error", "board", f"entry space {e} is not printed in colour {k}"))
        if sp.polygon.distance(track.nest(size, k)) > TOUCH:
            out.append(
                Finding("error", "board", f"entry space {e} is not beside colour {k}'s nest")
            )
    return out


def check_strips(model: PlayModel, size: float) -> list[Finding]:
    """Colour k's home strip leaves the track after space 17k (63 spaces past its entry),
    in the graph and on the board, and its last space meets colour k's part of home."""
    spaces = track.spaces(size)
    out = []
    for k in range(track.COLOURS):
        joint = track.PER_ARM * k
        path = model.paths[k]
        first = track.next_node(joint, k)
        ok = (
            model.home_entry[k] == joint
            and path.index(joint) == 63
            and first == track.strip_node(k, 0)
            and path[-1] == track.HOME
        )
        if not ok:
            out.append(Finding("error", "board", f"colour {k}'s strip does not leave at {joint}"))
            continue
        strip = path[path.index(joint) + 1 : -1]
        if len(strip) != track.STRIP_SPACES or any(spaces[n].colour != k for n in strip):
            out.append(Finding("error", "board", f"colour {k}'s strip is not 7 spaces in colour"))
        edge = spaces[joint].polygon.intersection(spaces[first].polygon)
        if edge.length <= TOUCH:
            out.append(Finding("error", "board", f"colour {k}'s strip is not printed at {joint}"))
        if spaces[strip[-1]].polygon.distance(track.home_triangle(size, k)) > TOUCH:
            out.append(Finding("error", "board", f"colour {k}'s strip does not reach home"))
    return out


def check_pawn_fits(p: ParcheesiParams) -> list[Finding]:
    """A pawn's base fits every printed space, two fit side by side (a blockade or a shared
    safe space), four fit the nest's places without touching, and a reduced board's pawns
    are still big enough to cut out."""
    r = p.pawn_size / 2
    worst: list[str] = []
    for sp in track.spaces(p.board_size):
        x, y = sp.centre
        x0, y0, x1, y1 = sp.polygon.bounds
        dx, dy = (r, 0.0) if x1 - x0 >= y1 - y0 else (0.0, r)
        one = Point(x, y).buffer(r)
        two = unary_union([Point(x - dx, y - dy).buffer(r), Point(x + dx, y + dy).buffer(r)])
        if not (sp.polygon.contains(one) and sp.polygon.contains(two)):
            worst.append(str(sp.node))
    out = []
    if worst:
        out.append(
            Finding(
                "error",
                "board",
                f"two {p.pawn_size:g} mm pawns do not fit side by side on spaces "
                f"{', '.join(worst[:6])}{' ...' if len(worst) > 6 else ''}",
            )
        )
    for k in range(track.COLOURS):
        nest = track.nest(p.board_size, k)
        discs = [Point(x, y).buffer(r) for x, y in track.nest_slots(p.board_size, k)]
        apart = all(a.distance(b) > 0 for i, a in enumerate(discs) for b in discs[i + 1 :])
        if not apart or not all(nest.contains(d) for d in discs):
            out.append(Finding("error", "board", f"four pawns do not fit colour {k}'s nest"))
    short, long = track.space_dimensions(p.board_size)
    scale, d = p.board_scale, printed_pawn(p)
    if d < LEAST_PAWN:
        least = math.ceil(100 * LEAST_PAWN / p.pawn_size) / 100
        out.append(
            Finding(
                "error",
                "board",
                f"at board_scale {scale:g} the pawns print {d:.1f} mm wide, too small to cut "
                f"and play: use a board_scale of at least {least:g}",
            )
        )
    spaces = f"spaces print {short * scale:.1f} x {long * scale:.1f} mm"
    out.append(Finding("info", "board", f"{spaces}; pawns {d:.1f} mm"))
    return out


def check_tiles(board: Component, printing: PrintParams, scale: float) -> list[Finding]:
    """The board's pages, measured: the sheets' regions cover the whole board (with its
    bleed), neighbours overlap by at least the glue strip, each sheet's region lies on the
    paper's content area, and a tiled board ends with its assembly map."""
    paper = get_paper(printing.paper, printing.margin)
    pages = board_pages(board, paper, scale=scale)
    area = box(*content_box(paper))
    regions = []
    for page in pages:
        if "assembly map" in page.title:  # the map shows the board small: not a sheet
            continue
        for pl in page.placements:
            if pl.component is board and pl.clip is not None:
                if not area.buffer(TOUCH).contains(box(*pl.clip)):
                    return [Finding("error", "board", f"{page.title} runs off the paper")]
                x0, y0, x1, y1 = pl.clip
                regions.append((box(x0 - pl.x, y0 - pl.y, x1 - pl.x, y1 - pl.y), pl.rotation))
    if not regions:
        return [Finding("error", "board", "the board is on no page")]
    rot = regions[0][1]
    extent = box(*frame_box(board_extent(board, scale), board, rot, scale))
    cover = unary_union([g for g, _ in regions])
    out = []
    if not cover.buffer(TOUCH).contains(extent):
        out.append(Finding("error", "board", "the sheets leave part of the board unprinted"))
    where = paper.name.upper() if paper.name == "a4" else paper.name.title()
    if len(regions) == 1:
        shown = f" at {scale_label(scale)}" if scale < 1 else ""
        out.append(Finding("info", "board", f"prints on one {where} sheet{shown}"))
        return out
    glue = max(GLUE_OVERLAP, paper.margin)
    for i, (a, _) in enumerate(regions):
        for b, _ in regions[i + 1 :]:
            shared = a.intersection(b)
            if shared.area <= 0:
                continue
            sx0, sy0, sx1, sy1 = shared.bounds
            same_row = abs(a.bounds[1] - b.bounds[1]) < TOUCH
            same_column = abs(a.bounds[0] - b.bounds[0]) < TOUCH
            width = sx1 - sx0 if same_row else sy1 - sy0
            if (same_row or same_column) and width < glue - TOUCH:
                out.append(
                    Finding("error", "board", f"sheets overlap by {width:.1f} mm, under {glue:g}")
                )
    if "assembly map" not in pages[-1].title:
        out.append(Finding("error", "board", "the tiled board has no assembly map"))
    out.append(
        Finding(
            "info",
            "board",
            f"tiled over {len(regions)} {where} sheets with {glue:g} mm glue strips, "
            "plus an assembly map",
        )
    )
    return out
