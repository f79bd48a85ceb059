"""The import paths before the floor plan (`pnp._compat`) still reach pnp's modules for a
release: a plugin written by an older `pnp new` keeps working, warned of the new path."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from pnp import _compat

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("old", sorted(_compat.MOVED))
def test_an_old_path_is_the_module_at_the_new_one(old):
    new = _compat.MOVED[old]
    sys.modules.pop(old, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)
    assert module.__name__ == new
    assert any(new in str(w.message) for w in caught if w.category is DeprecationWarning)


def test_a_submodule_of_a_moved_package_is_one_module_under_both_names():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from pnp.render import svg as old  # type: ignore[import-not-found]
    from pnp.draw.render import svg as new

    assert old is new


def test_an_old_name_runs_as_a_script():
    r = subprocess.run(
        [sys.executable, "-W", "ignore::DeprecationWarning", "-m", "pnp.conformance_data", "nope"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    # the module's own answer to an unknown game: it ran, and wrote nothing
    assert r.returncode == 2
    assert r.stderr.startswith("error:") and "nope" in r.stderr


def _imported(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
    return out


@pytest.mark.slow  # a second or more: the fast tier stays under a minute
def test_pnp_itself_imports_no_old_path():
    """The old paths are for plugins: pnp's own code and tests name the new ones."""
    old = [
        f"{p.relative_to(ROOT)}: {name}"
        for folder in ("pnp", "tests", "geometry")
        for p in sorted((ROOT / folder).rglob("*.py"))
        if p.name != "test_compat.py"
        for name in _imported(p)
        if _compat.new_name(name) is not None
    ]
    assert not old, old
