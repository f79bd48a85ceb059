"""Exploding Dice's folded board: no fold runs over an arrow or a die's place, for every
grid size the parameters allow, and the check every kit gets reports one that does.

The arrows and die places are read off the board as printed (its filled arrow shapes
and the dots on the grid points, each a die of `die_size` square round it); the folds
are the score lines it prints."""

from __future__ import annotations

from dataclasses import replace

import pytest
from shapely.geometry import LineString, Point, Polygon, box
from tiers import ci_keeps

from geometry.folding import FoldPlan
from pnp.build import make_kit
from pnp.draw.checks import check_fold_crossings, scene_checks
from pnp.draw.scene import Shape
from pnp.games.exploding_dice.params import ExplodingDiceParams
from pnp.runtime.errors import PnpError

SIZES = range(2, 17, 2)  # n: even, 2 to 16 (pnp params exploding-dice)


def _board(n: int):
    try:
        _, kit = make_kit("exploding-dice", paper="a4", values={"n": n})
    except PnpError:
        return None, None  # larger than the paper: the build says so in one line
    return kit, kit.component("board")


def _printed(board) -> tuple[list[Polygon], list[Polygon], list[LineString]]:
    """(arrows, die places, folds) as the board draws them."""
    die = ExplodingDiceParams().die_size
    band = 0.25 * board.width
    arrows, places, folds = [], [], []
    for it in board.items:
        if not isinstance(it, Shape):
            continue
        g = it.geom
        if it.layer == "score" and g.geom_type == "LineString":
            folds.append(g)
        elif it.layer == "art" and isinstance(g, Point) and it.radius and it.style.fill:
            places.append(box(g.x - die / 2, g.y - die / 2, g.x + die / 2, g.y + die / 2))
        elif it.layer == "art" and isinstance(g, Polygon) and it.style.fill and not it.style.stroke:
            c = g.centroid
            edge = min(c.x, c.y, board.width - c.x, board.height - c.y)
            if edge < band and g.area < (0.1 * board.width) ** 2:
                arrows.append(g)
    return arrows, places, folds


def _crossed(line: LineString, shapes: list[Polygon]) -> int:
    return sum(line.intersects(s.buffer(-0.01)) for s in shapes)


@pytest.mark.slow
@pytest.mark.parametrize("n", ci_keeps(SIZES, 0, 3, 7))
def test_no_fold_crosses_an_arrow_or_a_die_place(n: int) -> None:
    kit, board = _board(n)
    if board is None:
        return
    arrows, places, folds = _printed(board)
    assert len(places) == n * n and len(arrows) >= n
    assert len(folds) >= len(board.fold_lines)
    for line in folds:
        assert _crossed(line, arrows) == 0, (n, line.wkt)
        assert _crossed(line, places) == 0, (n, line.wkt)
    assert check_fold_crossings(board) == []
    # still folds to fit the tin: the kit's own check passes
    assert not [f for f in kit.findings if f.level == "error"]


@pytest.mark.slow
def test_a_fold_over_the_arrows_and_dice_is_a_check_error() -> None:
    """The even three-way split of the n = 8 board (x = 40.33 and 80.67 mm) runs along
    grid-point columns and through edge arrows: the check names each such fold."""
    _, board = _board(8)
    arrows, places, _ = _printed(board)
    plan = board.meta["fold"]
    even = FoldPlan(plan.cols, plan.rows, plan.width, plan.height)
    bad = replace(board, fold_lines=even.lines)
    found = check_fold_crossings(bad)
    crossing = [k for k, (a, b) in enumerate(even.lines) if _crossed(LineString([a, b]), places)]
    assert len(found) == len(crossing) >= 2
    assert all(f.level == "error" and "die point" in f.message for f in found)
    assert any("arrow" in f.message for f in found)
    assert any(f in scene_checks([bad]) for f in found)
