"""Building Community's printed space names: on the board where the spaces are, in the
solver's line, in the solution diagrams, and enough for a person to replay a win.

The replay reads the names the solver printed and finds each on the produced board SVG,
then plays the turns with the readable rules: the board drawing alone says where to go.
"""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
from cli_run import one_error_line, pnp, run

from geometry import hexgrid
from pnp.build import build_game, kit_pages, make_kit
from pnp.contract.palette import ink
from pnp.draw.kit import PrintParams
from pnp.draw.render.svg import component_svg
from pnp.games.building_community import rules
from pnp.games.building_community.kit.board import NAME_INK
from pnp.games.building_community.kit.diagrams import HIGHLIGHT_LINE, draw_line
from pnp.games.building_community.params import BuildingCommunityParams
from pnp.games.building_community.rules.model import play_model
from pnp.games.building_community.rules.notation import cell_named, label
from pnp.runtime.errors import PnpError

SLUG = "building-community"
NS = "{http://www.w3.org/2000/svg}"
TINTS = {ink(c).light for c in ("red", "blue", "yellow")}
NAME = re.compile(r"^[a-z][0-9]+$")
TURN = re.compile(r"^\s*(\d+)\. pawn (\d+): (?:swap ([a-z]\d+) ([a-z]\d+), to ([a-z]\d+)|pass)$")


def spaces(svg: str | Path) -> list[tuple[float, float, float]]:
    """(centre x, centre y, size across flats) of every tinted six-cornered space."""
    root = ET.fromstring(svg) if isinstance(svg, str) else ET.parse(svg).getroot()
    out = []
    for p in root.iter(f"{NS}path"):
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", p.get("d", ""))]
        pts = list(zip(nums[0::2], nums[1::2], strict=True))
        if p.get("fill") in TINTS and len(pts) == 6:
            ys = [y for _, y in pts]
            out.append((sum(x for x, _ in pts) / 6, sum(ys) / 6, max(ys) - min(ys)))
    return out


def printed_names(svg: str | Path) -> dict[str, tuple[float, float]]:
    """Every space name printed on the board, with its anchor point (SVG mm, y down)."""
    root = ET.fromstring(svg) if isinstance(svg, str) else ET.parse(svg).getroot()
    out: dict[str, tuple[float, float]] = {}
    for t in root.iter(f"{NS}text"):
        if t.get("fill") == NAME_INK and NAME.match(t.text or ""):
            assert t.text not in out, f"{t.text} printed twice"
            out[t.text] = (float(t.get("x")), float(t.get("y")))
    return out


def space_under(svg_spaces, x: float, y: float) -> tuple[float, float, float]:
    """The space whose hexagon holds (x, y)."""
    (hit,) = [s for s in svg_spaces if _inside(x - s[0], y - s[1], s[2])]
    return hit


def _inside(dx: float, dy: float, flats: float) -> bool:
    """Inside a flat-top hexagon `flats` across, centred at the origin."""
    dx, dy = abs(dx), abs(dy)
    return dy <= flats / 2 and dx * math.sqrt(3) / 2 + dy / 2 <= flats / 2


def cell_at(svg_spaces, space: tuple[float, float, float]) -> tuple[int, int]:
    """The axial cell of a drawn space: its offset from the field's middle, in pitches
    (flat-top, SVG y down: x = p*sqrt3/2*(q+r), y = -p/2*(q-r))."""
    cx = sum(s[0] for s in svg_spaces) / len(svg_spaces)
    cy = sum(s[1] for s in svg_spaces) / len(svg_spaces)
    x, y, pitch = space
    a = (x - cx) / (pitch * math.sqrt(3) / 2)
    b = -(y - cy) / (pitch / 2)
    return round((a + b) / 2), round((a - b) / 2)


def board_svg(radius: int = 3) -> str:
    _, kit = make_kit(SLUG, paper="a4", values={"radius": radius})
    return component_svg(kit.component("board"))


@pytest.fixture(scope="module")
def kit_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("kit")
    build_game(SLUG, ["a4"], out, None, ["pdf", "svg"])
    return out / SLUG


# --- the notation ------------------------------------------------------------------------


@pytest.mark.parametrize("radius", [2, 3, 8])
def test_every_space_has_its_own_name_and_the_name_gives_the_space_back(radius):
    cells = hexgrid.board(radius)
    names = [label(c, radius) for c in cells]
    assert len(set(names)) == len(cells)
    assert [cell_named(n, radius) for n in names] == list(cells)
    assert label((0, 0), radius) == f"{'abcdefghijklmnopq'[radius]}{radius + 1}"
    with pytest.raises(ValueError):
        cell_named(f"a{radius + 2}", radius)  # the edge column holds radius + 1 spaces


# --- the printed board -------------------------------------------------------------------


@pytest.mark.parametrize("radius", [2, 3, 8])
def test_the_board_prints_one_name_per_space_inside_that_space(radius):
    svg = board_svg(radius)
    drawn = spaces(svg)
    names = printed_names(svg)
    assert len(names) == len(drawn) == hexgrid.cell_count(radius)
    for name, (x, y) in names.items():
        space = space_under(drawn, x, y)
        assert label(cell_at(drawn, space), radius) == name
        assert space[1] < y  # below the symbol (SVG y grows downwards), clear of a pawn


def test_column_letters_stand_under_each_column_foot(kit_dir):
    svg = kit_dir / "svg" / "board.svg"
    drawn = spaces(svg)
    root = ET.parse(svg).getroot()
    letters = {
        t.text: (float(t.get("x")), float(t.get("y")))
        for t in root.iter(f"{NS}text")
        if re.fullmatch(r"[a-z]", t.text or "")
    }
    assert sorted(letters) == list("abcdefg")
    xs = sorted({round(s[0], 2) for s in drawn})  # the columns, left to right
    for letter, (x, y) in letters.items():
        near = min(xs, key=lambda c: abs(c - x))
        foot = max((s for s in drawn if round(s[0], 2) == near), key=lambda s: s[1])
        assert label(cell_at(drawn, foot), 3) == f"{letter}1"
        assert abs(x - foot[0]) < foot[2] / math.sqrt(3) / 2  # under the foot's flat edge
        assert 0 < y - (foot[1] + foot[2] / 2) < 6.0  # just under it, in the margin


@pytest.mark.slow  # reads the whole board page; the names' places are held in the fast tier
def test_the_kit_pdf_prints_every_name_on_the_board_page(kit_dir):
    with pdfplumber.open(kit_dir / "building-community-a4.pdf") as pdf:
        (board,) = [
            pg
            for pg in pdf.pages
            if " Board " in pg.within_bbox((0, 0, pg.width, 40)).extract_text()
        ]
        words = {w["text"] for w in board.extract_words()}
    cells = hexgrid.board(3)
    assert {label(c, 3) for c in cells} <= words


# --- the solver's line, in names --------------------------------------------------------


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> tuple[str, dict, Path]:
    """`pnp solve` with a small budget: its text, its JSON and its --pdf."""
    folder = tmp_path_factory.mktemp("solve")
    pdf, answer = folder / "line.pdf", folder / "answer.json"
    done = pnp("solve", SLUG, "--budget", "50000", "--pdf", str(pdf), "--json", str(answer))
    assert done.returncode == 0, done.stderr
    return done.stdout, json.loads(answer.read_text()), pdf  # stdout: what a person reads


def test_the_text_prints_one_turn_a_line_in_printed_names(solved):
    text, answer, _ = solved
    turns = [m for m in (TURN.match(ln) for ln in text.splitlines()) if m]
    assert answer["result"] == "win" and len(turns) == answer["length"]
    assert [int(m.group(1)) for m in turns] == list(range(1, answer["length"] + 1))
    model = play_model(BuildingCommunityParams())
    for m, turn in zip(turns, answer["line"], strict=True):
        assert int(m.group(2)) == turn["pawn"] + 1
        swap = {cell_named(m.group(3), 3), cell_named(m.group(4), 3)}
        assert swap == {tuple(c) for c in turn["swap"]}
        assert cell_named(m.group(5), 3) == tuple(turn["to"])
    assert [t.split(". ", 1)[1] for t in (m.group(0) for m in turns)] == answer["line_labels"]
    assert len(model.cells) == 37


def test_the_json_keeps_its_fields_and_adds_the_names(solved):
    _, answer, _ = solved
    keys = ["game", "radius", "players", "scope", "result", "length", "shortest", "nodes"]
    assert list(answer)[: len(keys)] == keys
    assert {"seconds", "start", "line", "line_labels"} <= set(answer)
    assert len(answer["line_labels"]) == len(answer["line"])


def test_a_person_replays_the_printed_line_from_the_board_alone(solved, kit_dir):
    """Names from the text output, positions from the board SVG, rules from the state."""
    text, _, _ = solved
    svg = kit_dir / "svg" / "board.svg"
    drawn = spaces(svg)
    names = printed_names(svg)
    model = play_model(BuildingCommunityParams())

    def where(name: str) -> int:
        return model.index(cell_at(drawn, space_under(drawn, *names[name])))

    state = rules.new_game(model, 2)
    turns = [m for m in (TURN.match(ln) for ln in text.splitlines()) if m]
    for m in turns:
        assert int(m.group(2)) == state.to_move + 1
        if m.group(3) is None:
            state.apply(rules.PASS)
            continue
        a, b = sorted((where(m.group(3)), where(m.group(4))))
        state.apply(rules.Move((a, b), where(m.group(5))))  # raises on an illegal move
    assert state.ended is rules.End.WIN


def test_the_pdf_draws_one_diagram_per_turn_with_its_caption(solved):
    text, answer, pdf = solved
    with pdfplumber.open(pdf) as doc:
        page_text = "\n".join(p.extract_text() for p in doc.pages)
    assert "Start" in page_text
    for i, line in enumerate(answer["line_labels"], 1):
        assert f"{i}. {line}" in page_text
    assert pdf.read_bytes().startswith(b"%PDF")


def test_each_diagram_outlines_the_swapped_pair():
    params = BuildingCommunityParams()
    model = play_model(params)
    state = rules.new_game(model, 2)
    move = state.moves()[0]
    line = [rules.turn_json(model, 0, move)]
    (sheet,) = draw_line(params, 2, line, PrintParams())
    outlined = [
        s.geom
        for s in sheet.shapes("art")
        if s.style.stroke_width == HIGHLIGHT_LINE and s.geom.geom_type == "LinearRing"
    ]
    assert len(outlined) == 2  # the start shows none, turn 1 its two spaces
    assert outlined[0].centroid.distance(outlined[1].centroid) == pytest.approx(
        outlined[0].bounds[3] - outlined[0].bounds[1], rel=1e-6
    )  # neighbours: one space apart
    texts = {t.text for t in sheet.texts()}
    assert {label(model.cells[i], 3) for i in move.swap} <= texts


@pytest.mark.parametrize("bad", ["-", ""])
def test_pdf_needs_a_file_name(capsys, bad):
    code, _, err = run(capsys, "solve", SLUG, "--budget", "10", "--pdf", bad)
    assert code == 2 and "--pdf needs a file name" in one_error_line(err)


def test_pdf_into_a_folder_is_refused_before_the_search(capsys, tmp_path):
    code, _, err = run(capsys, "solve", SLUG, "--budget", "10", "--pdf", str(tmp_path))
    assert code == 2 and "folder" in one_error_line(err)


def test_no_win_no_pdf(capsys, tmp_path):
    target = tmp_path / "line.pdf"
    code, out, err = run(capsys, "solve", SLUG, "--budget", "10", "--pdf", str(target))
    assert code == 2 and "no winning line" in one_error_line(err)
    assert "unknown" in out and not target.exists()


# --- the kit's solution page -------------------------------------------------------------


def test_solution_true_adds_the_diagrams_to_the_kit():
    _, kit = make_kit(SLUG, paper="a4", values={"solution": True})
    pages = [p for p in kit_pages(kit) if p.section == "Solution" and p.side != "blank"]
    assert pages and all(p.title.startswith("Solution") for p in pages)
    assert kit.sections[-1].title == "Solution"
    _, plain = make_kit(SLUG, paper="a4")
    assert not [p for p in kit_pages(plain) if p.section == "Solution"]


def test_solution_true_without_a_win_is_one_line():
    with pytest.raises(PnpError, match="solution = true: the solver found no win"):
        make_kit(SLUG, paper="a4", values={"solution": True, "solver_budget": 10})


@pytest.mark.parametrize("radius, centre", [(2, "c3"), (3, "d4")])
def test_the_turn_card_explains_the_names_without_shrinking_the_deck(radius, centre):
    _, kit = make_kit(SLUG, paper="a4", values={"radius": radius})
    card = kit.component("rule-card-3")
    assert f"{centre} is the centre" in " ".join(t.text for t in card.texts())
    assert label((0, 0), radius) == centre
    body = max(
        Counter(t.size for t in kit.component(f"rule-card-{i}").texts()).most_common(1)[0][0]
        for i in (1, 2, 3, 4)
    )
    assert body == 8.0  # the deck's body text stays at 8 pt


def test_a_solver_without_names_keeps_todays_answer_and_draws_nothing(capsys, tmp_path):
    """The toy's solver offers no `label_line` and its game no `draw_line`."""
    from toy_game import GAME as TOY

    from pnp.games import registered
    from pnp.sim.solve import run_solve

    with registered(TOY):
        answer = run_solve("lamps", budget=10_000)
        assert answer["result"] == "win" and "line_labels" not in answer
        code, _, err = run(capsys, "solve", "lamps", "--pdf", str(tmp_path / "x.pdf"))
    assert code == 2 and "cannot draw its solution" in one_error_line(err)
