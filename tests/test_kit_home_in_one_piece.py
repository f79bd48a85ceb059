"""The built Home in One Piece kit, measured in the files a user prints and cuts.

Expected numbers come from the spec and worked out here by hand: 150 g of dough per
player in 8 blobs at 1.2 g/cm3 is 15.625 cm3 a blob; resting 20 mm thick it covers a disc
of radius sqrt(15625 / (20 pi)) = 15.7696 mm; a circle adds a 3 mm margin, neighbours sit
4 mm apart and the row keeps 10 mm from the board's edges; the home zone is 130 mm deep;
the board is 400 mm tall; dice are 5/1, 4/2 and 1/5 blob faces; stickers are the die less
2 mm; the bleed is 3 mm.
"""

from __future__ import annotations

import functools
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from cli_run import bad_config_error
from cut_geometry import svg_path_nums
from pypdf import PdfReader
from shared import shared_folder

from pnp.build import build_game, check_game

SLUG = "home-in-one-piece"
NS = "{http://www.w3.org/2000/svg}"
BLEED = 3.0
BLOB_R = math.sqrt(150 / 8 / 1.2 * 1000 / (20 * math.pi))  # 15.7696 mm
CIRCLE_R = BLOB_R + 3.0
PITCH = 2 * CIRCLE_R + 4.0
WIDTH = 2 * 10 + 16 * 2 * CIRCLE_R + 15 * 4.0  # 680.63 mm
HEIGHT = 400.0
DEFAULT_ODDS = "P(0) = 10/216, P(1) = 72/216, P(2) = 114/216, P(3) = 20/216; mean 5/3 blobs"
DOUGH_FILL = 'fill="#6B4F3A"'  # a blob face on the dice


def build(tmp: Path, values: dict | None = None, formats=("pdf", "svg")) -> Path:
    build_game(SLUG, ["a4"], tmp, formats=list(formats), values=values)
    return tmp / SLUG


@pytest.fixture(scope="module")
def kit_dir(tmp_path_factory) -> Path:
    return shared_folder(tmp_path_factory, "hiop-kit", build) / SLUG


def svg_root(path: Path) -> ET.Element:
    return ET.parse(path).getroot()


def board_circles(kit: Path, r: float) -> list[ET.Element]:
    root = svg_root(kit / "svg" / "board.svg")
    return [c for c in root.iter(f"{NS}circle") if abs(float(c.get("r")) - r) < 0.002]


def pdf_texts(path: Path) -> list[str]:
    return [p.extract_text() or "" for p in PdfReader(path).pages]


@pytest.fixture(scope="module")
def a4_pages(kit_dir) -> list[str]:
    return pdf_texts(kit_dir / f"{SLUG}-a4.pdf")


# --- the board ----------------------------------------------------------------------------


def test_board_svg_is_the_true_size_plus_bleed(kit_dir):
    root = svg_root(kit_dir / "svg" / "board.svg")
    w = float(root.get("width").removesuffix("mm"))
    h = float(root.get("height").removesuffix("mm"))
    assert (w - 2 * BLEED, h - 2 * BLEED) == pytest.approx((WIDTH, HEIGHT), abs=0.002)
    assert WIDTH == pytest.approx(680.63, abs=0.01)


def test_sixteen_start_circles_along_the_bottom_alternate_the_players(kit_dir):
    rings = board_circles(kit_dir, CIRCLE_R)
    assert len(rings) == 16
    xs = [float(c.get("cx")) for c in rings]
    ys = {round(float(c.get("cy")), 2) for c in rings}
    assert ys == {round(HEIGHT - (10 + CIRCLE_R), 2)}  # SVG y runs down from the top edge
    assert [b - a for a, b in zip(xs, xs[1:], strict=False)] == pytest.approx(
        [PITCH] * 15, abs=0.002
    )
    assert xs[0] == pytest.approx(10 + CIRCLE_R, abs=0.002)
    strokes = [c.get("stroke") for c in rings]
    assert strokes[0] != strokes[1] and strokes == [strokes[0], strokes[1]] * 8
    # a dashed ring in each circle shows the blob's size
    assert len(board_circles(kit_dir, BLOB_R)) == 16


def test_home_zone_is_130_mm_deep_along_the_top_and_labelled_home(kit_dir):
    root = svg_root(kit_dir / "svg" / "board.svg")
    home = next(p for p in root.iter(f"{NS}path") if p.get("fill") == "#DCEBDD")
    nums = svg_path_nums(home.get("d"))
    xs, ys = nums[0::2], nums[1::2]
    assert (min(xs), max(xs)) == pytest.approx((10.0, WIDTH - 10.0), abs=0.002)
    assert (min(ys), max(ys)) == pytest.approx((10.0, 140.0), abs=0.002)  # from the top edge
    assert "home" in [t.text for t in root.iter(f"{NS}text")]


@pytest.mark.slow  # a second build (the real-size board); tiling is held in test_tiling.py
def test_the_real_size_board_is_tiled_over_several_sheets_with_a_map(a4_pages):
    texts = a4_pages[1:]  # the cover lists them too
    tiles = [t for t in texts if "Board — tile" in t]
    assert len(tiles) > 1
    assert len(tiles) == 8  # 687 x 406 mm with bleed: 4 columns by 2 rows of A4
    assert any("Assembly map: Board" in t for t in texts)


def test_the_cover_states_the_true_board_size(a4_pages):
    cover = a4_pages[0]
    assert "681 x 400 mm" in cover
    assert "150 g" in cover


@pytest.mark.slow
def test_a_small_board_scale_prints_the_board_on_one_sheet(tmp_path):
    kit = build(tmp_path, {"board_scale": 0.25}, formats=("pdf",))
    texts = pdf_texts(kit / f"{SLUG}-a4.pdf")[1:]
    boards = [t for t in texts if "Board (scale 1:4)" in t]
    assert len(boards) == 1
    assert not any("Board — tile" in t or "Assembly map" in t for t in texts)


@pytest.mark.slow
def test_a_reduced_kit_prints_one_dough_amount_everywhere(tmp_path):
    """Issue 17 item 6: at 1:3.33 the cover said 150 g and about 4 g, the Setup card 150 g.
    150 g scaled by 0.3 in all three directions is 4.05 g: every printed amount is 4 g."""
    kit = build(tmp_path, {"board_scale": 0.3}, formats=("pdf",))
    pages = [" ".join(t.split()) for t in pdf_texts(kit / f"{SLUG}-a4.pdf")]  # cards turned
    amounts = []
    for i, text in enumerate(pages):
        for m in re.finditer(r"(\d+(?:\.\d+)?) g\b(?!/| a blob)", text):
            amounts.append((i, float(m.group(1))))
    assert {a for _, a in amounts} == {4.0}
    where = {i for i, _ in amounts}
    assert 0 in where  # the cover
    assert any("Board (scale" in pages[i] for i in where)  # the board itself
    assert any("Setup" in pages[i] for i in where)  # the Setup card
    assert "see checks" not in " ".join(pages)
    assert "0.5 g a blob" in " ".join(pages)  # 4 g in 8 blobs


@pytest.mark.slow  # a check (or build) of a whole variant kit
def test_one_blob_and_one_die_read_in_the_singular(tmp_path):
    """Issue 17: counts printed from the params must agree with their nouns."""
    values = {
        "blobs_per_player": 1,
        "dough_grams": 40,
        "dice": [[1, 1, 1, 1, 1, 0]],
        "die_letters": ["A"],
    }
    kit = build(tmp_path, values, formats=("pdf",))
    text = " ".join(" ".join(pdf_texts(kit / f"{SLUG}-a4.pdf")).split())
    assert not re.findall(r"\b1 (?:\w+ )?(?:blobs|dice|pages|sheets)\b", text)
    assert "1 blob die (A)" in text and "1 blank die of" in text and "Roll the die" in text


# --- the dice -----------------------------------------------------------------------------


def sticker_sides(path: Path) -> list[float]:
    root = svg_root(path)
    cut = next(g for g in root.iter(f"{NS}g") if g.get("id") == "layer-cut")
    sides = []
    for p in cut.iter(f"{NS}path"):
        nums = svg_path_nums(p.get("d"))
        xs, ys = nums[0::2], nums[1::2]
        assert max(xs) - min(xs) == pytest.approx(max(ys) - min(ys), abs=0.01)
        sides.append(round(max(xs) - min(xs), 2))
    return sides


@pytest.mark.parametrize("die", [12, 16])
def test_sticker_sheets_for_12_and_16_mm_dice_are_the_die_less_2_mm(kit_dir, die):
    path = kit_dir / "svg" / f"stickers-{die}mm.svg"
    sides = sticker_sides(path)
    assert len(sides) == 18  # three dice, six faces each
    assert sides == pytest.approx([die - 2.0] * 18)
    assert path.read_text().count(DOUGH_FILL) == 5 + 4 + 1  # one blob per blob face


@pytest.mark.parametrize("k, letter, blobs", [(1, "A", 5), (2, "B", 4), (3, "C", 1)])
def test_each_paper_die_shows_its_blobs_and_its_letter_on_every_face(kit_dir, k, letter, blobs):
    path = kit_dir / "svg" / f"paper-die-{k}.svg"
    root = svg_root(path)
    assert path.read_text().count(DOUGH_FILL) == blobs
    assert [t.text for t in root.iter(f"{NS}text")].count(letter) == 6


# --- the checks ---------------------------------------------------------------------------


def messages(values: dict | None = None) -> list[str]:
    if values is None:
        return list(_default_messages())
    return [f"{f.level} {f.message}" for f in check_game(SLUG, paper="a4", values=values)]


@functools.cache
def _default_messages() -> tuple[str, ...]:
    """The default kit's check, run once for the tests that read it."""
    return tuple(f"{f.level} {f.message}" for f in check_game(SLUG, paper="a4"))


def test_checks_report_the_exact_roll_distribution_and_the_true_size():
    found = messages()
    assert not [m for m in found if m.startswith("error")]
    assert any(m.startswith("info") and DEFAULT_ODDS in m for m in found)
    assert any("A 5 blobs + 1 blank; B 4 blobs + 2 blank; C 1 blob + 5 blank" in m for m in found)
    assert any(m.startswith("info board is 681 x 400 mm") for m in found)


def test_checks_measure_circles_and_home_on_the_printed_board():
    found = messages()
    start = next(m for m in found if "start circles" in m)
    assert f"{2 * CIRCLE_R:.1f} mm" in start and f"{2 * BLOB_R:.1f} mm blob" in start
    assert "10.0 mm apart" in start  # the 4 mm gap and two 3 mm margins
    home = next(m for m in found if "home zone" in m)
    whole = 2 * math.sqrt(150 / 1.2 * 1000 / (15 * math.pi))  # 103 mm: one disc 15 mm thick
    assert home.startswith("info") and f"{whole:.0f} mm disc" in home


@pytest.mark.slow  # a check (or build) of a whole variant kit
def test_a_custom_die_changes_the_reported_distribution():
    found = messages({"dice": [[1, 1, 1, 1, 1, 0], [1, 1, 1, 1, 0, 0], [1, 1, 1, 0, 0, 0]]})
    # C now 3 + 3: P(3) = 5/6 * 4/6 * 3/6 = 60/216, P(0) = 1/6 * 2/6 * 3/6 = 6/216
    assert any("P(0) = 6/216" in m and "P(3) = 60/216" in m and "mean 2 blobs" in m for m in found)
    assert any("custom" in m for m in found)


@pytest.mark.slow  # a check (or build) of a whole variant kit
def test_a_home_zone_too_shallow_for_the_whole_dough_is_a_check_error():
    found = messages({"home_depth": 100})  # the 103 mm disc of one player's dough
    assert any(m.startswith("error") and "home zone" in m for m in found)


def test_dice_that_never_show_two_blobs_are_a_check_error():
    found = messages({"dice": [[1, 1, 1, 1, 1, 0]], "die_letters": ["A"]})
    assert any(m.startswith("error") and "nobody can win" in m for m in found)


@pytest.mark.slow  # a check (or build) of a whole variant kit
def test_a_reduced_board_says_how_much_dough_it_takes():
    found = messages({"board_scale": 0.5})
    assert any("printed at 1:2 it is 340 x 200 mm" in m for m in found)
    assert any(m.startswith("warning") and "about 19 g each" in m for m in found)


# --- bad input: one line, exit 2, nothing written ------------------------------------------


@pytest.mark.parametrize(
    "toml, needle",
    [
        ("dough_grams = 0", "'dough_grams' must be from 10 to 5000"),
        ("dough_grams = -150", "'dough_grams' must be from 10 to 5000"),
        ("blobs_per_player = 0", "'blobs_per_player' must be above 0"),
        ("blobs_per_player = -8", "'blobs_per_player' must be above 0"),
        ("density = 0", "'density' must be from 0.5 to 5"),
        ("density = -1.2", "'density' must be from 0.5 to 5"),
        ("dice = [[1, 1, 1, 1, 1, 0, 0], [1, 1, 1, 1, 0, 0], [1, 0, 0, 0, 0, 0]]", "six faces"),
        (
            "dice = [[1, 1, 1, 1, 1, 2], [1, 1, 1, 1, 0, 0], [1, 0, 0, 0, 0, 0]]",
            "'dice[0][5]' must be from 0 to 1",
        ),
        ("board_height = 150", "board_height 150 mm is too small"),
        ("dough_grams = 5000\nstart_thickness = 2", "mm wide board"),
        ("sticker_margin = 6", "leaves no sticker on a 12 mm die"),
        ('die_letters = ["A", "B", "../C"]', "one or two characters"),
    ],
)
@pytest.mark.parametrize("command", ["check", "build"])
def test_bad_kit_values_give_one_error_line(capsys, tmp_path, toml, needle, command):
    assert needle in bad_config_error(capsys, tmp_path, command, SLUG, toml)
