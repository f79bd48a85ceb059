"""Page model and imposition, measured on the layout data against the print spec."""

from __future__ import annotations

import io
import itertools
from dataclasses import replace

import pdfplumber
import pypdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point, box

from geometry.shapes import rounded_rect
from pnp.build import make_kit
from pnp.contract.paper import get_paper
from pnp.draw.kit import PrintParams
from pnp.draw.layout import Section, build_document, impose_cards, pack_cutouts
from pnp.draw.layout.page import (
    Placement,
    all_page_items,
    component_extent,
    content_box,
    item_bounds,
    text_bounds,
)
from pnp.draw.render.pdf import render_pdf
from pnp.draw.scene import CUT_STYLE, SCORE_STYLE, Component, Shape, Style, Text, circle
from pnp.runtime.errors import PnpError

SPEC_MARGIN = 6.35  # print-and-cut.md: keep content 6.35 mm from every edge
SPEC_BLEED = 3.0  # print-and-cut.md: cards and tiles carry 3 mm bleed


def card(
    name: str = "c",
    w: float = 63.0,
    h: float = 88.0,
    copies: int = 1,
    back: Component | None = None,
) -> Component:
    c = Component(name, name, w, h, imposition="card", bleed=SPEC_BLEED, copies=copies, back=back)
    c.add(
        Shape(
            box(-SPEC_BLEED, -SPEC_BLEED, w + SPEC_BLEED, h + SPEC_BLEED),
            style=Style(fill="#E69F00", stroke=None),
        ),
        Text(w / 2, h / 2, name, size=10, anchor="middle"),
    )
    return c


def token(name: str = "t", d: float = 30.0, copies: int = 1) -> Component:
    t = Component(name, name, d, d, imposition="cutout", copies=copies)
    t.add(
        circle(d / 2, d / 2, d / 2, style=Style(fill="#56B4E9", stroke=None)),
        circle(d / 2, d / 2, d / 2, "cut", CUT_STYLE),
    )
    return t


def overlap_area(a: tuple, b: tuple) -> float:
    return box(*a).intersection(box(*b)).area


def test_placement_rotations_map_trim_onto_footprint() -> None:
    c = card(w=20.0, h=50.0)
    for rot in (0, 90, 180, 270):
        p = Placement(c, 100.0, 40.0, rot)
        corners = [p.to_page(u, v) for u in (0, 20) for v in (0, 50)]
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        assert (min(xs), min(ys), max(xs), max(ys)) == pytest.approx(p.trim_box)
        w, h = (50, 20) if rot in (90, 270) else (20, 50)
        assert p.trim_box == pytest.approx((100, 40, 100 + w, 40 + h))


def test_placement_rotation_90_is_counter_clockwise() -> None:
    c = card(w=20.0, h=50.0)
    p = Placement(c, 0.0, 0.0, 90)
    # The card's bottom-left corner goes to the footprint's bottom-right.
    assert p.to_page(0, 0) == pytest.approx((50, 0))
    assert p.to_page(20, 0) == pytest.approx((50, 20))
    texts = [i for i in p.page_items() if isinstance(i, Text)]
    assert texts[0].rotate == 90


@pytest.mark.parametrize("paper_name", ["a4", "letter"])
def test_cards_respect_copies_bleed_gutter_and_margin(paper_name: str) -> None:
    paper = get_paper(paper_name)
    comps = [card("a", copies=4), card("b", copies=3), card("c", copies=5)]
    pages = impose_cards(comps, paper, PrintParams())
    names = [p.component.name for page in pages for p in page.placements]
    assert names.count("a") == 4 and names.count("b") == 3 and names.count("c") == 5
    for page in pages:
        bleeds = [
            (t[0] - SPEC_BLEED, t[1] - SPEC_BLEED, t[2] + SPEC_BLEED, t[3] + SPEC_BLEED)
            for t in (p.trim_box for p in page.placements)
        ]
        for a, b in itertools.combinations(bleeds, 2):
            assert overlap_area(a, b) == pytest.approx(0.0, abs=1e-9)
        for b in bleeds:
            assert b[0] >= SPEC_MARGIN and b[1] >= SPEC_MARGIN
            assert b[2] <= paper.width - SPEC_MARGIN and b[3] <= paper.height - SPEC_MARGIN
        # Neighbours sit exactly two bleeds apart (their bleeds touch, never overlap).
        xs = sorted({round(p.trim_box[0], 6) for p in page.placements})
        w = page.placements[0].trim_box[2] - page.placements[0].trim_box[0]
        for x0, x1 in itertools.pairwise(xs):
            assert x1 - x0 == pytest.approx(w + 2 * SPEC_BLEED)


def test_page_trim_and_bleed_boxes_wrap_the_cards() -> None:
    pages = impose_cards([card(copies=5)], get_paper("a4"), PrintParams())
    for page in pages:
        trims = [p.trim_box for p in page.placements]
        assert page.trim_box == pytest.approx(
            (
                min(t[0] for t in trims),
                min(t[1] for t in trims),
                max(t[2] for t in trims),
                max(t[3] for t in trims),
            )
        )
        tb = page.trim_box
        assert page.bleed_box == pytest.approx((tb[0] - 3, tb[1] - 3, tb[2] + 3, tb[3] + 3))


def test_crop_marks_sit_outside_every_bleed_and_on_trim_lines() -> None:
    page = impose_cards([card(copies=6)], get_paper("a4"), PrintParams())[0]
    trims = [p.trim_box for p in page.placements]
    edges_x = {round(v, 6) for t in trims for v in (t[0], t[2])}
    edges_y = {round(v, 6) for t in trims for v in (t[1], t[3])}
    marks = [i for i in page.items if isinstance(i, Shape)]
    assert marks
    bleed_art = box(*page.bleed_box)
    for m in marks:
        assert m.geom.distance(bleed_art) >= 0.4  # clear of the art
        (x0, y0), (x1, y1) = m.geom.coords
        if x0 == x1:
            assert round(x0, 6) in edges_x
        else:
            assert round(y0, 6) in edges_y
    # Every trim line has a mark at both ends of the block.
    vertical = [m for m in marks if m.geom.coords[0][0] == m.geom.coords[1][0]]
    assert len(vertical) == 2 * len(edges_x)


def test_cards_turn_only_when_more_fit() -> None:
    paper = get_paper("a4")
    for w, h in [(63, 88), (85, 55), (44.45, 63.5), (120, 80)]:
        many = [card(w=w, h=h, copies=40)]
        turned = impose_cards(many, paper, PrintParams())
        upright = impose_cards(many, paper, PrintParams(), rotate=False)
        assert len(turned[0].placements) >= len(upright[0].placements)
        if turned[0].placements[0].rotation == 90:
            assert len(turned[0].placements) > len(upright[0].placements)


def test_card_too_large_is_a_user_error() -> None:
    with pytest.raises(PnpError, match="does not fit"):
        impose_cards([card(w=250, h=250)], get_paper("a4"), PrintParams())


def test_different_card_sizes_share_a_sheet() -> None:
    """Replaces the old one-size-per-sheet rule: two small sizes now share one sheet."""
    pages = impose_cards(
        [card("small", 40, 40), card("big", 63, 88)], get_paper("a4"), PrintParams()
    )
    assert len(pages) == 1
    assert sorted(p.component.name for p in pages[0].placements) == ["big", "small"]


@pytest.mark.parametrize("paper_name", ["a4", "letter"])
def test_cutouts_packed_with_gap_inside_printable_area(paper_name: str) -> None:
    paper = get_paper(paper_name)
    pages = pack_cutouts([token("a", 30, 50), token("b", 45, 12)], paper, gap=3.0)
    assert len(pages) >= 2  # 62 pieces do not fit on one sheet
    assert sum(len(p.placements) for p in pages) == 62
    for page in pages:
        assert not page.trim_box and not page.bleed_box
        assert not page.items  # no crop marks: cutouts carry their own cut lines
        boxes = [item_bounds(i) for i in all_page_items(page)]
        for b in boxes:
            assert b[0] >= SPEC_MARGIN and b[1] >= SPEC_MARGIN
            assert b[2] <= paper.width - SPEC_MARGIN and b[3] <= paper.height - SPEC_MARGIN
        cuts = [
            s.geom.buffer(s.radius)
            for s in all_page_items(page)
            if isinstance(s, Shape) and s.layer == "cut"
        ]
        for a, b in itertools.combinations(cuts, 2):
            assert a.distance(b) >= 3.0 - 1e-6


def test_cutout_extent_includes_art_outside_its_trim() -> None:
    """A die net's glue tabs drawn at negative coordinates still stay off the margin."""
    net = Component("net", "net", 40, 40, imposition="cutout", copies=30)
    net.add(Shape(box(-8, -8, 48, 48), "cut", CUT_STYLE))
    paper = get_paper("a4")
    for page in pack_cutouts([net], paper):
        for s in all_page_items(page):
            x0, y0, x1, y1 = item_bounds(s)
            assert x0 >= SPEC_MARGIN and x1 <= paper.width - SPEC_MARGIN
            assert y0 >= SPEC_MARGIN and y1 <= paper.height - SPEC_MARGIN


def test_oversized_cutout_is_a_user_error() -> None:
    big = Component("huge", "huge", 300, 300, imposition="cutout")
    big.add(Shape(box(0, 0, 300, 300), "cut", CUT_STYLE))
    with pytest.raises(PnpError, match="larger than the printable area"):
        pack_cutouts([big], get_paper("a4"))


def test_long_cutout_is_turned_to_fit() -> None:
    strip = Component("strip", "strip", 240, 20, imposition="cutout")
    strip.add(Shape(box(0, 0, 240, 20), "cut", CUT_STYLE))
    page = pack_cutouts([strip], get_paper("a4"))[0]
    assert page.placements[0].rotation == 90


def test_document_order_cover_sections_then_alignment() -> None:
    paper = get_paper("a4")
    board = Component("b", "Board", 150, 150, imposition="board")
    board.add(Shape(box(0, 0, 150, 150), style=Style(fill="#eeeeee")))
    back = card("back")
    sections = [
        Section("Board", [board]),
        Section("Cards", [card("x", copies=3, back=back)]),
        Section("Tokens", [token()]),
    ]
    pages = build_document("Kit", sections, paper, PrintParams())
    sec = [p.section for p in pages]
    assert sec == [
        "Cover",
        "Board",
        "Duplex alignment test",
        "Duplex alignment test",
        "Cards",
        "Cards",
    ]
    # the cover and the board on plain paper, one side; the card sheet with its backs
    assert [p.job for p in pages] == ["plain-paper"] * 2 + ["card-stock-duplex"] * 4
    assert [p.side for p in pages] == ["front"] * 2 + ["front", "back"] * 2
    assert pages[4].shares == ("Tokens",)  # the token fits under the card sheet
    cover_text = " ".join(i.text for i in pages[0].items if isinstance(i, Text))
    assert "Contents" in cover_text and "100 %" in cover_text and "long edge" in cover_text
    for k, page in enumerate(pages, start=1):
        head = " ".join(i.text for i in page.items if isinstance(i, Text))
        assert f"page {k} of {len(pages)}" in head and "A4" in head and "Kit" in head


def test_document_without_backs_has_no_alignment_test() -> None:
    pages = build_document(
        "Kit", [Section("Cards", [card(copies=2)])], get_paper("letter"), PrintParams()
    )
    assert all(p.side == "front" for p in pages)
    assert not any("alignment" in p.title for p in pages)


def test_board_with_lines_and_points_has_finite_extent() -> None:
    c = Component("x", "x", 10, 10)
    c.add(Shape(LineString([(0, 0), (20, 5)])), Shape(Point(5, 5), radius=8))
    x0, y0, x1, y1 = component_extent(c)
    assert x1 >= 20 and x0 <= -3 and y1 >= 13


@settings(max_examples=40, deadline=None)
@given(
    w=st.floats(20, 120),
    h=st.floats(20, 120),
    bleed=st.sampled_from([0.0, 2.0, 3.0]),
    n=st.integers(1, 30),
    paper_name=st.sampled_from(["a4", "letter"]),
)
def test_imposed_cards_never_overlap_or_leave_the_printable_area(
    w: float, h: float, bleed: float, n: int, paper_name: str
) -> None:
    paper = get_paper(paper_name)
    pages = impose_cards([card(w=w, h=h, copies=n)], paper, PrintParams(bleed=bleed))
    assert sum(len(p.placements) for p in pages) == n
    for page in pages:
        clips = [p.clip for p in page.placements]
        for a, b in itertools.combinations(clips, 2):
            assert overlap_area(a, b) == pytest.approx(0.0, abs=1e-9)
        for it in page.items:
            x0, y0, x1, y1 = item_bounds(it)
            assert x0 >= SPEC_MARGIN - 1e-6 and y0 >= SPEC_MARGIN - 1e-6
            assert x1 <= paper.width - SPEC_MARGIN + 1e-6
            assert y1 <= paper.height - SPEC_MARGIN + 1e-6
        for c in clips:
            assert c[0] >= SPEC_MARGIN - 1e-6 and c[2] <= paper.width - SPEC_MARGIN + 1e-6


@pytest.mark.parametrize("n_cards", [3, 400])
def test_cover_text_never_overlaps_even_with_many_sheets(n_cards: int) -> None:
    paper = get_paper("letter")
    sections = [
        Section("Cards", [card("x", copies=n_cards, back=card("b"))], "A note."),
        Section("Tokens", [token(copies=50)]),
    ]
    pages = build_document("Kit", sections, paper, PrintParams())
    texts = [i for i in pages[0].items if isinstance(i, Text)]
    boxes = [text_bounds(t) for t in texts]
    for a, b in itertools.combinations(boxes, 2):
        assert overlap_area(a, b) == pytest.approx(0.0, abs=1e-9)
    for x0, y0, x1, y1 in boxes:
        assert x0 >= SPEC_MARGIN and x1 <= paper.width - SPEC_MARGIN
        assert y0 >= SPEC_MARGIN and y1 <= paper.height - SPEC_MARGIN
    joined = " ".join(t.text for t in texts)
    assert "A note." in joined


# --- Mixed sizes on shared sheets ---------------------------------------------------------

PT = 72.0 / 25.4
TIN_FILLS = {"board": "#E69F00", "track": "#56B4E9", "sheet": "#009E73", "label": "#0072B2"}


def tin_piece(name: str, w: float, h: float, fold: bool = False) -> Component:
    """A piece like the mint-tin kit's: full bleed art, a rounded cut outline, maybe a fold."""
    c = Component(name, name, w, h, imposition="card", bleed=SPEC_BLEED)
    c.add(
        Shape(
            box(-SPEC_BLEED, -SPEC_BLEED, w + SPEC_BLEED, h + SPEC_BLEED),
            style=Style(fill=TIN_FILLS[name], stroke=None),
        )
    )
    c.outline = rounded_rect(0, 0, w, h, 3.0)
    c.add(Shape(c.outline.exterior, layer="cut", style=CUT_STYLE))
    if fold:
        c.add(Shape(LineString([(w / 2, 0), (w / 2, h)]), layer="score", style=SCORE_STYLE))
    return c


def tin_pieces() -> list[Component]:
    """The Exploding Dice tin set: a 69 mm folding board, two 85 x 55 cards, an 88 x 53 label."""
    return [
        tin_piece("board", 69, 69, fold=True),
        tin_piece("track", 85, 55),
        tin_piece("sheet", 85, 55),
        tin_piece("label", 88, 53),
    ]


def grown(b: tuple, d: float) -> tuple:
    return (b[0] - d, b[1] - d, b[2] + d, b[3] + d)


def assert_every_edge_marked(
    trims: list[tuple], marks: list[LineString], bleed: float, tol: float
) -> None:
    """Crop marks, measured: each lies in line with a trim edge, clear of every card's bleed
    art; each trim edge has a mark beyond both of its ends; and the cut from the card out to
    that mark never runs through another card."""
    arts = [box(*grown(t, bleed)) for t in trims]
    insides = [box(*t).buffer(-0.05) for t in trims]
    edges_x = [v for t in trims for v in (t[0], t[2])]
    edges_y = [v for t in trims for v in (t[1], t[3])]
    verticals, horizontals = [], []
    for m in marks:
        assert min(m.distance(a) for a in arts) >= 0.4
        (x0, y0), (x1, y1) = m.coords
        if abs(x0 - x1) < tol:
            assert min(abs(x0 - e) for e in edges_x) < tol
            verticals.append((x0, min(y0, y1), max(y0, y1)))
        else:
            assert abs(y0 - y1) < tol and min(abs(y0 - e) for e in edges_y) < tol
            horizontals.append((y0, min(x0, x1), max(x0, x1)))

    def clear(i: int, path: LineString) -> bool:
        return not any(o.intersects(path) for j, o in enumerate(insides) if j != i)

    for i, (tx0, ty0, tx1, ty1) in enumerate(trims):
        for x in (tx0, tx1):
            above = [lo for mx, lo, _ in verticals if abs(mx - x) < tol and lo > ty1]
            below = [hi for mx, _, hi in verticals if abs(mx - x) < tol and hi < ty0]
            assert any(clear(i, LineString([(x, ty1), (x, lo)])) for lo in above), (i, x)
            assert any(clear(i, LineString([(x, ty0), (x, hi)])) for hi in below), (i, x)
        for y in (ty0, ty1):
            right = [lo for my, lo, _ in horizontals if abs(my - y) < tol and lo > tx1]
            left = [hi for my, _, hi in horizontals if abs(my - y) < tol and hi < tx0]
            assert any(clear(i, LineString([(tx1, y), (lo, y)])) for lo in right), (i, y)
            assert any(clear(i, LineString([(tx0, y), (hi, y)])) for hi in left), (i, y)


def layout_marks(page) -> list[LineString]:
    return [i.geom for i in page.items if isinstance(i, Shape)]


def pdf_box(o: dict, page_height: float) -> tuple[float, float, float, float]:
    """A pdfplumber object's bounds in mm, y up."""
    return (
        o["x0"] / PT,
        (page_height - o["bottom"]) / PT,
        o["x1"] / PT,
        (page_height - o["top"]) / PT,
    )


def rgb(hex_colour: str) -> tuple:
    return tuple(round(int(hex_colour[i : i + 2], 16) / 255, 3) for i in (1, 3, 5))


@pytest.mark.parametrize("paper_name", ["a4", "letter"])
def test_tin_pieces_share_one_sheet_measured_in_the_pdf(paper_name: str) -> None:
    paper = get_paper(paper_name)
    pages = build_document("Tin", [Section("Tin", tin_pieces())], paper, PrintParams())
    sheets = [i for i, p in enumerate(pages) if p.section == "Tin"]
    assert len(sheets) == 1
    i = sheets[0]
    data = render_pdf(pages, "Tin")
    fills = {rgb(c): name for name, c in TIN_FILLS.items()}
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        pg = pdf.pages[i]
        h = pg.height
        outlines = [pdf_box(c, h) for c in pg.curves if c["stroking_color"] == (1.0, 0.0, 0.0)]
        arts = {
            fills[tuple(round(v, 3) for v in r["non_stroking_color"])]: pdf_box(r, h)
            for r in pg.rects
            if tuple(round(v, 3) for v in r["non_stroking_color"]) in fills
        }
        marks = [
            LineString(
                [(ln["x0"] / PT, (h - ln["top"]) / PT), (ln["x1"] / PT, (h - ln["bottom"]) / PT)]
            )
            for ln in pg.lines
            if ln["stroking_color"] == (0.2, 0.2, 0.2)
        ]
        furniture = [pdf_box(ch, h) for ch in pg.chars]
        furniture += [
            pdf_box(r, h)
            for r in pg.rects
            if tuple(round(v, 3) for v in r["non_stroking_color"]) not in fills
        ]
        furniture += [
            pdf_box(ln, h)
            for ln in pg.lines
            if ln["stroking_color"] != (0.2, 0.2, 0.2) and abs(ln["top"] - ln["bottom"]) < 0.01
        ]  # the header hairline
    trim = [v / PT for v in pypdf.PdfReader(io.BytesIO(data)).pages[i].trimbox]
    bleed = [v / PT for v in pypdf.PdfReader(io.BytesIO(data)).pages[i].bleedbox]
    # Every piece at its size, its art running exactly 3 mm past its cut outline.
    sizes = sorted(tuple(sorted((round(o[2] - o[0], 2), round(o[3] - o[1], 2)))) for o in outlines)
    assert sizes == [(53.0, 88.0), (55.0, 85.0), (55.0, 85.0), (69.0, 69.0)]
    assert sorted(arts) == sorted(TIN_FILLS)
    for art in arts.values():
        inner = [o for o in outlines if box(*o).within(box(*art))]
        assert len(inner) == 1
        assert art == pytest.approx(grown(inner[0], SPEC_BLEED), abs=0.01)
    for a, b in itertools.combinations(arts.values(), 2):  # they may touch (PDF rounding)
        assert overlap_area(grown(a, -0.01), b) == 0.0
    # TrimBox wraps every trim, BleedBox is that plus the bleed.
    union = (
        min(o[0] for o in outlines),
        min(o[1] for o in outlines),
        max(o[2] for o in outlines),
        max(o[3] for o in outlines),
    )
    assert trim == pytest.approx(list(union), abs=0.01)
    assert bleed == pytest.approx(list(grown(union, SPEC_BLEED)), abs=0.01)
    # Art and marks stay inside the printer margin and off the header, footer and scale bars.
    assert furniture and marks
    for b in list(arts.values()) + [m.bounds for m in marks]:
        assert b[0] >= SPEC_MARGIN and b[1] >= SPEC_MARGIN
        assert b[2] <= paper.width - SPEC_MARGIN and b[3] <= paper.height - SPEC_MARGIN
        for f in furniture:
            assert not box(*b).intersects(box(*f))
    assert_every_edge_marked(outlines, marks, SPEC_BLEED, tol=0.01)


@pytest.mark.parametrize("paper_name", ["a4", "letter"])
def test_exploding_dice_board_cards_and_label_share_one_sheet(paper_name: str) -> None:
    """The real kit's pieces (board imposed as a card), laid out on a single sheet."""
    _, kit = make_kit("exploding-dice", paper=paper_name)
    comps = [kit.component(n) for n in ("board", "score-track", "score-sheet", "tin-label")]
    comps[0] = replace(comps[0], imposition="card")
    paper = get_paper(paper_name)
    pages = impose_cards(comps, paper, kit.printing, "Tin")
    assert len(pages) == 1
    page = pages[0]
    assert sorted(p.component.name for p in page.placements) == sorted(c.name for c in comps)
    trims = [p.trim_box for p in page.placements]
    assert sorted(tuple(sorted((round(t[2] - t[0], 6), round(t[3] - t[1], 6)))) for t in trims) == [
        (53.0, 88.0),
        (54.0, 84.0),
        (54.0, 84.0),
        (69.0, 69.0),
    ]
    for p in page.placements:
        assert p.clip == pytest.approx(grown(p.trim_box, SPEC_BLEED))
    for a, b in itertools.combinations([p.clip for p in page.placements], 2):
        assert overlap_area(a, b) == pytest.approx(0.0, abs=1e-9)
    assert_every_edge_marked(trims, layout_marks(page), SPEC_BLEED, tol=1e-5)


@pytest.mark.parametrize("paper_name", ["a4", "letter"])
def test_one_size_still_makes_the_tidy_grid(paper_name: str) -> None:
    """Eight 85 x 55 cards: one sheet, 2 columns x 4 rows, pitch card + 2 x bleed, in order."""
    pages = impose_cards(
        [card(f"r{k}", 85, 55) for k in range(8)], get_paper(paper_name), PrintParams()
    )
    assert len(pages) == 1
    placed = pages[0].placements
    assert {p.rotation for p in placed} == {0}
    xs = sorted({round(p.trim_box[0], 6) for p in placed})
    ys = sorted({round(p.trim_box[1], 6) for p in placed})
    assert [b - a for a, b in itertools.pairwise(xs)] == pytest.approx([85 + 2 * SPEC_BLEED])
    assert [b - a for a, b in itertools.pairwise(ys)] == pytest.approx([55 + 2 * SPEC_BLEED] * 3)
    reading = sorted(placed, key=lambda p: (-round(p.y, 6), round(p.x, 6)))
    assert [p.component.name for p in reading] == [f"r{k}" for k in range(8)]


def test_a_size_turns_against_its_own_grid_only_to_save_a_sheet() -> None:
    paper = get_paper("a4")
    strip = card("strip", 120, 40)
    # Alone, 120 x 40 cards fit more per sheet turned...
    assert impose_cards([strip], paper, PrintParams())[0].placements[0].rotation == 90
    # ...but next to a 150 mm square only upright do both fit on one sheet.
    pages = impose_cards([card("square", 150, 150), strip], paper, PrintParams())
    assert len(pages) == 1
    assert {p.component.name: p.rotation for p in pages[0].placements} == {"square": 0, "strip": 0}
    # Nothing turns when it saves nothing.
    tin = impose_cards(tin_pieces(), paper, PrintParams())
    assert len(tin) == 1 and {p.rotation for p in tin[0].placements} == {0}


def test_mixed_imposition_is_deterministic() -> None:
    def run() -> bytes:
        comps = tin_pieces() + [card("a", 63, 88, copies=3), card("b", 40, 40, copies=5)]
        pages = build_document("Mix", [Section("Mix", comps)], get_paper("a4"), PrintParams())
        return render_pdf(pages, "Mix")

    assert run() == run()
    comps = [card("a", 63, 88, copies=3), card("b", 40, 40, copies=5)]
    one = impose_cards(comps, get_paper("letter"), PrintParams())
    two = impose_cards(comps, get_paper("letter"), PrintParams())
    assert [[(p.component.name, p.x, p.y, p.rotation) for p in pg.placements] for pg in one] == [
        [(p.component.name, p.x, p.y, p.rotation) for p in pg.placements] for pg in two
    ]


@settings(max_examples=40, deadline=None)
@given(
    sizes=st.lists(
        st.tuples(st.floats(20, 120), st.floats(20, 120), st.integers(1, 6)), min_size=2, max_size=4
    ),
    bleed=st.sampled_from([0.0, 3.0]),
    paper_name=st.sampled_from(["a4", "letter"]),
)
def test_mixed_sizes_keep_copies_bleed_margin_and_clear_marks(
    sizes: list[tuple[float, float, int]], bleed: float, paper_name: str
) -> None:
    paper = get_paper(paper_name)
    comps = [card(f"c{k}", w, h, copies=n) for k, (w, h, n) in enumerate(sizes)]
    pages = impose_cards(comps, paper, PrintParams(bleed=bleed))
    names = [p.component.name for page in pages for p in page.placements]
    assert sorted(names) == sorted(c.name for c in comps for _ in range(c.copies))
    for page in pages:
        trims = [p.trim_box for p in page.placements]
        for p in page.placements:
            assert p.clip == pytest.approx(grown(p.trim_box, bleed))
            c = p.clip
            assert c[0] >= SPEC_MARGIN and c[1] >= SPEC_MARGIN
            assert c[2] <= paper.width - SPEC_MARGIN and c[3] <= paper.height - SPEC_MARGIN
        for a, b in itertools.combinations([p.clip for p in page.placements], 2):
            assert overlap_area(a, b) == pytest.approx(0.0, abs=1e-9)
        union = (
            min(t[0] for t in trims),
            min(t[1] for t in trims),
            max(t[2] for t in trims),
            max(t[3] for t in trims),
        )
        assert page.trim_box == pytest.approx(union)
        assert page.bleed_box == pytest.approx(grown(union, bleed))
        for m in layout_marks(page):
            x0, y0, x1, y1 = m.bounds
            assert x0 >= SPEC_MARGIN and y0 >= SPEC_MARGIN
            assert x1 <= paper.width - SPEC_MARGIN and y1 <= paper.height - SPEC_MARGIN
        assert_every_edge_marked(trims, layout_marks(page), bleed, tol=1e-5)
    upright = impose_cards(comps, paper, PrintParams(bleed=bleed), rotate=False)
    assert len(pages) <= len(upright)


def test_contents_by_section_counts_in_the_singular_too() -> None:
    """The short contents (one row a section) says "1 page" and "1 back page"."""
    from pnp.draw.layout.cover import _section_rows

    paper = get_paper("a4")
    sections = [
        Section("Cards", [card("x", copies=3, back=card("back"))]),
        Section("Tokens", [token(d=170.0)]),  # too big to share the card sheet
    ]
    body = build_document("Kit", sections, paper, PrintParams())[1:]
    rows = [what for _, what, _ in _section_rows(body, {}, 2, with_notes=False)]
    assert rows == [
        "Duplex alignment test (2 pages, 1 back page: duplex)",
        "Cards (2 pages, 1 back page: duplex)",
        "Tokens (1 page)",
    ]


def test_a_cover_speaks_of_bleed_only_when_something_has_bleed() -> None:
    def cover(sections: list[Section]) -> str:
        pages = build_document("Kit", sections, get_paper("a4"), PrintParams())
        return " ".join(i.text for i in pages[0].items if isinstance(i, Text))

    assert "bleed" not in cover([Section("Tokens", [token(copies=4)])])
    assert "3 mm of bleed" in cover([Section("Cards", [card(copies=4)])])


def test_a_one_sheet_section_shares_the_sheet_before_when_it_fits() -> None:
    """Two tokens, then a one-sheet card section: one shared sheet, the tokens where they
    were, the cards moved up or down only, nothing overlapping, the backs page mirrored from it."""
    from pnp.draw.layout.document import section_pages
    from pnp.draw.layout.page import content_box
    from pnp.draw.layout.share import SHARE_GAP

    paper, printing = get_paper("a4"), PrintParams()
    sections = [
        Section("Tokens", [token(copies=2)]),
        Section("Cards", [card("x", copies=2, back=card("back"))]),
    ]
    alone = [section_pages(s, paper, printing) for s in sections]
    pages = build_document("Kit", sections, paper, printing)
    shared = [p for p in pages if p.title.startswith("Tokens · Cards")]
    assert [p.side for p in shared] == ["front", "back"]
    front = shared[0]
    assert front.placements[:2] == alone[0][0].placements  # the upper sheet stays put
    cards = front.placements[2:]
    before = alone[1][0].placements
    assert [(c.x, c.rotation) for c in cards] == [(b.x, b.rotation) for b in before]
    token_bottom = min(p.y for p in front.placements[:2])
    card_top = max(c.clip[3] for c in cards)
    assert card_top <= token_bottom - SHARE_GAP + 1e-9
    assert min(c.clip[1] for c in cards) >= content_box(paper)[1] - 1e-9
    assert len(shared[1].placements) == 2  # only the cards have backs


def test_a_section_of_several_sheets_or_a_board_shares_nothing() -> None:
    paper = get_paper("a4")
    board = Component("b", "Board", 150, 150, imposition="board")
    board.add(Shape(box(0, 0, 150, 150), style=Style(fill="#eeeeee")))
    sections = [
        Section("Board", [board]),
        Section("Tokens", [token(copies=1)]),
        Section("Many", [token("m", copies=200)]),
    ]
    pages = build_document("Kit", sections, paper, PrintParams())
    assert not [p for p in pages if "·" in p.title]


def test_the_short_contents_names_a_section_that_shares_a_sheet() -> None:
    from pnp.draw.layout.cover import contents_lines

    sections = [
        Section("Tokens", [token(copies=2)], "Cut the circles."),
        Section("Cards", [card("x", copies=2)], "Shuffle them."),
    ]
    body = build_document("Kit", sections, get_paper("a4"), PrintParams())[1:]
    rows = [what for _, what, _ in contents_lines(body, {s.title: s.note for s in sections}, 2, 1)]
    assert rows == ["Tokens · Cards (1 page) — Cut the circles. Shuffle them."]


def test_a_title_too_long_for_its_header_takes_a_shorter_form_never_a_cut_word() -> None:
    """First the title as written, then without its card sizes; only past that whole
    words go, and the sheet and "backs" stay (no built-in kit comes to it)."""
    from pnp.draw.layout.furniture import fit_title, title_forms
    from pnp.draw.text import string_width

    t = "Rule cards, aids (63.5 x 88.9, 40 x 40 mm) — sheet 2 of 2 — backs"
    short = "Rule cards, aids — sheet 2 of 2 — backs"
    assert title_forms(t) == [t, short]
    assert fit_title(t, 7.0, string_width(t, 7.0)) == t
    assert fit_title(t, 7.0, string_width(t, 7.0) - 0.1) == short
    assert fit_title(t, 7.0, string_width(short, 7.0) - 0.1) == "Rule cards… — sheet 2 of 2 — backs"


def test_a_long_kit_title_and_note_wrap_on_the_cover() -> None:
    title = "The Very Long Title of a Print-and-Play Kit With Many Words In It, Part Two"
    note = "A note long enough to need two lines on the cover of any paper size: " * 3
    sections = [Section("Cards", [card("x", copies=3, back=card("b"))], note.strip())]
    pages = build_document(title, sections, get_paper("a4"), PrintParams())
    top = content_box(get_paper("a4"))[3]  # the cover itself, under the page header
    texts = [i for i in pages[0].items if isinstance(i, Text) and i.y < top]
    assert not any("…" in t.text for t in texts)
    big = [t.text for t in texts if t.size == 24.0]
    assert len(big) == 2 and " ".join(big) == title
    assert note.strip() in " ".join(t.text for t in texts if t.size == 8.0)
