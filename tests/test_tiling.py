"""Boards: one centred page, or tiles with glue overlap, alignment marks and a map."""

from __future__ import annotations

import io
import itertools
import re

import pdfplumber
import pytest
from shapely.geometry import LineString, box

from pnp.contract.paper import get_paper
from pnp.draw.kit import PrintParams
from pnp.draw.layout import Page, Section, board_pages, build_document, tile_board
from pnp.draw.layout.page import content_box
from pnp.draw.render.pdf import render_pdf
from pnp.draw.scene import CUT_STYLE, Component, Shape, Style, Text

PT = 72.0 / 25.4
SPEC_MARGIN = 6.35
MARK_GREY = (0.2, 0.2, 0.2)  # registration marks are #333333


def grid_board(w: float = 400.0, h: float = 300.0) -> Component:
    """A board made large on purpose, with a 10 mm grid so misalignment would show."""
    b = Component("big", "Big board", w, h, imposition="board")
    for x in range(0, int(w) + 1, 10):
        b.add(Shape(LineString([(x, 0), (x, h)]), style=Style(stroke="#009E73", stroke_width=0.3)))
    for y in range(0, int(h) + 1, 10):
        b.add(Shape(LineString([(0, y), (w, y)]), style=Style(stroke="#0072B2", stroke_width=0.3)))
    b.add(Shape(box(0, 0, w, h), "cut", CUT_STYLE), Text(w / 2, h / 2, "CENTRE", size=20))
    return b


def tiles_of(pages: list[Page]) -> list[tuple[int, int, Page]]:
    """(row, col, page) for each tile page, read from its label."""
    out = []
    for p in pages:
        m = re.search(r"\(row (\d+), col (\d+)\) of (\d+) x (\d+)", p.title)
        if m:
            out.append((int(m[1]) - 1, int(m[2]) - 1, p))
    return out


def frame_region(p: Page) -> tuple[float, float, float, float]:
    """The tile's region in the board's sheet frame: its clip minus the placement offset."""
    pl = p.placements[0]
    assert pl.clip is not None
    return (pl.clip[0] - pl.x, pl.clip[1] - pl.y, pl.clip[2] - pl.x, pl.clip[3] - pl.y)


@pytest.mark.parametrize("paper_name", ["a4", "letter"])
def test_large_board_tiles_fit_the_sheet_and_cover_the_board(paper_name: str) -> None:
    paper = get_paper(paper_name)
    pages = tile_board(grid_board(), paper)
    tiles = tiles_of(pages)
    rows = 1 + max(r for r, _, _ in tiles)
    cols = 1 + max(c for _, c, _ in tiles)
    assert len(tiles) == rows * cols >= 2
    assert len(pages) == len(tiles) + 1  # plus the assembly map
    assert "assembly map" in pages[-1].title
    cb = content_box(paper)
    regions = []
    for _, _, p in tiles:
        clip = p.placements[0].clip
        assert clip is not None
        assert clip[0] >= SPEC_MARGIN and clip[2] <= paper.width - SPEC_MARGIN
        assert clip[1] >= cb[1] - 1e-9 and clip[3] <= cb[3] + 1e-9  # clear of the furniture
        regions.append(box(*frame_region(p)))
    rot = tiles[0][2].placements[0].rotation
    board_frame = box(0, 0, 400, 300) if rot == 0 else box(0, 0, 300, 400)
    covered = regions[0].union(regions[1]) if len(regions) > 1 else regions[0]
    for r in regions[2:]:
        covered = covered.union(r)
    assert covered.symmetric_difference(board_frame).area == pytest.approx(0, abs=1e-6)


def test_a4_tiling_uses_the_fewest_sheets() -> None:
    """A4 content is about 197 x 261 mm: 400 x 300 needs 3 x 2 sheets upright, 2 x 2 turned."""
    paper = get_paper("a4")
    turned = tiles_of(tile_board(grid_board(), paper))
    upright = tiles_of(tile_board(grid_board(), paper, rotate=False))
    assert len(turned) == 4 and turned[0][2].placements[0].rotation == 90
    assert len(upright) == 6 and "of 2 x 3" in upright[0][2].title


@pytest.mark.parametrize("overlap", [10.0, 15.0])
def test_neighbours_overlap_by_the_glue_margin(overlap: float) -> None:
    pages = tile_board(grid_board(), get_paper("a4"), overlap=overlap, rotate=False)
    tiles = {(r, c): frame_region(p) for r, c, p in tiles_of(pages)}
    pairs = 0
    for (r, c), reg in tiles.items():
        if (r, c + 1) in tiles:
            right = tiles[(r, c + 1)]
            assert reg[2] - right[0] == pytest.approx(overlap)
            assert (reg[1], reg[3]) == pytest.approx((right[1], right[3]))
            pairs += 1
        if (r + 1, c) in tiles:
            below = tiles[(r + 1, c)]
            assert below[3] - reg[1] == pytest.approx(overlap)
            pairs += 1
    assert pairs == 7  # 2 rows x 3 cols: 4 horizontal + 3 vertical seams


def test_glue_margin_is_at_least_the_printer_margin() -> None:
    pages = tile_board(grid_board(), get_paper("a4"), overlap=2.0, rotate=False)
    t = {(r, c): frame_region(p) for r, c, p in tiles_of(pages)}
    assert t[(0, 0)][2] - t[(0, 1)][0] == pytest.approx(SPEC_MARGIN)


def _dashed(ln: dict) -> bool:
    return bool(ln.get("dash") and ln["dash"][0])


def _cross_centres(page: pdfplumber.page.Page) -> list[tuple[float, float]]:
    """Centres of registration crosses (whole or halved): two dark arms crossing at the
    middle of at least one of them (corner ticks meet at both arms' ends)."""
    h = page.height
    arms = [
        LineString(
            [(ln["x0"] / PT, (h - ln["top"]) / PT), (ln["x1"] / PT, (h - ln["bottom"]) / PT)]
        )
        for ln in page.lines
        if ln["stroking_color"] == pytest.approx(MARK_GREY, abs=0.01) and not _dashed(ln)
    ]
    out = []
    for a, b in itertools.combinations(arms, 2):
        p = a.intersection(b)
        if p.geom_type != "Point":
            continue
        if any(p.distance(arm.interpolate(0.5, normalized=True)) < 1e-3 for arm in (a, b)):
            out.append((round(p.x, 3), round(p.y, 3)))
    return out


def test_adjacent_tiles_line_up_in_the_pdf() -> None:
    """Registration crosses measured in the PDF sit at the same board point on both sheets
    of a seam, and on the upper sheet's dashed cut line."""
    paper = get_paper("a4")
    pages = tile_board(grid_board(), paper, rotate=False)
    tiles = {(r, c): p for r, c, p in tiles_of(pages)}
    with pdfplumber.open(io.BytesIO(render_pdf(pages, "t"))) as pdf:
        measured = {}
        cut_lines = {}
        for (r, c), p in tiles.items():
            ppage = pdf.pages[pages.index(p)]
            pl = p.placements[0]
            measured[(r, c)] = {
                (round(x - pl.x, 2), round(y - pl.y, 2)) for x, y in _cross_centres(ppage)
            }
            hh = ppage.height
            cut_lines[(r, c)] = [
                (
                    (ln["x0"] / PT - pl.x, (hh - ln["bottom"]) / PT - pl.y),
                    (ln["x1"] / PT - pl.x, (hh - ln["top"]) / PT - pl.y),
                )
                for ln in ppage.lines
                if _dashed(ln)
            ]
    checked = 0
    for (r, c), centres in measured.items():
        right = (r, c + 1)
        if right in measured:
            seam_x = round(frame_region(tiles[right])[0], 2)
            on_left = {p for p in centres if p[0] == seam_x}
            on_right = {p for p in measured[right] if p[0] == seam_x}
            assert on_left and on_left == on_right
            # The right sheet's dashed cut line is that seam.
            xs = {round(a[0], 2) for a, b in cut_lines[right] if abs(a[0] - b[0]) < 1e-6}
            assert seam_x in xs
            checked += 1
        below = (r + 1, c)
        if below in measured:
            seam_y = round(frame_region(tiles[below])[3], 2)
            on_top = {p for p in centres if p[1] == seam_y}
            on_bottom = {p for p in measured[below] if p[1] == seam_y}
            assert on_top and on_top == on_bottom
            checked += 1
    assert checked == 7


def test_grid_lines_land_on_board_coordinates_in_the_pdf() -> None:
    """Every drawn grid line, mapped back through its sheet's offset, is on the 10 mm grid;
    a sheet draws the lines that reach its window (each within a stroke of it), not the
    whole board behind the clip."""
    pages = tile_board(grid_board(), get_paper("a4"), rotate=False)
    with pdfplumber.open(io.BytesIO(render_pdf(pages, "t"))) as pdf:
        for _, _, p in tiles_of(pages):
            ppage = pdf.pages[pages.index(p)]
            pl = p.placements[0]
            green = [
                ln
                for ln in ppage.lines
                if ln["stroking_color"] == pytest.approx((0, 0.619608, 0.45098), abs=1e-3)
            ]
            x0, _, x1, _ = frame_region(p)
            xs = sorted(ln["x0"] / PT - pl.x for ln in green)
            reach = [10.0 * k for k in range(41) if x0 - 0.3 <= 10.0 * k <= x1 + 0.3]
            assert len(reach) < 41
            assert xs == pytest.approx(reach, abs=0.01)


def test_labels_and_assembly_map_in_the_pdf() -> None:
    paper = get_paper("a4")
    pages = build_document("Kit", [Section("Board", [grid_board()])], paper, PrintParams())
    with pdfplumber.open(io.BytesIO(render_pdf(pages, "Kit"))) as pdf:
        texts = [p.extract_text() for p in pdf.pages[1:]]  # the cover lists them too
    labels = [
        f"{row}{col} (row {r}, col {col}) of 2 x 2"
        for r, row in ((1, "A"), (2, "B"))
        for col in (1, 2)
    ]
    for lab in labels:
        assert sum(lab in t for t in texts) == 1, lab
    map_pages = [t for t in texts if "Assembly map" in t]
    assert len(map_pages) == 1
    for name in ("A1", "A2", "B1", "B2"):
        assert name in map_pages[0]
    assert "Print at 100 %" in map_pages[0]


def test_board_that_fits_is_one_centred_page() -> None:
    paper = get_paper("letter")
    b = grid_board(150, 200)
    pages = board_pages(b, paper)
    assert len(pages) == 1
    clip = pages[0].placements[0].clip
    cb = content_box(paper)
    assert clip is not None
    assert ((clip[0] + clip[2]) / 2, (clip[1] + clip[3]) / 2) == pytest.approx(
        ((cb[0] + cb[2]) / 2, (cb[1] + cb[3]) / 2)
    )
    assert (clip[2] - clip[0], clip[3] - clip[1]) == pytest.approx((150, 200))


def test_board_turned_when_only_that_fits() -> None:
    pages = board_pages(grid_board(250, 180), get_paper("a4"))
    assert len(pages) == 1
    assert pages[0].placements[0].rotation == 90


def test_alignment_marks_stay_on_their_sheet() -> None:
    """Marks are cut to the tile: the upper sheet carries half crosses on its cut edge."""
    pages = tile_board(grid_board(), get_paper("a4"), rotate=False)
    with pdfplumber.open(io.BytesIO(render_pdf(pages, "t"))) as pdf:
        for _, _, p in tiles_of(pages):
            ppage = pdf.pages[pages.index(p)]
            clip = p.placements[0].clip
            assert clip is not None
            frame = box(*clip).buffer(0.01)
            h = ppage.height
            marks = [
                ln
                for ln in ppage.lines
                if ln["stroking_color"] == pytest.approx(MARK_GREY, abs=0.01)
            ]
            assert marks
            for ln in marks:
                seg = LineString(
                    [
                        (ln["x0"] / PT, (h - ln["bottom"]) / PT),
                        (ln["x1"] / PT, (h - ln["top"]) / PT),
                    ]
                )
                assert frame.contains(seg)
