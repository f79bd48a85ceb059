"""The examples a hostile user found, each as a test: one `error:` line and exit 2 (or a
correct build), never a traceback or a hang, and never a file left behind."""

from __future__ import annotations

import json
import os
import resource
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

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
        ("tin_depth = 0", "'tin_depth' must be from 5"),
        ("stock_thickness = -1", "'stock_thickness' must be from 0.1 to 3"),
        ("back_offset_x = nan", "'back_offset_x' must be a finite number"),
        ('colours = ["red\\nx", "green", "blue", "purple"]', "printable text"),
        ('paper = "a5"', "unknown paper"),
        ('cut_bed = "12"', "cut_bed"),
    ],
)
@pytest.mark.parametrize("command", ["check", "build"])
def test_bad_config_values(capsys, tmp_path, toml, needle, command):
    assert needle in bad_config_error(capsys, tmp_path, command, "exploding-dice", toml)


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
def test_out_dev_null_checks_and_renders_but_keeps_nothing(capsys):
    code, _, err = run(
        capsys, "build", "exploding-dice", "--paper", "a4", "--format", "pdf", "--out", os.devnull
    )
    assert code == 0 and "nothing kept" in err
    assert Path(os.devnull).is_char_device()


# --- odd environments (issue 24): each is one `error:` line, checked through the real CLI ---

PNP_SCRIPT = Path(sys.executable).parent / "pnp"


def hostile(
    *args: str,
    env: dict[str, str] | None = None,
    prefix: tuple[str, ...] = (),
    **popen: Any,
) -> subprocess.CompletedProcess:
    """`pnp ARGS` in its own process, in an environment a test shapes (`popen` goes to
    `subprocess.run`: stdout, preexec_fn, cwd)."""
    popen.setdefault("stdout", subprocess.PIPE)
    return subprocess.run(
        [*prefix, str(PNP_SCRIPT), *args],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1", **(env or {})},
        timeout=120,
        **popen,
    )


def one_line(r: subprocess.CompletedProcess, needle: str, code: int = 2) -> str:
    line = one_error_line(r.stderr)
    assert r.returncode == code, r.stderr
    assert needle in line, line
    return line


def deep_toml(depth: int, shape: str) -> str:
    if shape == "lists":
        return "x = " + "[" * depth + "]" * depth + "\n"
    return "x = " + "{a = " * depth + "1" + "}" * depth + "\n"


@pytest.mark.parametrize("shape, depth", [("lists", 900), ("tables", 2000), ("lists", 100_000)])
@pytest.mark.parametrize(
    "argv",
    [
        ["check", "exploding-dice"],
        ["build", "exploding-dice", "--out", os.devnull],
        ["simulate", "exploding-dice", "--games", "5", "--jobs", "1"],
        ["solve", "building-community", "--budget", "10"],
    ],
)
def test_a_config_nested_too_deeply_is_one_line_in_every_command(
    capsys, tmp_path, shape, depth, argv
):
    cfg = tmp_path / "deep.toml"
    cfg.write_text(deep_toml(depth, shape))
    code, _, err = run(capsys, *argv, "--config", str(cfg))
    assert code == 2 and "nests lists or tables too deeply" in one_error_line(err)


def test_a_sweep_value_nested_too_deeply_is_one_line(capsys):
    value = "[" * 2000 + "]" * 2000
    code, _, err = run(capsys, "simulate", "exploding-dice", "--sweep", f"n={value}")
    assert code == 2 and "too deeply" in one_error_line(err)


LONG = "9" * 5000  # past the 4,300 digits Python turns into a number
LONG_HEX = "0x" + "F" * 5000  # TOML reads it: hex has no digit limit, but prints as 6,021


@pytest.mark.parametrize(
    "argv, config, needle",
    [
        (["check", "exploding-dice"], f"die_size = {LONG}", "more than 4,300 digits"),
        (["build", "exploding-dice", "--out", os.devnull], f"n = -{LONG}", "4,300 digits"),
        (["simulate", "exploding-dice", "--games", "5"], f"seed = {LONG}", "4,300 digits"),
        (["solve", "building-community"], f"radius = {LONG}", "4,300 digits"),
        (["check", "exploding-dice"], f"dice_per_colour = {LONG_HEX}", "about 6,021 digits"),
        (["check", "exploding-dice"], f"laser_presets = {LONG_HEX}", "must be a string"),
        (["check", "exploding-dice"], f"faces = {{ red = [{LONG_HEX}] }}", "whole number too"),
        (["check", "home-in-one-piece"], f"dice = [[{LONG_HEX}]]", "'dice[0][0]' must be"),
        (["simulate", "exploding-dice", "--sweep", f"n={LONG}"], None, "4,300 digits"),
        (["simulate", "exploding-dice", "--sweep", f"n={LONG_HEX}"], None, "6,021 digits"),
        (["simulate", "exploding-dice", "--sweep", f"n=1..{LONG}"], None, "steps of 2"),
        (["simulate", "exploding-dice", "--sweep", f"n=2..{LONG}"], None, "at most 50"),
        (["simulate", "exploding-dice", "--sweep", f"n={LONG}..{LONG}"], None, "steps of 2"),
        (["simulate", "exploding-dice", "--sweep", f"n={LONG}8..{LONG}8"], None, "from 2 to 16"),
        (["simulate", "exploding-dice", "--sweep", f"n={LONG_HEX}E,{LONG_HEX}E"], None, "twice"),
        (["simulate", "exploding-dice", "--sweep", f"players={LONG_HEX}"], None, "players"),
        (["simulate", "exploding-dice", "--games", LONG], None, "5,000 digits is far too"),
        (["simulate", "exploding-dice", "--seed", f"-{LONG}"], None, "5,000 digits"),
        (["simulate", "exploding-dice", "--jobs", LONG], None, "5,000 digits"),
        (["simulate", "exploding-dice", "--players", LONG], None, "5,000 digits"),
        (["simulate", "exploding-dice", "--bot-budget", LONG], None, "5,000 digits"),
        (["solve", "building-community", "--budget", LONG], None, "5,000 digits"),
    ],
)
def test_numbers_of_thousands_of_digits_are_one_short_line(capsys, tmp_path, argv, config, needle):
    """A config value, a --sweep value or an option of 5,000 digits (more than Python turns
    into a number or back) is one error line that does not echo the digits, never an
    internal error."""
    if config is not None:
        path = tmp_path / "long.toml"
        path.write_text(config + "\n")
        argv = [*argv, "--config", str(path)]
    code, _, err = run(capsys, *argv)
    line = one_error_line(err)
    assert code == 2 and needle in line and len(line) < 400, line[:400]


@pytest.mark.slow
@pytest.mark.parametrize("path", ["/proc/kmsg", "/proc/self/status", "/sys/kernel/uevent_seqnum"])
def test_kernel_files_are_refused_as_configs_without_reading_them(path):
    if not os.path.exists(path):
        pytest.skip(f"{path} does not exist here")
    # /proc/kmsg looks like a regular file but blocks on read: refused, never read
    r = hostile("check", "exploding-dice", "--config", path)
    one_line(r, "kernel file under /proc or /sys")


@pytest.mark.slow
def test_a_link_into_proc_is_refused_too(tmp_path):
    link = tmp_path / "kit.toml"
    link.symlink_to("/proc/self/status")
    one_line(hostile("check", "exploding-dice", "--config", str(link)), "kernel file")


def test_a_deleted_current_folder_is_one_line(tmp_path):
    gone = tmp_path / "gone"
    gone.mkdir()

    def enter_then_delete() -> None:
        os.chdir(gone)
        os.rmdir(gone)

    r = hostile("list", preexec_fn=enter_then_delete, cwd=tmp_path)
    one_line(r, "the current folder cannot be used")


@pytest.mark.parametrize(
    "argv",
    [
        ["list"],
        pytest.param(
            ["simulate", "exploding-dice", "--games", "5", "--jobs", "1", "--json", "-"],
            marks=pytest.mark.slow,  # a second real process; `list` covers the fast tier
        ),
    ],
)
def test_a_full_stdout_is_one_line(argv):
    with open("/dev/full", "w") as full:
        r = hostile(*argv, stdout=full)
    one_line(r, "cannot write to standard output: No space left on device")


def test_a_reader_that_stops_early_ends_pnp_quietly():
    read_end, write_end = os.pipe()
    os.close(read_end)  # `pnp list | head -0`: nobody reads
    try:
        r = hostile("list", stdout=write_end)
    finally:
        os.close(write_end)
    assert r.returncode == 1 and r.stderr == ""


@pytest.mark.slow
def test_an_ascii_only_output_encoding_is_one_line():
    r = hostile("list", env={"PYTHONIOENCODING": "ascii"})
    one_line(r, "cannot print '\\u2013' in this terminal's encoding (ascii)")


@pytest.mark.slow
def test_too_few_file_descriptors_is_one_line():
    def few_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (12, 12))

    r = hostile("simulate", "exploding-dice", "--games", "200", "--jobs", "2", preexec_fn=few_files)
    assert "Traceback" not in r.stderr
    one_line(r, "")


AS_NOBODY = ("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups")


def _can_become_nobody() -> bool:
    return os.geteuid() == 0 and all(shutil.which(t) for t in ("setpriv", "prlimit"))


@pytest.mark.slow
@pytest.mark.skipif(not _can_become_nobody(), reason="needs root, setpriv and prlimit")
def test_one_process_allowed_with_two_jobs_is_one_line(tmp_path):
    r = hostile(
        "simulate",
        "exploding-dice",
        "--games",
        "500",
        "--jobs",
        "2",
        prefix=("prlimit", "--nproc=1", *AS_NOBODY),
        cwd="/tmp",
    )
    assert "Traceback" not in r.stderr
    one_line(r, "")


@pytest.mark.slow
@pytest.mark.parametrize("name, fd", [("/dev/stdout", 1), ("/dev/stderr", 2)])
def test_json_to_dev_stdout_or_stderr_writes_through_and_keeps_the_link(name, fd):
    before = os.lstat(name)
    r = hostile("simulate", "exploding-dice", "--games", "20", "--jobs", "1", "--json", name)
    assert r.returncode == 0, r.stderr
    after = os.lstat(name)
    assert stat.S_ISLNK(after.st_mode) and after.st_ino == before.st_ino
    stream = r.stdout if fd == 1 else r.stderr
    data = json.loads(stream[stream.index("{") :])
    assert data["games"] == 20
    if fd == 1:
        assert r.stderr == ""  # the JSON alone, as with '--json -'
    else:
        assert "turns (mean / median)" in r.stdout  # the table still goes to stdout


@pytest.mark.slow
@pytest.mark.skipif(not _can_become_nobody(), reason="needs root and setpriv")
def test_json_into_a_folder_nobody_may_write_is_refused_as_an_unprivileged_user():
    r = hostile(
        "simulate",
        "exploding-dice",
        "--games",
        "20",
        "--jobs",
        "1",
        "--json",
        "/dev/pnp-test.json",
        prefix=AS_NOBODY,
        cwd="/tmp",
    )
    one_line(r, "cannot write /dev/pnp-test.json: no permission to write in /dev")
    assert r.stdout == ""  # refused before the games: no table
    assert not os.path.lexists("/dev/pnp-test.json")
