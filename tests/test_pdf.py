"""The produced PDF, measured with pypdf/pdfplumber (and a raster for clipped art)."""

from __future__ import annotations

import io
import shutil
import subprocess
import tempfile
from pathlib import Path

import pdfplumber
import pypdf
import pytest
from PIL import Image
from shapely.geometry import LineString, Polygon, box

from pnp.contract.paper import get_paper
from pnp.draw.kit import PrintParams
from pnp.draw.layout import Page, Placement, Section, build_document
from pnp.draw.layout.furniture import add_furniture
from pnp.draw.render.pdf import render_pdf, write_pdf
from pnp.draw.scene import CUT_STYLE, Component, Shape, Style, Text, circle

PT = 72.0 / 25.4
SPEC_MARGIN = 6.35
SPEC_BLEED = 3.0
ORANGE = (0.901961, 0.623529, 0.0)  # #E69F00 as pdfplumber reports it
SPEC_SIZES = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


def mm(v: float) -> float:
    return float(v) / PT


def card(
    name: str,
    copies: int = 1,
    back: Component | None = None,
    w: float = 63.0,
    h: float = 88.0,
    fill: str = "#E69F00",
) -> Component:
    c = Component(name, name, w, h, imposition="card", bleed=SPEC_BLEED, copies=copies, back=back)
    c.add(
        Shape(
            box(-SPEC_BLEED, -SPEC_BLEED, w + SPEC_BLEED, h + SPEC_BLEED),
            style=Style(fill=fill, stroke=None),
        ),
        Text(w / 2, h - 12, name, size=12, bold=True, anchor="middle"),
    )
    return c


def kit_sections() -> list[Section]:
    board = Component("board", "Board", 150, 120, imposition="board")
    board.add(Shape(box(0, 0, 150, 120), style=Style(fill="#F0E442", stroke="#000000")))
    tok = Component("tok", "Token", 25, 25, imposition="cutout", copies=9)
    tok.add(
        circle(12.5, 12.5, 12.5, style=Style(fill="#56B4E9", stroke=None)),
        circle(12.5, 12.5, 12.5, "cut", CUT_STYLE),
    )
    back = card("back", fill="#0072B2")
    return [
        Section("Board", [board]),
        Section("Cards", [card("A", 4, back), card("B", 3, back)]),
        Section("Tokens", [tok]),
    ]


def build(paper_name: str = "a4", printing: PrintParams | None = None) -> bytes:
    paper = get_paper(paper_name)
    pages = build_document("Test Kit", kit_sections(), paper, printing or PrintParams())
    return render_pdf(pages, "Test Kit")


@pytest.fixture(scope="module")
def a4_pdf() -> bytes:
    return build("a4")


def objects_mm(page: pdfplumber.page.Page) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Every drawn object's box in mm, y up."""
    h = page.height
    out = []
    for kind in ("char", "rect", "line", "curve"):
        for o in page.objects.get(kind, []):
            out.append((kind, (mm(o["x0"]), mm(h - o["bottom"]), mm(o["x1"]), mm(h - o["top"]))))
    return out


@pytest.mark.parametrize("paper_name", ["a4", "letter"])
def test_page_sizes_are_exact(paper_name: str) -> None:
    reader = pypdf.PdfReader(io.BytesIO(build(paper_name)))
    w, h = SPEC_SIZES[paper_name]
    for page in reader.pages:
        mb = page.mediabox
        assert mm(mb.width) == pytest.approx(w, abs=0.01)
        assert mm(mb.height) == pytest.approx(h, abs=0.01)


def test_every_page_says_print_at_100_percent(a4_pdf: bytes) -> None:
    with pdfplumber.open(io.BytesIO(a4_pdf)) as pdf:
        for page in pdf.pages:
            text = page.extract_text()
            assert "Print at 100 %" in text
            assert "Test Kit" in text and f"of {len(pdf.pages)}" in text


def _bar_length(page: pdfplumber.page.Page, number: str, unit: str) -> float:
    """Width (mm) of the dark bar ending just left of the label `number unit`."""
    words = page.extract_words()
    found = []
    for a, b in zip(words, words[1:], strict=False):
        if a["text"] != number or b["text"] != unit:
            continue  # (the cover also mentions the bars in its prose)
        bars = [
            r
            for r in page.rects
            if a["x0"] - 3 * PT <= r["x1"] <= a["x0"]
            and abs(r["top"] - a["top"]) < 4 * PT
            and r["non_stroking_color"] != (1, 1, 1)
        ]
        found += bars
    assert found, f"no bar next to a '{number} {unit}' label"
    # The checkered bar is one dark rectangle with white steps drawn over it.
    return mm(max(b["x1"] - b["x0"] for b in found))


@pytest.mark.parametrize("paper_name", ["a4", "letter"])
def test_scale_bars_measure_50_mm_and_1_inch(paper_name: str) -> None:
    with pdfplumber.open(io.BytesIO(build(paper_name))) as pdf:
        for page in pdf.pages:
            assert _bar_length(page, "50", "mm") == pytest.approx(50.0, abs=0.1)
            assert _bar_length(page, "1", "in") == pytest.approx(25.4, abs=0.1)


@pytest.mark.parametrize("paper_name", ["a4", "letter"])
def test_nothing_drawn_in_the_printer_margin(paper_name: str) -> None:
    w, h = SPEC_SIZES[paper_name]
    with pdfplumber.open(io.BytesIO(build(paper_name))) as pdf:
        for n, page in enumerate(pdf.pages, start=1):
            for kind, (x0, y0, x1, y1) in objects_mm(page):
                where = f"page {n} {kind} {x0:.2f},{y0:.2f},{x1:.2f},{y1:.2f}"
                assert x0 >= SPEC_MARGIN - 0.01 and y0 >= SPEC_MARGIN - 0.01, where
                assert x1 <= w - SPEC_MARGIN + 0.01 and y1 <= h - SPEC_MARGIN + 0.01, where


def _orange_rects(page: pdfplumber.page.Page) -> list[tuple[float, float, float, float]]:
    h = page.height
    return [
        (mm(r["x0"]), mm(h - r["bottom"]), mm(r["x1"]), mm(h - r["top"]))
        for r in page.rects
        if r["non_stroking_color"] == pytest.approx(ORANGE, abs=1e-3)
    ]


def test_trim_and_bleed_boxes_match_the_cards(a4_pdf: bytes) -> None:
    reader = pypdf.PdfReader(io.BytesIO(a4_pdf))
    with pdfplumber.open(io.BytesIO(a4_pdf)) as pdf:
        checked = 0
        for rpage, ppage in zip(reader.pages, pdf.pages, strict=True):
            cards = _orange_rects(ppage)  # each card's art fills exactly its bleed box
            if not cards:
                continue
            bleed = (
                min(c[0] for c in cards),
                min(c[1] for c in cards),
                max(c[2] for c in cards),
                max(c[3] for c in cards),
            )
            trim = (
                bleed[0] + SPEC_BLEED,
                bleed[1] + SPEC_BLEED,
                bleed[2] - SPEC_BLEED,
                bleed[3] - SPEC_BLEED,
            )
            got_trim = [mm(v) for v in rpage.trimbox]
            got_bleed = [mm(v) for v in rpage.bleedbox]
            assert got_trim == pytest.approx(trim, abs=0.01)
            assert got_bleed == pytest.approx(bleed, abs=0.01)
            # Gutter between neighbouring trims is two bleeds: art bleeds touch.
            xs = sorted({round(c[0], 3) for c in cards})
            for a, b in zip(xs, xs[1:], strict=False):
                assert b - a == pytest.approx(cards[0][2] - cards[0][0], abs=0.01)
            checked += 1
        assert checked >= 2


def test_pages_without_cards_have_no_trim_box(a4_pdf: bytes) -> None:
    reader = pypdf.PdfReader(io.BytesIO(a4_pdf))
    cover = reader.pages[0]
    assert "/TrimBox" not in cover and "/BleedBox" not in cover


def test_crop_marks_outside_trim_and_bleed(a4_pdf: bytes) -> None:
    reader = pypdf.PdfReader(io.BytesIO(a4_pdf))
    with pdfplumber.open(io.BytesIO(a4_pdf)) as pdf:
        for rpage, ppage in zip(reader.pages, pdf.pages, strict=True):
            cards = _orange_rects(ppage)
            if not cards:
                continue
            h = ppage.height
            bleed = box(*[mm(v) for v in rpage.bleedbox])
            trim_x = {round(v, 2) for c in cards for v in (c[0] + SPEC_BLEED, c[2] - SPEC_BLEED)}
            trim_y = {round(v, 2) for c in cards for v in (c[1] + SPEC_BLEED, c[3] - SPEC_BLEED)}
            marks = [
                LineString(
                    [(mm(ln["x0"]), mm(h - ln["top"])), (mm(ln["x1"]), mm(h - ln["bottom"]))]
                )
                for ln in ppage.lines
                if mm(max(ln["width"], ln["height"])) < 8
            ]
            assert len(marks) == 2 * (len(trim_x) + len(trim_y))
            for m in marks:
                assert m.distance(bleed) >= 0.4  # outside the trim, clear of the art
                (x0, y0), (x1, y1) = m.coords
                if abs(x0 - x1) < 1e-6:
                    assert round(x0, 2) in trim_x
                else:
                    assert round(y0, 2) in trim_y


def test_rebuild_is_byte_identical() -> None:
    assert build("a4") == build("a4")
    assert build("letter") == build("letter")


def test_every_font_is_embedded(a4_pdf: bytes) -> None:
    reader = pypdf.PdfReader(io.BytesIO(a4_pdf))
    seen = 0
    for page in reader.pages:
        fonts = page["/Resources"]["/Font"]
        for ref in fonts.values():
            font = ref.get_object()
            desc_fonts = [d.get_object() for d in font.get("/DescendantFonts", [])] or [font]
            for f in desc_fonts:
                desc = f["/FontDescriptor"].get_object()
                assert "/FontFile2" in desc or "/FontFile3" in desc or "/FontFile" in desc
                seen += 1
    assert seen


def test_write_pdf_writes_the_rendered_bytes(tmp_path: Path) -> None:
    pages = add_furniture([Page(210, 297, "x", paper="a4")], "K", get_paper("a4"))
    out = write_pdf(tmp_path / "sub" / "k.pdf", pages, "K")
    assert out.read_bytes() == render_pdf(pages, "K")


def _single(items: list, rotation: int = 0, clip: tuple | None = None) -> bytes:
    c = Component("t", "t", 60, 40, items=list(items))
    page = Page(100, 100, placements=[Placement(c, 20, 30, rotation, clip)])  # type: ignore[arg-type]
    return render_pdf([page], "t")


def _rasters(data: bytes, dpi: int) -> list[Image.Image]:
    """Every page as an RGB image, drawn by poppler as a printer driver would."""
    if not shutil.which("pdftoppm"):
        pytest.skip("pdftoppm not installed")
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "in.pdf"
        pdf.write_bytes(data)
        subprocess.run(
            ["pdftoppm", "-r", str(dpi), "-png", str(pdf), str(Path(tmp) / "p")],
            check=True,
            capture_output=True,
        )
        return [Image.open(p).convert("RGB") for p in sorted(Path(tmp).glob("p-*.png"))]


def _raster(data: bytes, dpi: int = 72) -> Image.Image:
    return _rasters(data, dpi)[0]


def _px(
    img: Image.Image, x_mm: float, y_mm: float, page_h: float = 100.0, dpi: int = 72
) -> tuple[int, int, int]:
    s = dpi / 25.4
    return img.getpixel((int(x_mm * s), int((page_h - y_mm) * s)))


def test_polygon_holes_are_left_unfilled() -> None:
    ring = Polygon([(0, 0), (40, 0), (40, 40), (0, 40)], [[(10, 10), (30, 10), (30, 30), (10, 30)]])
    img = _raster(_single([Shape(ring, style=Style(fill="#000000", stroke=None))]), dpi=100)
    # Placement at (20, 30): the hole's centre is at page (40, 50), the ring at (25, 50).
    assert _px(img, 40, 50, dpi=100) == (255, 255, 255)
    assert _px(img, 25, 50, dpi=100) == (0, 0, 0)


def test_clip_rectangle_limits_the_art() -> None:
    art = Shape(box(-10, -10, 70, 50), style=Style(fill="#000000", stroke=None))
    img = _raster(_single([art], clip=(20, 30, 80, 70)), dpi=100)
    assert _px(img, 50, 50, dpi=100) == (0, 0, 0)
    assert _px(img, 15, 50, dpi=100) == (255, 255, 255)  # art there, but clipped away


def test_machine_layers_draw_over_art() -> None:
    items = [
        Shape(box(0, 0, 60, 40), "cut", Style(fill="#000000", stroke=None)),
        Shape(box(0, 0, 60, 40), "art", Style(fill="#ffffff", stroke=None)),
    ]
    img = _raster(_single(items), dpi=100)
    assert _px(img, 50, 50, dpi=100) == (0, 0, 0)


def test_shapes_lines_circles_and_styles_in_mm() -> None:
    items = [
        Shape(
            LineString([(0, 0), (50, 0)]),
            style=Style(stroke="#ff0000", stroke_width=0.5, dash=(2.0, 1.0)),
        ),
        circle(30, 20, 8, style=Style(fill="#00ff00", stroke=None)),
        Shape(LineString([(0, 10), (10, 10)]), "guide"),
        Text(30, 5, "Mid", size=10, anchor="middle"),
        Text(60, 5, "End", size=10, anchor="end"),
    ]
    with pdfplumber.open(io.BytesIO(_single(items))) as pdf:
        page = pdf.pages[0]
        red = [ln for ln in page.lines if ln["stroking_color"] == (1, 0, 0)]
        assert len(red) == 1
        assert mm(red[0]["x1"] - red[0]["x0"]) == pytest.approx(50, abs=0.01)
        assert mm(red[0]["linewidth"]) == pytest.approx(0.5, abs=0.01)
        assert [mm(d) for d in red[0]["dash"][0]] == pytest.approx([2.0, 1.0], abs=0.01)
        (curve,) = page.curves
        assert mm(curve["x1"] - curve["x0"]) == pytest.approx(16, abs=0.05)
        assert mm(curve["x0"]) == pytest.approx(20 + 22, abs=0.05)
        grey = [ln for ln in page.lines if ln is not red[0]]
        assert grey and grey[0]["stroking_color"] == pytest.approx((0.6, 0.6, 0.6), abs=0.01)
        words = {w["text"]: w for w in page.extract_words()}
        assert mm((words["Mid"]["x0"] + words["Mid"]["x1"]) / 2) == pytest.approx(50, abs=0.1)
        assert mm(words["End"]["x1"]) == pytest.approx(80, abs=0.1)


def test_rotated_placement_turns_text_and_geometry() -> None:
    items = [
        Shape(box(0, 0, 10, 5), style=Style(fill="#000000", stroke=None)),
        Text(5, 20, "Up", size=10),
    ]
    with pdfplumber.open(io.BytesIO(_single(items, rotation=90))) as pdf:
        page = pdf.pages[0]
        (r,) = page.rects
        # Footprint at (20, 30) is 40 wide (the component's height): local (0..10, 0..5)
        # turns to page x 20+40-5 .. 20+40, y 30 .. 40.
        assert mm(r["x0"]) == pytest.approx(55, abs=0.01)
        assert mm(r["x1"]) == pytest.approx(60, abs=0.01)
        assert mm(page.height - r["bottom"]) == pytest.approx(30, abs=0.01)
        assert all(not c["upright"] for c in page.chars)


def test_raster_margins_stay_white_even_with_clipped_tiles() -> None:
    """Tiled boards draw clipped art; the raster shows what a printer would really get."""
    board = Component("big", "Big", 400, 300, imposition="board")
    board.add(Shape(box(-5, -5, 405, 305), style=Style(fill="#009E73", stroke=None)))
    paper = get_paper("a4")
    pages = build_document("K", [Section("Board", [board]), *kit_sections()], paper, PrintParams())
    data = render_pdf(pages, "K")
    dpi = 40
    images = _rasters(data, dpi)
    assert len(images) == len(pages)
    band = int(SPEC_MARGIN * dpi / 25.4) - 1  # whole pixels inside the margin
    for n, img in enumerate(images, start=1):
        grey = img.convert("L")
        w, h = grey.size
        strips = [
            grey.crop((0, 0, w, band)),
            grey.crop((0, h - band, w, h)),
            grey.crop((0, 0, band, h)),
            grey.crop((w - band, 0, w, h)),
        ]
        for s in strips:
            assert s.getextrema()[0] >= 250, f"ink in the margin on page {n}"
