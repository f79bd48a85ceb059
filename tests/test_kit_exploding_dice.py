"""The built Exploding Dice kit, measured in the files a user prints and cuts.

Expected numbers come from the spec (die sizes, 3 mm clearance, 2 mm sticker margin,
the 91.5 x 56.9 mm r14 tin 21.3 mm deep, A4 and Letter) and the README's card size
(84 x 54 mm, 8 mm corners), never from the code's constants.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import ezdxf
import pdfplumber
import pytest
from cut_geometry import svg_path_nums
from pypdf import PdfReader
from shapely.geometry import Point, Polygon, box
from shared import shared_folder

from pnp.build import build_game, check_game
from pnp.games import get_game

MM = 25.4 / 72
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
NS = {"svg": "http://www.w3.org/2000/svg"}


def build(tmp: Path, die: int | None = None, papers: tuple[str, ...] = ("a4",)) -> Path:
    cfg = None
    if die is not None:
        cfg = tmp / "kit.toml"
        cfg.write_text(f"die_size = {die}\n")
    # the PDF's laser cut lines (opt-in) measure the cards
    build_game(
        "exploding-dice",
        list(papers),
        tmp,
        cfg,
        ["pdf", "svg", "dxf"],
        values={"print_cut_lines": True},
    )
    return tmp / "exploding-dice"


@pytest.fixture(scope="module")
def kit_of(tmp_path_factory) -> Callable[[str], Path]:
    """The kit built for one paper, once per module and paper: the fast tier reads the A4
    kit alone, so it builds no Letter one."""
    built: dict[str, Path] = {}

    def of(paper: str) -> Path:
        if paper not in built:
            folder = shared_folder(
                tmp_path_factory, f"ed-kit-{paper}", lambda out: build(out, papers=(paper,))
            )
            built[paper] = folder / "exploding-dice"
        return built[paper]

    return of


@pytest.fixture(scope="module")
def kit_dir(kit_of) -> Path:
    return kit_of("a4")


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


@pytest.mark.parametrize("paper", ["a4", pytest.param("letter", marks=pytest.mark.slow)])
def test_pdf_pages_are_the_paper_size(kit_of, paper):
    reader = PdfReader(kit_of(paper) / f"exploding-dice-{paper}.pdf")
    for page in reader.pages:
        w, h = float(page.mediabox.width) * MM, float(page.mediabox.height) * MM
        assert (w, h) == pytest.approx(PAPER_MM[paper], abs=0.05)


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_page_says_print_at_100_and_has_scale_bars(kit_of, paper):
    with pdfplumber.open(kit_of(paper) / f"exploding-dice-{paper}.pdf") as pdf:
        for page in pdf.pages:
            text = page.extract_text()
            assert "Print at 100 %" in text and "50 mm" in text and "1 in" in text


@pytest.mark.slow  # reads every line of the board page; the pitch: test_grid_geometry.py
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


@pytest.mark.slow
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
        nums = svg_path_nums(p.get("d"))
        xs, ys = nums[0::2], nums[1::2]
        sides.add(round(max(xs) - min(xs), 2))
        assert max(xs) - min(xs) == pytest.approx(max(ys) - min(ys), abs=0.01)
    return sorted(sides)


def test_stickers_are_the_die_face_minus_two_mm(kit_dir):
    for colour in ("red", "green", "blue", "purple"):
        for theme in ("pips", "candy"):
            sides = sticker_sides(kit_dir / "svg" / f"stickers-{theme}-{colour}.svg")
            assert sides == [pytest.approx(8.0)]


def test_cards_in_the_pdf_are_84_by_54(kit_dir):
    """Red cut outlines on the rule-card sheet measure 84 x 54 mm."""
    with pdfplumber.open(kit_dir / "exploding-dice-a4.pdf") as pdf:
        page = next(p for p in pdf.pages if "Overview" in (p.extract_text() or ""))
        red = [
            c
            for c in page.curves + page.rects
            if c.get("stroking_color") and _is_red(c["stroking_color"])
        ]
    sizes = {(round(c["width"] * MM, 1), round(c["height"] * MM, 1)) for c in red}
    assert sizes == {(84.0, 54.0)}
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


@pytest.mark.slow  # a second whole build; the golden files hold the output in the fast tier
def test_rebuild_is_byte_identical(kit_dir, tmp_path):
    again = build(tmp_path)
    files = [p for p in kit_dir.rglob("*") if p.suffix in (".pdf", ".svg", ".dxf")]
    assert len(files) > 40
    for f in files:
        assert (again / f.relative_to(kit_dir)).read_bytes() == f.read_bytes(), f.name


# --- the tin (issue 17 items 2 and 7) ---------------------------------------------------

TIN_W, TIN_H, TIN_R = 91.5, 56.9, 14.0


def tin_outline() -> Polygon:
    """The tin's inside, finely resolved, centred on the origin."""
    w, h, r = TIN_W / 2, TIN_H / 2, TIN_R
    return box(-w + r, -h + r, w - r, h - r).buffer(r, quad_segs=256)


def svg_layer(path: Path, name: str) -> ET.Element:
    root = ET.parse(path).getroot()
    return next(g for g in root.iter(f"{{{NS['svg']}}}g") if g.get("id") == f"layer-{name}")


def path_points(d: str) -> list[tuple[float, float]]:
    nums = svg_path_nums(d)
    return list(zip(nums[0::2], nums[1::2], strict=True))


def cut_outline(svg: Path) -> Polygon:
    (path,) = list(svg_layer(svg, "cut").iter(f"{{{NS['svg']}}}path"))
    return Polygon(path_points(path.get("d")))


@pytest.mark.slow
def test_rule_cards_fit_the_tin_only_with_their_round_corners(kit_dir):
    """Measured on the cut line: 84 x 54 mm with 8 mm corners (the corners' missing area is
    (4 - pi) r^2). Centred in the tin, the corner arc's centre (34, 19) lies
    hypot(45.75 - 14 - 34, 28.45 - 14 - 19) = 5.076 mm outside the tin corner's arc
    centre, so it clears the wall by 14 - 5.076 - 8 = 0.92 mm; cut square, it sticks out."""
    for name in ("rule-card-1", "player-aid", "score-track", "score-sheet"):
        card = cut_outline(kit_dir / "svg" / f"{name}.svg")
        x0, y0, x1, y1 = card.bounds
        w, h = x1 - x0, y1 - y0
        assert (w, h) == pytest.approx((84.0, 54.0), abs=0.01), name
        r = math.sqrt((w * h - card.area) / (4 - math.pi))
        assert r == pytest.approx(8.0, abs=0.05), name
        centred = Polygon([(x - x0 - w / 2, y - y0 - h / 2) for x, y in card.exterior.coords])
        tin = tin_outline()
        assert tin.contains(centred)
        assert centred.distance(tin.exterior) == pytest.approx(0.92, abs=0.02), name
        assert not tin.contains(box(-w / 2, -h / 2, w / 2, h / 2))  # square corners do not fit
    found = [f"{f.level} {f.message}" for f in check_game("exploding-dice", paper="a4")]
    assert any(
        m.startswith("info") and "84 x 54 mm cards cut with 8 mm corners" in m and "0.92 mm" in m
        for m in found
    )


@pytest.mark.slow
def test_the_old_85_by_55_cards_are_a_warning_and_square_ones_an_error():
    """85 x 55 r8 clears the tin by 14 - hypot(2.75, 5.05) - 8 = 0.25 mm: less than a hand
    cut strays. Square 88.9 x 50.8 business cards stick out (print-and-cut.md)."""
    found = check_game("exploding-dice", paper="a4", values={"card_width": 85, "card_height": 55})
    assert any(f.level == "warning" and "by 0.25 mm" in f.message for f in found)
    found = check_game(
        "exploding-dice",
        paper="a4",
        values={"card_width": 88.9, "card_height": 50.8, "card_radius": 0},
    )
    assert any(f.level == "info" and "raised" in f.message for f in found)  # rounded to fit


def relative_luminance(hexcode: str) -> float:
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hexcode[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_the_printed_corner_guides_show_on_the_dark_title_bar_and_on_the_cream(kit_dir):
    """Each corner of a rule card carries a printed arc on the trim: on the title bar at the
    top, a colour that stands out from the bar; at the bottom, one that stands out from
    the cream. (The red 0.01 mm cut hairline alone vanished on the dark bar.) They are
    guides, not art: a print service's image (the art layer) leaves them out."""
    svg = kit_dir / "svg" / "rule-card-1.svg"
    art = list(svg_layer(svg, "art").iter(f"{{{NS['svg']}}}path"))
    guide = list(svg_layer(svg, "guide").iter(f"{{{NS['svg']}}}path"))
    fills = [(p.get("fill"), Polygon(path_points(p.get("d")))) for p in art if p.get("fill")]
    card = cut_outline(svg)
    x0, y0, x1, y1 = card.bounds
    corners = {(x0, y0): "top", (x1, y0): "top", (x0, y1): "bottom", (x1, y1): "bottom"}
    for (cx, cy), side in corners.items():

        def on_trim(paths: list, cx: float = cx, cy: float = cy) -> list:  # in this corner
            return [
                p
                for p in paths
                if p.get("fill") == "none"
                and len(pts := path_points(p.get("d"))) > 4
                and all(abs(x - cx) <= 8.01 and abs(y - cy) <= 8.01 for x, y in pts)
                and all(card.exterior.distance(Point(x, y)) < 0.05 for x, y in pts)
            ]

        arcs = on_trim(guide)
        assert arcs and not on_trim(art), (cx, cy)
        inside = Point(cx + (1.5 if cx == x0 else -1.5), cy + (1.5 if cy == y0 else -1.5))
        background = [f for f, g in fills if g.buffer(1e-6).contains(inside)][-1]  # topmost
        if side == "top":
            assert contrast(background, "#FFFFFF") > 7  # the title bar is dark
        best = max(contrast(p.get("stroke"), background) for p in arcs)
        assert best >= 4.5, (side, background)


@pytest.mark.slow
def test_the_cover_and_the_cards_page_say_to_round_the_corners(kit_dir):
    with pdfplumber.open(kit_dir / "exploding-dice-a4.pdf") as pdf:
        texts = [" ".join((p.extract_text() or "").split()) for p in pdf.pages]
    assert "corner-rounder of 8 mm" in texts[0] and "only with round corners" in texts[0]
    pages = [t for t in texts[1:] if "Overview" in t]
    assert pages and all("round the corners to 8 mm" in t for t in pages)


def tin_promise(tmp: Path, values: dict) -> tuple[str, list[str]]:
    """The cover's words and the dice findings of one build (the checks it ran first)."""
    built = build_game("exploding-dice", ["a4"], tmp, None, ["pdf"], values=values)
    with pdfplumber.open(tmp / "exploding-dice" / "exploding-dice-a4.pdf") as pdf:
        cover = " ".join((pdf.pages[0].extract_text() or "").split())
    return cover, [f"{f.level} {f.message}" for f in built.findings if f.component == "dice"]


@pytest.mark.slow
def test_the_tin_holds_16_dice_of_10_mm_and_the_cover_says_so(tmp_path):
    """9 x 5 dice of 10 mm stand on the floor, less the 4 corner ones the r14 corners cut:
    41 a layer, more than the 16."""
    cover, found = tin_promise(tmp_path, {})
    assert "holds it all" in cover
    assert found and found[0].startswith("info all 16 dice of 10 mm fit the tin: 41 dice")


@pytest.mark.slow
def test_16_mm_dice_do_not_all_fit_and_the_cover_does_not_promise_it(tmp_path):
    """By hand: 5 x 3 dice of 16 mm (80 x 48 mm) stand on the floor; the corner die's
    outer corner (40, 24) lies hypot(8.25, 9.55) = 12.62 mm from the centre of the tin's
    r14 corner arc, inside it; a 6th column needs 96 mm > 91.5, a 4th row 64 mm > 56.9.
    Two layers need 32 mm, more than the 21.3 mm deep tin: 15 of the 16 fit."""
    cover, found = tin_promise(tmp_path, {"die_size": 16})
    assert "holds it all" not in cover
    assert "only 15 of the 16 dice of 16 mm" in cover and "keep the other die" in cover
    assert found and found[0].startswith("warning only 15 of the 16 dice of 16 mm")


@pytest.mark.slow
def test_a_deeper_tin_takes_a_second_layer_of_16_mm_dice(tmp_path):
    """40 mm deep, less the card stock (14 sheets of 0.3 mm: 4.2 mm) leaves 35.8 mm: two
    layers of 16 mm dice, 30 places for 16 dice."""
    cover, found = tin_promise(tmp_path, {"die_size": 16, "tin_depth": 40})
    assert "holds it all" in cover
    assert found and "room for 2 layers" in found[0] and "4.2 mm of card (14 sheets)" in found[0]


@pytest.mark.slow
def test_one_die_per_colour_leaves_no_reserve_and_says_so(tmp_path):
    """Issue 17: with one die per colour the four start dice are all; no "other 0 dice"."""
    build_game("exploding-dice", ["a4"], tmp_path, None, ["pdf"], values={"dice_per_colour": 1})
    reader = PdfReader(tmp_path / "exploding-dice" / "exploding-dice-a4.pdf")
    text = " ".join(" ".join(p.extract_text() for p in reader.pages).split())
    assert not re.findall(r"\b[01] (?:\w+ )?(?:dice|pages|sheets)\b", text)
    assert "the reserve starts empty" in text


def test_the_cover_states_the_tins_inner_size_and_corner_radius(kit_dir):
    """The spec's reference tin: inner 91.5 x 56.9 mm, corner radius 14 mm, 21.3 mm deep;
    the radius is what makes square-cut cards stick out, so the cover names it."""
    with pdfplumber.open(kit_dir / "exploding-dice-a4.pdf") as pdf:
        cover = " ".join((pdf.pages[0].extract_text() or "").split())
    assert "A mint tin of about 91.5 x 56.9 mm inside, 21.3 mm deep, with corners of 14 mm" in (
        cover
    )


@pytest.mark.slow  # reads the cover's lines; the folds themselves are held in test_board_folds.py
@pytest.mark.parametrize("variant", ["", "pinwheel-16mm"])
def test_the_cover_folds_the_board_on_as_many_lines_as_it_has(variant, kit_dir, tmp_path):
    """10 mm dice: the board folds in half, one dashed line; 16 mm dice: a 98.2 mm board
    folds in quarters to fit the tin, two dashed lines, and the cover says both."""
    if variant:
        values = dict(get_game("exploding-dice").variants[variant])
        build_game("exploding-dice", ["a4"], tmp_path, None, ["pdf"], values=values)
        folder = tmp_path / "exploding-dice"
    else:
        folder = kit_dir
    with pdfplumber.open(folder / "exploding-dice-a4.pdf") as pdf:
        cover = " ".join((pdf.pages[0].extract_text() or "").split())
        board = next(p for p in pdf.pages[1:] if "Board, score track" in (p.extract_text() or ""))
        dashed = [ln for ln in board.lines if ln.get("dash") and ln["dash"][0]]
    if variant:
        assert len(dashed) == 2 and "fold the board on both of its dashed lines" in cover
    else:
        assert len(dashed) == 1 and "fold the board in half on its dashed line" in cover
