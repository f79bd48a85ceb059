"""A plain wheel install works: templates ship as package data, nothing reads the checkout."""

from __future__ import annotations

import importlib.metadata
import os
import re
import site
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest

import pnp

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess:
    """A subprocess that cannot see this checkout through PYTHONPATH or a virtualenv."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(
        [str(a) for a in args], cwd=cwd, capture_output=True, text=True, env=env, timeout=300
    )


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


@pytest.mark.slow
def test_a_built_wheel_builds_a_kit_in_a_clean_environment(tmp_path):
    wheels = tmp_path / "wheels"
    r = run(
        sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", wheels, ROOT, cwd=tmp_path
    )
    assert r.returncode == 0, r.stderr
    (wheel,) = wheels.glob("pnp_kits-*.whl")
    venv = tmp_path / "venv"
    assert run(sys.executable, "-m", "venv", venv, cwd=tmp_path).returncode == 0
    py = venv / "bin" / "python"
    r = run(py, "-m", "pip", "install", "--no-deps", "-q", wheel, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    # The dependencies come from this environment's site-packages, listed after the new
    # venv's own (a .pth adds the folder but runs none of its .pth files, so the checkout's
    # editable install stays out of sight).
    venv_site = Path(
        run(
            py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp_path
        ).stdout.strip()
    )
    deps = {sysconfig.get_paths()["purelib"], *site.getsitepackages()}
    (venv_site / "deps.pth").write_text("\n".join(sorted(deps)) + "\n")
    where = run(
        py,
        "-c",
        "import pnp, pnp.templating as t; print(pnp.__file__, t.TEMPLATES)",
        cwd=tmp_path,
    )
    assert where.returncode == 0, where.stderr
    assert str(venv) in where.stdout and str(ROOT) not in where.stdout
    out = tmp_path / "out"
    r = run(
        venv / "bin" / "pnp",
        "build",
        "exploding-dice",
        "--paper",
        "letter",
        "--format",
        "pdf,svg,lbrn2",  # lbrn2 reads the laser presets, package data too
        "--out",
        out,
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    assert (out / "exploding-dice" / "exploding-dice-letter.pdf").stat().st_size > 10_000
    assert (out / "index.html").exists()
    # the studio's page, script and style ship too, and it serves them from the install
    page = run(
        py,
        "-c",
        "from starlette.testclient import TestClient\n"
        "from pnp.studio.app import Settings, create_app, STATIC\n"
        "from pathlib import Path\n"
        "s = Settings(Path('cache'), 1, 10**8)\n"
        "c = TestClient(create_app(s), base_url='http://127.0.0.1:8765')\n"
        "assert c.get('/?token=' + s.token, follow_redirects=False).status_code == 303\n"
        "print(STATIC)\n"
        "for url in ('/', '/static/studio.js', '/static/studio.css', '/api/games'):\n"
        "    assert c.get(url).status_code == 200, url\n",
        cwd=tmp_path,
    )
    assert page.returncode == 0, page.stderr
    assert str(venv) in page.stdout and str(ROOT) not in page.stdout
