"""Run the `pnp` command line from tests: in a subprocess as a user would (`pnp`), or in
this process to read its exit code and output (`run`, and the bad-input helpers)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pnp.cli import main


def pnp(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "pnp.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
    )


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `pnp ARGV`."""
    with pytest.raises(SystemExit) as exit_:
        main(list(argv))
    out, err = capsys.readouterr()
    code = exit_.value.code
    assert isinstance(code, int), code  # pnp always exits with a number
    return code, out, err


def one_error_line(err: str) -> str:
    """The one `error:` line a refused request prints, and nothing else."""
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def bad_config_error(capsys, tmp_path: Path, command: str, game: str, toml: str) -> str:
    """Run `check` or `build` of `game` with this config: exit 2, one error line (returned)
    and, for a build, no output folder at all."""
    cfg = tmp_path / "bad.toml"
    cfg.write_text(toml + "\n")
    out = tmp_path / "out"
    extra = ["--out", str(out)] if command == "build" else []
    code, _, err = run(capsys, command, game, "--config", str(cfg), *extra)
    line = one_error_line(err)
    assert code == 2, err
    assert not out.exists()
    return line
