"""Every kit's PDFs read back as printed (`print_sheets`): in each duplex mode, on each
paper, the cover names every print range with its stock and whether it is double-sided;
a double-sided range's sheets (pages 2k-1, 2k) are each a front and its own backs, or a
page and a blank marked so, or two pages to read; a single-sided range has neither backs
nor blanks; and no text anywhere is cut short with an ellipsis.

One kit, on A4 and long-edge duplex, stays in the fast tier; the others on A4 in long-edge
duplex are slow; the other modes and papers are long (each mode's sheets are laid out for
every kit in tests/test_duplex_modes.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from shared import shared_folder

from pnp.build import build_game
from pnp.contract.paper import PAPERS
from pnp.games import built_in_slugs
from pnp.testing.sheets import cut_short, print_ranges, read_pages, sheet_faults

MODES = ("long", "short", "none")
FAST = ("building-community", "a4", "long")


def _tier(slug: str, paper: str, mode: str) -> tuple:
    """CI reads every kit on A4 in long-edge duplex; `make test-all` every kit in every mode
    on both papers."""
    if (slug, paper, mode) == FAST:
        return ()
    if (paper, mode) == ("a4", "long"):
        return (pytest.mark.slow,)
    return (pytest.mark.long,)


def _cases() -> list:
    return [
        pytest.param(slug, paper, mode, marks=_tier(slug, paper, mode), id=f"{slug}-{paper}-{mode}")
        for slug in built_in_slugs()
        for paper in PAPERS
        for mode in MODES
    ]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory):
    """The PDFs of (slug, paper, mode), built once for this module's tests."""
    done: dict[tuple[str, str, str], list[Path]] = {}

    def pdfs(slug: str, paper: str, mode: str) -> list[Path]:
        key = (slug, paper, mode)
        if key not in done:
            out = shared_folder(
                tmp_path_factory,
                f"sheets-{slug}-{paper}-{mode}",
                lambda out: build_game(
                    slug, [paper], out, formats=["pdf"], values={"duplex": mode}
                ),
            )
            done[key] = sorted((out / slug).glob("*.pdf"))
        return done[key]

    return pdfs


@pytest.mark.parametrize(("slug", "paper", "mode"), _cases())
def test_every_sheet_carries_one_piece_and_its_own_back(slug, paper, mode, built) -> None:
    for pdf in built(slug, paper, mode):
        pages = read_pages(pdf)
        ranges = print_ranges(pages[0])
        assert sheet_faults(pages, ranges) == [], pdf.name
        duplex = [r for r in ranges if r.duplex]
        assert not [p for p in pages if p.title == "Intentionally blank"]
        if mode == "none" or "pattern" in pdf.name:  # nothing of them has a back
            assert not duplex
        else:  # every kit's cards have backs: the card stock prints double-sided
            assert [r.stock for r in duplex] == ["card stock"]
            edge = "short" if mode == "short" else "long"
            assert f"print double-sided, flipped on the {edge} edge" in " ".join(
                pages[0].text.split()
            )
        # one job per stock and sides: plain paper (the cover) first; stickers loaded for
        # their own pages, a job of their own after the card stock
        jobs = [(r.stock, r.duplex) for r in ranges]
        assert len(jobs) == len(set(jobs)) and ranges[0].stock == "plain paper"
        stocks = [r.stock for r in ranges]
        if "sticker paper" in stocks:
            assert stocks[-1] == "sticker paper" and not ranges[-1].duplex


@pytest.mark.parametrize(("slug", "paper", "mode"), _cases())
def test_no_text_is_cut_short(slug, paper, mode, built) -> None:
    """Headers, cover lines and pieces wrap or take a shorter form; none ends in '…'."""
    for pdf in built(slug, paper, mode):
        assert cut_short(read_pages(pdf)) == [], pdf.name


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["long", pytest.param("none", marks=pytest.mark.long)])
def test_each_print_job_is_a_pdf_of_its_own(mode: str, tmp_path: Path) -> None:
    """`jobs` (--split-by-stock) writes each range the cover names as a PDF of its own:
    the same pages, in order, on one stock, and together the whole kit."""
    slug = "exploding-dice"
    build_game(slug, ["a4"], tmp_path, formats=["pdf", "jobs"], values={"duplex": mode})
    whole = read_pages(tmp_path / slug / f"{slug}-a4.pdf")
    ranges = print_ranges(whole[0])
    parts = sorted((tmp_path / slug / "jobs").glob("*.pdf"), key=lambda p: p.name)
    assert len(parts) == len(ranges) > 1
    for k, (part, r) in enumerate(zip(parts, ranges, strict=True), start=1):
        stock = r.stock.replace(" ", "-") + ("-duplex" if r.duplex else "")
        assert part.name == f"{slug}-a4-{k}-{stock}.pdf"
        pages = read_pages(part)
        assert [p.title for p in pages] == [p.title for p in whole[r.first - 1 : r.last]]
        if r.duplex:
            assert len(pages) % 2 == 0


@pytest.mark.slow
def test_shared_sheets_print_the_alignment_test_and_every_kits_stickers_once(
    tmp_path: Path,
) -> None:
    """`--shared-sheets`: the kits leave out their alignment test and sticker pages; one
    shared PDF prints the test first (double-sided) and every kit's stickers on sticker
    paper, on fewer sheets than the kits took one each."""
    from pnp.build import build_shared
    from pnp.cli import SHARED_VALUES
    from pnp.runtime.staging import Staging

    slugs = ["home-in-one-piece", "desert-home"]
    with Staging(tmp_path) as stage:
        for slug in slugs:
            build_game(slug, ["a4"], tmp_path, formats=["pdf"], values=SHARED_VALUES, stage=stage)
        build_shared(slugs, ["a4"], stage)
    for slug in slugs:
        pages = read_pages(tmp_path / slug / f"{slug}-a4.pdf")
        assert not [p for p in pages if "alignment" in p.title or "sticker" in p.title]
        assert "alignment test the kits share" in " ".join(pages[0].text.split())
    pages = read_pages(tmp_path / "shared" / "shared-sheets-a4.pdf")
    ranges = print_ranges(pages[0])
    assert sheet_faults(pages, ranges) == []
    assert [(r.stock, r.duplex) for r in ranges] == [
        ("plain paper", False),
        ("card stock", True),
        ("sticker paper", False),
    ]
    assert [p.title for p in pages[1:3]] == [
        "Duplex alignment test — front",
        "Duplex alignment test — back",
    ]
    stickers = pages[ranges[2].first - 1 : ranges[2].last]
    said = " ".join(p.title for p in stickers)
    assert "Home in One Piece" in said and "Desert Home" in said
    assert len(stickers) < len(slugs)  # one sheet holds both kits' stickers
