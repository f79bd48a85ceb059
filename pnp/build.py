"""Build kits: parameters -> Kit -> checks -> PDF, SVG, PNG, DXF files in output/<game>/.

Checks run before anything renders, and every file is written to a temporary name and
renamed, so a failed build never leaves a half-written file behind.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.atomic import ensure_dir, write_bytes, write_text
from pnp.checks import Finding, has_errors
from pnp.config import read_toml, split_config
from pnp.errors import PnpError
from pnp.games import GameDef, get_game, registry
from pnp.kit import Kit, KitSection, PrintParams
from pnp.paper import PAPERS, get_paper
from pnp.params import apply_values, validate_params
from pnp.scene import Component

FORMATS = ("pdf", "svg", "png", "dxf")
Progress = Callable[[str], None]


class ChecksFailed(Exception):
    """The kit has check errors; nothing was written."""

    def __init__(self, game: str, findings: list[Finding]):
        super().__init__(f"{game}: {sum(f.level == 'error' for f in findings)} check error(s)")
        self.findings = findings


@dataclass
class BuildResult:
    game: str
    files: list[Path] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0


def resolve_params(
    game: GameDef,
    config: Path | None = None,
    overrides: dict[str, Any] | None = None,
    values: dict[str, Any] | None = None,
) -> tuple[Any, PrintParams, bool]:
    """Defaults, then the TOML config (or the same keys as `values`: a named variant), then
    CLI overrides. Also: did anyone choose a paper?"""
    data = read_toml(config) if config else dict(values or {})
    source = f"config file {config}" if config else "options"
    params, printing = split_config(data, game.default_params(), source)
    paper_chosen = "paper" in data
    if overrides:
        values = {k: v for k, v in overrides.items() if v is not None}
        paper_chosen = paper_chosen or "paper" in values
        printing = validate_params(apply_values(printing, values))
    return params, printing, paper_chosen


def make_kit(
    slug: str,
    config: Path | None = None,
    paper: str | None = None,
    values: dict[str, Any] | None = None,
) -> tuple[GameDef, Kit]:
    """The kit from its defaults, a config file or config `values`, for one paper."""
    game = get_game(slug)
    params, printing, _ = resolve_params(game, config, {"paper": paper}, values)
    return game, game.build_kit(params, printing)


def check_game(slug: str, config: Path | None = None, paper: str | None = None) -> list[Finding]:
    game, kit = make_kit(slug, config, paper)
    return game.checks(kit)


def build_game(
    slug: str,
    papers: Iterable[str] | None = None,
    out: Path = Path("output"),
    config: Path | None = None,
    formats: Iterable[str] = FORMATS,
    progress: Progress | None = None,
) -> BuildResult:
    """Build one game's kit for each paper; returns the files written."""
    started = time.perf_counter()
    say = progress or (lambda _msg: None)
    formats = _formats(formats)
    game = get_game(slug)
    params, printing, paper_chosen = resolve_params(game, config)
    paper_list = list(papers) if papers else ([printing.paper] if paper_chosen else list(PAPERS))
    for p in paper_list:
        get_paper(p, printing.margin)
    ensure_dir(out)
    kits = []
    for p in paper_list:
        say(f"{slug}: building the {p} kit")
        kit = game.build_kit(params, dataclasses.replace(printing, paper=p))
        findings = game.checks(kit)
        if has_errors(findings):
            raise ChecksFailed(slug, findings)
        kits.append(kit)
    folder = ensure_dir(out / slug)
    result = BuildResult(slug, findings=findings)
    if "pdf" in formats:
        from pnp.render.pdf import render_pdf

        for kit in kits:
            for name, title, pages in kit_documents(kit):
                say(f"{slug}: rendering the {kit.printing.paper} {name or 'print'} PDF")
                data = render_pdf(pages, title=f"{kit.title} - {title}")
                path = folder / pdf_name(slug, name, kit.printing.paper)
                result.files.append(write_bytes(path, data))
    result.files += _component_files(kits[0], folder, formats, say)
    result.files += _cut_sheet_files(kits[0], folder, formats, say)
    result.seconds = time.perf_counter() - started
    return result


def pdf_name(slug: str, document: str, paper: str) -> str:
    """`<game>-<paper>.pdf` for the main PDF, `<game>-<document>-<paper>.pdf` for others."""
    return f"{slug}-{document}-{paper}.pdf" if document else f"{slug}-{paper}.pdf"


def kit_pages(kit: Kit, sections: Iterable[KitSection] | None = None, subtitle: str = "") -> list:
    """A document's pages in print order, from the sections the game declared."""
    from pnp.layout.document import Section, build_document

    paper = get_paper(kit.printing.paper, kit.printing.margin)
    chosen = kit.sections if sections is None else sections
    laid = [Section(s.title, [kit.component(n) for n in s.names], s.note, s.scale) for s in chosen]
    return build_document(
        kit.title,
        laid,
        paper,
        kit.printing,
        subtitle=subtitle or "Print-and-play kit",
        materials=kit.materials if sections is None else (),
    )


def kit_documents(kit: Kit) -> list[tuple[str, str, list]]:
    """(name, title, pages) of every PDF the kit prints: the main one first (name '')."""
    docs = [("", "print-and-play kit", kit_pages(kit))]
    for d in kit.documents:
        docs.append((d.name, d.title, kit_pages(kit, d.sections, d.title)))
    return docs


def cut_sheets_of(kit: Kit) -> list[Component]:
    """The kit's cut parts, with their copies, packed onto the chosen cutter bed."""
    if not kit.cut_parts:
        return []
    from pnp.layout.cutsheet import cut_sheets

    parts = [kit.component(n) for n in kit.cut_parts]
    gap = 0.0 if kit.printing.common_line else 2.0
    return cut_sheets(
        parts, kit.printing.cut_bed, gap=gap, common_line=kit.printing.common_line, name="cut"
    )


def _cut_sheet_files(kit: Kit, folder: Path, formats: set[str], say: Progress) -> list[Path]:
    """`cut/<name>-<n>.svg` and `.dxf`: the parts packed onto beds, every layer kept."""
    from pnp.render.dxf import component_dxf
    from pnp.render.svg import component_svg

    files = []
    for sheet in cut_sheets_of(kit):
        say(f"{kit.game}: cut sheet {sheet.name}")
        if "svg" in formats:
            data = component_svg(sheet).encode("utf-8")
            files.append(write_bytes(folder / "cut" / f"{sheet.name}.svg", data))
        if "dxf" in formats:
            dxf = component_dxf(sheet, kerf=kit.printing.kerf)
            if dxf is not None:
                files.append(write_bytes(folder / "cut" / f"{sheet.name}.dxf", dxf))
    return files


def _component_files(kit: Kit, folder: Path, formats: set[str], say: Progress) -> list[Path]:
    """One SVG, PNG preview and DXF cut file per component (paper does not change them)."""
    from pnp.render.dxf import component_dxf
    from pnp.render.png import component_png
    from pnp.render.svg import component_svg

    files = []
    comps = all_components(kit)
    manifest = [{"name": c.name, "title": c.title} for c in comps]
    files.append(write_text(folder / "manifest.json", json.dumps(manifest, indent=1) + "\n"))
    for comp in comps:
        say(f"{kit.game}: {comp.name}")
        if "svg" in formats:
            svg = component_svg(comp)
            files.append(write_bytes(folder / "svg" / f"{comp.name}.svg", svg.encode("utf-8")))
        if "png" in formats:
            files.append(write_bytes(folder / "png" / f"{comp.name}.png", component_png(comp)))
        if "dxf" in formats:
            dxf = component_dxf(comp, kerf=kit.printing.kerf)
            if dxf is not None:
                files.append(write_bytes(folder / "dxf" / f"{comp.name}.dxf", dxf))
    return files


def all_components(kit: Kit) -> list[Component]:
    """The kit's components and, once each, the backs they carry (a card back is a part too)."""
    out, seen = [], set()
    for comp in kit.components:
        for c in (comp, comp.back):
            if c is not None and c.name not in seen:
                seen.add(c.name)
                out.append(c)
    return out


def _formats(formats: Iterable[str]) -> set[str]:
    chosen = {f.strip().lower() for f in formats if f.strip()}
    unknown = chosen - set(FORMATS)
    if unknown or not chosen:
        named = ", ".join(sorted(unknown)) or "(none)"
        raise PnpError(f"unknown format '{named}': choose from {', '.join(FORMATS)}")
    return chosen


def game_slugs(name: str) -> list[str]:
    """'all' means every registered game; anything else must be one."""
    if name == "all":
        return list(registry())
    get_game(name)
    return [name]


def build_gallery_for(out: Path) -> Path:
    """The index page over every kit that has been built into `out`."""
    from pnp.gallery import build_gallery

    kits = []
    for slug, game in registry().items():
        folder = out / slug
        if not folder.is_dir():
            continue
        kits.append(_gallery_entry(slug, game, folder, out))
    return build_gallery(out, kits)


def _gallery_entry(slug: str, game: GameDef, folder: Path, out: Path) -> dict[str, Any]:
    def rel(p: Path) -> str:
        return p.relative_to(out).as_posix()

    pdfs = [
        {"label": "A4" if p == "a4" else p.title(), "href": rel(f), "title": title}
        for name, title in [("", "Print PDF")] + list(game.documents)
        for p in PAPERS
        if (f := folder / pdf_name(slug, name, p)).exists()
    ]
    sheets = sorted((folder / "cut").glob("*.svg")) if (folder / "cut").is_dir() else []
    cuts = [
        {"name": f.stem, "svg": rel(f), "dxf": rel(f.with_suffix(".dxf"))}
        for f in sheets
        if f.with_suffix(".dxf").exists()
    ]
    comps = []
    manifest = folder / "manifest.json"
    listed = json.loads(manifest.read_text(encoding="utf-8")) if manifest.exists() else []
    for item in listed:
        name = item["name"]
        png = folder / "png" / f"{name}.png"
        svg, dxf = folder / "svg" / f"{name}.svg", folder / "dxf" / f"{name}.dxf"
        if not png.exists():
            continue
        comps.append(
            {
                "name": name,
                "title": item["title"],
                "png": rel(png),
                "svg": rel(svg) if svg.exists() else None,
                "dxf": rel(dxf) if dxf.exists() else None,
            }
        )
    report = folder / "report.html"
    return {
        "slug": slug,
        "title": game.title,
        "blurb": game.blurb,
        "pdfs": pdfs,
        "cut_sheets": cuts,
        "components": comps,
        "report": rel(report) if report.exists() else None,
    }
