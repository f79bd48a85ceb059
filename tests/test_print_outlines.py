"""Issue 17 follow-up: with the cut hairline left out of the print PDF, a piece whose edge
is paper-white gets a printed grey trim line, and sticker paper never shares a sheet with
card stock. Measured in the produced PDFs (pdfplumber) and on hand-built pieces."""

from __future__ import annotations

import io
import re
from functools import cache

import pdfplumber
import pytest
from shapely.geometry import box
from tiers import ci_keeps

from pnp.build import plan_kits
from pnp.contract.paper import STICKER_PAPER, get_paper
from pnp.draw.checks import check_guide_contrast, check_outline_shows
from pnp.draw.kit import PrintParams
from pnp.draw.layout import Section, build_document
from pnp.draw.paint import TRIM_STYLE, with_trim_lines
from pnp.draw.render.pdf import render_pdf
from pnp.draw.scene import CUT_STYLE, Component, Shape, Style

PT = 72.0 / 25.4
GAMES = ["exploding-dice", "building-community", "parcheesi", "home-in-one-piece", "desert-home"]
PRINTED = ("score",)  # the machine layers the print PDF draws by default


def piece(name: str, fill: str, w: float = 20.0, h: float = 10.0) -> Component:
    c = Component(name, name, w, h, imposition="cutout")
    c.add(Shape(box(0, 0, w, h), style=Style(fill=fill, stroke=None)))
    c.add(Shape(box(0, 0, w, h).exterior, "cut", CUT_STYLE))
    return c


# --- the rule, on hand-built pieces --------------------------------------------------------


def test_a_white_piece_is_a_finding_until_it_has_a_trim_line():
    white = piece("white", "#FFFFFF")
    (found,) = check_outline_shows(white, PRINTED)
    assert "do not show on the print" in found.message
    trimmed = with_trim_lines(white, PRINTED)
    (line,) = trimmed.shapes("guide")
    assert line.style == TRIM_STYLE and line.style.stroke not in ("#ff0000", "#0000ff")
    assert line.geom.length == pytest.approx(60.0, abs=0.6)  # all round 20 x 10 mm
    assert check_outline_shows(trimmed, PRINTED) == []
    assert check_guide_contrast(trimmed) == []  # the line itself shows 3:1 on the paper
    # the cut printed after all, or bleed and crop marks: no trim line, no finding
    assert check_outline_shows(white, ("score", "cut")) == []
    assert with_trim_lines(white, ("score", "cut")).shapes("guide") == []


@pytest.mark.parametrize("fill", ["#0072B2", "#000000", "#F0E442", "#D55E00"])
def test_a_piece_whose_ink_reaches_its_edge_keeps_no_trim_line(fill):
    """Yellow is 1.3:1 on white but plainly another colour: its edge shows too."""
    c = piece("inked", fill)
    assert check_outline_shows(c, PRINTED) == []
    assert with_trim_lines(c, PRINTED) is c


def test_a_half_white_piece_gets_a_line_only_where_it_is_white():
    """20 x 10 mm, the left half blue: the white half's edge is 10 + 10 + 10 = 30 mm."""
    c = piece("half", "#FFFFFF")
    c.items.insert(1, Shape(box(0, 0, 10, 10), style=Style(fill="#0072B2", stroke=None)))
    (line,) = with_trim_lines(c, PRINTED).shapes("guide")
    assert line.geom.length == pytest.approx(30.0, abs=1.0)
    x0, _, x1, _ = line.geom.bounds
    assert x0 == pytest.approx(10.0, abs=0.5) and x1 == pytest.approx(20.0)


def test_a_printed_outline_in_the_art_counts_as_shown():
    c = piece("outlined", "#FFFFFF")
    c.add(Shape(box(0, 0, 20, 10), style=Style(stroke="#B2B2B2", stroke_width=0.3)))
    assert check_outline_shows(c, PRINTED) == []


# --- measured in the print PDFs of the five games -----------------------------------------


@cache
def printed(slug: str, paper: str = "a4"):
    """(layout pages, pdfplumber-ready bytes) of a game's main print PDF."""
    _, plans = plan_kits(slug, papers=[paper])
    doc = plans[0].documents[0]
    data = render_pdf(
        doc.pages, doc.title, hairline=doc.hairline, machine_layers=doc.machine_layers
    )
    return doc.pages, data


def trim_strokes(pg) -> list[tuple[float, float, float, float]]:
    """Bounds (mm, y up) of the paths stroked in the trim line's grey and width."""
    grey = tuple(round(int(TRIM_STYLE.stroke[i : i + 2], 16) / 255, 3) for i in (1, 3, 5))
    out = []
    for o in pg.curves + pg.rects + pg.lines:
        colour = o.get("stroking_color")
        if not o.get("stroke") or colour is None or len(colour) != 3:
            continue
        if tuple(round(v, 3) for v in colour) != grey:
            continue
        if abs(o["linewidth"] - TRIM_STYLE.stroke_width * PT) > 0.01:
            continue
        h = pg.height
        out.append((o["x0"] / PT, (h - o["bottom"]) / PT, o["x1"] / PT, (h - o["top"]) / PT))
    return out


@pytest.mark.slow
def test_the_white_dice_stickers_have_a_trim_line_and_the_coloured_ones_none():
    """Desert Home's white row: six 14 mm stickers, each outlined in the print, in the row
    the word 'white' labels; the other five rows carry no line."""
    pages, data = printed("desert-home")
    i = next(k for k, p in enumerate(pages) if p.section == "Dice stickers")
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        pg = pdf.pages[i]
        strokes = trim_strokes(pg)
        label = next(w for w in pg.extract_words() if w["text"] == "white")
        label_y = (pg.height - (label["top"] + label["bottom"]) / 2) / PT
    assert len(strokes) == 6
    for x0, y0, x1, y1 in strokes:
        assert x1 - x0 == pytest.approx(14.0, abs=0.5) and y1 - y0 == pytest.approx(14.0, abs=0.5)
        assert (y0 + y1) / 2 == pytest.approx(label_y, abs=2.0)


@pytest.mark.slow
def test_the_white_round_figures_are_outlined_in_the_print():
    """Desert Home's white figures and tents (12 + 2) each get one trim circle."""
    pages, data = printed("desert-home")
    tokens = [
        (k, p)
        for k, p in enumerate(pages)
        if any(pl.component.name == "tokens-white" for pl in p.placements)
    ]
    (k, page), *_ = tokens
    (white,) = [pl for pl in page.placements if pl.component.name == "tokens-white"]
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        strokes = trim_strokes(pdf.pages[k])
    inside = [s for s in strokes if box(*s).within(box(*white.trim_box).buffer(0.5))]
    assert len(inside) == 14


@pytest.mark.slow
@pytest.mark.parametrize("slug", ci_keeps(GAMES, 0, 1))  # Exploding Dice, Building Community
def test_trim_lines_only_on_pieces_without_bleed(slug):
    """Every grey trim line in the print lies on a cut-out piece; none touches a card,
    tile or board with bleed (their art reaches the trim and crop marks show it)."""
    pages, data = printed(slug)
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for k, page in enumerate(pages):
            strokes = trim_strokes(pdf.pages[k])
            bled = [box(*pl.trim_box) for pl in page.placements if pl.component.bleed > 0]
            cut = [
                box(*pl.trim_box).buffer(0.5) for pl in page.placements if pl.component.bleed == 0
            ]
            for s in strokes:
                assert not any(box(*s).intersects(b) for b in bled), (slug, k + 1)
                assert any(box(*s).within(c) for c in cut), (slug, k + 1)


# --- stock: sticker paper keeps its own sheet ----------------------------------------------


def _token(name: str) -> Component:
    return piece(name, "#0072B2", 20, 20)


def test_sections_share_a_sheet_only_on_the_same_stock():
    paper, printing = get_paper("a4"), PrintParams()
    same = build_document(
        "Kit", [Section("Tokens", [_token("a")]), Section("More", [_token("b")])], paper, printing
    )
    assert [p.title for p in same if "·" in p.title] == ["Tokens · More"]
    mixed = [
        Section("Tokens", [_token("a")]),
        Section("Stickers", [_token("s")], "One per face.", stock=STICKER_PAPER),
        Section("Tokens again", [_token("c")]),
    ]
    pages = build_document("Kit", mixed, paper, printing)
    # the stickers print in a range of their own after the card stock: the two token
    # sections, neighbours then, share a sheet; the sticker sheet shares none
    assert [p.title for p in pages if "·" in p.title] == ["Tokens · Tokens again"]
    assert pages[-1].title == "Stickers — on sticker paper"
    data = render_pdf(pages, "Kit")
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        texts = [pg.extract_text() for pg in pdf.pages]
    (sticker_page,) = [t for t in texts if "Stickers" in t.splitlines()[0]]
    assert "on sticker paper" in sticker_page.splitlines()[0]
    assert "Print on sticker paper. One per face." in texts[0]  # the cover says it too


@pytest.mark.slow
@pytest.mark.parametrize("paper", ci_keeps(["a4", "letter"], 0))
@pytest.mark.parametrize(
    "slug", ci_keeps(["exploding-dice", "home-in-one-piece", "desert-home"], 1)
)
def test_sticker_sheets_print_alone_and_say_so(slug, paper):
    """In the PDF: every page carrying stickers carries nothing else, its header names
    sticker paper, and the cover's contents tell to print those pages on it."""
    pages, data = printed(slug, paper)
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        heads = [pg.extract_text().splitlines()[0] for pg in pdf.pages]
        cover = pdf.pages[0].extract_text()
    sticker_pages = [
        k for k, p in enumerate(pages) if any("sticker" in pl.component.name for pl in p.placements)
    ]
    assert sticker_pages
    for k in sticker_pages:
        assert all("sticker" in pl.component.name for pl in pages[k].placements)
        assert "on sticker paper" in heads[k]
    others = set(range(len(pages))) - set(sticker_pages)
    assert not any("sticker paper" in heads[k] for k in others)
    # the cover's print jobs name the sticker job and its pages (a long contents list, as
    # Desert Home's on Letter, leaves out the notes under each entry, not the jobs)
    pages_said = ", ".join(str(k + 1) for k in sticker_pages)
    assert re.search(rf"Sticker paper, pages? {sticker_pages[0] + 1}\b", " ".join(cover.split())), (
        pages_said
    )


@pytest.mark.slow
def test_a_long_header_keeps_its_sheet_and_backs_words():
    """Desert Home on Letter: the rule-card sheets' titles are too long for the header;
    the shorter form still ends '— sheet 1 of 2 — backs' (it once lost '— backs'), and
    is shortened by design, leaving out the card sizes, not cut with an ellipsis."""
    pages, data = printed("desert-home", "letter")
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        heads = [
            " ".join(pg.within_bbox((0, 0, pg.width, 30)).extract_text().splitlines())
            for pg in pdf.pages
        ]
    backs = [k for k, p in enumerate(pages) if p.title.endswith("— backs")]
    assert backs
    for k in backs:
        head = heads[k].rsplit(" page ", 1)[0]
        assert head.endswith("— backs"), heads[k]
    assert not any("…" in head for head in heads)
    shortened = [k for k in backs if " mm)" in pages[k].title and " mm)" not in heads[k]]
    assert shortened  # the case that needed a shorter form
    for k in shortened:  # and its front's header takes the same form: they name one sheet
        assert heads[k - 1].rsplit(" page ", 1)[0] + " — backs" == heads[k].rsplit(" page ", 1)[0]
