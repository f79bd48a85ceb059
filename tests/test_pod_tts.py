"""Print-on-demand and Tabletop Simulator images, read back with Pillow: every POD image is
its piece at the piece's own size (measured from the kit's own SVG) on a product of that
size, or its deck is left out with the reason; no cut or guide line and no title text in a
service's safe band; TTS's 10 x 7 grid under 4096 px; byte-identical rebuilds."""

from __future__ import annotations

import io
import json
import math
import re
import shutil
from pathlib import Path

import cairosvg
import numpy as np
import pytest
from cli_run import run
from cut_geometry import svg_arcs, svg_cut_lines
from PIL import Image
from shapely.geometry import Polygon, box
from shapely.ops import unary_union
from shared import shared_folder
from tiers import ci_keeps

from pnp.build import build_game, make_kit
from pnp.build.gallery import gallery_for
from pnp.draw.render.faces import Deck, face_image, kit_decks, png_bytes
from pnp.draw.render.pod import FIT_TOL, PRODUCTS, Product, plan_deck
from pnp.draw.render.tts import CELL_WIDTH, GRID_COLUMNS, GRID_ROWS, MAX_WIDTH, PER_SHEET, cell_size
from pnp.draw.scene import Component, Shape, Style
from pnp.games import registry

MM = 25.4
SAFE_IN = 1 / 8  # The Game Crafter's safe zone inside the trim, as its templates draw it


def _tgc(name: str) -> Product:
    return next(p for p in PRODUCTS if p.service == "The Game Crafter" and p.name == name)


def test_product_images_are_the_sizes_the_game_crafter_publishes():
    """Each template's pixels as its product page gives them (trim + 1/8 in bleed, 300 dpi)."""
    published = {
        "poker card": (825, 1125),
        "mini card": (600, 825),
        "business card": (675, 1125),
        "mint tin card": (750, 1125),
        "small square card": (825, 825),
        "mini square tile": (450, 450),
        "small square tile": (675, 675),
        "small hex tile": (675, 600),
        "large hex tile": (1200, 1050),
    }
    for name, px in published.items():
        assert _tgc(name).pixels == px, name
    assert _tgc("poker card").bleed_px == 37.5


def _piece(name: str, w: float, h: float, outline=None, copies: int = 1) -> Component:
    c = Component(name, name, w, h, imposition="card", bleed=3.0, copies=copies, outline=outline)
    c.add(Shape(box(-3, -3, w + 3, h + 3), style=Style(fill="#336699", stroke=None)))
    return c


def _deck(w: float, h: float, outline=None) -> Deck:
    return Deck("d", [_piece("p", w, h, outline)])


def test_a_deck_goes_on_the_product_of_its_size_or_is_left_out_with_the_nearest_named():
    assert plan_deck(_deck(63.5, 88.9)).product == _tgc("poker card")
    assert plan_deck(_deck(63.1, 89.3)).product == _tgc("poker card")  # within 0.5 mm
    business = plan_deck(_deck(88.9, 50.8))  # a landscape business card, turned to fit
    assert business.product == _tgc("business card") and business.turn
    tin = plan_deck(_deck(84.0, 54.0))  # Exploding Dice's cards: never scaled to poker
    assert tin.product is None
    assert "mini card (44.45 x 63.50 mm)" in tin.reason
    assert "bridge card (57.15 x 88.90 mm)" in tin.reason
    square = plan_deck(_deck(40.0, 40.0))
    assert square.product is None and "mini square tile (31.75 x 31.75 mm)" in square.reason
    assert "small square tile (50.80 x 50.80 mm)" in square.reason
    r = 25 / math.sqrt(3)  # Building Community's hexagon: 25 mm across the flats
    corners = [
        (r + r * math.cos(math.pi / 3 * k), 12.5 + r * math.sin(math.pi / 3 * k)) for k in range(6)
    ]
    hexagon = Polygon(corners)
    hexes = plan_deck(_deck(2 * r, 25.0, hexagon))
    assert hexes.product is None and "hex shard" in hexes.reason and "mini hex tile" in hexes.reason


def test_a_pod_face_is_drawn_at_its_own_size_not_fitted_to_the_template():
    """A 40 x 40 mm piece with a 20 mm black square at its centre, in a poker template's
    box at 300 dpi: the square measures 20 mm (236 px), centred; the rest carries the
    piece's edge colour out."""
    c = _piece("p", 40.0, 40.0)
    c.add(Shape(box(10, 10, 30, 30), style=Style(fill="#000000", stroke=None)))
    img = np.asarray(face_image(c, 825, 1125, bleed_px=37.5, px_per_mm=300 / MM))
    dark = np.argwhere(img.sum(axis=2) < 60)  # edge pixels part-covered: within 2 px
    (y0, x0), (y1, x1) = dark.min(axis=0), dark.max(axis=0)
    side = 20 * 300 / MM
    assert abs((x1 - x0 + 1) - side) <= 2 and abs((y1 - y0 + 1) - side) <= 2
    assert abs((x0 + x1) / 2 - 412) <= 1 and abs((y0 + y1) / 2 - 562) <= 1
    assert tuple(img[5, 5]) == (0x33, 0x66, 0x99) and tuple(img[1120, 820]) == (0x33, 0x66, 0x99)


def _two_tone(w: float, h: float, bleed: float) -> Component:
    """Red left half, blue right half, both into the bleed."""
    c = Component("t", "T", w, h, imposition="card", bleed=bleed)
    c.add(Shape(box(-bleed, -bleed, w / 2, h + bleed), style=Style(fill="#ff0000", stroke=None)))
    c.add(Shape(box(w / 2, -bleed, w + bleed, h + bleed), style=Style(fill="#0000ff", stroke=None)))
    c.add(Shape(box(0, 0, w, h), "cut", Style(stroke="#00ff00", stroke_width=1)))
    return c


def test_a_face_fills_its_box_and_leaves_the_cut_line_out():
    img = face_image(_two_tone(63.5, 88.9, 3.0), 825, 1125, bleed_px=37.5, px_per_mm=300 / MM)
    assert img.size == (825, 1125)
    px = img.load()
    assert px[0, 0] == (255, 0, 0) and px[824, 1124] == (0, 0, 255)  # bleed art to the edge
    assert all(px[x, 600] != (0, 255, 0) for x in range(825))  # no machine line printed
    turned = face_image(_two_tone(84.0, 54.0, 3.0), 825, 1125, bleed_px=38, turn=True)
    assert turned.size == (825, 1125)
    # a quarter turn anticlockwise: the card's left (red) half is now at the bottom
    assert turned.load()[412, 1100] == (255, 0, 0) and turned.load()[412, 20] == (0, 0, 255)


# --- every kit, built -------------------------------------------------------------------

SLUGS = ["desert-home", "exploding-dice", "building-community", "home-in-one-piece", "parcheesi"]


def built(factory: pytest.TempPathFactory, slug: str) -> tuple[Path, tuple[str, ...]]:
    """The kit's exports, built once a run; the build's warnings are kept beside them."""

    def make(out: Path) -> None:
        result = build_game(slug, ["a4"], out, formats=["svg", "lbrn2", "pod", "tts"])
        (out / "warnings.json").write_text(json.dumps(result.warnings))

    folder = shared_folder(factory, f"exports-{slug}", make)
    return folder / slug, tuple(json.loads((folder / "warnings.json").read_text()))


def _decks(slug: str) -> list[Deck]:
    return kit_decks(make_kit(slug, paper="a4")[1].components)


def piece_size(svg: Path) -> tuple[float, float]:
    """A part's size as its own SVG cuts it: the bounds of its `cut` layer."""
    x0, y0, x1, y1 = unary_union(svg_cut_lines(svg.read_text(), "cut")).bounds
    return x1 - x0, y1 - y0


def _readme(folder: Path) -> tuple[float, float, list[tuple[str, int, str]]]:
    """(bleed mm, bleed px, [(image, count, part svg)]) as a deck's README states them."""
    text = (folder / "README.txt").read_text()
    bleed = re.search(r"bleed ([\d.]+) mm = ([\d.]+) px each side", text)
    assert bleed, text
    rows = re.findall(r"^(\d{3}-front\.png)  x(\d+)  .*\((svg/[\w-]+\.svg)\)$", text, re.M)
    return float(bleed[1]), float(bleed[2]), [(a, int(n), s) for a, n, s in rows]


@pytest.mark.slow
@pytest.mark.parametrize("slug", ci_keeps(SLUGS, 1, 2, 3))  # Desert Home's and Parcheesi's long
def test_every_pod_image_is_its_piece_at_its_own_size_or_the_deck_is_left_out(
    tmp_path_factory, slug
):
    """The trim (pixels / dpi, less the README's bleed) is the piece's size measured from
    its own SVG, within 0.5 mm, and the middle of each deck's first image is that SVG drawn
    at 300 dpi pixel for pixel (nothing scaled: every face of a deck takes the same path); a
    deck without such a product has no folder, a warning and its reason in pod/README.txt."""
    folder, warnings = built(tmp_path_factory, slug)
    index = (folder / "pod" / "README.txt").read_text()
    for deck in _decks(slug):
        here = folder / "pod" / deck.name
        if not here.exists():
            said = [w for w in warnings if w.startswith(f"{slug}: pod/{deck.name} left out: ")]
            assert said and f"{deck.name}: left out: no " in index, deck.name
            continue
        bleed_mm, bleed_px, rows = _readme(here)
        assert [n for _, n, _ in rows] == [f.copies for f in deck.faces]
        assert abs(bleed_px - bleed_mm * 300 / MM) < 1e-6
        for i, (image, _, part) in enumerate(rows):
            img = Image.open(here / image)
            dpi = img.info["dpi"][0]
            assert round(dpi) == 300
            trim = sorted(px * MM / dpi - 2 * bleed_mm for px in img.size)
            want = sorted(piece_size(folder / part))
            assert all(abs(a - b) <= FIT_TOL for a, b in zip(trim, want, strict=True)), part
            if i == 0:
                _same_as_its_svg(img, folder / part)
        back = Image.open(here / "back.png")
        assert back.size == img.size and round(back.info["dpi"][0]) == 300


def _same_as_its_svg(img: Image.Image, svg: Path) -> None:
    """The middle 60 % of the POD image, pixel for pixel, is the part's SVG at 300 dpi."""
    raster = Image.open(
        io.BytesIO(cairosvg.svg2png(url=str(svg), dpi=300, background_color="white"))
    )
    ref = np.asarray(raster.convert("RGB")).astype(int)
    pod = np.asarray(img.convert("RGB")).astype(int)
    ph, pw = pod.shape[:2]
    hh, hw = int(ph * 0.3), int(pw * 0.3)
    crop = pod[ph // 2 - hh : ph // 2 + hh, pw // 2 - hw : pw // 2 + hw]
    rh, rw = ref.shape[:2]
    best = 1.0
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            y, x = rh // 2 - hh + dy, rw // 2 - hw + dx
            part = ref[y : y + 2 * hh, x : x + 2 * hw]
            best = min(best, float((np.abs(part - crop).sum(axis=2) > 48).mean()))
    assert best < 0.002, (svg.name, best)


def _pod_fronts(folder: Path) -> list[Path]:
    return sorted((folder / "pod").glob("*/*-front.png"))


@pytest.mark.slow
@pytest.mark.parametrize("slug", ci_keeps(SLUGS, 1, 3))  # Exploding Dice, Home in One Piece
def test_no_title_reaches_into_a_print_services_safe_band(tmp_path_factory, slug):
    """On every POD card front the band 1/8 in inside the trim and 10 px more, across the
    top and down the sides of the title bar, is the bar's one flat colour: no glyph of the
    title or page number comes within 10 px of the service's safe line."""
    folder, _ = built(tmp_path_factory, slug)
    fronts = _pod_fronts(folder)
    # Exploding Dice's only deck is left out (no product is 84 x 54 mm): nothing to read
    assert fronts or not [d for d in (folder / "pod").iterdir() if d.is_dir()]
    for p in fronts:
        bleed_mm, bleed_px, _ = _readme(p.parent)
        a = np.asarray(Image.open(p).convert("RGB")).astype(int)
        h, w = a.shape[:2]
        bar = a[0, 0]
        lo, hi = math.ceil(bleed_px), math.floor(bleed_px + SAFE_IN * 300) + 10
        in_bar = np.abs(a[:, lo] - bar).sum(axis=1) == 0  # the bar, down the left band
        bar_end = int(np.argmin(in_bar)) - 2
        assert bar_end > hi + 30, p  # a title bar well below the band
        top = a[lo:hi, lo : w - lo]
        sides = np.concatenate([a[lo:bar_end, lo:hi], a[lo:bar_end, w - hi : w - lo]])
        for band in (top, sides):
            off = np.abs(band - bar).sum(axis=-1) > 6
            assert not off.any(), (p.parent.name, p.name, int(off.sum()))


def _corner_lines(
    a: np.ndarray, x0: float, y0: float, w: float, h: float, r: float, scale: float
) -> float:
    """The most any point on a trim corner arc differs from the point 1 mm inside it: a
    line drawn along the arc shows as a large difference, plain art as none."""
    worst = 0.0
    for cx, cy, a0 in ((r, r, 180), (w - r, r, 270), (w - r, h - r, 0), (r, h - r, 90)):
        for k in range(1, 12):
            t = math.radians(a0 + 90 * k / 12)
            on, inside = (
                a[
                    int(y0 + (cy + rr * math.sin(t)) * scale),
                    int(x0 + (cx + rr * math.cos(t)) * scale),
                ]
                for rr in (r, r - 1.0)
            )
            worst = max(worst, float(np.abs(on - inside).sum()))
    return worst


@pytest.mark.slow
@pytest.mark.parametrize("slug", ci_keeps(SLUGS, 1, 2, 3))  # the kits CI builds here
def test_pod_and_tts_card_faces_carry_no_corner_guides(tmp_path_factory, slug):
    """The corner arcs a home maker rounds to (Exploding Dice's 8 mm guides) are not in a
    service's image nor in TTS's: along each trim corner arc (its radius read from the
    card's own SVG) the image shows what it shows 1 mm inside."""
    folder, _ = built(tmp_path_factory, slug)
    deck = next(d for d in _decks(slug) if d.name == "card")
    first = deck.faces[0]
    r = max(rr for _, _, rr in svg_arcs((folder / "svg" / f"{first.name}.svg").read_text(), "cut"))
    w, h = sorted(piece_size(folder / "svg" / f"{first.name}.svg"))  # upright, as drawn
    for p in _pod_fronts(folder):
        if p.parent.name != "card":
            continue
        _, bleed_px, _ = _readme(p.parent)
        a = np.asarray(Image.open(p).convert("RGB")).astype(int)
        assert _corner_lines(a, bleed_px, bleed_px, w, h, r, 300 / MM) < 40, p
    cw, ch = cell_size(deck)
    sheet = np.asarray(Image.open(folder / "tts" / "card-faces.png").convert("RGB")).astype(int)
    for i in range(deck.count):
        x, y = (i % GRID_COLUMNS) * cw, (i // GRID_COLUMNS) * ch
        assert _corner_lines(sheet, x, y, w, h, r, cw / w) < 40, (slug, i)


@pytest.mark.slow
def test_the_build_prints_a_warning_for_a_deck_it_leaves_out(capsys, tmp_path):
    args = "build exploding-dice --paper a4 --format pod --out".split()
    code, _, err = run(capsys, *args, str(tmp_path))
    assert code == 0
    (line,) = [ln for ln in err.splitlines() if ln.startswith("warning:")]
    assert line.startswith("warning: exploding-dice: pod/card left out: no The Game Crafter")
    assert "84 x 54 mm" in line
    assert not (tmp_path / "exploding-dice" / "pod" / "card").exists()
    assert "card: left out:" in (tmp_path / "exploding-dice" / "pod" / "README.txt").read_text()


def _upright(deck: Deck) -> float:
    """The card's width over height, as it stands in the sheet."""
    w, h = deck.size
    return min(w, h) / max(w, h) if deck.landscape else w / h


@pytest.mark.slow
@pytest.mark.parametrize("slug", ci_keeps(["desert-home", "exploding-dice"], 1))
def test_tts_deck_sheets_are_a_10_by_7_grid_under_4096_px(tmp_path_factory, slug: str):
    folder, _ = built(tmp_path_factory, slug)
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
def test_every_new_output_is_byte_identical_on_rebuild(tmp_path_factory, tmp_path: Path):
    first, _ = built(tmp_path_factory, "desert-home")
    build_game("desert-home", ["a4"], tmp_path, formats=["svg", "lbrn2", "pod", "tts"])
    again = tmp_path / "desert-home"
    new = [p.relative_to(first) for p in first.rglob("*") if p.is_file()]
    wanted = [p for p in new if p.parts[0] in ("pod", "tts") or p.suffix == ".lbrn2"]
    assert len([p for p in wanted if p.suffix == ".lbrn2"]) == 3
    assert any(p.parts[0] == "pod" for p in wanted) and any(p.parts[0] == "tts" for p in wanted)
    for rel in new:
        assert (first / rel).read_bytes() == (again / rel).read_bytes(), rel


@pytest.mark.slow
def test_the_gallery_links_each_export(tmp_path_factory, tmp_path):
    folder, _ = built(tmp_path_factory, "desert-home")
    shutil.copytree(folder, tmp_path / folder.name)  # the shared build stays unwritten
    html = gallery_for(tmp_path).read_text()
    for rel in (
        "cut/plywood-1.lbrn2",
        "pod/card/README.txt",
        "pod/card/001-front.png",
        "pod/card/back.png",
        "tts/tile-faces.png",
        "tts/tile-back.png",
        "tts/board.png",
    ):
        assert f'href="desert-home/{rel}"' in html, rel
        assert (folder / rel).is_file()
    assert 'href="desert-home/pod/tile/' not in html  # left out: no product is 40 mm


def test_png_bytes_carry_the_dpi():
    img = Image.new("RGB", (10, 10), "white")
    assert round(Image.open(io.BytesIO(png_bytes(img, 300))).info["dpi"][0]) == 300


def test_every_kit_is_covered():
    assert set(SLUGS) <= set(registry())
