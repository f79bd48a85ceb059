"""Build kits: parameters -> Kit -> checks -> PDF, SVG, PNG, DXF, LightBurn files (and, asked
for, print-on-demand and Tabletop Simulator images) in `output/<game>/`.

Checks run before anything renders, and every file is written to a temporary name and
renamed, so a failed build never leaves a half-written file behind.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.build.gallery import MANIFEST, manifest_text, pdf_name
from pnp.contract.config import read_toml, split_config
from pnp.contract.gamedef import seat_range
from pnp.contract.paper import PAPERS, STICKER_PAPER, get_paper
from pnp.contract.params import apply_values, validate_params
from pnp.draw.checks import (
    Finding,
    check_part_sizes,
    has_errors,
    printed_checks,
    scene_checks,
    verified,
)
from pnp.draw.formats import EXTRA_FORMATS, FORMATS
from pnp.draw.kit import Kit, KitSection, PrintParams
from pnp.draw.paint import with_trim_lines
from pnp.draw.prepare import Machine, prepare
from pnp.draw.scene import CUT_LAYERS, PRINTED_MACHINE_LAYERS, Component
from pnp.games import GameDef, get_game, registry
from pnp.runtime.errors import PnpError
from pnp.runtime.staging import Staging

Progress = Callable[[str], None]


class ChecksFailed(Exception):
    """The kit has check errors; nothing was written."""

    def __init__(self, game: str, findings: list[Finding]):
        super().__init__(f"{game}: {sum(f.level == 'error' for f in findings)} check error(s)")
        self.game = game
        self.findings = findings


@dataclass
class BuildResult:
    game: str
    files: list[Path] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)
    """What the build left out and why (a deck no print service makes at its size)."""


def resolve_params(
    game: GameDef,
    config: Path | None = None,
    overrides: dict[str, Any] | None = None,
    values: dict[str, Any] | None = None,
) -> tuple[Any, PrintParams, bool]:
    """Defaults, then the TOML config (or the same keys as `values`: a named variant), then
    CLI overrides. Also: did anyone choose a paper?"""
    data = {**(read_toml(config) if config else {}), **(values or {})}
    source = f"config file {config}" if config else "options"
    params, printing = split_config(data, game.default_params(), source, seat_range(game))
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


@dataclass
class Planned:
    """A kit for one paper, checked and laid out: everything a build needs but the bytes."""

    kit: Kit
    findings: list[Finding]
    documents: list[Document]
    sheets: list[Component]


def plan_kits(
    slug: str,
    config: Path | None = None,
    papers: Iterable[str] | None = None,
    values: dict[str, Any] | None = None,
) -> tuple[GameDef, list[Planned]]:
    """The kits a build makes (each paper asked for; else the config's paper; else all),
    each with its checks run and its pages and cut sheets laid out. Layout is pure data,
    so a card too big for the paper is found here, by `check` and `build` alike, before
    anything renders or any file is written."""
    game = get_game(slug)
    params, printing, paper_chosen = resolve_params(game, config, values=values)
    if papers:
        paper_list = [get_paper(p, printing.margin).name for p in papers]
    else:
        paper_list = [printing.paper] if paper_chosen else list(PAPERS)
    plans: list[Planned] = []
    for p in paper_list:
        kit, findings = _kit_and_findings(game, params, dataclasses.replace(printing, paper=p))
        documents: list[Document] = []
        sheets: list[Component] = []
        try:
            documents = kit_documents(kit)
            findings += printed_checks([(d.machine_layers, d.components()) for d in documents])
            # the cutter bed is not the paper: the parts are nested once, for the first kit
            sheets = plans[0].sheets if plans else cut_sheets_of(kit)
        except PnpError as exc:
            findings.append(Finding("error", "layout", f"on {p} paper: {exc}"))
        plans.append(Planned(kit, findings, documents, sheets))
    return game, plans


def _kit_and_findings(
    game: GameDef, params: Any, printing: PrintParams
) -> tuple[Kit, list[Finding]]:
    """The kit and its findings (made while building, then checked). The geometry raises
    ValueError for a shape it cannot make at these sizes: for `check` as for `build` that
    is one clear line, never a traceback."""
    try:
        kit = game.build_kit(params, printing)
        # found while building, then the game's checks, then those every kit gets
        findings = [
            *kit.findings,
            *game.checks(kit),
            *check_part_sizes(kit.components),
            *scene_checks(kit.components),
        ]
    except ValueError as exc:
        raise PnpError(f"{game.title} cannot be made with these sizes: {exc}") from None
    return kit, findings


def check_game(
    slug: str,
    config: Path | None = None,
    paper: str | None = None,
    values: dict[str, Any] | None = None,
    verbose: bool = False,
) -> list[Finding]:
    """Every finding of every kit the same build would make, each once; `verbose` adds
    an "ok" line for each check every kit gets, with the value it measured."""
    _, plans = plan_kits(slug, config, [paper] if paper is not None else None, values)
    seen: dict[tuple[str, str, str], Finding] = {}
    for plan in plans:
        found = plan.findings
        if verbose:
            docs = [(d.machine_layers, d.components()) for d in plan.documents]
            found = found + verified(plan.kit.components, docs)
        for f in found:
            seen.setdefault((f.level, f.component, f.message), f)
    return list(seen.values())


def build_game(
    slug: str,
    papers: Iterable[str] | None = None,
    out: Path = Path("output"),
    config: Path | None = None,
    formats: Iterable[str] = FORMATS,
    progress: Progress | None = None,
    values: dict[str, Any] | None = None,
    stage: Staging | None = None,
) -> BuildResult:
    """Build one game's kit for each paper; returns the files written. `values` are config
    keys given directly instead of (or as well as, later winning) a config file.

    Files go through `stage` (one `Staging` for a whole command, the gallery included);
    without one the build makes its own, so a failed build leaves `out` as it was."""
    if stage is None:
        with Staging(out) as own:
            return build_game(slug, papers, out, config, formats, progress, values, own)
    started = time.perf_counter()
    say = progress or (lambda _msg: None)
    formats = _formats(formats)
    say(f"{slug}: checking")
    game, plans = plan_kits(slug, config, papers, values)
    for plan in plans:
        if has_errors(plan.findings):
            raise ChecksFailed(slug, plan.findings)
    stage.own(slug)  # output/<game>/ will hold exactly what this build makes
    write = _Writer(stage, slug)
    result = BuildResult(slug, findings=plans[0].findings)
    if "pdf" in formats:
        from pnp.draw.render.pdf import render_pdf

        for plan in plans:
            kit = plan.kit
            for doc in plan.documents:
                say(f"{slug}: rendering the {kit.printing.paper} {doc.name or 'print'} PDF")
                data = render_pdf(
                    doc.pages,
                    f"{kit.title} - {doc.title}",
                    hairline=doc.hairline,
                    machine_layers=doc.machine_layers,
                )
                result.files.append(write(pdf_name(slug, doc.name, kit.printing.paper), data))
                if "jobs" in formats and not doc.name:
                    result.files += _job_pdfs(kit, doc, write, say)
    result.files += _component_files(plans[0], write, formats, say)
    result.files += _cut_sheet_files(plans[0], write, formats, say)
    result.files += _image_exports(plans[0], write, formats, say, result.warnings)
    result.seconds = time.perf_counter() - started
    return result


def kit_pages(
    kit: Kit,
    sections: Iterable[KitSection] | None = None,
    subtitle: str = "",
    machine_layers: tuple[str, ...] = PRINTED_MACHINE_LAYERS,
) -> list:
    """A document's pages in print order, from the sections the game declared. A print
    that leaves out the cut layer draws a trim line where a piece's edge would not show."""
    from pnp.draw.layout.document import Section, build_document

    paper = get_paper(kit.printing.paper, kit.printing.margin)
    chosen = kit.sections if sections is None else sections
    if sections is None and not kit.printing.sticker_sheets:  # on the shared sheet instead
        chosen = [s for s in chosen if s.stock != STICKER_PAPER]

    def printed(name: str) -> Component:
        return with_trim_lines(kit.component(name), machine_layers)

    laid = [
        Section(s.title, [printed(n) for n in s.names], s.note, s.scale, s.stock, s.reading)
        for s in chosen
    ]
    return build_document(
        kit.title,
        laid,
        paper,
        kit.printing,
        subtitle=subtitle or "Print-and-play kit",
        materials=kit.materials if sections is None else (),
    )


@dataclass(frozen=True)
class Document:
    """One PDF of a kit, laid out: the one whose `name` is `''` is the main print PDF."""

    name: str
    title: str
    pages: list
    hairline: float | None = None
    machine_layers: tuple[str, ...] = PRINTED_MACHINE_LAYERS

    def components(self) -> list[Component]:
        """Every component placed on its pages, as printed (trim lines included)."""
        return [pl.component for page in self.pages for pl in page.placements]


def kit_documents(kit: Kit) -> list[Document]:
    """Every PDF the kit prints, laid out: the main one first."""
    every = kit.printing.print_cut_lines  # opt-in: every machine layer in every PDF
    main = CUT_LAYERS if every else PRINTED_MACHINE_LAYERS
    docs = [Document("", "print-and-play kit", kit_pages(kit, machine_layers=main), None, main)]
    for d in kit.documents:
        layers = CUT_LAYERS if every else d.machine_layers
        pages = kit_pages(kit, d.sections, d.title, layers)
        docs.append(Document(d.name, d.title, pages, d.hairline, layers))
    return docs


SHARED = "shared"
"""The folder of the sheets several kits share (`build_shared`)."""


def shared_pdf_name(paper: str) -> str:
    return f"{SHARED}/shared-sheets-{paper}.pdf"


def build_shared(
    slugs: list[str],
    papers: Iterable[str] | None,
    stage: Staging,
    config: Path | None = None,
    progress: Progress | None = None,
) -> list[Path]:
    """`shared/shared-sheets-<paper>.pdf`: what several kits print once between them, the
    duplex alignment test (first) and one run of sticker paper holding every kit's
    stickers, small sections sharing a sheet where there is room. The kits themselves are
    built with `alignment_test` and `sticker_sheets` off."""
    from pnp.draw.layout.document import Section, build_document
    from pnp.draw.render.pdf import render_pdf

    say = progress or (lambda _msg: None)
    files = []
    for paper_name in papers or PAPERS:
        sections: list[Section] = []
        printing: PrintParams | None = None
        for slug in slugs:
            _, kit = make_kit(slug, config, paper_name)
            printing = printing or kit.printing
            for s in kit.sections:
                if s.stock == STICKER_PAPER:
                    comps = [
                        with_trim_lines(kit.component(n), PRINTED_MACHINE_LAYERS) for n in s.names
                    ]
                    sections.append(
                        Section(f"{kit.title}: {s.title}", comps, s.note, s.scale, s.stock)
                    )
        if printing is None:
            continue
        printing = dataclasses.replace(printing, alignment_test=True)
        paper = get_paper(printing.paper, printing.margin)
        title = "Shared sheets"
        kits = ", ".join(get_game(s).title for s in slugs)
        pages = build_document(
            title, sections, paper, printing, subtitle=f"Printed once for {kits}", test_first=True
        )
        say(f"shared sheets: rendering the {paper.name} PDF")
        data = render_pdf(pages, title)
        files.append(stage.write_bytes(shared_pdf_name(paper.name), data))
    return files


def job_pdf_name(slug: str, paper: str, number: int, job: str) -> str:
    """`jobs/<game>-<paper>-<k>-<job>.pdf`: the k-th print job of the main PDF."""
    return f"jobs/{slug}-{paper}-{number}-{job}.pdf"


def print_jobs_of(doc: Document) -> list[tuple[str, list]]:
    """The document's pages cut into its print jobs, in order: (job name, pages)."""
    jobs: list[tuple[str, list]] = []
    for page in doc.pages:
        if jobs and jobs[-1][0] == page.job:
            jobs[-1][1].append(page)
        else:
            jobs.append((page.job, [page]))
    return jobs


def _job_pdfs(kit: Kit, doc: Document, write: _Writer, say: Progress) -> list[Path]:
    """One PDF per print job of the main PDF, its pages as numbered in the whole kit (the
    cover's page ranges still find them), so each stock is loaded and printed once."""
    from pnp.draw.render.pdf import render_pdf

    files = []
    paper = kit.printing.paper
    for k, (job, pages) in enumerate(print_jobs_of(doc), start=1):
        say(f"{kit.game}: rendering the {paper} {job} print job")
        title = f"{kit.title} - {doc.title}, print job {k}: {job.replace('-', ' ')}"
        data = render_pdf(pages, title, hairline=doc.hairline, machine_layers=doc.machine_layers)
        files.append(write(job_pdf_name(kit.game, paper, k, job), data))
    return files


def cut_sheets_of(kit: Kit) -> list[Component]:
    """The kit's cut parts, with their copies, packed onto the chosen cutter bed: a run of
    sheets per material group, named after it."""
    if not kit.cut_parts:
        return []
    from pnp.draw.layout.cutsheet import cut_sheets

    gap = 0.0 if kit.printing.common_line else 2.0
    machine = Machine(kit.printing.kerf, kit.printing.common_line)
    sheets: list[Component] = []
    for material, names in kit.cut_parts.items():
        parts = [kit.component(n) for n in names]
        sheets += cut_sheets(parts, kit.printing.cut_bed, gap=gap, machine=machine, name=material)
    return sheets


@dataclass
class _Writer:
    """Writes `<game>/<relpath>` through the build's staging."""

    stage: Staging
    slug: str

    def __call__(self, relpath: str, data: bytes | str) -> Path:
        raw = data.encode("utf-8") if isinstance(data, str) else data
        return self.stage.write_bytes(f"{self.slug}/{relpath}", raw)


def _cut_sheet_files(plan: Planned, write: _Writer, formats: set[str], say: Progress) -> list[Path]:
    """`cut/<name>-<n>.svg`, `.dxf` and `.lbrn2`: the parts packed onto beds, every layer
    kept (the LightBurn project with its material's laser preset)."""
    kit = plan.kit
    files: list[Path] = []
    if not formats & {"svg", "dxf", "lbrn2"}:
        return files  # no renderer loaded for a print-only build
    from pnp.draw.render.dxf import DXF_LAYER_ORDER, component_dxf
    from pnp.draw.render.laser import load_presets, sheet_notes
    from pnp.draw.render.svg import component_svg

    presets = load_presets(kit.printing.laser_presets) if formats & {"lbrn2", "dxf"} else None
    for sheet in plan.sheets:
        say(f"{kit.game}: cut sheet {sheet.name}")
        if "svg" in formats:
            data = component_svg(sheet).encode("utf-8")  # sheets come prepared
            files.append(write(f"cut/{sheet.name}.svg", data))
        if "dxf" in formats and presets is not None:
            preset = presets.for_material(_material(sheet.name))
            layers = tuple(layer for layer in DXF_LAYER_ORDER if sheet.shapes(layer))
            notes = sheet_notes(sheet.name, sheet.meta, (sheet.width, sheet.height), preset, layers)
            dxf = component_dxf(sheet, notes)
            if dxf is not None:
                files.append(write(f"cut/{sheet.name}.dxf", dxf))
        if "lbrn2" in formats and presets is not None:
            from pnp.draw.render.lbrn2 import sheet_lbrn2

            preset = presets.for_material(_material(sheet.name))
            project = sheet_lbrn2(sheet, preset, engrave=kit.printing.laser_engrave)
            if project is not None:
                files.append(write(f"cut/{sheet.name}.lbrn2", project))
    return files


def _material(sheet_name: str) -> str:
    """A cut sheet `<material>-<n>`'s material group (a key of `Kit.cut_parts`)."""
    return sheet_name.rsplit("-", 1)[0]


def _image_exports(
    plan: Planned, write: _Writer, formats: set[str], say: Progress, warnings: list[str]
) -> list[Path]:
    """`pod/<deck>/...` and `tts/...`: card faces on a service's product of their size and
    deck sheets for Tabletop Simulator (see pnp.draw.render.pod and pnp.draw.render.tts). A deck no
    product fits is left out of `pod/`, with a line in `warnings`."""
    if not formats & {"pod", "tts"}:
        return []
    from pnp.draw.render.faces import kit_decks
    from pnp.draw.render.pod import pod_files, pod_plans
    from pnp.draw.render.tts import tts_files

    kit = plan.kit
    decks = kit_decks(kit.components)
    files = []
    if "pod" in formats:
        say(f"{kit.game}: print-on-demand images")
        plans = pod_plans(decks)
        warnings += [
            f"{kit.game}: pod/{p.deck.name} left out: {p.reason}"
            for p in plans
            if p.product is None
        ]
        files += [write(rel, data) for rel, data in pod_files(plans)]
    if "tts" in formats:
        say(f"{kit.game}: Tabletop Simulator images")
        board = next((c for c in kit.components if c.name == "board"), None)
        files += [write(rel, data) for rel, data in tts_files(decks, board)]
    return files


def _component_files(plan: Planned, write: _Writer, formats: set[str], say: Progress) -> list[Path]:
    """One SVG, PNG preview and DXF cut file per component (paper does not change them).
    Each renderer is imported only for its format: cairo and ezdxf take a second to load."""
    kit = plan.kit
    files = []
    comps = all_components(kit)
    # the manifest lists what this build wrote: a part with a file, cut sheets if cut
    made = [
        c for c in comps if formats & {"svg", "png"} or ("dxf" in formats and c.has_cut_lines())
    ]
    sheets = [s.name for s in plan.sheets] if formats & {"svg", "dxf", "lbrn2"} else []
    decks = []
    if formats & {"pod", "tts"}:
        from pnp.draw.render.faces import kit_decks

        decks = [d.name for d in kit_decks(kit.components)]
    made_list = [(c.name, c.title) for c in made]
    files.append(write(MANIFEST, manifest_text(made_list, sheets, decks)))
    for comp in comps:
        say(f"{kit.game}: {comp.name}")
        if "svg" in formats:
            from pnp.draw.render.svg import component_svg

            files.append(write(f"svg/{comp.name}.svg", component_svg(comp)))
        if "png" in formats:
            from pnp.draw.render.png import component_png

            files.append(write(f"png/{comp.name}.png", component_png(comp)))
        if "dxf" in formats:
            from pnp.draw.render.dxf import component_dxf

            dxf = component_dxf(prepare(comp, Machine(kit.printing.kerf)))
            if dxf is not None:
                files.append(write(f"dxf/{comp.name}.dxf", dxf))
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
    known = FORMATS + EXTRA_FORMATS
    unknown = chosen - set(known)
    if unknown or not chosen:
        named = ", ".join(sorted(unknown)) or "(none)"
        raise PnpError(f"unknown format '{named}': choose from {', '.join(known)}")
    return chosen


def game_slugs(name: str) -> list[str]:
    """'all' means every registered game; anything else must be one."""
    if name == "all":
        return list(registry())
    get_game(name)
    return [name]


def build_gallery_for(
    out: Path, stage: Staging | None = None, warn: Callable[[str], None] | None = None
) -> Path:
    """The index page over every kit in `out` (see `pnp.build.gallery.gallery_for`)."""
    from pnp.build.gallery import gallery_for

    return gallery_for(out, stage, warn)
