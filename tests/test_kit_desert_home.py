"""The built Desert Home kit, measured in the files a user prints, saws and cuts.

Expected numbers come from the spec and print-and-cut.md (40 mm octagons, 36 tiles of
which 12 thirst, 6 protection cards, two fans of six blades, A4 and Letter, a 50 mm bar,
DXF in mm with cut / inner-cut / drill layers), never from the code's constants.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import ezdxf
import pdfplumber
import pytest
from cli_run import bad_config_error
from cut_geometry import dxf_cut_lines, pdf_path_points, svg_arcs, svg_cut_lines, svg_path_nums
from pypdf import PdfReader
from shapely.geometry import Point, Polygon
from shared import shared_folder
from tiers import ci_keeps

from pnp.build import build_game, kit_pages, make_kit
from pnp.games.desert_home import rules
from pnp.games.desert_home.kit import checks, materials
from pnp.games.desert_home.params import DesertHomeParams
from pnp.games.desert_home.rules.model import play_model

MM = 25.4 / 72
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
NS = "{http://www.w3.org/2000/svg}"
RED, BLUE = (1.0, 0.0, 0.0), (0.0, 0.0, 1.0)
TILES = "Path tiles"
CARDS = "Rule cards, player aids and protection cards"
COLOURS = ("black", "white", "green", "yellow", "red", "blue")


@pytest.fixture(scope="module")
def kit_of(tmp_path_factory) -> Callable[[str], Path]:
    """The kit built for one paper, once per module and paper: a run of the A4 tests alone
    (the fast tier) builds no Letter kit."""
    built: dict[str, Path] = {}

    def make(paper: str) -> Callable[[Path], object]:
        formats = ["pdf", "svg", "dxf"]
        values = {"print_cut_lines": True}
        return lambda out: build_game("desert-home", [paper], out, None, formats, values=values)

    def of(paper: str) -> Path:
        if paper not in built:
            folder = shared_folder(tmp_path_factory, f"dh-kit-{paper}", make(paper))
            built[paper] = folder / "desert-home"
        return built[paper]

    return of


@pytest.fixture(scope="module")
def kit_dir(kit_of) -> Path:
    return kit_of("a4")


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


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("doc", ["desert-home-{}.pdf", "desert-home-pattern-{}.pdf"])
def test_every_page_is_the_paper_size(kit_of, paper, doc):
    reader = PdfReader(kit_of(paper) / doc.format(paper))
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


@pytest.mark.slow
@pytest.mark.parametrize("paper", ci_keeps(["a4", "letter"], 0))
def test_36_tiles_and_6_protection_cards_are_40mm_octagons(kit_of, paper):
    """The tiles on their own sheets with black backs; the protection cards (no back) on
    the last card sheet, beside the rule cards, instead of a sheet of two."""
    fronts = backs = protected = 0
    for section in (TILES, CARDS):
        for page in _pages(kit_of(paper) / f"desert-home-{paper}.pdf", section):
            octagons = _octagon_cuts(page)
            for c in octagons:
                assert (c["width"] * MM, c["height"] * MM) == pytest.approx((40.0, 40.0), abs=0.01)
            fronts += len(octagons)
            text = page.extract_text()
            protected += text.count("PROTECTED")
            if "backs" in text and section == TILES:
                backs += len([c for c in page.curves if _colour(c) == (0.23, 0.23, 0.23)])
            if "PROTECTED" in text:
                assert _aids(text) == 2  # sharing a sheet with the player aids
    assert fronts == 36 + 6
    assert protected == 6
    assert backs == 36  # one black back behind every path tile, none behind protection


@pytest.mark.slow
@pytest.mark.parametrize("paper", ci_keeps(["a4", "letter"], 0))
def test_two_player_aids_one_per_player(kit_of, paper):
    aids = sum(
        _aids(page.extract_text())
        for page in _pages(kit_of(paper) / f"desert-home-{paper}.pdf", CARDS)
    )
    assert aids == 2


def _aids(text: str) -> int:
    """Player aids on a page, by their title (cards are turned a quarter on some sheets,
    and the extracted words then read backwards)."""
    return text.count("Turn summary") + text.count("yrammus\nnruT")


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_sheet_of_pieces_is_nearly_empty(paper):
    """Every front sheet of cut pieces is at least 30 % covered (A4 once printed a sheet of
    two protection cards, 7 %; Letter one of three blade tops, 19 %). The dice stickers are
    the exception: they print alone on sticker paper."""
    planned = kit_pages(make_kit("desert-home", paper=paper)[1])
    for n, page in enumerate(planned, start=1):
        if page.section in ("Cover", "Board", "Duplex alignment test", "Dice stickers"):
            continue
        if not page.placements:
            continue
        covered = sum(pl.component.width * pl.component.height for pl in page.placements)
        assert covered / (page.width * page.height) >= 0.3, (n, page.section)


def test_octagon_across_flats_in_the_svg_is_the_tile_size(kit_dir):
    for name in ("tile-safe", "tile-thirst", "protection"):
        root = ET.parse(kit_dir / "svg" / f"{name}.svg").getroot()
        cut = next(g for g in root.iter(f"{NS}g") if g.get("id") == "layer-cut")
        (path,) = list(cut.iter(f"{NS}path"))
        nums = svg_path_nums(path.get("d"))
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
    assert sorted(by_layer) == ["cut", "drill", "inner-cut", "notes"]  # notes: text, no plot
    assert {e.dxftype() for e in by_layer["notes"]} == {"TEXT"}
    assert [e.dxftype() for e in by_layer["cut"]] == ["LWPOLYLINE"] * 12
    assert all(e.closed for e in by_layer["cut"])
    holes = by_layer["inner-cut"]
    assert [e.dxftype() for e in holes] == ["CIRCLE"] * 12
    assert {round(2 * e.dxf.radius, 3) for e in holes} == {5.5}  # an M5 bolt with 0.5 clearance
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


def _axis_deg(arrow: Polygon) -> float:
    """A block arrow's direction (degrees, mod 180): that of its longest edges, the shaft."""
    ring = list(arrow.exterior.coords)
    dx, dy = max(
        ((q[0] - p[0], q[1] - p[1]) for p, q in itertools.pairwise(ring)),
        key=lambda v: math.hypot(*v),
    )
    return math.degrees(math.atan2(dy, dx)) % 180


def _parallel(a: float, b: float, tol: float = 1.0) -> bool:
    d = abs(a - b) % 180
    return min(d, 180 - d) <= tol


def test_every_blade_on_the_plywood_sheet_lies_along_the_grain(kit_dir):
    """Read from the written cut sheet: each blade's axis (pivot hole to the middle of its
    outline) runs along its own grain arrow, and every arrow along the sheet's grain arrow
    in the margin, which runs the 300 mm way: no blade is turned across the grain (a
    quarter-turned blade would snap at its neck), only end for end."""
    text = (kit_dir / "cut" / "plywood-1.svg").read_text()
    outlines = [Polygon(r.coords) for r in svg_cut_lines(text, "cut")]
    holes = [Point(cx, cy) for cx, cy, _ in svg_arcs(text, "inner-cut")]
    arrows = [Polygon(r.coords) for r in svg_cut_lines(text, "guide")]
    assert len(outlines) == 12 and len(holes) == 12
    (sheet_arrow,) = [a for a in arrows if not any(o.contains(a) for o in outlines)]
    grain = _axis_deg(sheet_arrow)
    assert _parallel(grain, 0.0)  # along the sheet's long side
    ends = set()
    for o in outlines:
        (pivot,) = [h for h in holes if o.contains(h)]
        (own,) = [a for a in arrows if o.contains(a)]
        c = o.centroid
        axis = math.degrees(math.atan2(c.y - pivot.y, c.x - pivot.x))
        assert _parallel(axis, _axis_deg(own)) and _parallel(axis, grain), axis
        ends.add(round(axis) % 360)
    assert ends <= {0, 180}  # turned end for end where that nests better, never a quarter


def test_each_blade_dxf_has_its_layers_in_mm(kit_dir):
    for colour in COLOURS:
        doc = ezdxf.readfile(kit_dir / "dxf" / f"blade-{colour}.dxf")
        assert doc.header["$INSUNITS"] == 4
        layers = sorted({e.dxf.layer for e in doc.modelspace()})
        assert layers == ["cut", "drill", "inner-cut"]


@pytest.mark.slow
def test_kerf_grows_outlines_and_shrinks_holes_in_the_cut_files(tmp_path):
    build_game("desert-home", ["a4"], tmp_path, None, ["dxf"], values={"kerf": 0.4})
    plain = make_kit("desert-home", paper="a4")[1].component("blade-red")
    data = (tmp_path / "desert-home" / "dxf" / "blade-red.dxf").read_bytes()
    doc = ezdxf.readfile(tmp_path / "desert-home" / "dxf" / "blade-red.dxf")
    (outline,) = dxf_cut_lines(data, "cut")  # its arcs followed, not only its vertices
    (hole,) = [e for e in doc.modelspace() if e.dxf.layer == "inner-cut"]
    xs = [x for x, _ in outline.coords]
    x0, _, x1, _ = plain.outline.bounds
    assert max(xs) - min(xs) == pytest.approx(x1 - x0 + 0.4, abs=0.01)
    assert hole.dxf.radius == pytest.approx(2.75 - 0.2)


@pytest.mark.parametrize("paper", ["a4", pytest.param("letter", marks=pytest.mark.slow)])
def test_the_pattern_shows_every_blade_at_1_to_1(kit_of, paper):
    """12 blades, each with its name, grain arrow, a visible black saw line on the cut
    line, the hole's edge and a drill mark, and the 50 mm bar on every page."""
    cuts = saws = holes = drills = 0
    words: list[str] = []
    small: list[str] = []  # the labels on the blades, not the instructions' text
    for page in _pages(kit_of(paper) / f"desert-home-pattern-{paper}.pdf"):
        words += [w["text"] for w in page.extract_words()]
        small += [w["text"] for w in page.extract_words() if w["height"] < 6]
        assert _bar_mm(page) == pytest.approx(50.0, abs=0.1)
        for c in page.curves:
            xs, ys = zip(*pdf_path_points(c), strict=True)  # on the curve, not its controls
            size = (round((max(xs) - min(xs)) * MM, 1), round((max(ys) - min(ys)) * MM, 1))
            width = c.get("linewidth", 0) * MM
            if _colour(c) == RED and size == (59.5, 61.9):
                cuts += 1
            elif _colour(c) == (0.0, 0.0, 0.0) and size == (59.5, 61.9):
                saws += 1
                assert width == pytest.approx(0.3, abs=0.01)
            elif _colour(c) == BLUE and size == (5.5, 5.5):
                holes += 1
            elif _colour(c) == (0.0, 0.0, 0.0) and size == (1.6, 1.6):
                drills += 1
    assert (cuts, saws, holes, drills) == (12, 12, 12, 12)
    for colour in COLOURS:
        assert words.count(colour.upper()) == 2
    assert small.count("grain") == 12
    assert " ".join(small).count("drill 5.5 mm") == 12


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
        nums = svg_path_nums(path.get("d"))
        xs, ys = nums[0::2], nums[1::2]
        sizes.append((round(max(xs) - min(xs), 2), round(max(ys) - min(ys), 2)))
    return sorted(sizes)


def test_12_figures_and_2_tents_per_colour_as_tokens_and_standees(kit_dir):
    """13 mm figures and 18 mm tents. A standee is 0.8 of its token wide and folds to a
    tent of two 22 mm panels on two feet 0.6 of the token deep: 10.4 x (44 + 15.6) mm for
    a figure, 14.4 x (44 + 21.6) mm for a tent."""
    for colour in COLOURS:
        tokens = _cut_sizes(kit_dir / "svg" / f"tokens-{colour}.svg")
        assert tokens == [(13.0, 13.0)] * 12 + [(18.0, 18.0)] * 2
        standees = _cut_sizes(kit_dir / "svg" / f"standees-{colour}.svg")
        assert standees == [(10.4, 59.6)] * 12 + [(14.4, 65.6)] * 2


def _layer_paths(svg: Path, layer: str) -> list[ET.Element]:
    g = next(g for g in ET.parse(svg).getroot().iter(f"{NS}g") if g.get("id") == f"layer-{layer}")
    return list(g.iter(f"{NS}path"))


@pytest.mark.parametrize("name", ["standees-black", "paper-die-black"])
def test_folds_on_black_print_over_a_white_halo(kit_dir, name):
    """A black dashed fold on a black face cannot be seen: every fold of the black pieces
    has a wider white line under it, on the same path, so it prints white with black dashes."""
    svg = kit_dir / "svg" / f"{name}.svg"
    scores = _layer_paths(svg, "score")
    halos = {p.get("d"): p for p in _layer_paths(svg, "guide")}
    assert scores
    for score in scores:
        halo = halos[score.get("d")]
        assert halo.get("stroke").upper() == "#FFFFFF"
        assert float(halo.get("stroke-width")) > float(score.get("stroke-width"))


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
    "influx": "All come in:",
    "influx_push": "Push:",
    "colour_choice": "Choose a colour",
    "road_tiles": "Road tiles:",
    "boost": "Boost:",
    "groups": "Groups:",
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
    "road_bonus": "road bonus is optional",
    "draw_first": "look at it first",
}


def test_every_rule_decision_is_on_a_rule_card():
    _, kit = make_kit("desert-home", paper="a4")
    cards = [c for c in kit.components if c.name.startswith("rule-card")]
    assert len(cards) == 8
    text = " ".join(t.text for c in cards for t in c.texts())
    assert set(DECISION_WORDS) == set(rules.DECISIONS)
    missing = [k for k, word in DECISION_WORDS.items() if word not in text]
    assert missing == []


@pytest.mark.parametrize(
    ("key", "setting", "card", "says", "never"),
    [
        (
            "road_bonus",
            "optional",
            4,
            "road bonus is optional: take it as one of these, or let it go",
            "compulsory",
        ),
        (
            "road_bonus",
            "compulsory",
            4,
            "road bonus is compulsory: when you can, take it",
            "let it go",
        ),
        ("groups", "split", 5, "Groups: a move takes one, some or all of the figures", "only"),
        ("groups", "whole", 5, "Groups: whole groups only: a move takes all", "the rest stay"),
    ],
)
def test_the_rule_card_states_the_rule_in_force(key, setting, card, says, never):
    """The road bonus (optional or compulsory) and the groups (split or whole), each as
    the kit plays it."""
    _, kit = make_kit("desert-home", paper="a4", values={key: setting})
    (found,) = [c for c in kit.components if c.name == f"rule-card-{card}"]
    text = re.sub(r"\s+", " ", " ".join(t.text for t in found.texts()))
    text = re.sub(r" ([,.:;])", r"\1", text)  # bold runs are texts of their own
    assert says in text and never not in text


# --- checks and materials ------------------------------------------------------------------


@pytest.mark.parametrize(
    "figures, tents, level",
    [(12, 2, "info"), (10, 0, "info"), (7, 0, "warning"), (4, 0, "error")],
)
def test_the_supply_check_levels(figures, tents, level):
    p = dataclasses.replace(DesertHomeParams(), figures_per_colour=figures, tents_per_colour=tents)
    (finding,) = checks.check_supply(play_model(p))
    assert finding.level == level


@pytest.mark.slow
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
        ('sixth_colour = "sand"', "unknown colour 'sand' in 'sixth_colour': choose from red"),
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


# --- the pivot, the nesting gap, the blade numbers -----------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "toml, code, needle",
    ci_keeps(
        [
            ("", 0, "pivot holes 5.5 mm on a 5 mm bolt: 0.5 mm clearance"),
            ("hole_clearance = 0.3", 0, "pivot holes 5.3 mm on a 5 mm bolt"),
            ("hole_clearance = 0.1", 1, "the 5.1 mm pivot hole binds on the 5 mm bolt"),
            ("bolt_diameter = 6.0\nhole_clearance = 0", 1, "the 6 mm pivot hole binds on the 6 mm"),
            (
                "bolt_diameter = 4.0\nhole_clearance = 1.5",
                0,
                "the 5.5 mm pivot hole is 1.5 mm wider than the 4 mm bolt: the blade wobbles",
            ),
        ],
        0,
        2,
        4,
    ),
)
def test_pnp_check_tests_the_pivot_hole_against_the_bolt(capsys, tmp_path, toml, code, needle):
    from cli_run import run

    cfg = tmp_path / "kit.toml"
    cfg.write_text(toml + "\n")
    # one paper: the blades and their pivot are the same on either
    got, out, _ = run(capsys, "check", "desert-home", "--paper", "a4", "--config", str(cfg))
    assert got == code and needle in out


def test_a_bad_clearance_is_one_error_line(capsys, tmp_path):
    assert "'hole_clearance' must be" in bad_config_error(
        capsys, tmp_path, "check", "desert-home", "hole_clearance = -0.2"
    )


def test_nested_blades_stay_a_plywood_thickness_apart(kit_dir):
    """Measured on the plywood cut sheet: no two blade outlines closer than the 4 mm plywood
    (the web of waste between them would snap or char)."""
    import itertools

    from shapely.geometry import Polygon

    data = (kit_dir / "cut" / "plywood-1.dxf").read_bytes()
    blades = [Polygon(ring) for ring in dxf_cut_lines(data, "cut")]  # arcs followed
    assert len(blades) == 12
    gaps = [a.distance(b) for a, b in itertools.combinations(blades, 2)]
    assert min(gaps) >= 4.0 - 1e-6
    assert min(gaps) < 4.5  # still nested tightly


def test_octagons_of_card_keep_the_usual_gap(kit_dir):
    import itertools

    from shapely.geometry import Polygon

    doc = ezdxf.readfile(kit_dir / "cut" / "octagons-1.dxf")
    tiles = [Polygon(e.get_points("xy")) for e in doc.modelspace() if e.dxf.layer == "cut"]
    assert min(a.distance(b) for a, b in itertools.combinations(tiles, 2)) < 3.0


@pytest.mark.slow
def test_each_printed_blade_top_carries_its_number(kit_dir):
    """The pattern with the number is peeled off the wood: the top says it too, in the
    free band between the hub and the tent place."""
    for n, colour in enumerate(COLOURS, start=1):
        root = ET.parse(kit_dir / "svg" / f"blade-{colour}-overlay.svg").getroot()
        assert str(n) in [t.text for t in root.iter(f"{NS}text")]
    words = [
        w["text"]
        for page in _pages(kit_dir / "desert-home-a4.pdf", "Refuge blade tops and round figures")
        for w in page.extract_words()
        if w["height"] > 8.5  # the 9 pt numbers, not the page furniture
    ]
    assert sorted(w for w in words if w.isdigit()) == sorted([str(n) for n in range(1, 7)] * 2)


# --- the board: bleed and a camp with room for every piece --------------------------------


def _svg_path_polygon(d: str):
    from shapely.geometry import Polygon

    nums = svg_path_nums(d)
    return Polygon(list(zip(nums[0::2], nums[1::2], strict=True)))


def test_the_board_has_bleed_like_the_other_boards(kit_dir):
    """The sand runs 3 mm past the trim on every side (the default bleed), and the trim is
    the board's cut outline."""
    root = ET.parse(kit_dir / "svg" / "board.svg").getroot()
    x, y, w, h = (float(v) for v in root.get("viewBox").split())
    cut = next(g for g in root.iter(f"{NS}g") if g.get("id") == "layer-cut")
    (trim,) = [_svg_path_polygon(p.get("d")) for p in cut.iter(f"{NS}path")]
    tx0, ty0, tx1, ty1 = trim.bounds
    assert (tx0 - x, ty0 - y, x + w - tx1, y + h - ty1) == pytest.approx((3, 3, 3, 3), abs=0.01)
    sand = [p for p in root.iter(f"{NS}path") if p.get("fill") == "#D9C194"]
    assert _svg_path_polygon(sand[0].get("d")).bounds == pytest.approx((x, y, x + w, y + h))


def test_every_camp_lane_has_room_for_12_figures_and_2_tents(kit_dir):
    """Rings drawn in the camp: per colour 12 of 13 mm and 2 of 18 mm, none overlapping
    another, each inside a lane of its colour's tint."""
    from shapely.geometry import Point

    from pnp.contract.palette import ink

    root = ET.parse(kit_dir / "svg" / "board.svg").getroot()
    rings = [
        (float(c.get("r")), Point(float(c.get("cx")), float(c.get("cy"))).buffer(float(c.get("r"))))
        for c in root.iter(f"{NS}circle")
        if c.get("stroke") == "#8A8A8A"
    ]
    for colour in COLOURS:
        tinted = [  # the lane, and the colour's blades drawn on the refuges
            _svg_path_polygon(p.get("d"))
            for p in root.iter(f"{NS}path")
            if p.get("fill", "").upper() == ink(colour).light and p.get("stroke") == "#7A7A7A"
        ]
        mine = [(r, g) for r, g in rings if any(t.contains(g) for t in tinted)]
        assert sorted(r for r, _ in mine) == [6.5] * 12 + [9.0] * 2
    for i, (_, a) in enumerate(rings):
        for _, b in rings[i + 1 :]:
            assert a.intersection(b).area < 1e-6
