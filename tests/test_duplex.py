"""Duplex backs: mirrored for a long-edge flip, right after their fronts, offset-corrected."""

from __future__ import annotations

import io

import pdfplumber
import pypdf
import pytest
from shapely.geometry import box

from pnp.contract.paper import STICKER_PAPER, get_paper
from pnp.draw.kit import PrintParams
from pnp.draw.layout import Section, alignment_pages, build_document, with_backs
from pnp.draw.layout.impose import impose_cards, pack_cutouts
from pnp.draw.render.pdf import render_pdf
from pnp.draw.scene import CUT_STYLE, Component, Shape, Style, Text, circle
from pnp.runtime.errors import PnpError

PT = 72.0 / 25.4
BLEED = 3.0
A4_W = 210.0


def marker_colour(k: int, back: bool) -> str:
    return f"#{(40 + 20 * k):02x}{(200 if back else 100):02x}{(10 + k):02x}"


def marked_card(k: int, w: float, h: float) -> Component:
    """A card whose back has a marker square exactly behind the front's marker square.

    Front marker at local x 5..15; seen from behind (flipped left-right) the same paper is
    at back-local x w-15..w-5, same height.
    """
    back = Component(f"back{k}", "back", w, h, imposition="card", bleed=BLEED)
    back.add(
        Shape(box(-BLEED, -BLEED, w + BLEED, h + BLEED), style=Style(fill="#0072B2", stroke=None)),
        Shape(box(w - 15, 5, w - 5, 25), style=Style(fill=marker_colour(k, True), stroke=None)),
    )
    c = Component(f"card{k}", "card", w, h, imposition="card", bleed=BLEED, back=back)
    c.add(
        Shape(box(-BLEED, -BLEED, w + BLEED, h + BLEED), style=Style(fill="#E69F00", stroke=None)),
        Shape(box(5, 5, 15, 25), style=Style(fill=marker_colour(k, False), stroke=None)),
    )
    return c


def rects_by_colour(page: pdfplumber.page.Page) -> dict[tuple, tuple[float, ...]]:
    h = page.height
    return {
        tuple(round(v, 3) for v in r["non_stroking_color"]): (
            r["x0"] / PT,
            (h - r["bottom"]) / PT,
            r["x1"] / PT,
            (h - r["top"]) / PT,
        )
        for r in page.rects
    }


def rgb(hex_colour: str) -> tuple:
    return tuple(round(int(hex_colour[i : i + 2], 16) / 255, 3) for i in (1, 3, 5))


def build(size: tuple[float, float], printing: PrintParams, n: int = 5) -> tuple[list, bytes]:
    cards = [marked_card(k, *size) for k in range(n)]
    pages = build_document("Duplex", [Section("Cards", cards)], get_paper("a4"), printing)
    return pages, render_pdf(pages, "Duplex")


def test_both_card_orientations_are_exercised() -> None:
    rotations = {
        impose_cards([marked_card(0, w, h)], get_paper("a4"), PrintParams())[0]
        .placements[0]
        .rotation
        for w, h in [(63, 88), (85, 55)]
    }
    assert rotations == {0, 90}


@pytest.mark.parametrize("size", [(63.0, 88.0), (85.0, 55.0)])
def test_back_marker_lies_exactly_behind_front_marker(size: tuple[float, float]) -> None:
    """Long-edge flip: paper at front x lies behind back x' = page_width - x, same y."""
    pages, data = build(size, PrintParams())
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        pairs = 0
        for i, p in enumerate(pages):
            if p.side != "back" or "alignment" in p.title:
                continue
            front = rects_by_colour(pdf.pages[i - 1])
            back = rects_by_colour(pdf.pages[i])
            for k in range(5):
                f = front.get(rgb(marker_colour(k, False)))
                b = back.get(rgb(marker_colour(k, True)))
                if f is None:
                    continue
                assert b is not None
                assert b == pytest.approx((A4_W - f[2], f[1], A4_W - f[0], f[3]), abs=0.01)
                pairs += 1
        assert pairs == 5


def sheets(pages: list) -> list[tuple]:
    """Pages two by two, as a double-sided print puts them on sheets."""
    assert len(pages) % 2 == 0
    return list(zip(pages[::2], pages[1::2], strict=True))


def cutouts(n: int) -> list[Component]:
    """`n` round 60 mm tokens without backs: more than a sheet holds."""
    token = Component("t", "token", 60, 60, imposition="cutout", copies=n)
    token.add(circle(30, 30, 30, "cut", CUT_STYLE))
    return [token]


def jobs(pages: list) -> list[list]:
    """The document cut into its print jobs, as the pages say (consecutive, one name)."""
    out: list[list] = []
    for p in pages:
        if out and out[-1][0].job == p.job:
            out[-1].append(p)
        else:
            out.append([p])
    return out


def cover_text(pages: list) -> str:
    return " ".join(" ".join(i.text for i in pages[0].items if isinstance(i, Text)).split())


def test_each_sheet_is_a_front_and_its_backs_or_a_page_alone() -> None:
    """The double-sided job holds only sheets with backs: each sheet a front and its own
    backs (the alignment test first), none with a blank reverse. Sheets without backs
    print single-sided in a job of their own; the cover prints on plain paper."""
    paper = get_paper("a4")
    cards = [marked_card(k, 63.0, 88.0) for k in range(12)]
    sections = [Section("Tokens", cutouts(20)), Section("Cards", cards)]
    pages = build_document("K", sections, paper, PrintParams())
    tokens = len(pack_cutouts(cutouts(20), paper))
    assert tokens == 2
    plain, duplex, single = jobs(pages)
    assert [p.title for p in plain] == ["Cover and contents"]
    assert {p.stock for p in plain} == {"plain paper"}
    assert [(a.side, b.side) for a, b in sheets(duplex)] == [("front", "back")] * 3
    assert duplex[0].title == "Duplex alignment test — front"  # printed first
    for a, b in sheets(duplex):
        assert b.title in (f"{a.title} — backs", a.title.replace("— front", "— back"))
    assert [p.section for p in single] == ["Tokens"] * tokens
    assert {p.side for p in single} == {"front"} and {p.stock for p in single} == {"card stock"}
    assert not any(p.side == "blank" for p in pages)
    said = cover_text(pages)
    assert "Plain paper, page 1: print single-sided (1 sheet)" in said
    assert "Card stock, pages 2–7: print double-sided, flipped on the long edge (3 sheets)" in said
    assert "Card stock, pages 8–9: print single-sided (2 sheets)" in said


def test_a_tiled_board_and_its_map_print_on_plain_paper_or_card_when_asked() -> None:
    """A tiled board's sheets and its assembly map (read before the tiles are cut) print
    on plain paper with the cover, the map first; `board_on_card` moves the tiles onto
    card stock, single-sided, and the cover says which."""
    board = Component("b", "Board", 380, 380, imposition="board")
    board.add(Shape(box(0, 0, 380, 380), style=Style(fill="#eeeeee")))
    back = Component("cb", "back", 63, 88, imposition="card")
    card = Component("c", "card", 63, 88, imposition="card", back=back)
    sections = [Section("Board", [board]), Section("Cards", [card])]
    pages = build_document("K", sections, get_paper("a4"), PrintParams())
    plain, duplex = jobs(pages)
    assert plain[0].title == "Cover and contents"
    assert plain[1].title == "Board — assembly map — on plain paper"
    tiles = [p for p in plain if "— tile" in p.title]
    assert len(tiles) > 2 and all(p.title.endswith("— on plain paper") for p in tiles)
    assert len(plain) == 2 + len(tiles) and duplex[-1].side == "back"
    assert "Glue the board's sheets onto card or board" in cover_text(pages)
    pages = build_document("K", sections, get_paper("a4"), PrintParams(board_on_card=True))
    plain, duplex, single = jobs(pages)
    assert [p.title for p in plain] == [
        "Cover and contents",
        "Board — assembly map — on plain paper",
    ]
    assert len(single) == len(tiles) and {p.stock for p in single} == {"card stock"}
    assert "The board's sheets are on card stock, as board_on_card asks" in cover_text(pages)


def test_another_stock_prints_single_sided_in_a_range_of_its_own() -> None:
    """Sticker sheets follow the card stock's last sheet, never share one with it, and
    the cover names every job: which pages, which stock, one side or two, how many sheets."""
    sticker = Component("s", "stickers", 150, 100, imposition="cutout")
    sticker.add(Shape(box(0, 0, 150, 100), "cut", CUT_STYLE))
    cards = [marked_card(k, 63.0, 88.0) for k in range(3)]
    sections = [
        Section("Stickers", [sticker], stock=STICKER_PAPER),
        Section("Cards", cards),
    ]
    pages = build_document("K", sections, get_paper("a4"), PrintParams(duplex="short"))
    n = len(pages)
    assert pages[-1].title == "Stickers — on sticker paper"
    assert pages[-2].side == "back" and (n - 2) % 2 == 0  # the card stock ends a sheet
    said = cover_text(pages)
    assert f"Card stock, pages 2–{n - 1}: print double-sided, flipped on the short edge" in said
    assert f"Sticker paper, page {n}: print single-sided (1 sheet): stickers." in said


def test_a_single_sided_print_has_no_blank_pages() -> None:
    """With `duplex = "none"` nothing prints on a reverse: no page is added to keep one."""
    sections = [Section("Tokens", cutouts(20)), Section("Cards", [marked_card(0, 63, 88)])]
    pages = build_document("K", sections, get_paper("a4"), PrintParams(duplex="none"))
    assert {p.side for p in pages} == {"front"} and len(pages) == 4  # cover, 2 + 1 sheets


def test_back_pages_follow_their_fronts_and_carry_bleed() -> None:
    pages, data = build((63.0, 88.0), PrintParams(), n=8)
    reader = pypdf.PdfReader(io.BytesIO(data))
    card_pages = [i for i, p in enumerate(pages) if p.section == "Cards" and p.side != "blank"]
    assert [pages[i].side for i in card_pages] == ["front", "back"] * (len(card_pages) // 2)
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for i in card_pages:
            if pages[i].side != "back":
                continue
            blue = [
                r
                for r in pdf.pages[i].rects
                if r["non_stroking_color"] == pytest.approx(rgb("#0072B2"), abs=1e-3)
            ]
            assert blue
            trim = [v / PT for v in reader.pages[i].trimbox]
            bleed = [v / PT for v in reader.pages[i].bleedbox]
            assert bleed == pytest.approx(
                [trim[0] - 3, trim[1] - 3, trim[2] + 3, trim[3] + 3], abs=0.01
            )
            for r in blue:  # back art runs 3 mm past the trim on every side
                w, h = (r["x1"] - r["x0"]) / PT, (r["bottom"] - r["top"]) / PT
                assert sorted((w, h)) == pytest.approx(sorted((63 + 6, 88 + 6)), abs=0.01)
                x0 = r["x0"] / PT
                assert trim[0] - 3 - 0.01 <= x0 and x0 + w <= trim[2] + 3 + 0.01


def test_back_offset_shifts_every_back_page_and_nothing_else() -> None:
    dx, dy = 1.5, -0.75
    pages0, plain = build((63.0, 88.0), PrintParams())
    pages1, shifted = build((63.0, 88.0), PrintParams(back_offset_x=dx, back_offset_y=dy))
    assert [p.title for p in pages0] == [p.title for p in pages1]
    r0, r1 = pypdf.PdfReader(io.BytesIO(plain)), pypdf.PdfReader(io.BytesIO(shifted))
    with pdfplumber.open(io.BytesIO(plain)) as a, pdfplumber.open(io.BytesIO(shifted)) as b:
        for i, p in enumerate(pages0):
            if p.section != "Cards":
                continue
            ra, rb = rects_by_colour(a.pages[i]), rects_by_colour(b.pages[i])
            move = (dx, dy) if p.side == "back" else (0.0, 0.0)
            for colour, box_a in ra.items():
                if colour == (1.0, 1.0, 1.0) or colour == (0.133, 0.133, 0.133):
                    continue  # furniture (scale bars) never moves
                box_b = rb[colour]
                assert box_b == pytest.approx(
                    (
                        box_a[0] + move[0],
                        box_a[1] + move[1],
                        box_a[2] + move[0],
                        box_a[3] + move[1],
                    ),
                    abs=0.01,
                )
            if p.side == "back":
                ta = [v / PT for v in r0.pages[i].trimbox]
                tb = [v / PT for v in r1.pages[i].trimbox]
                assert tb == pytest.approx(
                    [ta[0] + dx, ta[1] + dy, ta[2] + dx, ta[3] + dy], abs=0.01
                )


def test_alignment_pair_starts_the_double_sided_job_only_with_backs() -> None:
    pages, data = build((63.0, 88.0), PrintParams(back_offset_x=1.0, back_offset_y=2.0))
    assert [p.title for p in pages[1:3]] == [
        "Duplex alignment test — front",
        "Duplex alignment test — back",
    ]
    assert pages[2].side == "back"
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        back = pdf.pages[2]
        h = back.height
        long_lines = [ln for ln in back.lines if max(ln["width"], ln["height"]) / PT > 100]
        verticals = [ln["x0"] / PT for ln in long_lines if ln["width"] < 0.01]
        horizontals = [
            (h - ln["top"]) / PT
            for ln in long_lines
            if ln["height"] < 0.01 and (h - ln["top"]) / PT < 250
        ]  # not the header hairline
        # The cross sits at the page centre (its own mirror), moved by the back offset.
        assert verticals == pytest.approx([A4_W / 2 + 1.0], abs=0.01)
        assert horizontals == pytest.approx([297 / 2 + 2.0], abs=0.01)
        front_text = pdf.pages[1].extract_text()
        for word in (
            "X",
            "Y",
            "+5",
            "-10",
            "long edge",
            "back_offset_x (now 1 mm)",
            "back_offset_y (now 2 mm)",
        ):
            assert word in front_text
    plain = Component("c", "c", 63, 88, imposition="card")
    pages = build_document("K", [Section("C", [plain])], get_paper("a4"), PrintParams())
    assert not any("alignment" in p.title for p in pages)
    backed = [marked_card(0, 63.0, 88.0)]
    pages = build_document(
        "K", [Section("C", backed)], get_paper("a4"), PrintParams(alignment_test=False)
    )
    assert not any("alignment" in p.title for p in pages)  # printed once for several kits


def test_alignment_rulers_read_the_correction() -> None:
    """A back printed e mm too far right shows through at front x = centre - e: the X
    ruler tick there must read the correction -e; y keeps its direction, so the Y
    ruler tick at front y = centre + e must read -e as well."""
    front, _ = alignment_pages(get_paper("a4"), PrintParams())
    labels = {
        (round(t.x, 2), round(t.y, 2)): t.text
        for t in front.items
        if hasattr(t, "text") and t.text.lstrip("+-").isdigit()
    }
    cx, cy = A4_W / 2, 297 / 2
    x_ruler = {
        x - cx: text for (x, y), text in labels.items() if abs(x - cx) <= 10.01 and abs(y - cy) > 20
    }
    assert x_ruler[-5.0] == "-5" and x_ruler[5.0] == "+5" and x_ruler[0.0] == "0"
    y_ruler = {
        round(y + 0.8 - cy, 2): text
        for (x, y), text in labels.items()
        if abs(x - cx) > 20 and abs(y + 0.8 - cy) <= 10.01
    }
    assert y_ruler[5.0] == "-5" and y_ruler[-5.0] == "+5"


def test_unreasonable_back_offset_is_a_user_error() -> None:
    with pytest.raises(PnpError, match="back offset"):
        build((63.0, 88.0), PrintParams(back_offset_x=25.0))


def test_cutouts_with_backs_get_a_mirrored_back_page() -> None:
    back = Component("tb", "tb", 30, 30, imposition="cutout")
    back.add(circle(15, 15, 15, style=Style(fill="#000000", stroke=None)))
    tok = Component("t", "t", 30, 30, imposition="cutout", copies=5, back=back)
    tok.add(circle(15, 15, 15, "cut", CUT_STYLE))
    paper = get_paper("letter")
    fronts = pack_cutouts([tok], paper)
    pages = with_backs(fronts, PrintParams())
    assert [p.side for p in pages] == ["front", "back"]
    for f, b in zip(pages[0].placements, pages[1].placements, strict=True):
        assert b.component is back and b.side == "back"
        assert b.trim_box == pytest.approx(
            (paper.width - f.trim_box[2], f.trim_box[1], paper.width - f.trim_box[0], f.trim_box[3])
        )


def test_pages_without_backs_get_no_back_page() -> None:
    c = Component("c", "c", 63, 88, imposition="card")
    pages = with_backs(impose_cards([c], get_paper("a4"), PrintParams()), PrintParams())
    assert len(pages) == 1


MIXED_SIZES = [(69.0, 69.0), (85.0, 55.0), (88.0, 53.0), (63.0, 88.0), (85.0, 55.0), (44.45, 63.5)]


@pytest.mark.parametrize("paper_name", ["a4", "letter"])
@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.5, -0.75)])
def test_mixed_size_backs_land_exactly_behind_their_fronts(
    paper_name: str, offset: tuple[float, float]
) -> None:
    """Five card sizes share one sheet (some turned); every back marker is measured in the
    PDF behind its front marker: x' = page_width - x, same y, plus the back offset."""
    paper = get_paper(paper_name)
    printing = PrintParams(back_offset_x=offset[0], back_offset_y=offset[1])
    cards = [marked_card(k, w, h) for k, (w, h) in enumerate(MIXED_SIZES)]
    pages = build_document("Duplex", [Section("Cards", cards)], paper, printing)
    fronts = [i for i, p in enumerate(pages) if p.section == "Cards" and p.side == "front"]
    assert len(fronts) == 1  # all sizes on one sheet
    i = fronts[0]
    assert pages[i + 1].side == "back" and pages[i + 1].section == "Cards"
    assert {p.rotation for p in pages[i].placements} == {0, 90}
    data = render_pdf(pages, "Duplex")
    dx, dy = offset
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        front = rects_by_colour(pdf.pages[i])
        back = rects_by_colour(pdf.pages[i + 1])
    for k in range(len(MIXED_SIZES)):
        f = front[rgb(marker_colour(k, False))]
        b = back[rgb(marker_colour(k, True))]
        assert b == pytest.approx(
            (paper.width - f[2] + dx, f[1] + dy, paper.width - f[0] + dx, f[3] + dy), abs=0.01
        )
