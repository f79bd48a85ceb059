"""Modules the install compiles (with Cython) that also run as the plain Python they are.

Compiled in place (an editable install), such a module sits beside its source and Python
imports the compiled file first, so after an edit the source would be silently ignored
until the next build. `load` takes the compiled module only while it is not older than its
source, else the source itself; `make` rebuilds it when the source changes.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SLACK = 2.0
"""Seconds a source may be newer than its build and still be the same: an installer may
write the two files in either order."""


def load(name: str) -> ModuleType:
    """Import `name`: compiled if built from the current source, else from the source."""
    module = importlib.import_module(name)
    built = Path(module.__file__ or "")
    source = built.with_name(name.rpartition(".")[2] + ".py")
    if not is_compiled(module) or not source.exists():
        return module
    if source.stat().st_mtime <= built.stat().st_mtime + SLACK:
        return module
    spec = importlib.util.spec_from_file_location(name, source)
    assert spec is not None and spec.loader is not None
    fresh = importlib.util.module_from_spec(spec)
    sys.modules[name] = fresh
    spec.loader.exec_module(fresh)
    return fresh


def is_compiled(module: ModuleType) -> bool:
    """Whether a module runs from a compiled extension rather than Python source."""
    return not (module.__file__ or "").endswith((".py", ".pyc"))
