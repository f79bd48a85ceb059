"""The name pnp installs under and its metadata. The release files themselves (the wheel and
the sdist, each installed into a clean venv and used) are checked by `make dist-check`
(`.ci/dist-check`, run by CI)."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

import pnp

ROOT = Path(__file__).resolve().parent.parent


def test_pnp_reads_its_metadata_by_the_name_it_is_installed_under():
    """`pnp` on the package index is another project: pnp installs as `pnp-kits`, and the
    code that asks for its version (a Dask worker's) asks by that name."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == pnp.DISTRIBUTION == "pnp-kits"
    meta = importlib.metadata.metadata(pnp.DISTRIBUTION)
    assert meta["Version"] == pnp.__version__
    assert meta["License-Expression"] == "MIT"
    assert "MIT License" in (ROOT / "LICENSE").read_text()
    scripts = importlib.metadata.distribution(pnp.DISTRIBUTION).entry_points
    assert [(s.name, s.value) for s in scripts if s.group == "console_scripts"] == [
        ("pnp", "pnp.__main__:main")
    ]


def test_every_install_hint_names_the_distribution():
    """An install hint (`pip install 'X[extra]'`) in the code or the docs names pnp-kits:
    `pip install 'pnp[tune]'` would install the other project."""
    pages = [*(ROOT / "pnp").rglob("*.py"), *(ROOT / "docs").rglob("*.md"), ROOT / "README.md"]
    wrong = [
        f"{page.relative_to(ROOT)}: {hint}"
        for page in pages
        for hint in re.findall(r"pip install ['\"]?([\w.-]+)\[", page.read_text())
        if hint != pnp.DISTRIBUTION
    ]
    assert not wrong
