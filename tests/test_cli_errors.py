"""Bad input from the command line: one clear line, exit 2, no traceback, no partial files."""

from __future__ import annotations

import subprocess

import pytest
from cli_run import pnp


def assert_one_clear_line(r: subprocess.CompletedProcess, needle: str) -> None:
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr + r.stdout
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("error: ") and needle in lines[0]


@pytest.mark.parametrize(
    "args, needle",
    [
        (["build", "chess"], "unknown game 'chess'"),
        (["check", "chess"], "unknown game 'chess'"),
        (["build", "exploding-dice", "--paper", "a3"], "unknown paper 'a3'"),
        (["build", "exploding-dice", "--format", "pdf,jpg"], "unknown format 'jpg'"),
    ],
)
def test_bad_arguments(tmp_path, args, needle):
    r = pnp(*args, "--out", str(tmp_path / "out")) if args[0] == "build" else pnp(*args)
    assert_one_clear_line(r, needle)
    assert not (tmp_path / "out" / "exploding-dice").exists()


@pytest.mark.parametrize(
    "toml, needle",
    [
        ("die_size = 0\n", "'die_size' must be from 5 to 40"),
        ("die_size = -10\n", "'die_size' must be from 5 to 40"),
        ("n = 16\ndie_size = 16\n", "more than the"),
        ("colour = 'red'\n", "unknown key 'colour'"),
        ("die_size = [\n", "not valid TOML"),
    ],
)
def test_bad_config(tmp_path, toml, needle):
    cfg = tmp_path / "bad.toml"
    cfg.write_text(toml)
    out = tmp_path / "out"
    r = pnp("build", "exploding-dice", "--config", str(cfg), "--out", str(out))
    assert_one_clear_line(r, needle)
    assert not out.exists() or not any(out.rglob("*.*"))


def test_unwritable_output_folder(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    r = pnp("build", "exploding-dice", "--format", "svg", "--out", str(blocker / "out"))
    assert_one_clear_line(r, "cannot create output folder")


def test_params_lists_every_key_with_its_range():
    r = pnp("params", "exploding-dice")
    assert r.returncode == 0, r.stderr
    for key in ("die_size", "card_radius", "faces", "arrows", "paper", "kerf", "cut_bed"):
        assert key in r.stdout
    assert "from 1 to 64" in r.stdout  # dice_per_colour's declared range
