"""Every duplex mode measured in the PDF: each back lies behind its front once the sheet is
flipped (long edge: x -> W - x; short edge: y -> H - y) or folded (gutter fold: reflected
across the dashed fold line read from the page), to 0.1 mm."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable

import pdfplumber
import pytest
from cli_run import one_error_line, run
from shapely.geometry import box
from tiers import ci_keeps

from pnp.build import kit_documents, make_kit
from pnp.contract.paper import get_paper
from pnp.contract.params import validate_params
from pnp.draw.kit import PrintParams
from pnp.draw.layout import Section, alignment_pages, build_document
from pnp.draw.layout.page import FOOTER_BAND, HEADER_BAND, Page, content_box
from pnp.draw.render.pdf import render_pdf
from pnp.draw.scene import Component, Shape, Style
from pnp.games import registry
from pnp.runtime.errors import PnpError
from pnp.testing.clips import clip_boxes
from pnp.testing.sheets import read_pages

PT = 72.0 / 25.4
BLEED = 3.0
TOL = 0.1
"""mm: the front-to-back registration the issue asks for."""
Box = tuple[float, float, float, float]


def colour(k: int, part: int) -> str:
    """A colour for card k's front bleed (0), front marker (1), back bleed (2), back marker
    (3): unique per card and part, and unlike any furniture grey."""
    green, blue = (0x80, 0x40, 0xC0, 0x40)[part], (0x20, 0xA0, 0x20, 0xE0)[part]
    return f"#{0x10 + 4 * k:02x}{green:02x}{blue:02x}"


def card(k: int, w: float, h: float) -> Component:
    """Front marker at local x 5..15, y 5..25; its back's marker at w-15..w-5, the same
    height: the paper behind it when the piece is turned over left to right."""
    back = Component(f"back{k}", "back", w, h, imposition="card", bleed=BLEED)
    back.add(
        Shape(
            box(-BLEED, -BLEED, w + BLEED, h + BLEED), style=Style(fill=colour(k, 2), stroke=None)
        ),
        Shape(box(w - 15, 5, w - 5, 25), style=Style(fill=colour(k, 3), stroke=None)),
    )
    c = Component(f"card{k}", "card", w, h, imposition="card", bleed=BLEED, back=back)
    c.add(
        Shape(
            box(-BLEED, -BLEED, w + BLEED, h + BLEED), style=Style(fill=colour(k, 0), stroke=None)
        ),
        Shape(box(5, 5, 15, 25), style=Style(fill=colour(k, 1), stroke=None)),
    )
    return c


def rgb(hex_colour: str) -> tuple[float, ...]:
    return tuple(round(int(hex_colour[i : i + 2], 16) / 255, 3) for i in (1, 3, 5))


def rects(page: pdfplumber.page.Page) -> dict[tuple[float, ...], Box]:
    """Filled rectangles by colour, in mm, y up."""
    h = page.height
    return {
        tuple(round(v, 3) for v in r["non_stroking_color"]): (
            r["x0"] / PT,
            (h - r["bottom"]) / PT,
            r["x1"] / PT,
            (h - r["top"]) / PT,
        )
        for r in page.rects
        if r["non_stroking_color"] and len(r["non_stroking_color"]) == 3
    }


def fold_line(page: pdfplumber.page.Page) -> tuple[str, float]:
    """The dashed fold line of a gutter-fold page: ("v", x) or ("h", y), in mm."""
    folds = [
        ln for ln in page.lines if ln.get("dash") and max(ln["width"], ln["height"]) / PT > 100
    ]
    assert len(folds) == 1, "a gutter-fold sheet has one dashed fold line"
    ln = folds[0]
    if ln["width"] < 0.01:
        return "v", ln["x0"] / PT
    return "h", (page.height - ln["top"]) / PT


Flip = Callable[[float, float], tuple[float, float]]


def flipped(b: Box, flip: Flip) -> Box:
    (xa, ya), (xb, yb) = flip(b[0], b[1]), flip(b[2], b[3])
    return (min(xa, xb), min(ya, yb), max(xa, xb), max(ya, yb))


def trim(bleed_box: Box) -> Box:
    return (
        bleed_box[0] + BLEED,
        bleed_box[1] + BLEED,
        bleed_box[2] - BLEED,
        bleed_box[3] - BLEED,
    )


def document(
    sizes: list[tuple[float, float]], printing: PrintParams, paper: str = "a4"
) -> tuple[list[Page], bytes]:
    cards = [card(k, w, h) for k, (w, h) in enumerate(sizes)]
    pages = build_document("Duplex", [Section("Cards", cards)], get_paper(paper), printing)
    return pages, render_pdf(pages, "Duplex")


def registration(pages: list[Page], data: bytes, n: int, mode: str) -> list[str]:
    """Every card's front and back located in the PDF and compared through the flip (or
    the fold) of `mode`; returns the flip used per sheet."""
    mode_of: list[str] = []
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        found = 0
        for i, page in enumerate(pages):
            if page.section != "Cards" or page.side != "front":
                continue
            front = rects(pdf.pages[i])
            w, h = page.width, page.height
            flip: Flip
            if page.fold:
                axis, a = fold_line(pdf.pages[i])
                back = front
                if axis == "v":
                    flip = lambda x, y, a=a: (2 * a - x, y)  # noqa: E731
                else:
                    flip = lambda x, y, a=a: (x, 2 * a - y)  # noqa: E731
                mode_of.append(f"fold-{axis}")
            else:
                assert pages[i + 1].side == "back"
                back = rects(pdf.pages[i + 1])
                if mode == "short":
                    flip = lambda x, y, h=h: (x, h - y)  # noqa: E731
                    mode_of.append("short")
                else:
                    flip = lambda x, y, w=w: (w - x, y)  # noqa: E731
                    mode_of.append("long")
            for k in range(n):
                fb = front.get(rgb(colour(k, 0)))
                if fb is None:
                    continue
                bb = back[rgb(colour(k, 2))]
                fm, bm = front[rgb(colour(k, 1))], back[rgb(colour(k, 3))]
                assert trim(bb) == pytest.approx(flipped(trim(fb), flip), abs=TOL)
                assert bm == pytest.approx(flipped(fm, flip), abs=TOL)
                found += 1
        assert found == n
    return mode_of


SIZES = {
    "poker": [(63.0, 88.0)] * 11,
    "turned": [(85.0, 55.0)] * 11,
    "mixed": [(69.0, 69.0), (85.0, 55.0), (88.0, 53.0), (63.0, 88.0), (44.45, 63.5), (30, 30)],
    "tiles": [(28.87, 25.0)] * 40,
}


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("sizes", list(SIZES))
@pytest.mark.parametrize("mode", ["long", "short", "none"])
def test_every_back_lies_behind_its_front(mode: str, sizes: str, paper: str) -> None:
    printing = PrintParams(duplex=mode)
    pages, data = document(SIZES[sizes], printing, paper)
    used = registration(pages, data, len(SIZES[sizes]), mode)
    assert used and set(used) <= ({"fold-v", "fold-h"} if mode == "none" else {mode})
    rotations = {pl.rotation for p in pages for pl in p.placements if pl.side == "front"}
    ROTATIONS[mode] |= rotations


ROTATIONS: dict[str, set[int]] = {"long": set(), "short": set(), "none": set()}


def test_cards_were_measured_both_upright_and_turned() -> None:
    """The sizes above make every mode lay some cards upright and some turned."""
    for mode in ROTATIONS:
        for sizes in SIZES.values():
            pages, _ = document(sizes, PrintParams(duplex=mode))
            ROTATIONS[mode] |= {
                pl.rotation for p in pages for pl in p.placements if pl.side == "front"
            }
        assert ROTATIONS[mode] == {0, 90}, mode


@pytest.mark.parametrize("mode", ["long", "short"])
def test_back_offset_moves_every_back_by_the_offset(mode: str) -> None:
    """The offset is added on the back page, whatever the flip."""
    dx, dy = 1.5, -0.75
    sizes = SIZES["mixed"]
    pages0, plain = document(sizes, PrintParams(duplex=mode))
    pages1, moved = document(sizes, PrintParams(duplex=mode, back_offset_x=dx, back_offset_y=dy))
    assert [p.title for p in pages0] == [p.title for p in pages1]
    with pdfplumber.open(io.BytesIO(plain)) as a, pdfplumber.open(io.BytesIO(moved)) as b:
        backs = [i for i, p in enumerate(pages0) if p.section == "Cards" and p.side == "back"]
        assert backs
        for i in backs:
            ra, rb = rects(a.pages[i]), rects(b.pages[i])
            for k in range(len(sizes)):
                key = rgb(colour(k, 2))
                if key in ra:
                    x0, y0, x1, y1 = ra[key]
                    assert rb[key] == pytest.approx((x0 + dx, y0 + dy, x1 + dx, y1 + dy), abs=TOL)


def test_short_edge_turns_the_backs_and_the_area_is_its_own_mirror() -> None:
    """Backs are turned a half turn relative to the long-edge back page, and everything
    on a short-edge sheet stays clear of both the header and the footer after the flip."""
    long_pages, _ = document(SIZES["poker"], PrintParams())
    short_pages, _ = document(SIZES["poker"], PrintParams(duplex="short"))
    for pages, mode in ((long_pages, "long"), (short_pages, "short")):
        turns = {
            (f.rotation, b.rotation)
            for i, p in enumerate(pages)
            if p.section == "Cards" and p.side == "back"
            for f, b in zip(pages[i - 1].placements, p.placements, strict=True)
        }
        assert turns  # the front's turn, then its back's: mirrored, or a half turn more
        want = 360 if mode == "long" else 540
        assert all(b == (want - f) % 360 for f, b in turns), turns
    # Back pages keep the air a front keeps from the header and the footer (the content
    # box), though the flip swaps their sides and the footer band is the taller.
    _, y0, _, y1 = content_box(get_paper("a4"))
    for p in short_pages:
        if p.section == "Cards" and p.bleed_box is not None:
            b = p.bleed_box
            assert b[1] >= y0 - 1e-9 and b[3] <= y1 + 1e-9, p.title


@pytest.mark.parametrize("mode", ["long", "short"])
def test_alignment_pages_exist_for_the_mode_and_name_its_edge(mode: str) -> None:
    pages, data = document(SIZES["poker"], PrintParams(duplex=mode))
    tests = [p for p in pages if "alignment test" in p.title]
    assert [p.side for p in tests] == ["front", "back"]
    assert pages[1:3] == tests  # the double-sided job starts with it
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        text = pdf.pages[1].extract_text()
        cover = pdf.pages[0].extract_text()
    assert f"flip on the {mode} edge" in text
    assert f"flipped on the {mode} edge" in " ".join(cover.split())
    other = "short" if mode == "long" else "long"
    assert f"{other} edge" not in text


@pytest.mark.parametrize("mode", ["long", "short"])
@pytest.mark.parametrize("error", [(5.0, 0.0), (-10.0, 0.0), (0.0, 5.0), (0.0, -5.0)])
def test_alignment_rulers_read_the_correction(mode: str, error: tuple[float, float]) -> None:
    """A back printed off by (ex, ey) on its own page shows through the front where the
    flip takes it; the ruler tick there must read the correction (-ex or -ey)."""
    paper = get_paper("a4")
    w, h = paper.width, paper.height
    front, back = alignment_pages(paper, PrintParams(duplex=mode))
    cross = [it for it in back.items if isinstance(it, Shape) and it.geom.length > 100]
    vertical = next(s for s in cross if s.geom.bounds[0] == s.geom.bounds[2])
    horizontal = next(s for s in cross if s.geom.bounds[1] == s.geom.bounds[3])
    bx, by = vertical.geom.bounds[0], horizontal.geom.bounds[1]

    def to_front(x: float, y: float) -> tuple[float, float]:
        return (w - x, y) if mode == "long" else (x, h - y)

    assert to_front(bx, by) == pytest.approx((w / 2, h / 2))  # behind the front's centre
    ex, ey = error
    seen_x, _ = to_front(bx + ex, by)
    _, seen_y = to_front(bx, by + ey)
    labels = [t for t in front.items if not isinstance(t, Shape) and t.text.lstrip("+-").isdigit()]
    cx, cy = w / 2, h / 2
    if ex:
        tick = next(
            t
            for t in labels
            if abs(t.x - seen_x) < 1e-6 and abs(t.y - cy) > 20 and t.anchor == "middle"
        )
        assert int(tick.text) == -ex
    if ey:
        tick = next(t for t in labels if abs(t.y + 0.8 - seen_y) < 1e-6 and abs(t.x - cx) > 20)
        assert int(tick.text) == -ey


def test_gutter_fold_has_no_back_pages_and_says_how_to_fold() -> None:
    """A single-sided print has no reverse: no back pages, no blank ones, one range."""
    pages, data = document(SIZES["mixed"] + SIZES["tiles"], PrintParams(duplex="none"))
    assert {p.side for p in pages} == {"front"}
    assert not any("alignment" in p.title for p in pages)
    folded = [i for i, p in enumerate(pages) if p.fold]
    assert folded
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for i in folded:
            page = pdf.pages[i]
            assert "fold on the dashed line, glue, then cut" in page.extract_text()
            assert "gutter fold" in pages[i].title
            axis, a = fold_line(page)
            # crop marks on both halves, each the other's reflection across the fold
            marks = [
                (
                    ln["x0"] / PT,
                    (page.height - ln["bottom"]) / PT,
                    ln["x1"] / PT,
                    (page.height - ln["top"]) / PT,
                )
                for ln in page.lines
                if not ln.get("dash") and max(ln["width"], ln["height"]) / PT < 3.5
            ]
            assert marks
            k = 0 if axis == "v" else 1
            near = [m for m in marks if m[k] < a]
            far = [m for m in marks if m[k] > a]
            assert len(near) == len(far)
            for m in near:
                want = (
                    (2 * a - m[2], m[1], 2 * a - m[0], m[3])
                    if axis == "v"
                    else (m[0], 2 * a - m[3], m[2], 2 * a - m[1])
                )
                assert any(f == pytest.approx(want, abs=TOL) for f in far)
        cover = " ".join(pdf.pages[0].extract_text().split())
    n = len(pages)
    assert "Plain paper, page 1: print single-sided (1 sheet): cover." in cover
    assert f"Card stock, pages 2–{n}: print single-sided ({n - 1} sheets)" in cover
    assert "double-sided" not in cover and "intentionally blank" not in cover


def test_gutter_fold_keeps_backless_pieces_on_whole_sheets() -> None:
    """Pieces without a back are laid out exactly as for a duplex print: no fold."""
    plain = Component("plain", "plain", 63, 88, imposition="card", bleed=BLEED, copies=9)
    plain.add(Shape(box(0, 0, 63, 88), style=Style(fill="#123456", stroke=None)))
    paper = get_paper("a4")
    laid = {}
    for mode in ("long", "none"):
        sections = [Section("P", [plain]), Section("Cards", [card(0, 63, 88)])]
        pages = build_document("K", sections, paper, PrintParams(duplex=mode))
        laid[mode] = [
            [(pl.x, pl.y, pl.rotation) for pl in p.placements if pl.component is plain]
            for p in pages
            if p.section == "P" and p.side == "front"
        ]
        assert not any(p.fold for p in pages if p.section == "P")
    # a sheet with a back joins the double-sided job, so the order of the two may differ
    assert len(laid["none"]) == 2 and sorted(laid["none"]) == sorted(laid["long"])


def test_a_bad_duplex_value_is_one_error_line(capsys, tmp_path) -> None:
    with pytest.raises(PnpError, match="'duplex' must be one of long, short, none"):
        validate_params(dataclasses.replace(PrintParams(), duplex="both"))
    config = tmp_path / "kit.toml"
    config.write_text('duplex = "both"\n')
    code, _, err = run(
        capsys,
        "build",
        "parcheesi",
        "--paper",
        "a4",
        "--out",
        str(tmp_path / "out"),
        "--config",
        str(config),
    )
    assert code == 2
    assert "'duplex' must be one of long, short, none, got 'both'" in one_error_line(err)


def _flip_of(mode: str, page: Page) -> Flip:
    """The flip of a back page (long, short) or of a gutter-fold page, whose dashed fold
    line is read from the page's own items."""
    if mode == "long":
        return lambda x, y: (page.width - x, y)
    if mode == "short":
        return lambda x, y: (x, page.height - y)
    folds = [
        it for it in page.items if isinstance(it, Shape) and it.style.dash and it.layer == "guide"
    ]
    (fold,) = [f for f in folds if f.geom.length > 100]
    x0, y0, x1, y1 = fold.geom.bounds
    if x0 == x1:
        return lambda x, y: (2 * x0 - x, y)
    return lambda x, y: (x, 2 * y0 - y)


def _kit_modes() -> list:
    """Every kit in long-edge duplex and Exploding Dice in every mode in CI; every kit in
    every mode in `make test-all`."""
    return [
        pytest.param(
            slug,
            mode,
            id=f"{slug}-{mode}",
            marks=() if mode == "long" or slug == "exploding-dice" else pytest.mark.long,
        )  # fmt: skip
        for mode in ("long", "short", "none")
        for slug in sorted(registry())
    ]


@pytest.mark.slow
@pytest.mark.parametrize(("slug", "mode"), _kit_modes())
def test_every_kit_piece_with_a_back_registers(slug: str, mode: str) -> None:
    """Every kit, every document: each carded or double-sided piece's back is placed where
    its front's trim box lands after the flip or the fold, and nothing is left unpaired."""
    _, kit = make_kit(slug, paper="a4", values={"duplex": mode})
    backed = 0
    for doc in kit_documents(kit):
        pages = doc.pages
        sides = {p.side for p in pages}
        has_backs = any(pl.component.back for p in pages for pl in p.placements)
        assert ("back" in sides) == (has_backs and mode != "none")
        assert any("alignment test" in p.title for p in pages) == ("back" in sides)
        for i, page in enumerate(pages):
            if page.side != "front":
                continue
            fronts = [pl for pl in page.placements if pl.side == "front" and pl.component.back]
            if not fronts:
                continue
            if mode == "none":
                assert page.fold, page.title
                backs = [pl for pl in page.placements if pl.side == "back"]
            else:
                assert pages[i + 1].side == "back"
                backs = pages[i + 1].placements
            flip = _flip_of(mode, page)
            assert len(backs) == len(fronts)
            for f, b in zip(fronts, backs, strict=True):
                assert b.component is f.component.back
                assert b.trim_box == pytest.approx(flipped(f.trim_box, flip), abs=TOL)
            backed += len(fronts)
    assert backed > 0


@pytest.mark.parametrize("dy", [-8.0, -2.5, 2.5, 8.0])
@pytest.mark.parametrize("sizes", ["poker", "tiles"])
def test_short_edge_backs_moved_by_the_offset_stay_off_the_header_and_footer(
    dy: float, sizes: str
) -> None:
    paper = get_paper("letter")
    pages, _ = document(SIZES[sizes], PrintParams(duplex="short", back_offset_y=dy), "letter")
    backs = [p for p in pages if p.section == "Cards" and p.side == "back"]
    assert backs
    for p in backs:
        assert p.bleed_box is not None
        assert p.bleed_box[1] >= paper.margin + FOOTER_BAND - 1e-9
        assert p.bleed_box[3] <= paper.height - paper.margin - HEADER_BAND + 1e-9


POKER_KITS = {"parcheesi": 10, "home-in-one-piece": 9, "desert-home": 10}
"""The kits issue 41 named, and how many backed poker cards (63.5 x 88.9 mm) each has."""


@pytest.mark.slow
@pytest.mark.parametrize(
    "slug", ci_keeps(sorted(POKER_KITS), sorted(POKER_KITS).index("parcheesi"))
)
def test_gutter_fold_prints_four_poker_cards_a_sheet(slug: str, capsys, tmp_path) -> None:
    """Built with duplex "none" on A4: the poker cards' gutter-fold sheets hold four cards
    each (the last one what is left), and every piece's clip on a folded sheet, read from
    the PDF, has its mirror image across the dashed fold line, to 0.01 mm."""
    config = tmp_path / "kit.toml"
    config.write_text('duplex = "none"\n')
    out = tmp_path / "out"
    code, _, err = run(
        capsys,
        "build",
        slug,
        "--paper",
        "a4",
        "--out",
        str(out),
        "--config",
        str(config),
        "--format",
        "pdf",
    )
    assert code == 0, err
    path = out / slug / f"{slug}-a4.pdf"
    titles = [p.title for p in read_pages(path)]
    clips = clip_boxes(path)
    poker: list[int] = []
    with pdfplumber.open(path) as pdf:
        for i, title in enumerate(titles):
            if "gutter fold" not in title:
                continue
            axis, a = fold_line(pdf.pages[i])
            k = 0 if axis == "v" else 1
            fronts = (
                [c for c in clips[i] if c[k + 2] <= a]
                if axis == "v"
                else [c for c in clips[i] if c[1] >= a]
            )
            backs = [c for c in clips[i] if c not in fronts]
            assert fronts and len(backs) == len(fronts)
            for f in fronts:
                want = (
                    (2 * a - f[2], f[1], 2 * a - f[0], f[3])
                    if axis == "v"
                    else (f[0], 2 * a - f[3], f[2], 2 * a - f[1])
                )
                assert sum(b == pytest.approx(want, abs=0.01) for b in backs) == 1
            if "63.5 x 88.9 mm" in title:
                poker.append(len(fronts))
    n = POKER_KITS[slug]
    assert sum(poker) == n
    assert poker == [4] * (n // 4) + ([n % 4] if n % 4 else [])
