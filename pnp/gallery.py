"""The output gallery: `output/index.html`, one section per built kit, previews linking to files.

A kit entry is a plain dict (hrefs relative to the gallery's folder, '/'-separated):

    {
        "slug": "exploding-dice",                 # required; also the section's anchor
        "title": "Exploding Dice",                # required
        "blurb": "One short paragraph.",          # optional
        "pdfs": [{"label": "A4", "href": "exploding-dice/exploding-dice-a4.pdf"}],
        "components": [                           # built by pnp.build from manifest.json
            {"name": "board", "title": "Board", "png": "exploding-dice/png/board.png",
             "svg": "exploding-dice/svg/board.svg", "dxf": None,
             "back_png": None, "back_svg": None},
        ],
        "report": "exploding-dice/report.html",   # optional; shown only if the file exists
    }

No JavaScript and no external assets, so the page works opened straight from disk.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pnp.atomic import write_text
from pnp.templating import render

GALLERY_TEMPLATE = "gallery.html.j2"


def gallery_html(kits: list[dict[str, Any]], find: Callable[[str], Path | None]) -> str:
    """The index page listing `kits` (see the module docstring); `find(href)` says whether
    a linked file exists (in the output folder, or staged to land there)."""
    return render(GALLERY_TEMPLATE, kits=[_kit_section(find, kit) for kit in kits])


def build_gallery(out_dir: Path, kits: list[dict[str, Any]]) -> Path:
    """Write `out_dir/index.html` listing `kits`; return its path."""
    out_dir = Path(out_dir)

    def find(rel: str) -> Path | None:
        path = out_dir / rel
        return path if path.is_file() else None

    return write_text(out_dir / "index.html", gallery_html(kits, find))


def _kit_section(find: Callable[[str], Path | None], kit: dict[str, Any]) -> dict[str, Any]:
    """Fill defaults and keep only links that make sense (a report only once it exists)."""
    for key in ("slug", "title"):
        if not kit.get(key):
            raise ValueError(f"gallery kit entry needs a '{key}': {kit!r}")
    slug = str(kit["slug"])
    report = kit.get("report") or f"{slug}/report.html"
    components = []
    for comp in kit.get("components", []):
        entry = {k: comp.get(k) for k in ("name", "png", "svg", "dxf", "back_png", "back_svg")}
        entry["title"] = comp.get("title") or comp.get("name") or ""
        back = entry["back_svg"] or entry["back_png"]
        links = [("SVG", entry["svg"]), ("DXF", entry["dxf"]), ("Back", back)]
        entry["links"] = [(label, href) for label, href in links if href]
        components.append(entry)
    return {
        "slug": slug,
        "title": str(kit["title"]),
        "blurb": kit.get("blurb") or "",
        "pdfs": [
            {"label": p["label"], "href": p["href"], "title": p.get("title", "Print PDF")}
            for p in kit.get("pdfs", [])
        ],
        "cut_sheets": kit.get("cut_sheets", []),
        "components": components,
        "report": report if find(report) is not None else None,
    }
