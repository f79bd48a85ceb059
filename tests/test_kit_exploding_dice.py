"""The built Exploding Dice kit, measured in the files a user prints and cuts.

Expected numbers come from the spec (die sizes, 3 mm clearance, 2 mm sticker margin,
85 x 55 mm cards, A4 and Letter), never from the code's constants.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import ezdxf
import pdfplumber
import pytest
from pypdf import PdfReader

from pnp.build import build_game

MM = 25.4 / 72
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
NS = {"svg": "http://www.w3.org/2000/svg"}


def build(tmp: Path, die: int | None = None) -> Path:
    cfg = None
    if die is not None:
        cfg = tmp / "kit.toml"
        cfg.write_text(f"die_size = {die}\n")
    # the PDF's laser cut lines (opt-in) measure the cards
    build_game(
        "exploding-dice", None, tmp, cfg, ["pdf", "svg", "dxf"], values={"print_cut_lines": True}
    )
    return tmp / "exploding-dice"


@pytest.fixture(scope="module")
def kit_dir(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("kit"))


def svg_circles(path: Path, r: float) -> list[tuple[float, float]]:
    root = ET.parse(path).getroot()
    return [
        (float(c.get("cx")), float(c.get("cy")))
        for c in root.iter(f"{{{NS['svg']}}}circle")
        if abs(float(c.get("r")) - r) < 1e-6
    ]


def spacing(values: list[float]) -> list[float]:
    xs = sorted({round(v, 3) for v in values})
    return [b - a for a, b in zip(xs, xs[1:], strict=False)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pdf_pages_are_the_paper_size(kit_dir, paper):
    reader = PdfReader(kit_dir / f"exploding-dice-{paper}.pdf")
    for page in reader.pages:
        w, h = float(page.mediabox.width) * MM, float(page.mediabox.height) * MM
        assert (w, h) == pytest.approx(PAPER_MM[paper], abs=0.05)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_page_says_print_at_100_and_has_scale_bars(kit_dir, paper):
    with pdfplumber.open(kit_dir / f"exploding-dice-{paper}.pdf") as pdf:
        for page in pdf.pages:
            text = page.extract_text()
            assert "Print at 100 %" in text and "50 mm" in text and "1 in" in text


def test_board_intersections_are_die_plus_clearance_apart_in_the_pdf(kit_dir):
    """The 4 x 4 dots of the board page, measured in the A4 PDF: 10 mm dice + 3 mm."""
    with pdfplumber.open(kit_dir / "exploding-dice-a4.pdf") as pdf:
        page = next(
            p
            for p in pdf.pages
            if "Board" in (p.extract_text() or "")
            and len([c for c in p.curves if abs(c["width"] * MM - 1.4) < 0.05]) >= 16
        )
        dots = [c for c in page.curves if abs(c["width"] * MM - 1.4) < 0.05]
    assert len(dots) == 16
    xs = [(d["x0"] + d["x1"]) / 2 * MM for d in dots]
    ys = [(d["top"] + d["bottom"]) / 2 * MM for d in dots]
    assert spacing(xs) == pytest.approx([13.0] * 3, abs=0.02)
    assert spacing(ys) == pytest.approx([13.0] * 3, abs=0.02)


@pytest.mark.parametrize("die", [12, 16])
def test_bigger_dice_widen_the_grid_and_the_stickers(tmp_path, die):
    folder = build(tmp_path, die)
    dots = svg_circles(folder / "svg" / "board.svg", 0.7)
    assert spacing([x for x, _ in dots]) == pytest.approx([die + 3.0] * 3, abs=0.01)
    assert sticker_sides(folder / "svg" / "stickers-pips-red.svg") == [pytest.approx(die - 2.0)]


def sticker_sides(path: Path) -> list[float]:
    """Side lengths of the sticker kiss-cut outlines in a sticker sheet's cut layer."""
    root = ET.parse(path).getroot()
    cut = next(g for g in root.iter(f"{{{NS['svg']}}}g") if g.get("id") == "layer-cut")
    sides = set()
    for p in cut.iter(f"{{{NS['svg']}}}path"):
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", p.get("d"))]
        xs, ys = nums[0::2], nums[1::2]
        sides.add(round(max(xs) - min(xs), 2))
        assert max(xs) - min(xs) == pytest.approx(max(ys) - min(ys), abs=0.01)
    return sorted(sides)


def test_stickers_are_the_die_face_minus_two_mm(kit_dir):
    for colour in ("red", "green", "blue", "purple"):
        for theme in ("pips", "candy"):
            sides = sticker_sides(kit_dir / "svg" / f"stickers-{theme}-{colour}.svg")
            assert sides == [pytest.approx(8.0)]


def test_cards_in_the_pdf_are_85_by_55(kit_dir):
    """Red cut outlines on the rule-card sheet measure 85 x 55 mm."""
    with pdfplumber.open(kit_dir / "exploding-dice-a4.pdf") as pdf:
        page = next(p for p in pdf.pages if "Overview" in (p.extract_text() or ""))
        red = [
            c
            for c in page.curves + page.rects
            if c.get("stroking_color") and _is_red(c["stroking_color"])
        ]
    sizes = {(round(c["width"] * MM, 1), round(c["height"] * MM, 1)) for c in red}
    assert sizes == {(85.0, 55.0)}
    assert len(red) == 8


def _is_red(colour) -> bool:
    return tuple(round(v, 2) for v in colour) == (1.0, 0.0, 0.0)


def test_board_dxf_is_in_mm_and_matches_the_svg_outline(kit_dir):
    doc = ezdxf.readfile(kit_dir / "dxf" / "board.dxf")
    assert doc.header["$INSUNITS"] == 4
    cut = [e for e in doc.modelspace() if e.dxf.layer == "cut"]
    assert cut and all(e.dxftype() in ("LWPOLYLINE", "LINE", "ARC", "CIRCLE") for e in cut)
    xs = [p[0] for e in cut for p in e.get_points("xy")]
    root = ET.parse(kit_dir / "svg" / "board.svg").getroot()
    width_with_bleed = float(root.get("width").removesuffix("mm"))
    assert max(xs) - min(xs) == pytest.approx(width_with_bleed - 6.0, abs=0.01)


def test_rebuild_is_byte_identical(kit_dir, tmp_path):
    again = build(tmp_path)
    files = [p for p in kit_dir.rglob("*") if p.suffix in (".pdf", ".svg", ".dxf")]
    assert len(files) > 40
    for f in files:
        assert (again / f.relative_to(kit_dir)).read_bytes() == f.read_bytes(), f.name
