"""Print-on-demand and Tabletop Simulator images, read back with Pillow: template sizes at
300 dpi, TTS's 10 x 7 grid under 4096 px, every card of every deck, and byte-identical
rebuilds (the LightBurn projects too)."""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

import pytest
from PIL import Image
from shapely.geometry import box

from pnp.build import build_game, make_kit
from pnp.gallery import gallery_for
from pnp.render.faces import Deck, face_image, kit_decks
from pnp.render.pod import POD_DPI, TEMPLATES, template_for
from pnp.render.tts import CELL_WIDTH, GRID_COLUMNS, GRID_ROWS, MAX_WIDTH, PER_SHEET, cell_size
from pnp.scene import Component, Shape, Style


def test_template_pixels_are_the_game_crafters():
    assert TEMPLATES["poker"].pixels == (825, 1125)
    assert TEMPLATES["mini"].pixels == (600, 825)
    assert TEMPLATES["square"].pixels == (825, 825)


def _two_tone(w: float, h: float, bleed: float) -> Component:
    """Red left half, blue right half, both into the bleed."""
    c = Component("t", "T", w, h, imposition="card", bleed=bleed)
    c.add(Shape(box(-bleed, -bleed, w / 2, h + bleed), style=Style(fill="#ff0000", stroke=None)))
    c.add(Shape(box(w / 2, -bleed, w + bleed, h + bleed), style=Style(fill="#0000ff", stroke=None)))
    c.add(Shape(box(0, 0, w, h), "cut", Style(stroke="#00ff00", stroke_width=1)))
    return c


def test_a_face_fills_its_box_and_leaves_the_cut_line_out():
    img = face_image(_two_tone(63.5, 88.9, 3.0), 825, 1125, bleed_px=38)
    assert img.size == (825, 1125)
    px = img.load()
    assert px[5, 5] == (255, 0, 0) and px[819, 1119] == (0, 0, 255)  # bleed art to the edge
    assert all(px[x, 600] != (0, 255, 0) for x in range(825))  # no machine line printed


def test_a_face_of_another_shape_is_centred_and_its_edge_carried_out():
    img = face_image(_two_tone(40.0, 40.0, 3.0), 825, 1125, bleed_px=38)
    assert img.size == (825, 1125)
    px = img.load()
    assert px[412 - 100, 2] == (255, 0, 0) and px[412 + 100, 1122] == (0, 0, 255)
    turned = face_image(_two_tone(84.0, 54.0, 3.0), 825, 1125, bleed_px=38, turn=True)
    assert turned.size == (825, 1125)
    # a quarter turn anticlockwise: the card's left (red) half is now at the bottom
    assert turned.load()[412, 1100] == (255, 0, 0) and turned.load()[412, 20] == (0, 0, 255)


@cache
def built(tmp: Path, slug: str) -> Path:
    build_game(slug, ["a4"], tmp, formats=["lbrn2", "pod", "tts"])
    return tmp / slug


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("exports")


def _upright(deck: Deck) -> float:
    """The card's width over height, as it stands in the sheet."""
    w, h = deck.size
    return min(w, h) / max(w, h) if deck.landscape else w / h


def _decks(slug: str) -> list[Deck]:
    return kit_decks(make_kit(slug, paper="a4")[1].components)


@pytest.mark.slow
@pytest.mark.parametrize("slug", ["desert-home", "exploding-dice"])
def test_pod_images_are_the_template_at_300_dpi(out: Path, slug: str):
    folder = built(out, slug)
    for deck in _decks(slug):
        t = template_for(deck)
        files = sorted((folder / "pod" / deck.name).glob("*.png"))
        fronts = [p for p in files if p.name.endswith("-front.png")]
        assert [p.name for p in fronts] == [
            f"{n:03d}-front.png" for n in range(1, len(deck.faces) + 1)
        ]
        assert (folder / "pod" / deck.name / "back.png") in files
        for p in files:
            img = Image.open(p)
            assert img.size == t.pixels, p
            assert round(img.info["dpi"][0]) == POD_DPI and round(img.info["dpi"][1]) == POD_DPI
        readme = (folder / "pod" / deck.name / "README.txt").read_text()
        assert t.title in readme and f"{deck.count} cards" in readme
    # the rule cards are poker size exactly in Desert Home, scaled in Exploding Dice
    card = template_for(next(d for d in _decks(slug) if d.name == "card"))
    assert card.name == "poker"


@pytest.mark.slow
@pytest.mark.parametrize("slug", ["desert-home", "exploding-dice"])
def test_tts_deck_sheets_are_a_10_by_7_grid_under_4096_px(out: Path, slug: str):
    folder = built(out, slug)
    for deck in _decks(slug):
        cw, ch = cell_size(deck)
        assert cw <= CELL_WIDTH and abs(cw / ch - _upright(deck)) < 0.01
        sheets = PER_SHEET and -(-deck.count // PER_SHEET)
        names = [deck.name] if sheets == 1 else [f"{deck.name}-{n}" for n in range(1, sheets + 1)]
        for name in names:
            faces = Image.open(folder / "tts" / f"{name}-faces.png")
            back = Image.open(folder / "tts" / f"{name}-back.png")
            assert faces.size == (GRID_COLUMNS * cw, GRID_ROWS * ch)
            assert faces.width <= MAX_WIDTH and faces.height <= MAX_WIDTH
            assert back.size == (cw, ch)
            # the hidden-card slot (last cell) holds the back
            last = faces.crop((faces.width - cw, faces.height - ch, faces.width, faces.height))
            assert last.tobytes() == back.convert("RGB").tobytes()
        if sheets == 1 and deck.count < PER_SHEET:  # the cell after the last card is empty
            i = deck.count
            cell = faces.crop(
                ((i % 10) * cw, (i // 10) * ch, (i % 10 + 1) * cw, (i // 10 + 1) * ch)
            )
            assert cell.getextrema() == ((255, 255), (255, 255), (255, 255))
    board = Image.open(folder / "tts" / "board.png")
    assert max(board.size) == 4096


@pytest.mark.slow
def test_every_new_output_is_byte_identical_on_rebuild(out: Path, tmp_path: Path):
    first = built(out, "desert-home")
    build_game("desert-home", ["a4"], tmp_path, formats=["lbrn2", "pod", "tts"])
    again = tmp_path / "desert-home"
    new = [p.relative_to(first) for p in first.rglob("*") if p.is_file()]
    wanted = [p for p in new if p.parts[0] in ("pod", "tts") or p.suffix == ".lbrn2"]
    assert len([p for p in wanted if p.suffix == ".lbrn2"]) == 3
    assert any(p.parts[0] == "pod" for p in wanted) and any(p.parts[0] == "tts" for p in wanted)
    for rel in new:
        assert (first / rel).read_bytes() == (again / rel).read_bytes(), rel


@pytest.mark.slow
def test_the_gallery_links_each_export(out: Path):
    folder = built(out, "desert-home")
    html = gallery_for(folder.parent).read_text()
    for rel in (
        "cut/plywood-1.lbrn2",
        "pod/tile/README.txt",
        "pod/tile/001-front.png",
        "pod/tile/back.png",
        "tts/tile-faces.png",
        "tts/tile-back.png",
        "tts/board.png",
    ):
        assert f'href="desert-home/{rel}"' in html, rel
        assert (folder / rel).is_file()


def test_png_bytes_carry_the_dpi():
    from pnp.render.faces import png_bytes

    img = Image.new("RGB", (10, 10), "white")
    assert round(Image.open(io.BytesIO(png_bytes(img, 300))).info["dpi"][0]) == 300
