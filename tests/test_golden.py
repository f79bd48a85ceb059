"""Golden files: every component of every registered kit renders to the SVG on record, and
reads as the data on record.

Per part, `golden/<game>/<part>.svg` is the byte-exact drawing and `<part>.json` its
readable data (`golden_data`: size, layers, cut length and area, holes, texts). A change
shows as the fields that changed, whether the cut lines moved beyond a tolerance, and a
side-by-side picture under `.pytest_cache/golden-diff/`. After a deliberate change, run
`make golden` (pytest --update-golden) and review the new files in git.
Each game's named variants (`GameDef.variants`, as Boxes.py's examples) are covered too:
`golden/<game>/<variant>/<part>.*` for every part that differs from the default kit.

Kits are built once, in a session fixture, when a test first needs one: collecting these
tests only lists files.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from golden_data import component_data, cut_xor, data_changes, data_text, side_by_side

from pnp.build import all_components, make_kit
from pnp.games import registry
from pnp.render.svg import component_svg
from pnp.scene import Component

GOLDEN = Path(__file__).parent / "golden"


@dataclass(frozen=True)
class Part:
    component: Component
    svg: str


class Kits:
    """Every kit the golden files cover ("<game>" or "<game>/<variant>"), built on demand."""

    def __init__(self) -> None:
        self.parts = cache(self._parts)

    def _parts(self, where: str) -> dict[str, Part]:
        slug, _, variant = where.partition("/")
        values = dict(registry()[slug].variants[variant]) if variant else None
        kit = make_kit(slug, paper="a4", values=values)[1]
        own = {c.name: Part(c, component_svg(c)) for c in all_components(kit)}
        if not variant:
            return own
        default = self.parts(slug)
        return {n: p for n, p in own.items() if n not in default or default[n].svg != p.svg}


@pytest.fixture(scope="session")
def kits() -> Kits:
    return Kits()


KITS = [
    where
    for slug, game in registry().items()
    for where in [slug, *(f"{slug}/{v}" for v in game.variants)]
]
PARTS = sorted(p.relative_to(GOLDEN).with_suffix("").as_posix() for p in GOLDEN.rglob("*.svg"))


def _split(key: str) -> tuple[str, str]:
    where, _, name = key.rpartition("/")
    return where, name


def _write(where: str, name: str, part: Part) -> None:
    folder = GOLDEN / where
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.svg").write_text(part.svg, encoding="utf-8")
    (folder / f"{name}.json").write_text(data_text(component_data(part.component)), "utf-8")


@pytest.mark.parametrize("where", KITS)
def test_every_part_has_its_golden_files(where, kits, update_golden):
    """A part with no file on record is unguarded; a file whose part is gone, a silent loss.
    `make golden` writes the first and removes the second."""
    parts = kits.parts(where)
    if "/" in where:
        assert parts, f"variant {where} prints the same kit as the default: it guards nothing"
    folder = GOLDEN / where
    on_record = {p.name for p in folder.glob("*.svg")} | {p.name for p in folder.glob("*.json")}
    wanted = {f"{n}{ext}" for n in parts for ext in (".svg", ".json")}
    if update_golden:
        for name, part in parts.items():
            _write(where, name, part)
        for stale in on_record - wanted:
            (folder / stale).unlink()
        return
    assert sorted(wanted - on_record) == [], "parts with no golden file: run `make golden`"
    assert sorted(on_record - wanted) == [], "golden files of no part: run `make golden`"


def _part(kits: Kits, key: str, update: bool) -> Part:
    where, name = _split(key)
    parts = kits.parts(where)
    if name not in parts:
        if update:
            pytest.skip(f"{key} is no part any more: its golden files are removed")
        pytest.fail(f"{key} is no part of the kit any more: `make golden` removes its files")
    if update:
        _write(where, name, parts[name])
    return parts[name]


def _picture(request: pytest.FixtureRequest, key: str, svg: str) -> str:
    """The side-by-side PNG of the golden SVG and the current one: its path, to name."""
    path = request.config.rootpath / ".pytest_cache" / "golden-diff" / f"{key}.png"
    side_by_side((GOLDEN / f"{key}.svg").read_text(encoding="utf-8"), svg, path)
    return f"side by side (golden | now | changed): {path}"


@pytest.mark.parametrize("key", PARTS)
def test_part_is_byte_identical_to_its_golden_svg(key, kits, update_golden, request):
    part = _part(kits, key, update_golden)
    expected = (GOLDEN / f"{key}.svg").read_text(encoding="utf-8")
    if part.svg == expected:
        return
    diff = difflib.unified_diff(
        expected.splitlines(keepends=True),
        part.svg.splitlines(keepends=True),
        fromfile=f"golden/{key}.svg",
        tofile="now",
        n=1,
    )
    pytest.fail(
        f"{key} differs from its golden SVG (make golden to accept)\n"
        f"{_picture(request, key, part.svg)}\n{''.join(list(diff)[:60])}"
    )


@pytest.mark.parametrize("key", PARTS)
def test_part_data_matches_its_golden_data(key, kits, update_golden, request):
    """Data regression: the fields a maker cares about, each change on a line."""
    part = _part(kits, key, update_golden)
    path = GOLDEN / f"{key}.json"
    assert path.exists(), f"no golden data {path}: run `make golden` and review it"
    changes = data_changes(json.loads(path.read_text("utf-8")), component_data(part.component))
    if changes:
        pytest.fail(
            f"{key}: {len(changes)} change(s) in its data (make golden to accept)\n"
            f"{_picture(request, key, part.svg)}\n" + "\n".join(changes)
        )


@pytest.mark.parametrize("key", PARTS)
def test_part_cut_lines_match_golden_within_tolerance(key, kits, update_golden, request):
    """What the laser cuts: the machine layers' lines, compared as geometry so that art or
    rounding changes alone do not count."""
    part = _part(kits, key, update_golden)
    expected = (GOLDEN / f"{key}.svg").read_text(encoding="utf-8")
    if part.svg == expected:
        return
    moved = {layer: area for layer, area in cut_xor(expected, part.svg).items() if area > 0}
    if moved:
        areas = ", ".join(f"{layer} {area:g} mm²" for layer, area in moved.items())
        pytest.fail(
            f"{key}: cut lines differ from the golden SVG beyond tolerance ({areas})\n"
            f"{_picture(request, key, part.svg)}"
        )
