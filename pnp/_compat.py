"""The import paths of pnp before its floor plan (docs/architecture.md), kept for a release.

A plugin written by an older `pnp new` imports `pnp.state`, `pnp.kit`, `pnp.render.svg` and
the like. A finder on `sys.meta_path` answers each old name with the module now at the new
path, the very same module object (so a monkeypatch or an `isinstance` sees one module), and
warns once per name with a `DeprecationWarning` that names the new path. `python -m` on an
old name runs the new module. New code imports the new paths (or `pnp.api`).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
import warnings
from types import CodeType, ModuleType

MOVED: dict[str, str] = {
    "pnp.errors": "pnp.runtime.errors",
    "pnp.atomic": "pnp.runtime.atomic",
    "pnp.staging": "pnp.runtime.staging",
    "pnp.interrupt": "pnp.runtime.interrupt",
    "pnp.exits": "pnp.runtime.exits",
    "pnp.notice": "pnp.runtime.notice",
    "pnp.progress": "pnp.runtime.progress",
    "pnp.state": "pnp.play.state",
    "pnp.forward": "pnp.play.forward",
    "pnp.chance": "pnp.play.chance",
    "pnp.mcts": "pnp.play.mcts",
    "pnp.fastpath": "pnp.play.fastpath",
    "pnp.memo": "pnp.play.memo",
    "pnp.outcome": "pnp.play.outcome",
    "pnp.gamedef": "pnp.contract.gamedef",
    "pnp.params": "pnp.contract.params",
    "pnp.config": "pnp.contract.config",
    "pnp.palette": "pnp.contract.palette",
    "pnp.paper": "pnp.contract.paper",
    "pnp.scene": "pnp.draw.scene",
    "pnp.paint": "pnp.draw.paint",
    "pnp.colour": "pnp.draw.colour",
    "pnp.text": "pnp.draw.text",
    "pnp.templating": "pnp.draw.templating",
    "pnp.kit": "pnp.draw.kit",
    "pnp.prepare": "pnp.draw.prepare",
    "pnp.checks": "pnp.draw.checks",
    "pnp.formats": "pnp.draw.formats",
    "pnp.layout": "pnp.draw.layout",
    "pnp.render": "pnp.draw.render",
    "pnp.cards": "pnp.draw.cards",
    "pnp.components": "pnp.draw.components",
    "pnp.gallery": "pnp.build.gallery",
    "pnp.conformance": "pnp.reference.conformance",
    "pnp.conformance_data": "pnp.reference.conformance_data",
    "pnp.golden": "pnp.reference.golden",
    "pnp.bench_dask": "pnp.bench.dask",
    "pnp.bench_skill": "pnp.bench.skill",
    "pnp.bench_stop": "pnp.bench.stop",
}
"""Old module path -> new module path; a package's submodules follow it
(`pnp.render.svg` -> `pnp.draw.render.svg`)."""


def new_name(name: str) -> str | None:
    """The module an old import path names now, or None when `name` did not move."""
    for old, new in MOVED.items():
        if name == old or name.startswith(old + "."):
            return new + name[len(old) :]
    return None


class _Alias:
    """Finds an old name and loads it as the module at the new one: a finder and a loader
    by their methods alone (`importlib.abc` is not imported: it loads `tempfile` and
    `random`, and this runs as pnp is imported, before `python -m pnp` holds Ctrl-C)."""

    def find_spec(
        self, fullname: str, path: object = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if new_name(fullname) is None:
            return None
        return importlib.util.spec_from_loader(fullname, self)  # type: ignore[arg-type]  # a loader by its methods

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        old = module.__name__
        new = new_name(old)
        assert new is not None
        warnings.warn(
            f"{old} is {new} now; the old path goes in a later release",
            DeprecationWarning,
            stacklevel=2,
        )
        # the import system hands back whatever sys.modules holds under the name afterwards
        sys.modules[old] = importlib.import_module(new)

    def get_code(self, fullname: str) -> CodeType | None:
        """What `python -m OLD` runs: the new module's code."""
        new = new_name(fullname)
        if new is None:
            return None
        spec = importlib.util.find_spec(new)
        get_code = getattr(spec.loader, "get_code", None) if spec is not None else None
        return get_code(new) if callable(get_code) else None

    def get_source(self, fullname: str) -> str | None:
        return None


def install() -> None:
    """Put the finder first on `sys.meta_path`, once."""
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        sys.meta_path.insert(0, _Alias())
