"""The built Desert Home kit, measured in the files a user prints, saws and cuts.

Expected numbers come from the spec and print-and-cut.md (40 mm octagons, 36 tiles of
which 12 thirst, 6 protection cards, two fans of six blades, A4 and Letter, a 50 mm bar,
DXF in mm with cut / inner-cut / drill layers), never from the code's constants.
"""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import ezdxf
import pdfplumber
import pytest
from cli_run import bad_config_error
from pypdf import PdfReader

from pnp.build import build_game, kit_pages, make_kit
from pnp.games.desert_home import checks, rules
from pnp.games.desert_home.game import materials
from pnp.games.desert_home.model import play_model
from pnp.games.desert_home.params import DesertHomeParams

MM = 25.4 / 72
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
NS = "{http://www.w3.org/2000/svg}"
RED, BLUE = (1.0, 0.0, 0.0), (0.0, 0.0, 1.0)
TILES = "Path tiles and protection cards"
COLOURS = ("black", "white", "green", "yellow", "red", "blue")


@pytest.fixture(scope="module")
def kit_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("kit")
    build_game("desert-home", None, out, None, ["pdf", "svg", "dxf"])
    return out / "desert-home"


def _colour(obj, key: str = "stroking_color") -> tuple[float, ...]:
    return tuple(round(v, 2) for v in (obj.get(key) or ()))


def _pages(path: Path, section: str | None = None):
    """The PDF's pages, or only those of one section (found from the kit's own page plan,
    so the slow PDF parsing reads just those)."""
    numbers = None
    if section is not None:
        paper = path.stem.rsplit("-", 1)[1]
        planned = kit_pages(make_kit("desert-home", paper=paper)[1])
        numbers = [n for n, p in enumerate(planned, start=1) if p.section == section]
        assert numbers, section
    with pdfplumber.open(path, pages=numbers) as pdf:
        yield from pdf.pages


# --- pages -------------------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("doc", ["desert-home-{}.pdf", "desert-home-pattern-{}.pdf"])
def test_every_page_is_the_paper_size(kit_dir, paper, doc):
    reader = PdfReader(kit_dir / doc.format(paper))
    assert len(reader.pages) >= 2
    for page in reader.pages:
        w, h = float(page.mediabox.width) * MM, float(page.mediabox.height) * MM
        assert (w, h) == pytest.approx(PAPER_MM[paper], abs=0.05)


def test_the_cover_lists_the_materials(kit_dir):
    reader = PdfReader(kit_dir / "desert-home-a4.pdf")
    text = reader.pages[0].extract_text()
    for needle in ("Plywood 4 mm thick", "M5 x 35 mm bolts", "84 round magnets of 10 mm"):
        assert needle in text


# --- path tiles and protection cards ------------------------------------------------------


def _octagon_cuts(page) -> list[dict]:
    """Red cut outlines of 8 corners (closed: 9 points) on a page."""
    return [c for c in page.curves if _colour(c) == RED and len({tuple(p) for p in c["pts"]}) == 8]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_36_tiles_and_6_protection_cards_are_40mm_octagons(kit_dir, paper):
    fronts = backs = protected = 0
    for page in _pages(kit_dir / f"desert-home-{paper}.pdf", TILES):
        octagons = _octagon_cuts(page)
        for c in octagons:
            assert (c["width"] * MM, c["height"] * MM) == pytest.approx((40.0, 40.0), abs=0.01)
        fronts += len(octagons)
        text = page.extract_text()
        protected += text.count("PROTECTED")
        if "backs" in text:
            backs += len([c for c in page.curves if _colour(c) == (0.23, 0.23, 0.23)])
    assert fronts == 36 + 6
    assert protected == 6
    assert backs == 36  # one black back behind every path tile, none behind protection


def test_octagon_across_flats_in_the_svg_is_the_tile_size(kit_dir):
    for name in ("tile-safe", "tile-thirst", "protection"):
        root = ET.parse(kit_dir / "svg" / f"{name}.svg").getroot()
        cut = next(g for g in root.iter(f"{NS}g") if g.get("id") == "layer-cut")
        (path,) = list(cut.iter(f"{NS}path"))
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", path.get("d"))]
        xs, ys = nums[0::2], nums[1::2]
        assert max(xs) - min(xs) == pytest.approx(40.0, abs=0.01)
        assert max(ys) - min(ys) == pytest.approx(40.0, abs=0.01)
        assert len({(x, y) for x, y in zip(xs, ys, strict=True)}) == 8


# --- refuges ------------------------------------------------------------------------------


def test_twelve_blades_on_the_plywood_cut_sheet_in_mm_layers(kit_dir):
    sheets = sorted((kit_dir / "cut").glob("plywood-*.dxf"))
    assert [p.name for p in sheets] == ["plywood-1.dxf"]  # 12 blades on one 300 x 200 mm sheet
    doc = ezdxf.readfile(sheets[0])
    assert doc.header["$INSUNITS"] == 4
    by_layer: dict[str, list] = {}
    for e in doc.modelspace():
        by_layer.setdefault(e.dxf.layer, []).append(e)
    assert sorted(by_layer) == ["cut", "drill", "inner-cut"]
    assert [e.dxftype() for e in by_layer["cut"]] == ["LWPOLYLINE"] * 12
    assert all(e.closed for e in by_layer["cut"])
    holes = by_layer["inner-cut"]
    assert [e.dxftype() for e in holes] == ["CIRCLE"] * 12
    assert {round(2 * e.dxf.radius, 3) for e in holes} == {5.0}  # the M5 pivot
    marks = by_layer["drill"]
    assert len(marks) == 12
    centres = sorted((round(e.dxf.center.x, 3), round(e.dxf.center.y, 3)) for e in holes)
    assert sorted((round(e.dxf.center.x, 3), round(e.dxf.center.y, 3)) for e in marks) == centres
    for e in by_layer["cut"]:  # every part within the 300 x 200 mm sheet
        for x, y in e.get_points("xy"):
            assert 0 <= x <= 300 and 0 <= y <= 200
    svg = ET.parse(kit_dir / "cut" / "plywood-1.svg").getroot()
    assert (svg.get("width"), svg.get("height"), svg.get("viewBox")) == (
        "300mm",
        "200mm",
        "0 0 300 200",
    )


def test_each_blade_dxf_has_its_layers_in_mm(kit_dir):
    for colour in COLOURS:
        doc = ezdxf.readfile(kit_dir / "dxf" / f"blade-{colour}.dxf")
        assert doc.header["$INSUNITS"] == 4
        layers = sorted({e.dxf.layer for e in doc.modelspace()})
        assert layers == ["cut", "drill", "inner-cut"]


def test_kerf_grows_outlines_and_shrinks_holes_in_the_cut_files(tmp_path):
    build_game("desert-home", ["a4"], tmp_path, None, ["dxf"], values={"kerf": 0.4})
    plain = make_kit("desert-home", paper="a4")[1].component("blade-red")
    doc = ezdxf.readfile(tmp_path / "desert-home" / "dxf" / "blade-red.dxf")
    (outline,) = [e for e in doc.modelspace() if e.dxf.layer == "cut"]
    (hole,) = [e for e in doc.modelspace() if e.dxf.layer == "inner-cut"]
    xs = [x for x, _ in outline.get_points("xy")]
    x0, _, x1, _ = plain.outline.bounds
    assert max(xs) - min(xs) == pytest.approx(x1 - x0 + 0.4, abs=0.01)
    assert hole.dxf.radius == pytest.approx(2.5 - 0.2)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_pattern_shows_every_blade_at_1_to_1(kit_dir, paper):
    """12 blades, each with its name, grain arrow, a visible black saw line on the cut
    line, the hole's edge and a drill mark, and the 50 mm bar on every page."""
    cuts = saws = holes = drills = 0
    words: list[str] = []
    small: list[str] = []  # the labels on the blades, not the instructions' text
    for page in _pages(kit_dir / f"desert-home-pattern-{paper}.pdf"):
        words += [w["text"] for w in page.extract_words()]
        small += [w["text"] for w in page.extract_words() if w["height"] < 6]
        assert _bar_mm(page) == pytest.approx(50.0, abs=0.1)
        for c in page.curves:
            size = (round(c["width"] * MM, 1), round(c["height"] * MM, 1))
            width = c.get("linewidth", 0) * MM
            if _colour(c) == RED and size == (59.5, 61.9):
                cuts += 1
            elif _colour(c) == (0.0, 0.0, 0.0) and size == (59.5, 61.9):
                saws += 1
                assert width == pytest.approx(0.3, abs=0.01)
            elif _colour(c) == BLUE and size == (5.0, 5.0):
                holes += 1
            elif _colour(c) == (0.0, 0.0, 0.0) and size == (1.6, 1.6):
                drills += 1
    assert (cuts, saws, holes, drills) == (12, 12, 12, 12)
    for colour in COLOURS:
        assert words.count(colour.upper()) == 2
    assert small.count("grain") == 12
    assert " ".join(small).count("drill 5 mm") == 12


def _bar_mm(page) -> float:
    """Length of the dark bar left of the '50 mm' label at the foot of a page."""
    label = next(
        w for w in page.extract_words() if w["text"] == "50" and w["top"] > page.height - 30 / MM
    )
    bars = [
        r
        for r in page.rects
        if abs(r["x1"] - label["x0"]) < 2 / MM and _colour(r, "non_stroking_color") != (1, 1, 1)
    ]
    return max(r["x1"] - r["x0"] for r in bars) * MM


# --- pieces and cards -----------------------------------------------------------------------


def _cut_sizes(svg: Path) -> list[tuple[float, float]]:
    """Width and height of every outline on an SVG's cut layer, in mm."""
    cut = next(g for g in ET.parse(svg).getroot().iter(f"{NS}g") if g.get("id") == "layer-cut")
    sizes = [(2 * float(c.get("r")),) * 2 for c in cut.iter(f"{NS}circle")]
    for path in cut.iter(f"{NS}path"):
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", path.get("d"))]
        xs, ys = nums[0::2], nums[1::2]
        sizes.append((round(max(xs) - min(xs), 2), round(max(ys) - min(ys), 2)))
    return sorted(sizes)


def test_12_figures_and_2_tents_per_colour_as_tokens_and_standees(kit_dir):
    """13 mm figures and 18 mm tents; standees fold to 22 mm high (44 mm flat)."""
    for colour in COLOURS:
        tokens = _cut_sizes(kit_dir / "svg" / f"tokens-{colour}.svg")
        assert tokens == [(13.0, 13.0)] * 12 + [(18.0, 18.0)] * 2
        standees = _cut_sizes(kit_dir / "svg" / f"standees-{colour}.svg")
        assert standees == [(13.0, 44.0)] * 12 + [(18.0, 44.0)] * 2


def test_player_aid_has_the_points_table_and_road_bonuses(kit_dir):
    texts = [
        t.text for t in ET.parse(kit_dir / "svg" / "player-aid.svg").getroot().iter(f"{NS}text")
    ]
    row = texts.index("n = 2")
    assert texts[row : row + 7] == ["n = 2", "2", "3", "4", "4", "5", "6"]
    assert ["n", "n+1", "n+2", "2n", "2n+1", "3n"] == texts[
        texts.index("points") + 1 : texts.index("points") + 7
    ]
    assert texts[texts.index("n = 6") + 6] == "18"  # six 6s: the most a roll gives
    assert "Small road (five in a row): +3" in texts and "Big road (1 to 6): +5" in texts


# Every rule decision the engine makes, by the name the rule cards give it.
DECISION_WORDS = {
    "reroll": "Reroll:",
    "influx": "Influx",
    "influx_push": "Push:",
    "colour_choice": "Choose a colour",
    "road_tiles": "Road tiles:",
    "boost": "Boost:",
    "whole_groups": "Whole groups:",
    "passing": "Passing:",
    "camp_entry": "Camp entry fields",
    "water_bearers": "Water bearers:",
    "missions": "Missions:",
    "protection": "Protection:",
    "thirst": "Thirst:",
    "spending_duty": "Spending duty:",
    "shortage": "Shortage:",
    "win": "Win",
    "deck_end": "Deck end:",
    "seats": "Seats:",
}


def test_every_rule_decision_is_on_a_rule_card():
    _, kit = make_kit("desert-home", paper="a4")
    cards = [c for c in kit.components if c.name.startswith("rule-card")]
    assert len(cards) == 8
    text = " ".join(t.text for c in cards for t in c.texts())
    assert set(DECISION_WORDS) == set(rules.DECISIONS)
    missing = [k for k, word in DECISION_WORDS.items() if word not in text]
    assert missing == []


# --- checks and materials ------------------------------------------------------------------


@pytest.mark.parametrize(
    "figures, tents, level",
    [(12, 2, "info"), (10, 0, "info"), (7, 0, "warning"), (4, 0, "error")],
)
def test_the_supply_check_levels(figures, tents, level):
    p = dataclasses.replace(DesertHomeParams(), figures_per_colour=figures, tents_per_colour=tents)
    (finding,) = checks.check_supply(play_model(p))
    assert finding.level == level


def test_a_supply_nobody_can_win_with_stops_the_build(tmp_path):
    from pnp.build import ChecksFailed

    with pytest.raises(ChecksFailed):
        build_game(
            "desert-home",
            ["a4"],
            tmp_path,
            None,
            ["pdf"],
            values={"tents_per_colour": 0, "figures_per_colour": 4},
        )
    assert not (tmp_path / "desert-home").exists()


@pytest.mark.parametrize("thickness, length", [(3.0, 25), (4.0, 35), (6.0, 45)])
def test_the_pivot_bolt_is_long_enough_for_six_blades(thickness, length):
    p = dataclasses.replace(DesertHomeParams(), plywood_thickness=thickness)
    assert f"M5 x {length} mm bolts" in materials(p)[1]


# --- bad input: one error line, exit 2, nothing written ------------------------------------


@pytest.mark.parametrize(
    "toml, needle",
    [
        ("deck_thirst = -3", "'deck_thirst' must be from 0 to 500"),
        ("tile_size = 15", "a 15 mm tile cannot hold three readable cacti"),
        ("plywood_thickness = 0", "'plywood_thickness' must be from 1 to 30"),
        ('sixth_colour = "sand"', "sixth colour 'sand' is not a palette colour"),
    ],
)
@pytest.mark.parametrize("command", ["check", "build"])
def test_bad_input_is_one_error_line(capsys, tmp_path, toml, needle, command):
    assert needle in bad_config_error(capsys, tmp_path, command, "desert-home", toml)


def test_the_default_kit_checks_report_supply_kerf_and_the_black_figures():
    game, kit = make_kit("desert-home", paper="a4")
    found = game.checks(kit)
    assert not [f for f in found if f.level == "error"]
    said = {(f.component, f.level, f.message.split(":")[0].split(" (")[0]) for f in found}
    assert ("figures", "info", "both refuges can hold 5 of every colour at once") in said
    assert ("blades", "info", "fanned out, neighbouring blades overlap by 6.0 degrees") in said
    assert ("blades", "info", "kerf 0 mm") in said
    assert any(c == "tokens-black" and lvl == "warning" for c, lvl, _ in said)


def test_all_42_octagons_are_on_their_own_cut_sheets(kit_dir):
    """One cut file run for every octagon piece: 36 path tiles and 6 protection cards."""
    import ezdxf

    sheets = sorted((kit_dir / "cut").glob("octagons-*.dxf"))
    assert sheets, "no octagon cut sheets"
    outlines = [
        e
        for p in sheets
        for e in ezdxf.readfile(p).modelspace()
        if e.dxf.layer == "cut" and e.dxftype() == "LWPOLYLINE" and len(e) == 8
    ]
    assert len(outlines) == 42
