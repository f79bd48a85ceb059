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

`gallery_for(out)` builds those entries from what is in the output folder: each game's
`manifest.json` (what its last build made, written by `manifest_text`) and the files
that exist, plus a `report.html` that `pnp simulate --report` wrote. A manifest that is
not what pnp writes (another tool's, or a damaged one) is skipped with a warning.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.contract.paper import PAPERS
from pnp.draw.templating import render
from pnp.runtime.atomic import write_text
from pnp.runtime.staging import Staging

GALLERY_TEMPLATE = "gallery.html.j2"
MANIFEST = "manifest.json"
CUT_FILES = ("svg", "dxf", "lbrn2")
"""A cut sheet's files, each linked when the build wrote it."""
REPORT = "report.html"
PART_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
"""A component or cut-sheet name as pnp writes it: a file name, never a path."""
Warn = Callable[[str], None]


def pdf_name(slug: str, document: str, paper: str) -> str:
    """`<game>-<paper>.pdf` for the main PDF, `<game>-<document>-<paper>.pdf` for others."""
    return f"{slug}-{document}-{paper}.pdf" if document else f"{slug}-{paper}.pdf"


@dataclass(frozen=True)
class Manifest:
    """What one build made: its components (name, title), cut sheets and decks (for the
    print-on-demand and Tabletop Simulator images), in order."""

    components: tuple[tuple[str, str], ...]
    cut_sheets: tuple[str, ...]
    decks: tuple[str, ...] = ()


def manifest_text(
    components: Iterable[tuple[str, str]], cut_sheets: Iterable[str], decks: Iterable[str] = ()
) -> str:
    """The `manifest.json` a build writes beside its files (`decks` only when it has some)."""
    data: dict[str, Any] = {
        "components": [{"name": n, "title": t} for n, t in components],
        "cut_sheets": list(cut_sheets),
    }
    if decks:
        data["decks"] = list(decks)
    return json.dumps(data, indent=1) + "\n"


def parse_manifest(text: str) -> Manifest | None:
    """The manifest in `text`, or None when it is not what `manifest_text` writes (a bare
    list of components, from builds before cut sheets were listed, is still read)."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if isinstance(data, list):
        data = {"components": data}
    if not isinstance(data, dict) or not set(data) <= {"components", "cut_sheets", "decks"}:
        return None
    comps, sheets = data.get("components", []), data.get("cut_sheets", [])
    decks = data.get("decks", [])
    if not all(isinstance(v, list) for v in (comps, sheets, decks)):
        return None
    parts = []
    for c in comps:
        if not isinstance(c, dict) or set(c) != {"name", "title"}:
            return None
        if not _is_name(c["name"]) or not isinstance(c["title"], str):
            return None
        parts.append((c["name"], c["title"]))
    if not all(_is_name(n) for n in [*sheets, *decks]):
        return None
    return Manifest(tuple(parts), tuple(sheets), tuple(decks))


def _is_name(v: object) -> bool:
    return isinstance(v, str) and PART_NAME.fullmatch(v) is not None


def _stderr(line: str) -> None:
    print(line, file=sys.stderr)


def gallery_for(out: Path, stage: Staging | None = None, warn: Warn | None = None) -> Path:
    """Write `out/index.html` over every kit in `out`, through `stage` (in one commit with
    a build's files) or on its own; `warn` gets one line per manifest skipped."""
    if stage is None:
        with Staging(out) as own:
            return gallery_for(out, own, warn)
    from pnp.games import registry

    say = warn or _stderr
    kits = []
    for slug, game in registry().items():
        path = stage.find(f"{slug}/{MANIFEST}")
        manifest = None
        if path is not None:
            try:
                manifest = parse_manifest(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                manifest = None
            if manifest is None:
                say(f"warning: skipped {out / slug / MANIFEST}: not a manifest pnp wrote")
                continue
        entry = _entry_from(slug, game, manifest, stage.find)
        if entry is not None:
            kits.append(entry)
    return stage.write_text("index.html", gallery_html(kits, stage.find))


def _entry_from(
    slug: str, game: Any, manifest: Manifest | None, find: Callable[[str], Path | None]
) -> dict[str, Any] | None:
    """A kit's gallery entry from its manifest and the files there; a game with neither a
    manifest nor a report has none."""

    def have(rel: str) -> str | None:
        return rel if find(rel) is not None else None

    report = have(f"{slug}/{REPORT}")
    if manifest is None:
        if report is None:
            return None
        manifest = Manifest((), ())
    pdfs = [
        {"label": "A4" if p == "a4" else p.title(), "href": href, "title": title}
        for name, title in [("", "Print PDF")] + list(game.documents)
        for p in PAPERS
        if (href := have(f"{slug}/{pdf_name(slug, name, p)}"))
    ]
    cuts = []
    for n in manifest.cut_sheets:
        links = {k: have(f"{slug}/cut/{n}.{k}") for k in CUT_FILES}
        if any(links.values()):
            cuts.append({"name": n, **links})
    decks = [
        {
            "name": n,
            "pod": have(f"{slug}/pod/{n}/README.txt"),
            "pod_front": have(f"{slug}/pod/{n}/001-front.png"),
            "pod_back": have(f"{slug}/pod/{n}/back.png"),
            "tts_faces": have(f"{slug}/tts/{n}-faces.png"),
            "tts_back": have(f"{slug}/tts/{n}-back.png"),
        }
        for n in manifest.decks
    ]
    comps = [
        {
            "name": name,
            "title": title,
            "png": png,
            "svg": have(f"{slug}/svg/{name}.svg"),
            "dxf": have(f"{slug}/dxf/{name}.dxf"),
        }
        for name, title in manifest.components
        if (png := have(f"{slug}/png/{name}.png"))
    ]
    return {
        "slug": slug,
        "title": game.title,
        "blurb": game.blurb,
        "pdfs": pdfs,
        "cut_sheets": cuts,
        "decks": [d for d in decks if any(v for k, v in d.items() if k != "name")],
        "tts_board": have(f"{slug}/tts/board.png"),
        "components": comps,
        "report": report,
    }


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
    report = kit.get("report") or f"{slug}/{REPORT}"
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
        "decks": kit.get("decks", []),
        "tts_board": kit.get("tts_board"),
        "components": components,
        "report": report if find(report) is not None else None,
    }
