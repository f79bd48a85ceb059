"""Each compiled kernel is built from the C files in this checkout.

The kernels are optional extensions: a compile error does not stop an install, and an
editable checkout keeps the `.so` an earlier build left, which the tests would then play.
setup.py stamps every kernel with a digest of the files pyproject.toml lists for it; here
each kernel's stamp is held to the files as they are now."""

from __future__ import annotations

import importlib
import importlib.util
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _extensions() -> list[dict]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)["tool"]["setuptools"]["ext-modules"]


def _build_hook():
    spec = importlib.util.spec_from_file_location("pnp_setup", ROOT / "setup.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # its setup() runs only as __main__
    return module


@pytest.mark.parametrize("ext", _extensions(), ids=lambda e: e["name"])
def test_every_kernel_is_built_from_the_sources_in_the_checkout(ext):
    kernel = importlib.import_module(ext["name"])
    want = _build_hook().sources_digest([*ext["sources"], *ext.get("depends", [])])
    assert kernel.sources() == want, (
        f"{ext['name']} was compiled from other sources than these (a failed or skipped "
        "compile keeps the old one): run `make setup`"
    )


def test_the_digest_changes_with_any_byte_of_any_listed_file(tmp_path):
    hook = _build_hook()
    (tmp_path / "a.c").write_text("int a;\n")
    (tmp_path / "b.h").write_text("#define B 1\n")
    before = hook.sources_digest(["a.c", "b.h"], tmp_path)
    (tmp_path / "b.h").write_text("#define B 2\n")
    assert hook.sources_digest(["a.c", "b.h"], tmp_path) != before
    # the names count too: the same bytes under other names are other sources
    (tmp_path / "b.h").write_text("#define B 1\n")
    (tmp_path / "c.h").write_text("#define B 1\n")
    assert hook.sources_digest(["a.c", "c.h"], tmp_path) != before


def _included(path: Path, seen: set[Path]) -> set[Path]:
    """`path` and every file it includes with `#include "..."`, followed through."""
    if path in seen:
        return seen
    seen.add(path)
    for name in re.findall(r'^\s*#\s*include\s+"([^"]+)"', path.read_text(), flags=re.M):
        _included((path.parent / name).resolve(), seen)
    return seen


@pytest.mark.parametrize("ext", _extensions(), ids=lambda e: e["name"])
def test_a_kernel_lists_every_file_it_includes_so_an_edit_rebuilds_it(ext):
    listed = {(ROOT / p).resolve() for p in [*ext["sources"], *ext.get("depends", [])]}
    found: set[Path] = set()
    for source in ext["sources"]:
        _included((ROOT / source).resolve(), found)
    assert sorted(p.relative_to(ROOT) for p in found - listed) == [], "missing from depends"
    assert sorted(p.relative_to(ROOT) for p in listed - found) == [], "listed, never included"


def test_the_makefile_rebuilds_on_the_files_the_kernels_list():
    text = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    compiled = set(re.search(r"^COMPILED := (.*)$", text, flags=re.M)[1].split())
    listed = {p for e in _extensions() for p in [*e["sources"], *e.get("depends", [])]}
    assert compiled == listed
