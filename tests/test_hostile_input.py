"""The examples a hostile user found, each as a test: one `error:` line and exit 2 (or a
correct build), never a traceback or a hang, and never a file left behind."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli_run import bad_config_error, one_error_line, pnp, run


@pytest.mark.parametrize(
    "toml, needle",
    [
        ("card_width = 1", "'card_width' must be from 20 to 200"),
        ("card_height = 1", "'card_height' must be from 20 to 200"),
        ("tin_width = -5", "'tin_width' must be from 20 to 300"),
        ("die_size = nan", "'die_size' must be a finite number"),
        ("bleed = nan", "'bleed' must be a finite number"),
        ("card_width = 1e300", "'card_width' must be from 20 to 200"),
        ("card_radius = -inf", "'card_radius' must be a finite number"),
        ("dice_per_colour = 1000000", "'dice_per_colour' must be from 1 to 64"),
        ("card_height = 1e6", "'card_height' must be from 20 to 200"),
        ("card_radius = -1e300", "'card_radius' must be from 0 to 50"),
        ("card_radius = -9223372036854775808", "'card_radius' must be from 0 to 50"),
        ("kerf = nan", "'kerf' must be a finite number"),
        ("tin_radius = nan", "'tin_radius' must be a finite number"),
        ("tin_depth = 0", "'tin_depth' must be above 0"),
        ("stock_thickness = -1", "'stock_thickness' must be from 0 to 3"),
        ("back_offset_x = nan", "'back_offset_x' must be a finite number"),
        ('colours = ["red\\nx", "green", "blue", "purple"]', "printable text"),
        ('paper = "a5"', "unknown paper"),
        ('cut_bed = "12"', "cut_bed"),
    ],
)
@pytest.mark.parametrize("command", ["check", "build"])
def test_bad_config_values(capsys, tmp_path, toml, needle, command):
    assert needle in bad_config_error(capsys, tmp_path, command, "exploding-dice", toml)


def test_a_card_too_big_for_the_paper_is_found_by_check_and_stops_build(capsys, tmp_path):
    cfg = tmp_path / "tin.toml"
    cfg.write_text("tin_height = 246.0\n")
    code, out, _ = run(capsys, "check", "exploding-dice", "--config", str(cfg))
    assert code == 1 and "does not fit on" in out
    target = tmp_path / "out"
    code, _, _ = run(capsys, "build", "exploding-dice", "--config", str(cfg), "--out", str(target))
    assert code == 1 and not target.exists()


def test_a_config_that_is_not_a_small_file(capsys):
    code, _, err = run(capsys, "check", "exploding-dice", "--config", "/dev/urandom")
    assert code == 2 and "not a regular file" in one_error_line(err)


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["simulate", "exploding-dice", "--games", "99999999999999999999999"], "--games"),
        (["simulate", "exploding-dice", "--json", "", "--games", "5"], "--json needs a file"),
        (["simulate", "exploding-dice", "--games", "abc"], "Invalid value for '--games'"),
        (["simulate", "exploding-dice", "--players", "2.5"], "Invalid value for '--players'"),
        (["simulate", "exploding-dice", "--seed", "x"], "Invalid value for '--seed'"),
        (["simulate", "exploding-dice", "--jobs", "1000"], "--jobs"),
        (["simulate"], "Missing argument"),
        (["bogus-command"], "No such command"),
        (["build"], "Missing argument"),
        (["build", "exploding-dice", "--paper", ""], "unknown paper"),
        (["solve", "exploding-dice"], "has no solver"),
        (["simulate", "exploding-dice", "--rules", "standard"], "unknown option '--rules'"),
    ],
)
def test_usage_errors_are_one_line(capsys, tmp_path, argv, needle):
    os.chdir(tmp_path)  # a build that wrongly went ahead would write here
    code, _, err = run(capsys, *argv)
    line = one_error_line(err)
    assert code == 2 and needle in line
    assert not (tmp_path / "output").exists()


def test_paper_names_are_trimmed_and_case_blind_and_the_gallery_links_them(capsys, tmp_path):
    code, _, _ = run(
        capsys,
        "build",
        "exploding-dice",
        "--paper",
        " Letter ",
        "--format",
        "pdf",
        "--out",
        str(tmp_path),
    )
    assert code == 0
    assert (tmp_path / "exploding-dice" / "exploding-dice-letter.pdf").is_file()
    assert "exploding-dice/exploding-dice-letter.pdf" in (tmp_path / "index.html").read_text()


def test_a_symlinked_folder_inside_the_output_is_never_followed(capsys, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    (out / "exploding-dice").mkdir(parents=True)
    (out / "exploding-dice" / "svg").symlink_to(elsewhere)
    code, _, err = run(
        capsys, "build", "exploding-dice", "--paper", "a4", "--format", "svg", "--out", str(out)
    )
    assert code == 2 and "symbolic link" in one_error_line(err)
    assert list(elsewhere.iterdir()) == []
    assert sorted(p.name for p in out.rglob("*")) == ["exploding-dice", "svg"]


def test_a_fifo_where_the_report_json_goes_is_an_error_not_a_hang(tmp_path):
    fifo = tmp_path / "r.json"
    os.mkfifo(fifo)
    r = pnp("simulate", "exploding-dice", "--games", "5", "--jobs", "1", "--json", str(fifo))
    assert r.returncode == 2 and "error:" in r.stderr and "Traceback" not in r.stderr


def test_a_failed_build_leaves_the_output_folder_as_it_was(capsys, tmp_path):
    out = tmp_path / "out"
    code, _, _ = run(
        capsys, "build", "exploding-dice", "--paper", "a4", "--format", "pdf", "--out", str(out)
    )
    assert code == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    cfg = tmp_path / "bad.toml"
    cfg.write_text("tin_height = 246.0\n")  # fails its checks on every paper
    code, _, _ = run(capsys, "build", "exploding-dice", "--config", str(cfg), "--out", str(out))
    assert code == 1
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before


def test_out_dev_null_checks_and_renders_but_keeps_nothing(capsys):
    code, _, err = run(
        capsys, "build", "exploding-dice", "--paper", "a4", "--format", "pdf", "--out", os.devnull
    )
    assert code == 0 and "nothing kept" in err
    assert Path(os.devnull).is_char_device()
