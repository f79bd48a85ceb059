"""Every game's compiled kernel has an interface stub beside it (`fast/_kernel.pyi`, Building
Community's `fast/_search.pyi`) that names exactly the functions the built module has, so
mypy checks each call of the glue against what the C offers."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(ROOT.glob("pnp/games/*/fast/_*.c"))


def module_name(source: Path) -> str:
    return ".".join(source.relative_to(ROOT).with_suffix("").parts)


def test_every_kernel_has_a_stub():
    assert SOURCES, "no kernel sources found under pnp/games/*/fast/"
    missing = [
        s.relative_to(ROOT).as_posix() for s in SOURCES if not s.with_suffix(".pyi").is_file()
    ]
    assert not missing, missing


@pytest.mark.parametrize("source", SOURCES, ids=module_name)
def test_the_stub_names_what_the_kernel_exports(source):
    try:
        kernel = importlib.import_module(module_name(source))
    except ImportError:
        pytest.skip("built without a C compiler")
    stub = source.with_suffix(".pyi")
    tree = ast.parse(stub.read_text(encoding="utf-8"))
    declared = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    exported = {
        name for name in dir(kernel) if not name.startswith("_") and callable(getattr(kernel, name))
    }
    assert declared == exported
