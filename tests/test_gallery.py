"""The gallery page: parsed back to check its links, previews and escaping."""

from __future__ import annotations

import json
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import pytest
from cli_run import run
from hypothesis import given, settings
from hypothesis import strategies as st
from tiers import ci_keeps

from pnp.build.gallery import PART_NAME, build_gallery, gallery_for, manifest_text, parse_manifest


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.imgs: list[str] = []
        self.tags: set[str] = set()
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.add(tag)
        if tag == "a":
            self.hrefs.append(a["href"] or "")
        if tag == "img":
            self.imgs.append(a["src"] or "")

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def _kit(report: str | None = None) -> dict:
    return {
        "slug": "demo",
        "title": "Demo <Dice>",
        "blurb": "A tiny kit for tests.",
        "pdfs": [
            {"label": "A4", "href": "demo/demo-a4.pdf"},
            {"label": "Letter", "href": "demo/demo-letter.pdf"},
        ],
        "components": [
            {
                "name": "board",
                "title": "Board",
                "png": "demo/png/board.png",
                "svg": "demo/svg/board.svg",
                "dxf": "demo/dxf/board.dxf",
            },
            {
                "name": "card",
                "title": "Card",
                "png": "demo/png/card.png",
                "svg": "demo/svg/card.svg",
                "dxf": None,
            },
        ],
        "report": report,
    }


def test_gallery_links_pdfs_previews_and_files(tmp_path: Path) -> None:
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "report.html").write_text("<p>report</p>")
    index = build_gallery(tmp_path, [_kit()])
    assert index == tmp_path / "index.html"
    page = _parse(index)
    assert {"demo/demo-a4.pdf", "demo/demo-letter.pdf", "demo/report.html"} <= set(page.hrefs)
    assert {"demo/svg/board.svg", "demo/dxf/board.dxf", "demo/svg/card.svg"} <= set(page.hrefs)
    assert "demo/dxf/card.dxf" not in " ".join(page.hrefs)
    assert page.imgs == ["demo/png/board.png", "demo/png/card.png"]
    text = "".join(page.text)
    assert "Demo <Dice>" in text and "A tiny kit for tests." in text  # escaped, then decoded
    assert "<Dice>" not in index.read_text()
    assert "script" not in page.tags
    assert not [h for h in page.hrefs + page.imgs if "://" in h]  # nothing external


def test_report_link_only_when_the_report_exists(tmp_path: Path) -> None:
    page = _parse(build_gallery(tmp_path, [_kit(report="demo/report.html")]))
    assert "demo/report.html" not in page.hrefs


def test_empty_gallery_and_bad_entry(tmp_path: Path) -> None:
    page = _parse(build_gallery(tmp_path, []))
    assert "make kits" in "".join(page.text)
    with pytest.raises(ValueError, match="slug"):
        build_gallery(tmp_path, [{"title": "No slug"}])


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["components", "cut_sheets", "name", "title", "x"]), inner
        )
    ),
    max_leaves=12,
)
"""Manifests of every shape, weighted towards pnp's own keys so near-misses are common."""


def _near_misses() -> st.SearchStrategy:
    name = st.sampled_from(["board", "../../etc/passwd", "", "a/b", 7, None, "tile-1"])
    comp = st.fixed_dictionaries({"name": name, "title": st.sampled_from(["Board", 3, None])})
    return st.fixed_dictionaries(
        {"components": st.lists(comp, max_size=3)},
        optional={"cut_sheets": st.lists(name, max_size=2)},
    )


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(data=JSON | _near_misses())
def test_any_manifest_of_another_game_is_listed_or_skipped_with_a_warning(data) -> None:
    """Whatever sits in another game's manifest.json, the gallery never crashes: a
    manifest pnp could have written is listed, anything else is skipped with one warning
    line naming the file."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        game = out / "parcheesi"
        game.mkdir()
        (game / "manifest.json").write_text(json.dumps(data), encoding="utf-8")
        (game / "parcheesi-a4.pdf").write_bytes(b"%PDF")
        warnings: list[str] = []
        page = _parse(gallery_for(out, warn=warnings.append))
        valid = parse_manifest(json.dumps(data)) is not None
        assert ("parcheesi/parcheesi-a4.pdf" in page.hrefs) == valid
        if valid:
            assert warnings == []
        else:
            assert warnings == [
                f"warning: skipped {game / 'manifest.json'}: not a manifest pnp wrote"
            ]
        for href in page.hrefs + page.imgs:
            assert (out / href).is_file()


@settings(max_examples=50, deadline=None)
@given(
    comps=st.lists(st.tuples(st.from_regex(PART_NAME, fullmatch=True), st.text()), max_size=5),
    sheets=st.lists(st.from_regex(PART_NAME, fullmatch=True), max_size=3),
)
def test_what_a_build_writes_reads_back(comps, sheets) -> None:
    m = parse_manifest(manifest_text(comps, sheets))
    assert m is not None and m.components == tuple(comps) and m.cut_sheets == tuple(sheets)


@pytest.mark.slow
@pytest.mark.parametrize(
    "text",
    ci_keeps(
        ["123", "null", "[1, 2]", '{"components": 5}', '{"cut_sheets": 7}', "{", "\xff"], 3, 5
    ),
)
def test_a_build_skips_another_games_corrupt_manifest_with_one_warning(capsys, tmp_path, text):
    bad = tmp_path / "parcheesi" / "manifest.json"
    bad.parent.mkdir()
    bad.write_text(text, encoding="latin-1")
    code, _, err = run(
        capsys,
        "build",
        "exploding-dice",
        "--paper",
        "a4",
        "--format",
        "pdf",
        "--out",
        str(tmp_path),
    )
    assert code == 0, err
    warnings = [ln for ln in err.splitlines() if ln.startswith("warning:")]
    assert warnings == [f"warning: skipped {bad}: not a manifest pnp wrote"]
    html = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "exploding-dice/exploding-dice-a4.pdf" in html and 'id="parcheesi"' not in html
