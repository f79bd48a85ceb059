"""The gallery page: parsed back to check its links, previews and escaping."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest

from pnp.gallery import build_gallery


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
