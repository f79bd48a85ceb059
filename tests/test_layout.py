"""Page model and imposition, measured on the layout data against the print spec."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point, box

from pnp.errors import PnpError
from pnp.kit import PrintParams
from pnp.layout import Section, build_document, impose_cards, pack_cutouts
from pnp.layout.page import (
    Placement,
    all_page_items,
    component_extent,
    item_bounds,
    text_bounds,
)
from pnp.paper import get_paper
from pnp.scene import CUT_STYLE, Component, Shape, Style, Text, circle

SPEC_MARGIN = 6.35  # print-and-cut.md: keep content 6.35 mm from every edge
SPEC_BLEED = 3.0  # print-and-cut.md: cards and tiles carry 3 mm bleed


def card(name: str = "c", w: float = 63.0, h: float = 88.0, copies: int = 1,
         back: Component | None = None) -> Component:
    c = Component(name, name, w, h, imposition="card", bleed=SPEC_BLEED, copies=copies, back=back)
    c.add(Shape(box(-SPEC_BLEED, -SPEC_BLEED, w + SPEC_BLEED, h + SPEC_BLEED),
                style=Style(fill="#E69F00", stroke=None)),
          Text(w / 2, h / 2, name, size=10, anchor="middle"))
    return c


def token(name: str = "t", d: float = 30.0, copies: int = 1) -> Component:
    t = Component(name, name, d, d, imposition="cutout", copies=copies)
    t.add(circle(d / 2, d / 2, d / 2, style=Style(fill="#56B4E9", stroke=None)),
          circle(d / 2, d / 2, d / 2, "cut", CUT_STYLE))
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
        bleeds = [(t[0] - SPEC_BLEED, t[1] - SPEC_BLEED, t[2] + SPEC_BLEED, t[3] + SPEC_BLEED)
                  for t in (p.trim_box for p in page.placements)]
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
        assert page.trim_box == pytest.approx((min(t[0] for t in trims), min(t[1] for t in trims),
                                               max(t[2] for t in trims), max(t[3] for t in trims)))
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


def test_different_card_sizes_go_on_separate_sheets() -> None:
    pages = impose_cards([card("small", 40, 40), card("big", 63, 88)], get_paper("a4"),
                         PrintParams())
    assert len(pages) == 2
    assert {p.component.name for p in pages[0].placements} == {"small"}


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
        cuts = [s.geom.buffer(s.radius) for s in all_page_items(page)
                if isinstance(s, Shape) and s.layer == "cut"]
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
    sections = [Section("Board", [board]), Section("Cards", [card("x", copies=3, back=back)]),
                Section("Tokens", [token()])]
    pages = build_document("Kit", sections, paper, PrintParams())
    sec = [p.section for p in pages]
    assert sec[0] == "Cover"
    assert sec[1:] == ["Board", "Cards", "Cards", "Tokens", "Duplex alignment test",
                       "Duplex alignment test"]
    assert [p.side for p in pages[2:4]] == ["front", "back"]
    cover_text = " ".join(i.text for i in pages[0].items if isinstance(i, Text))
    assert "Contents" in cover_text and "100 %" in cover_text and "long edge" in cover_text
    for k, page in enumerate(pages, start=1):
        head = " ".join(i.text for i in page.items if isinstance(i, Text))
        assert f"page {k} of {len(pages)}" in head and "A4" in head and "Kit" in head


def test_document_without_backs_has_no_alignment_test() -> None:
    pages = build_document("Kit", [Section("Cards", [card(copies=2)])], get_paper("letter"),
                           PrintParams())
    assert all(p.side == "front" for p in pages)
    assert not any("alignment" in p.title for p in pages)


def test_board_with_lines_and_points_has_finite_extent() -> None:
    c = Component("x", "x", 10, 10)
    c.add(Shape(LineString([(0, 0), (20, 5)])), Shape(Point(5, 5), radius=8))
    x0, y0, x1, y1 = component_extent(c)
    assert x1 >= 20 and x0 <= -3 and y1 >= 13


@settings(max_examples=40, deadline=None)
@given(w=st.floats(20, 120), h=st.floats(20, 120), bleed=st.sampled_from([0.0, 2.0, 3.0]),
       n=st.integers(1, 30), paper_name=st.sampled_from(["a4", "letter"]))
def test_imposed_cards_never_overlap_or_leave_the_printable_area(
        w: float, h: float, bleed: float, n: int, paper_name: str) -> None:
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
    sections = [Section("Cards", [card("x", copies=n_cards, back=card("b"))], "A note."),
                Section("Tokens", [token(copies=50)])]
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
