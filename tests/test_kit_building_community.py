"""The built Building Community kit, measured in the files a user prints and cuts.

Expected numbers come from the spec and print-and-cut.md, never from the code's
constants: 37 spaces at radius 3 and 217 at radius 8, start colours 13/12/12 (R = 3) and
19/21/21 (R = 4), six pawns, 25 mm tiles, A4 and Letter, a 300 x 200 mm cutter bed.

What the kit defines, pinned here: a tile is `tile_size` (25 mm) across flats; a board
space is one tile plus the clearance (1 mm), 26 mm across flats, which is also the
distance between neighbouring space centres. Spaces and tiles are flat-top hexagons.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
from cli_run import bad_config_error
from cut_geometry import svg_path_nums
from shared import shared_folder

from pnp.build import build_game, cut_sheets_of, kit_pages, make_kit
from pnp.contract.palette import ink
from pnp.draw.checks import has_errors
from pnp.draw.render.svg import component_svg
from pnp.games import get_game
from pnp.games.building_community.kit import checks
from pnp.games.building_community.params import BuildingCommunityParams

SLUG = "building-community"
MM = 25.4 / 72
NS = "{http://www.w3.org/2000/svg}"
TINTS = {ink(name).light: name for name in ("red", "blue", "yellow")}  # the default colours
SEED = Path("/work/shared/seeds/building-community.txt")


@pytest.fixture(scope="module")
def kit_dir(tmp_path_factory) -> Path:
    def make(out: Path) -> None:
        build_game(SLUG, ["a4"], out, None, ["pdf", "svg"], values={"print_cut_lines": True})

    return shared_folder(tmp_path_factory, "bc-kit", make) / SLUG


def paths(svg: str | Path, layer: str | None = None) -> list[ET.Element]:
    root = ET.fromstring(svg) if isinstance(svg, str) else ET.parse(svg).getroot()
    if layer is not None:
        root = next(g for g in root.iter(f"{NS}g") if g.get("id") == f"layer-{layer}")
    return list(root.iter(f"{NS}path"))


def points(path: ET.Element) -> list[tuple[float, float]]:
    nums = svg_path_nums(path.get("d", ""))
    return list(zip(nums[0::2], nums[1::2], strict=True))


def hexagons(svg: str | Path, fills: dict[str, str]) -> list[tuple[float, float, str]]:
    """(centre x, centre y, colour) of every six-cornered path filled with a listed fill."""
    out = []
    for p in paths(svg):
        pts = points(p)
        if p.get("fill") in fills and len(pts) == 6:
            out.append(
                (sum(x for x, _ in pts) / 6, sum(y for _, y in pts) / 6, fills[p.get("fill")])
            )
    return out


def across_flats(pts: list[tuple[float, float]]) -> float:
    """A flat-top hexagon's height is its size across flats."""
    ys = [y for _, y in pts]
    return max(ys) - min(ys)


def board_svg(radius: int) -> str:
    _, kit = make_kit(SLUG, paper="a4", values={"radius": radius})
    return component_svg(kit.component("board"))


# --- board -------------------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_radius_3_board_prints_on_one_sheet(paper):
    _, kit = make_kit(SLUG, paper=paper)
    board_pages = [p for p in kit_pages(kit) if p.section == "Board" and p.side != "blank"]
    assert len(board_pages) == 1
    assert "tile" not in board_pages[0].title and "assembly" not in board_pages[0].title


def test_the_board_on_the_a4_pdf_is_the_svg_board_at_full_size(kit_dir):
    """The red cut outline on page 2 (plain paper, after the cover) measures the board's
    trim and stays off the margins."""
    root = ET.parse(kit_dir / "svg" / "board.svg").getroot()
    w = float(root.get("width").removesuffix("mm")) - 6.0  # less 3 mm bleed each side
    h = float(root.get("height").removesuffix("mm")) - 6.0
    with pdfplumber.open(kit_dir / "building-community-a4.pdf") as pdf:
        page = pdf.pages[1]  # the plain-paper job: the cover, then the board
        head = page.within_bbox((0, 0, page.width, 40)).extract_text()
        assert "Board — on plain paper page 2" in head
        red = [
            c
            for c in page.curves + page.rects
            if tuple(round(v, 2) for v in c.get("stroking_color") or ()) == (1.0, 0.0, 0.0)
        ]
        (cut,) = red
        assert (cut["width"] * MM, cut["height"] * MM) == pytest.approx((w, h), abs=0.05)
        assert cut["x0"] * MM >= 6.35 + 3.0 and (page.width - cut["x1"]) * MM >= 6.35 + 3.0


def test_radius_8_board_is_tiled_with_an_assembly_map():
    _, kit = make_kit(SLUG, paper="a4", values={"radius": 8})
    titles = [p.title for p in kit_pages(kit) if p.section == "Board" and p.side != "blank"]
    assert len(titles) > 2 and "assembly map" in titles[0]  # read before cutting
    assert all("tile " in t for t in titles[1:])


@pytest.mark.parametrize("radius, spaces", [(2, 19), (3, 37), (8, 217)])
def test_board_has_one_outlined_space_per_cell(radius, spaces):
    svg = board_svg(radius)
    assert len(hexagons(svg, TINTS)) == spaces
    outlined = [p for p in paths(svg) if p.get("fill") in TINTS]
    assert all(p.get("stroke") not in (None, "none") for p in outlined)


def test_spaces_are_tile_plus_clearance_apart_and_across(kit_dir):
    """Neighbouring space centres 26 mm apart; each space 26 mm across flats."""
    svg = kit_dir / "svg" / "board.svg"
    cells = hexagons(svg, TINTS)
    gaps = sorted(math.dist(a[:2], b[:2]) for i, a in enumerate(cells) for b in cells[i + 1 :])
    assert gaps[0] == pytest.approx(26.0, abs=0.01)
    sizes = {round(across_flats(points(p)), 2) for p in paths(svg) if p.get("fill") in TINTS}
    assert sizes == {26.0}


def _colouring(svg: str | Path) -> dict[tuple[int, int], str]:
    """The board's start colours by axial cell, read back from the drawing alone."""
    cells = hexagons(svg, TINTS)
    cx = sum(x for x, _, _ in cells) / len(cells)
    cy = sum(y for _, y, _ in cells) / len(cells)
    pitch = 26.0
    out = {}
    for x, y, colour in cells:  # flat-top, SVG y down: x = p*sqrt3/2*(q+r), y = -p/2*(q-r)
        a = (x - cx) / (pitch * math.sqrt(3) / 2)
        b = -(y - cy) / (pitch / 2)
        out[(round((a + b) / 2), round((a - b) / 2))] = colour
    return out


@pytest.mark.parametrize("radius, counts", [(3, (13, 12, 12)), (4, (19, 21, 21))])
def test_start_colouring_read_from_the_board(radius, counts):
    colours = _colouring(board_svg(radius))
    n = Counter(colours.values())
    assert (n["red"], n["blue"], n["yellow"]) == counts
    steps = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    for (q, r), colour in colours.items():
        for dq, dr in steps:
            assert colours.get((q + dq, r + dr)) != colour, (q, r)
    _, kit = make_kit(SLUG, values={"radius": radius})
    model = kit.model
    assert tuple(colours[c] for c in model.cells) == tuple(
        model.colours[i] for i in model.start_colours
    )


def test_start_plates_number_the_pawns_per_the_corner_table(kit_dir):
    """Every pawn number of every player count is on the board, each in its pawn colour."""
    root = ET.parse(kit_dir / "svg" / "board.svg").getroot()
    numbers = Counter(t.text for t in root.iter(f"{NS}text") if t.text and t.text.isdigit())
    # pawn 1: one plate (all counts); 2: three plates; 3: three; 4: two; 5: one; 6: one
    assert numbers == {"1": 1, "2": 3, "3": 3, "4": 2, "5": 1, "6": 1}


# --- tiles -------------------------------------------------------------------------------


def test_tile_is_25_mm_across_flats_and_fits_its_26_mm_space(kit_dir):
    for colour in ("red", "blue", "yellow"):
        (cut,) = paths(kit_dir / "svg" / f"tile-{colour}.svg", "cut")
        assert across_flats(points(cut)) == pytest.approx(25.0, abs=0.002)


def test_the_tile_sheet_names_its_tiles_width_by_height_as_drawn(kit_dir):
    """The tiles sheet's header gives the tile's size width x height as drawn (its SVG,
    the print-on-demand README), whichever way the sheet turns it: measured on the red
    cut outlines in the PDF, either way up."""
    with pdfplumber.open(kit_dir / "building-community-a4.pdf") as pdf:
        for page in pdf.pages:
            said = re.search(
                r"Tiles \(([\d.]+) x ([\d.]+) mm\)",
                page.within_bbox((0, 0, page.width, 40)).extract_text(),
            )
            if said and "backs" not in page.extract_text():
                break
        else:
            pytest.fail("no tiles sheet")
        red = [
            c
            for c in page.curves
            if tuple(round(v, 2) for v in c.get("stroking_color") or ()) == (1.0, 0.0, 0.0)
        ]
        assert len(red) > 30
        sizes = {(round(c["width"] * MM, 2), round(c["height"] * MM, 2)) for c in red}
    root = ET.parse(kit_dir / "svg" / "tile-red.svg").getroot()
    drawn = tuple(
        round(float(root.get(k).removesuffix("mm")) - 6.0, 2) for k in ("width", "height")
    )  # less 3 mm bleed each side
    assert (float(said[1]), float(said[2])) == drawn == (28.87, 25.0)
    assert sizes in ({drawn}, {drawn[::-1]})  # on the duplex sheet they stand on a point


def test_tile_back_is_the_same_colour_as_its_face(kit_dir):
    for colour in ("red", "blue", "yellow"):
        face = paths(kit_dir / "svg" / f"tile-{colour}.svg")[0].get("fill")
        back = paths(kit_dir / "svg" / f"tile-{colour}-back.svg")[0].get("fill")
        assert face == back == ink(colour).hex


def test_tile_symbols_sit_inside_the_tile_and_clear_of_a_pawn(kit_dir):
    """Three symbols per tile, inside the cut line, outside the token in the middle."""
    svg = kit_dir / "svg" / "tile-red.svg"
    (cut,) = paths(svg, "cut")
    corners = points(cut)
    cx, cy = sum(x for x, _ in corners) / 6, sum(y for _, y in corners) / 6
    marks = [points(p) for p in paths(svg, "art") if p.get("fill") == "#FFFFFF"]
    root = next(g for g in ET.parse(svg).getroot().iter(f"{NS}g") if g.get("id") == "layer-art")
    for c in root.iter(f"{NS}circle"):  # a round symbol is a true circle
        if c.get("fill") == "#FFFFFF":
            x, y, r = (float(c.get(k, "0")) for k in ("cx", "cy", "r"))
            marks.append([(x + r * math.cos(a / 8), y + r * math.sin(a / 8)) for a in range(51)])
    assert len(marks) == 3
    token = 25.0 * 0.56 / 2  # the pawn token's radius on a 25 mm tile
    for m in marks:
        reach = [math.dist((x, y), (cx, cy)) for x, y in m]
        assert min(reach) >= token - 0.3
        assert all(_inside_hexagon(x - cx, y - cy, 25.0 - 1.0) for x, y in m)


def _inside_hexagon(x: float, y: float, flats: float) -> bool:
    """Inside a flat-top hexagon `flats` across, centred on the origin."""
    h = flats / 2
    return abs(y) <= h and abs(x) * math.sqrt(3) / 2 + abs(y) / 2 <= h


@pytest.mark.parametrize("radius, tiles", [(3, 37), (8, 217)])
def test_every_tile_goes_to_the_cut_sheets(radius, tiles):
    _, kit = make_kit(SLUG, values={"radius": radius})
    sheets = cut_sheets_of(kit)
    hexes = 0
    for sheet in sheets:
        svg = component_svg(sheet)
        assert 'width="300mm" height="200mm"' in svg
        cuts = paths(svg, "cut")
        assert all(len(points(c)) == 6 for c in cuts)
        hexes += len(cuts)
    assert hexes == tiles
    if radius == 3:
        assert len(sheets) in (1, 2)


def test_tiles_print_on_one_sheet_with_its_back():
    _, kit = make_kit(SLUG, paper="a4")
    pages = [p for p in kit_pages(kit) if p.section == "Tiles"]
    assert [p.side for p in pages] == ["front", "back"]
    fronts = [pl for pl in pages[0].placements if pl.component.name.startswith("tile-")]
    backs = [pl.component.name for pl in pages[1].placements]
    assert len(fronts) == 37 and len(backs) == 37
    assert all(name.endswith("-back") for name in backs)


# --- pawns -------------------------------------------------------------------------------


def test_six_pawns_as_tokens_and_standees(kit_dir):
    tokens = sorted((kit_dir / "svg").glob("pawn-token-*.svg"))
    standees = sorted((kit_dir / "svg").glob("pawn-standee-*.svg"))
    assert len(tokens) == len(standees) == 6
    for s in standees:
        assert len(paths(s, "cut")) == 1 and len(paths(s, "score")) == 1
    fills = set()
    for t in tokens:
        root = ET.parse(t).getroot()
        discs = [c for c in root.iter(f"{NS}circle") if c.get("fill") not in (None, "none")]
        fills.add(discs[1].get("fill"))  # under the white rim: the pawn's colour
        assert float(root.get("width").removesuffix("mm")) == pytest.approx(25.0 * 0.56)
    assert len(fills) == 6


def test_a_pawn_the_colour_of_a_tile_is_flagged():
    params = BuildingCommunityParams(
        pawn_colours=("black", "purple", "green", "orange", "sky", "red")
    )
    found = checks.check_pawns_on_tiles(params)
    assert [f.level for f in found] == ["warning"] and "red pawn" in found[0].message
    distinct = ("black", "purple", "green", "orange", "sky", "brown")
    assert checks.check_pawns_on_tiles(BuildingCommunityParams(pawn_colours=distinct)) == []


# --- checks ------------------------------------------------------------------------------


def test_default_kit_checks_clean_and_solver_finds_a_win():
    game, kit = make_kit(SLUG)
    found = game.checks(kit)
    assert not has_errors(found)
    (solved,) = [f for f in found if f.component == "layout"]
    assert solved.level == "info" and "can win" in solved.message


def test_a_tiny_solver_budget_warns():
    game, kit = make_kit(SLUG, values={"radius": 5, "solver_budget": 50})
    (solved,) = [f for f in game.checks(kit) if f.component == "layout"]
    assert solved.level == "warning" and "no win within 50 positions" in solved.message


def test_a_miscoloured_board_is_caught_from_the_drawing():
    _, kit = make_kit(SLUG)
    board = kit.component("board")
    tints = [
        i for i, s in enumerate(board.items) if getattr(s, "style", None) and s.style.fill in TINTS
    ]
    a, b = board.items[tints[0]], board.items[tints[1]]  # two neighbours in the first row
    board.items[tints[0]] = type(a)(a.geom, a.layer, b.style)
    tiles = [c for c in kit.components if c.name.startswith("tile-")]
    found = checks.check_start_colouring(board, tiles, kit.params, kit.model)
    assert has_errors(found)
    assert any("neighbouring" in f.message for f in found)
    assert any("engine plays" in f.message for f in found)


def test_a_tile_larger_than_its_space_is_an_error():
    _, kit = make_kit(SLUG)
    board, tile = kit.component("board"), kit.component("tile-red")
    board.meta["pitch"] = 24.0
    assert has_errors(checks.check_tile_fits(board, tile, 1.0))


def test_start_spaces_are_distinct_and_no_corner():
    _, kit = make_kit(SLUG, values={"radius": 2})
    assert checks.check_start_spaces(kit.model) == []


# --- rule cards --------------------------------------------------------------------------


def _card_text(values: dict | None = None) -> str:
    _, kit = make_kit(SLUG, values=values)
    return " ".join(
        t.text for c in kit.components if c.name.startswith("rule-card") for t in c.texts()
    )


def test_rule_cards_state_the_decisions():
    text = _card_text()
    for needle in (
        "six spaces round your pawn",  # scope: near
        "larger one",
        "same size, of either",
        "smaller one too",  # special move
        "you pass",  # forced pass
        "never allowed",
        "position comes back",  # repeat loses
        "13 red",
    ):
        assert needle in text, needle
    assert "anywhere on the board" in _card_text({"scope": "anywhere"})


def test_rule_cards_copy_no_run_of_the_source_text():
    if not SEED.exists():
        pytest.skip("the seed text is not on this machine")
    seed = re.findall(r"[a-z']+", SEED.read_text(encoding="utf-8").lower())
    runs = {" ".join(seed[i : i + 6]) for i in range(len(seed) - 5)}
    ours = re.findall(r"[a-z']+", _card_text().lower())
    copied = [" ".join(ours[i : i + 6]) for i in range(len(ours) - 5)]
    assert not [r for r in copied if r in runs]


def test_the_game_is_registered_with_its_engine_solver_and_variants():
    game = get_game(SLUG)
    assert game.title == "Building Community" and game.solver is not None
    assert set(game.variants) == {"radius-2", "anywhere"}


# --- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "toml, needle",
    [
        ("radius = 1", "'radius' must be from 2 to 8"),
        ("radius = 9", "'radius' must be from 2 to 8"),
        ("players = 7", "'players' is the number of players, a whole number from 2 to 6"),
        ('scope = "everywhere"', "'scope' must be one of near, anywhere"),
        ("tile_size = 12", "too small to carry its colour symbol"),
    ],
)
@pytest.mark.parametrize("command", ["check", "build"])
def test_bad_input_is_one_error_line_and_writes_nothing(capsys, tmp_path, toml, needle, command):
    assert needle in bad_config_error(capsys, tmp_path, command, SLUG, toml)
