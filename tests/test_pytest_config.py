"""The suite's own pytest configuration (pyproject.toml): a newcomer's `make test` shows the
dots and the result, not a known harmless traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

CTRL_C_IN_GC = """
import time
from hypothesis.internal.conjecture import junkdrawer


def once():
    junkdrawer._perf_counter = time.perf_counter
    raise KeyboardInterrupt


def test_a_ctrl_c_lands_in_hypothesis_gc_callback():
    junkdrawer.gc_cumulative_time()
    junkdrawer._perf_counter = once  # the collection after the tests meets it, once
"""


@pytest.mark.slow  # two pytest processes
def test_a_ctrl_c_inside_hypothesis_gc_callback_prints_no_traceback(tmp_path):
    (tmp_path / "test_gc.py").write_text(CTRL_C_IN_GC)

    def run(*options: str) -> str:
        r = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-c",
                str(ROOT / "pyproject.toml"),
                "-p",
                "no:cacheprovider",
                "--rootdir",
                str(tmp_path),
                *options,
                str(tmp_path),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert r.returncode == 0, r.stdout + r.stderr
        return r.stdout + r.stderr

    assert "PytestUnraisableExceptionWarning" in run("-o", "filterwarnings="), "no reproduction"
    assert "Traceback" not in run()
