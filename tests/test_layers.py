"""Every module of pnp and geometry is held by an import-linter contract (`make lint`
runs them): a new module must say where it sits before it can import its way upwards."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _named_in_contracts() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    names: set[str] = set()
    for contract in config["tool"]["importlinter"]["contracts"]:
        # a contract over a container names its layers relative to it
        containers = contract.get("containers", [""])
        for layer in contract.get("layers", []):
            for part in layer.split("|"):
                names.update(f"{c}.{part.strip()}" if c else part.strip() for c in containers)
        names.update(contract.get("modules", []))
        names.update(contract.get("source_modules", []))
    return {n for n in names if "*" not in n}  # a wildcard holds no module in particular


def _modules() -> list[str]:
    out = []
    for package in ("pnp", "geometry"):
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out.append(".".join(parts))
    return out


def test_every_module_belongs_to_a_contract():
    named = _named_in_contracts()
    loose = [
        m
        for m in _modules()
        if m != "pnp" and not any(m == n or m.startswith(n + ".") for n in named)
    ]
    assert not loose, f"modules outside every import-linter contract: {loose}"


@pytest.mark.slow  # a fresh interpreter that simulates and checks a whole kit
def test_the_library_runs_without_the_command_line_packages():
    """`pnp.sim` and `pnp.build` are plain calls: importing and using them loads no typer,
    click or rich (a web page or a script calls them as they are)."""
    code = (
        "import sys\n"
        "from pnp.sim.command import run_simulation\n"
        "from pnp.sim.solve import run_solve\n"
        "from pnp.build import check_game\n"
        "run_simulation('exploding-dice', games=20, jobs=1)\n"
        "check_game('exploding-dice', paper='a4')\n"
        "print(sorted(m for m in ('typer', 'click', 'rich') if m in sys.modules))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"
