"""The built Parcheesi kit, measured in the files a user prints and cuts, and the bad
input a user may give it.

Expected numbers come from the spec and the issue (a board about 50 cm square, 68 track
spaces of which 12 are safe, 16 mm pawns, 4 pawns in each of 4 colours, 10 mm glue
strips, A4 and Letter paper), never from the code's constants.
"""

from __future__ import annotations

import dataclasses
import os
import xml.etree.ElementTree as ET
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pdfplumber
import pytest
from cli_run import bad_config_error, one_error_line, run
from cut_geometry import svg_path_nums
from pypdf import PdfReader
from shared import shared_folder

from pnp.build import build_game, check_game, make_kit
from pnp.draw.checks import has_errors
from pnp.games.parcheesi.kit import checks

MM = 25.4 / 72
SVG = "{http://www.w3.org/2000/svg}"
COLOURS = ("red", "blue", "green", "yellow")
REDUCED = 0.38  # the largest round scale at which a 500 mm board fits A4's printable width


@pytest.fixture(scope="module")
def kit_of(tmp_path_factory) -> Callable[[str], Path]:
    """The kit built for one paper, once per module and paper: a run of the A4 tests alone
    (the fast tier) builds no Letter kit."""
    built: dict[str, Path] = {}

    def make(paper: str) -> Callable[[Path], object]:
        return lambda out: build_game("parcheesi", [paper], out, None, ["pdf", "svg"])

    def of(paper: str) -> Path:
        if paper not in built:
            folder = shared_folder(tmp_path_factory, f"parcheesi-kit-{paper}", make(paper))
            built[paper] = folder / "parcheesi"
        return built[paper]

    return of


@pytest.fixture(scope="module")
def kit_dir(kit_of) -> Path:
    return kit_of("a4")


@pytest.fixture(scope="module")
def reduced_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("reduced")
    values = {"board_scale": REDUCED, "print_cut_lines": True}
    build_game("parcheesi", None, out, None, ["pdf"], values=values)
    return out / "parcheesi"


def layer(path: Path, name: str) -> ET.Element:
    root = ET.parse(path).getroot()
    return next(g for g in root.iter(f"{SVG}g") if g.get("id") == f"layer-{name}")


def path_size(d: str) -> tuple[float, float]:
    nums = svg_path_nums(d)
    xs, ys = nums[0::2], nums[1::2]
    return max(xs) - min(xs), max(ys) - min(ys)


def track_spaces(board_svg: Path) -> list[tuple[float, float]]:
    """The outlined track spaces of the board's art: dark 0.45 mm outlines."""
    return [
        path_size(p.get("d"))
        for p in layer(board_svg, "art").iter(f"{SVG}path")
        if p.get("stroke") == "#3A3A3A" and p.get("stroke-width") == "0.45"
    ]


@cache
def page_texts(path: Path) -> tuple[str, ...]:
    """Each page's text, read once per file (tile pages hold the whole board, clipped)."""
    return tuple(page.extract_text() for page in PdfReader(path).pages)


def page_shapes(path: Path, index: int) -> list[dict]:
    """The rectangles and curves of one page, measured in points."""
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[index]
        return page.rects + page.curves


# --- the board -----------------------------------------------------------------------


def test_the_board_is_about_50_cm_square(kit_dir):
    root = ET.parse(kit_dir / "svg" / "board.svg").getroot()
    side = float(root.get("width").removesuffix("mm"))
    assert side == float(root.get("height").removesuffix("mm"))
    assert 480 <= side <= 520


def test_68_track_spaces_each_take_two_16_mm_pawns_side_by_side(kit_dir):
    sizes = track_spaces(kit_dir / "svg" / "board.svg")
    assert len(sizes) == 68
    for w, h in sizes:
        assert min(w, h) >= 16.0 and max(w, h) >= 2 * 16.0


def test_every_track_space_is_numbered(kit_dir):
    texts = {t.text for t in layer(kit_dir / "svg" / "board.svg", "art").iter(f"{SVG}text")}
    assert {str(i) for i in range(68)} <= texts


def test_12_safe_spaces_are_ringed(kit_dir):
    rings = [
        c
        for c in layer(kit_dir / "svg" / "board.svg", "art").iter(f"{SVG}circle")
        if c.get("fill") == "none" and c.get("stroke-width") == "0.9"
    ]
    assert len(rings) == 12


@pytest.mark.slow  # reads the card and board pages; the safe spaces: test_parcheesi_rules.py
def test_the_card_names_the_safe_spaces_as_the_board_draws_them(kit_dir):
    """Issue 17 item 8: the card said all 12 safe spaces are dark, but the entry spaces
    are pale with rings in their colour. Count both kinds on the board; read the card."""
    rings = [
        c
        for c in layer(kit_dir / "svg" / "board.svg", "art").iter(f"{SVG}circle")
        if c.get("fill") == "none" and c.get("stroke-width") == "0.9"
    ]
    plain = sum(c.get("stroke") == "#3A3A3A" for c in rings)  # the outline grey: dark spaces
    coloured = {c.get("stroke") for c in rings} - {"#3A3A3A"}
    assert (plain, len(coloured)) == (8, 4)
    darks = [
        p
        for p in layer(kit_dir / "svg" / "board.svg", "art").iter(f"{SVG}path")
        if p.get("fill") == "#C9BBA0"
    ]
    assert len(darks) == plain
    text = " ".join(" ".join(page_texts(kit_dir / "parcheesi-a4.pdf")).split())
    assert "the 12 ringed spaces: 8 dark ones, and the 4 entry spaces, pale" in text
    assert "12 dark" not in text


@pytest.mark.parametrize("paper", ["a4", pytest.param("letter", marks=pytest.mark.slow)])
def test_at_real_size_the_board_is_tiled_and_has_an_assembly_map(kit_of, paper):
    texts = page_texts(kit_of(paper) / f"parcheesi-{paper}.pdf")
    tiles = [t for t in texts if "Board — tile" in t]
    # A 506 mm board (with bleed) over sheets whose printable width is under 210 mm, with
    # 10 mm strips between: at least three sheets a row, and as many rows.
    assert len(tiles) >= 6
    assert sum("Assembly map: Board" in t for t in texts) == 1


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_reduced_the_board_is_one_sheet_that_says_its_scale(reduced_dir, paper):
    pdf = reduced_dir / f"parcheesi-{paper}.pdf"
    texts = page_texts(pdf)
    boards = [i for i, t in enumerate(texts) if i and "Board (scale 1:2.63)" in t]  # not cover
    assert len(boards) == 1 and not any("Assembly map" in t for t in texts)
    red = [
        s
        for s in page_shapes(pdf, boards[0])
        if s.get("stroking_color") and tuple(round(v, 2) for v in s["stroking_color"]) == (1, 0, 0)
    ]
    sides = {(round(s["width"] * MM, 1), round(s["height"] * MM, 1)) for s in red}
    assert (500 * REDUCED, 500 * REDUCED) in sides


@pytest.mark.parametrize("which", ["kit_dir", pytest.param("reduced_dir", marks=pytest.mark.slow)])
def test_every_page_carries_a_true_50_mm_bar(request, which):
    pdf = request.getfixturevalue(which) / "parcheesi-a4.pdf"
    texts = page_texts(pdf)
    assert all("50 mm" in t for t in texts)
    board = next(i for i, t in enumerate(texts) if i and "Board" in t)
    for index in (0, board, len(texts) - 1):  # cover, a board sheet, the last page
        assert any(abs(s["width"] * MM - 50.0) < 0.05 for s in page_shapes(pdf, index))


# --- pawns, dice, cards --------------------------------------------------------------


def cut_circles(path: Path) -> list[float]:
    return [float(c.get("r")) for c in layer(path, "cut").iter(f"{SVG}circle")]


@pytest.mark.parametrize("colour", COLOURS)
def test_four_16_mm_pawn_tokens_per_colour(kit_dir, colour):
    assert cut_circles(kit_dir / "svg" / f"pawns-{colour}.svg") == [pytest.approx(8.0)] * 4


@pytest.mark.parametrize("colour", COLOURS)
def test_four_standees_per_colour_fold_across_their_middle(kit_dir, colour):
    svg = kit_dir / "svg" / f"standees-{colour}.svg"
    folds = [path_size(p.get("d")) for p in layer(svg, "score").iter(f"{SVG}path")]
    outlines = [path_size(p.get("d")) for p in layer(svg, "cut").iter(f"{SVG}path")]
    assert len(folds) == len(outlines) == 4
    for (fw, fh), (_, h) in zip(folds, outlines, strict=True):
        assert fw == pytest.approx(16.0) and fh == 0 and h == pytest.approx(2 * 24.0)


def test_reduced_pawns_shrink_with_the_board_and_still_fit_its_spaces():
    _, kit = make_kit("parcheesi", paper="a4", values={"board_scale": REDUCED})
    token = kit.component("pawns-red")
    radii = [s.radius for s in token.shapes("cut")]
    assert radii == [pytest.approx(8.0 * REDUCED)] * 4
    assert not has_errors(checks.check_pawn_fits(kit.params))


def test_paper_dice_are_two_and_optional():
    _, kit = make_kit("parcheesi", paper="a4")
    assert [c.name for c in kit.components if c.name.startswith("paper-die")] == [
        "paper-die-1",
        "paper-die-2",
    ]
    _, bare = make_kit("parcheesi", paper="a4", values={"paper_dice": False})
    assert not [c for c in bare.components if c.name.startswith("paper-die")]
    assert not any("paper dice" in m for m in bare.materials)


def card_text(kit) -> str:
    cards = [c for c in kit.components if c.name.startswith(("rule-card", "player-aid"))]
    return " ".join(t.text for c in cards for t in c.texts())


def test_the_cards_state_the_decisions_and_fit():
    _, kit = make_kit("parcheesi", paper="a4")
    assert not has_errors(kit.findings)
    text = card_text(kit)
    for fact in ("5", "bottom faces", "7 minus", "exact count", "20", "blockade", "safe"):
        assert fact in text, fact
    assert "Option: standard Parcheesi" in text
    assert "1,000" not in text and "1000" not in text  # the turn cap is the engine's only
    assert kit.component("player-aid").copies == 4


def test_standard_rules_print_what_changes():
    _, kit = make_kit("parcheesi", paper="a4", values={"rules": "standard"})
    text = card_text(kit)
    assert "Standard Parcheesi (in play)" in text and "roll again" in text
    assert "Option: standard Parcheesi" not in text


# --- checks that must find faults ------------------------------------------------------


def test_the_checks_pass_and_count_the_sheets():
    found = check_game("parcheesi", paper="a4")
    assert not has_errors(found)
    assert any("tiled over 6 A4 sheets" in f.message for f in found)


def test_a_missing_ring_is_found():
    _, kit = make_kit("parcheesi", paper="a4")
    board = kit.component("board")
    ring = next(s for s in board.shapes("art") if s.radius > 0 and s.style.fill is None)
    board.items.remove(ring)
    assert any("11 ringed spaces" in f.message for f in checks.run(kit))


def test_pawns_too_big_for_the_spaces_are_found():
    _, kit = make_kit("parcheesi", paper="a4")
    big = dataclasses.replace(kit.params, pawn_size=25.0)  # past `validate`, on purpose
    assert has_errors(checks.check_pawn_fits(big))


def test_a_scale_whose_pawns_are_too_small_to_cut_is_an_error():
    found = check_game("parcheesi", paper="a4", values={"board_scale": 0.2})
    assert any(f.level == "error" and "too small" in f.message for f in found)


# --- bad input: one error line, exit 2, nothing written ------------------------------


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["simulate", "parcheesi", "--players", "1"], "takes 2 to 4 players, got 1"),
        (["simulate", "parcheesi", "--players", "5"], "takes 2 to 4 players, got 5"),
        (["simulate", "parcheesi", "--house-rules", "yes"], "unknown option '--house-rules'"),
        (["simulate", "parcheesi", "--rules", "fancy"], "--rules must be one of seed, standard"),
    ],
)
def test_bad_simulations_are_one_line(capsys, tmp_path, argv, needle):
    os.chdir(tmp_path)  # a run that wrongly went ahead would write here
    code, _, err = run(capsys, *argv)
    assert code == 2 and needle in one_error_line(err)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "toml, needle",
    [
        ("board_size = 200", "a 16 mm pawn does not fit a 200 mm board"),
        ("pawn_size = 30", "a 30 mm pawn does not fit a 500 mm board"),
        ("board_scale = 0", "'board_scale' must be from 0.1 to 1"),
        ("board_scale = 1.5", "'board_scale' must be from 0.1 to 1"),
        ("board_scal = 0.5", "unknown key 'board_scal'"),
        ('colours = ["red", "red", "blue", "green"]', "colours must be different"),
    ],
)
@pytest.mark.parametrize("command", ["check", "build"])
def test_bad_kit_configs_are_one_line(capsys, tmp_path, toml, needle, command):
    assert needle in bad_config_error(capsys, tmp_path, command, "parcheesi", toml)
