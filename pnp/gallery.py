"""The output gallery: `output/index.html`, one section per built kit, previews linking to files.

A kit entry is a plain dict (hrefs relative to the gallery's folder, '/'-separated):

    {
        "slug": "exploding-dice",                 # required; also the section's anchor
        "title": "Exploding Dice",                # required
        "blurb": "One short paragraph.",          # optional
        "pdfs": [{"label": "A4", "href": "exploding-dice/exploding-dice-a4.pdf"}],
        "components": [                           # e.g. from write_component_files()
            {"name": "board", "title": "Board", "png": "exploding-dice/png/board.png",
             "svg": "exploding-dice/svg/board.svg", "dxf": None,
             "back_png": None, "back_svg": None},
        ],
        "report": "exploding-dice/report.html",   # optional; shown only if the file exists
    }

No JavaScript and no external assets, so the page works opened straight from disk.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import jinja2

from pnp.atomic import write_bytes, write_text
from pnp.render.dxf import component_dxf
from pnp.render.png import component_png
from pnp.render.svg import component_svg
from pnp.scene import Component

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
GALLERY_TEMPLATE = "gallery.html.j2"


def build_gallery(out_dir: Path, kits: list[dict[str, Any]]) -> Path:
    """Write `out_dir/index.html` listing `kits` (see the module docstring); return its path."""
    out_dir = Path(out_dir)
    sections = [_kit_section(out_dir, kit) for kit in kits]
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    html = env.get_template(GALLERY_TEMPLATE).render(kits=sections)
    return write_text(out_dir / "index.html", html)


def _kit_section(out_dir: Path, kit: dict[str, Any]) -> dict[str, Any]:
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
        "pdfs": [{"label": p["label"], "href": p["href"]} for p in kit.get("pdfs", [])],
        "components": components,
        "report": report if (out_dir / report).is_file() else None,
    }


def write_component_files(
    component: Component,
    kit_dir: Path,
    kerf: float = 0.0,
    colours: dict[str, str] | None = None,
    rel_to: Path | None = None,
) -> dict[str, str | None]:
    """Write a component's SVG, preview PNG and (if it has cut lines) DXF under `kit_dir`.

    Files go to `kit_dir/svg/<name>.svg`, `kit_dir/png/<name>.png`, `kit_dir/dxf/<name>.dxf`;
    a back (`component.back`) adds `<name>-back.svg/.png`. Returns the gallery entry for the
    component with hrefs relative to `rel_to` (default: the parent of `kit_dir`, where
    index.html lives).
    """
    kit_dir = Path(kit_dir)
    base = Path(rel_to) if rel_to is not None else kit_dir.parent

    def href(path: Path) -> str:
        return Path(os.path.relpath(path, base)).as_posix()

    name = component.name
    svg = component_svg(component, colours=colours)
    svg_path = write_text(kit_dir / "svg" / f"{name}.svg", svg)
    png = component_png(component, colours=colours)
    png_path = write_bytes(kit_dir / "png" / f"{name}.png", png)
    entry: dict[str, str | None] = {
        "name": name,
        "title": component.title or name,
        "svg": href(svg_path),
        "png": href(png_path),
        "dxf": None,
        "back_svg": None,
        "back_png": None,
    }
    dxf = component_dxf(component, kerf=kerf)
    if dxf is not None:
        entry["dxf"] = href(write_bytes(kit_dir / "dxf" / f"{name}.dxf", dxf))
    if component.back is not None:
        back = component.back
        back_svg = component_svg(back, colours=colours)
        entry["back_svg"] = href(write_text(kit_dir / "svg" / f"{name}-back.svg", back_svg))
        back_png = component_png(back, colours=colours)
        entry["back_png"] = href(write_bytes(kit_dir / "png" / f"{name}-back.png", back_png))
    return entry
