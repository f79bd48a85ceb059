"""Golden files: every component of every registered kit renders to the SVG on record.

A change to how anything looks shows up here as a readable diff. After a deliberate
change, run `make golden` (pytest --update-golden) and review the new files in git.
Each game's named variants (`GameDef.variants`, as Boxes.py's examples) are covered too:
`golden/<game>/<variant>/<part>.svg` for every part that differs from the default kit.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from pnp.build import all_components, make_kit
from pnp.games import registry
from pnp.render.svg import component_svg

GOLDEN = Path(__file__).parent / "golden"


def _svgs(slug: str, values: dict | None = None) -> dict[str, str]:
    kit = make_kit(slug, paper="a4", values=values)[1]
    return {c.name: component_svg(c) for c in all_components(kit)}


SVGS: dict[str, dict[str, str]] = {}  # "<game>" or "<game>/<variant>" -> part -> SVG
for _slug, _game in registry().items():
    SVGS[_slug] = _svgs(_slug)
    for _variant, _values in _game.variants.items():
        _own = _svgs(_slug, dict(_values))
        SVGS[f"{_slug}/{_variant}"] = {
            n: svg for n, svg in _own.items() if SVGS[_slug].get(n) != svg
        }
CASES = [(where, name) for where, parts in SVGS.items() for name in parts]


def test_every_variant_changes_something():
    """A variant that prints the same kit as the default guards nothing."""
    assert all(parts for where, parts in SVGS.items() if "/" in where)


@pytest.mark.parametrize("slug, name", CASES, ids=[f"{s}/{n}" for s, n in CASES])
def test_component_matches_golden_svg(slug, name, update_golden):
    svg = SVGS[slug][name]
    path = GOLDEN / slug / f"{name}.svg"
    if update_golden:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(svg, encoding="utf-8")
        return
    assert path.exists(), f"no golden file {path}: run `make golden` and review it"
    expected = path.read_text(encoding="utf-8")
    if svg != expected:
        diff = "".join(
            list(
                difflib.unified_diff(
                    expected.splitlines(keepends=True),
                    svg.splitlines(keepends=True),
                    fromfile=f"golden/{slug}/{name}.svg",
                    tofile="now",
                    n=1,
                )
            )[:60]
        )
        pytest.fail(f"{slug}/{name} differs from its golden SVG (make golden to accept):\n{diff}")


def test_every_golden_file_has_a_component():
    """A golden file whose component disappeared is a silent loss: flag it."""
    known = {f"{s}/{n}.svg" for s, n in CASES}
    stale = [
        p.relative_to(GOLDEN).as_posix()
        for p in GOLDEN.rglob("*.svg")
        if p.relative_to(GOLDEN).as_posix() not in known
    ]
    assert stale == []
