"""Home in One Piece layout checks: the rules' physical facts measured on what prints.

The start circles and the home zone are the board's own printed shapes (kept in the
board's `meta`), tested with shapely against the dough they must hold; the dice are read
back from the sticker sheets and paper dice, and their roll distribution worked out from
those printed faces.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import cast

from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from geometry.blobs import disc, home_fit
from pnp.contract.paper import get_paper
from pnp.draw.checks import Finding, check_cut_outlines, check_on_background, check_palette
from pnp.draw.kit import Kit
from pnp.draw.scene import Component, Shape
from pnp.games.home_in_one_piece.kit.board import TABLE
from pnp.games.home_in_one_piece.params import (
    DEFAULT_DICE,
    HomeInOnePieceParams,
    dough_to_use,
    unit_volume,
    whole_dough_radius,
)
from pnp.games.home_in_one_piece.rules.dice_model import distribution, mean

PAGE_FURNITURE = 30.0  # mm of a page's long side taken by its header and footer
RING_SEGMENTS = 64  # a printed circle as shapely sees it: finer than the blob discs


def run(kit: Kit) -> list[Finding]:
    p: HomeInOnePieceParams = kit.params  # type: ignore[assignment]
    board = kit.component("board")
    findings: list[Finding] = []
    for c in kit.components:
        findings += check_cut_outlines(c)
    findings += check_board_size(board, p, kit.printing.paper, kit.printing.margin)
    findings += check_start_circles(board, p)
    findings += check_home(board, p)
    findings += check_dice(kit, p)
    findings += check_stickers(kit)
    findings += check_palette(p.dough_colours)
    findings += check_on_background(p.dough_colours, TABLE, "the board", "board")
    return findings


# --- the board ---------------------------------------------------------------------------


def check_board_size(
    board: Component, p: HomeInOnePieceParams, paper_name: str, margin: float
) -> list[Finding]:
    """State the true size; say how it prints, and what a reduced print asks of the dough."""
    w, h = cast(tuple[float, float], board.meta["true_size"])
    paper = get_paper(paper_name, margin)
    s = p.board_scale
    long_side = max(paper.printable_width, paper.printable_height) - PAGE_FURNITURE
    short_side = min(paper.printable_width, paper.printable_height)
    bw, bh = (w + 2 * board.bleed) * s, (h + 2 * board.bleed) * s
    fits = max(bw, bh) <= long_side and min(bw, bh) <= short_side
    how = "on one sheet" if fits else "tiled over several sheets (see the assembly map)"
    if s >= 1:
        text = f"board is {w:.0f} x {h:.0f} mm at real size: it prints {how}"
        return [Finding("info", board.name, text)]
    return [
        Finding(
            "info",
            board.name,
            f"board is {w:.0f} x {h:.0f} mm at real size; printed at 1:{1 / s:.3g} it is "
            f"{w * s:.0f} x {h * s:.0f} mm, {how}",
        ),
        Finding(
            "warning",
            board.name,
            f"the circles and the home zone are sized for {p.dough_grams:g} g of dough each "
            f"at real size: on the 1:{1 / s:.3g} board use about {dough_to_use(p):g} g each",
        ),
    ]


def printed_disc(shape: Shape) -> BaseGeometry:
    """A printed circle (a point with a radius) as a shapely disc."""
    if shape.radius > 0:
        return shape.geom.buffer(shape.radius, quad_segs=RING_SEGMENTS)
    return shape.geom


def check_start_circles(board: Component, p: HomeInOnePieceParams) -> list[Finding]:
    """Each printed circle holds one start blob; blobs in neighbouring circles do not touch;
    the circles alternate the two players and stay clear of the home zone."""
    rings: Sequence[Shape] = board.meta["start_circles"]  # type: ignore[assignment]
    seats: Sequence[int] = board.meta["seats"]  # type: ignore[assignment]
    home = cast(Shape, board.meta["home"])
    r = float(board.meta["blob_radius"])  # type: ignore[arg-type]
    out: list[Finding] = []
    need = 2 * p.blobs_per_player
    if len(rings) != need:
        out.append(
            Finding("error", board.name, f"{len(rings)} start circles, the game needs {need}")
        )
    if list(seats[:need]) != [i % 2 for i in range(len(seats[:need]))]:
        out.append(Finding("error", board.name, "the start circles do not alternate the players"))
    order = sorted(rings, key=lambda s: (s.geom.x, s.geom.y))
    circles = [printed_disc(s) for s in order]
    blobs = [disc(s.geom.x, s.geom.y, r) for s in order]
    spilled = [
        i + 1 for i, (c, b) in enumerate(zip(circles, blobs, strict=True)) if not c.contains(b)
    ]
    if spilled:
        out.append(
            Finding(
                "error",
                board.name,
                f"a {2 * r:.1f} mm start blob spills out of circles {spilled}: raise circle_margin",
            )
        )
    gaps = [a.distance(b) for a, b in zip(blobs, blobs[1:], strict=False)]
    gap = min(gaps, default=float("inf"))
    if gaps and gap <= 0:
        out.append(
            Finding(
                "error",
                board.name,
                "start blobs in neighbouring circles touch: raise circle_gap or circle_margin",
            )
        )
    trim = board.trim
    if not all(trim.contains(c) for c in circles):
        out.append(Finding("error", board.name, "a start circle runs off the board"))
    if any(c.intersects(home.geom) for c in circles):
        out.append(Finding("error", board.name, "a start circle overlaps the home zone"))
    if not out:
        grams = p.dough_grams / p.blobs_per_player
        ring = 2 * order[0].radius if order else 0.0
        apart = f"; blobs in neighbouring circles lie {gap:.1f} mm apart" if gaps else ""
        out.append(
            Finding(
                "info",
                board.name,
                f"{len(rings)} start circles of {ring:.1f} mm each hold a {2 * r:.1f} mm blob "
                f"({grams:.3g} g, {unit_volume(p) / 1000:.3g} cm3 at {p.start_thickness:g} mm "
                f"thick){apart}",
            )
        )
    return out


def check_home(board: Component, p: HomeInOnePieceParams) -> list[Finding]:
    """The printed home zone must take both players' whole dough, one disc each, apart."""
    zone = cast(Shape, board.meta["home"]).geom
    if not isinstance(zone, Polygon):
        return [Finding("error", board.name, "the home zone is not one area")]
    radius = whole_dough_radius(p)
    fit = home_fit(zone, (radius, radius))
    x0, y0, x1, y1 = zone.bounds
    if not fit.ok:
        return [
            Finding(
                "error",
                board.name,
                f"the home zone cannot hold both players' whole dough: {fit.reason} "
                "(raise home_depth or home_thickness)",
            )
        ]
    side = fit.discs[0].distance(fit.discs[1])
    return [
        Finding(
            "info",
            board.name,
            f"the {x1 - x0:.0f} x {y1 - y0:.0f} mm home zone holds both players' whole dough "
            f"({p.dough_grams:g} g each as one {2 * radius:.0f} mm disc, {p.home_thickness:g} mm "
            f"thick) side by side {side:.0f} mm apart",
        )
    ]


# --- the dice ----------------------------------------------------------------------------


def printed_dice(kit: Kit) -> dict[str, list[tuple[int, ...]]]:
    """Every printed die set, by component: each sticker sheet's rows and the paper dice."""
    out: dict[str, list[tuple[int, ...]]] = {}
    for c in kit.components:
        if c.meta.get("kind") == "stickers":
            rows = cast(list[tuple[str, Sequence[int]]], c.meta["dice"])
            out[c.name] = [tuple(faces) for _, faces in rows]
        elif c.meta.get("kind") == "paper-die":
            out.setdefault("paper dice", []).append(tuple(c.meta["faces"]))  # type: ignore[arg-type]
    return out


def _counts(p: HomeInOnePieceParams, dice: Sequence[Sequence[int]]) -> str:
    return "; ".join(
        f"{letter} {sum(f)} blob{'s' if sum(f) != 1 else ''} + {len(f) - sum(f)} blank"
        for letter, f in zip(p.die_letters, dice, strict=False)
    )


def distribution_text(dice: Sequence[Sequence[int]]) -> str:
    """'P(0) = 10/216, ...' over 6^n rolls, as a player would count them, and the mean."""
    rolls = 1
    for faces in dice:
        rolls *= len(faces)
    parts = [f"P({n}) = {q * rolls}/{rolls}" for n, q in distribution(dice).items()]
    average = mean(dice)
    return ", ".join(parts) + f"; mean {average} blob{'' if average == 1 else 's'}"


def check_dice(kit: Kit, p: HomeInOnePieceParams) -> list[Finding]:
    """Face counts and the roll distribution from the printed faces; each printing must be
    the set the engine rolls, and the dice must sometimes allow a merge."""
    out: list[Finding] = []
    played = [tuple(f) for f in p.dice]
    printed = printed_dice(kit)
    if not printed:
        return [Finding("error", "dice", "the kit prints no blob dice")]
    for where, dice in printed.items():
        if len(dice) != len(played) or any(
            sorted(a) != sorted(b) for a, b in zip(dice, played, strict=False)
        ):
            out.append(
                Finding(
                    "error",
                    where,
                    f"prints dice {_counts(p, dice)}, but the game rolls {_counts(p, played)}",
                )
            )
    dice = next(iter(printed.values()))
    for letter, faces in zip(p.die_letters, dice, strict=False):
        if len(faces) != 6 or any(f not in (0, 1) for f in faces):
            out.append(Finding("error", "dice", f"die {letter} is not six blob-or-blank faces"))
        elif not any(faces):
            out.append(
                Finding("warning", "dice", f"die {letter} never shows a blob: it changes nothing")
            )
    if any(f.level == "error" for f in out):
        return out
    original = sorted(played) == sorted(DEFAULT_DICE)
    out.append(
        Finding(
            "info",
            "dice",
            f"faces: {_counts(p, dice)}"
            + (
                " (the original game's dice)"
                if original
                else " (custom, not the original 5/1, 4/2, 1/5)"
            ),
        )
    )
    out.append(
        Finding(
            "info", "dice", f"roll distribution from the printed faces: {distribution_text(dice)}"
        )
    )
    can_join = sum(q for n, q in distribution(dice).items() if n >= 2)
    if p.blobs_per_player > 1 and can_join == Fraction(0):
        out.append(
            Finding(
                "error",
                "dice",
                "the dice never show two blobs, so no two blobs can ever merge: nobody can win",
            )
        )
    return out


def check_stickers(kit: Kit) -> list[Finding]:
    """A sticker must be smaller than its die's face, or it wraps over the rounded edge."""
    out = []
    for c in kit.components:
        if c.meta.get("kind") != "stickers":
            continue
        die = float(c.meta["die_size"])  # type: ignore[arg-type]
        for s in c.shapes("cut"):
            x0, y0, x1, y1 = s.geom.bounds
            side = max(x1 - x0, y1 - y0)
            if side >= die:
                out.append(
                    Finding(
                        "error", c.name, f"a {side:.1f} mm sticker does not fit a {die:g} mm die"
                    )
                )
                break
    return out
