"""Bad input from the command line: one clear line, exit 2, no traceback, no partial files."""

from __future__ import annotations

import dataclasses
import os
import tomllib

import pytest
from cli_run import one_error_line, pnp, run

import pnp.build as build_module
import pnp.tune as tune_module
from pnp import cli
from pnp.contract.params import PrintParams, describe
from pnp.games import registry
from pnp.sim import command


def assert_one_clear_line(code: int, out: str, err: str, needle: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err + out
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ") and needle in lines[0]


def pnp_process(*args: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `pnp ARGS` in a real process."""
    r = pnp(*args)
    return r.returncode, r.stdout, r.stderr


def test_a_real_process_prints_one_clear_line(tmp_path):
    """The error path through a real `pnp` process (the tests below run it in this one)."""
    out = tmp_path / "out"
    assert_one_clear_line(*pnp_process("build", "chess", "--out", str(out)), "unknown game")
    assert not out.exists()


@pytest.mark.parametrize(
    "args, needle",
    [
        (["build", "chess"], "unknown game 'chess'"),
        (["check", "chess"], "unknown game 'chess'"),
        (["build", "exploding-dice", "--paper", "a3"], "unknown paper 'a3'"),
        (["build", "exploding-dice", "--format", "pdf,jpg"], "unknown format 'jpg'"),
    ],
)
def test_bad_arguments(capsys, tmp_path, args, needle):
    extra = ["--out", str(tmp_path / "out")] if args[0] == "build" else []
    assert_one_clear_line(*run(capsys, *args, *extra), needle)
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
def test_bad_config(capsys, tmp_path, toml, needle):
    cfg = tmp_path / "bad.toml"
    cfg.write_text(toml)
    out = tmp_path / "out"
    r = run(capsys, "build", "exploding-dice", "--config", str(cfg), "--out", str(out))
    assert_one_clear_line(*r, needle)
    assert not out.exists() or not any(out.rglob("*.*"))


def test_unwritable_output_folder(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    r = run(capsys, "build", "exploding-dice", "--format", "svg", "--out", str(blocker / "out"))
    assert_one_clear_line(*r, "cannot create output folder")


def test_params_lists_every_key_with_its_range():
    r = pnp("params", "exploding-dice")
    assert r.returncode == 0, r.stderr
    for key in ("die_size", "card_radius", "faces", "arrows", "paper", "kerf", "cut_bed"):
        assert key in r.stdout
    assert "from 1 to 64" in r.stdout  # dice_per_colour's declared range


@pytest.mark.parametrize(
    "args, needle",
    [
        (["build", "exploding-dice", "--format", "pdf,,svg"], "--format has an empty name"),
        (["build", "exploding-dice", "--format", "pdf,"], "--format has an empty name"),
        (["build", "exploding-dice", "--out", ""], "--out needs a folder name"),
        (["build", "exploding-dice", "--out", "  "], "--out needs a folder name"),
        (["simulate", "exploding-dice", "--jobs", "2.0"], "'2.0' is not a whole number"),
        (["simulate", "exploding-dice", "--games", "1_000"], "'1_000' is not a whole number"),
        (["simulate", "exploding-dice", "--seed", "7.0"], "'7.0' is not a whole number"),
        (["simulate", "exploding-dice", "--report", "--out", ""], "--out needs a folder name"),
        (
            ["simulate", "exploding-dice", "--sweep", "n=4,6", "--sweep", "n=10,12"],
            "--sweep n is given twice",
        ),
        (["solve", "building-community", "--budget", "1e6"], "'1e6' is not a whole number"),
    ],
)
def test_lenient_parsing_is_an_error_line(capsys, tmp_path, monkeypatch, args, needle):
    monkeypatch.chdir(tmp_path)  # '--out ""' must not build into the current folder
    code, _, err = run(capsys, *args)
    assert code == 2 and needle in one_error_line(err)
    assert list(tmp_path.iterdir()) == []


def test_an_unexpected_exception_is_one_line_with_the_debug_hint(capsys, monkeypatch):
    def broken():
        raise ValueError("a bug")

    monkeypatch.setattr(cli, "registry", broken)
    code, _, err = run(capsys, "list")
    line = one_error_line(err)
    assert code == 70 and "internal error (ValueError: a bug)" in line and "PNP_DEBUG=1" in line
    monkeypatch.setenv("PNP_DEBUG", "1")
    with pytest.raises(ValueError, match="a bug"):
        cli.main(["list"])


def test_a_json_path_pnp_will_not_write_is_refused_before_the_games(capsys, tmp_path, monkeypatch):
    def no_games(*args, **kwargs):
        raise AssertionError("the games were played before the --json path was checked")

    monkeypatch.setattr(command, "run_jobs", no_games)
    (tmp_path / "file").write_text("x")
    (tmp_path / "link.json").symlink_to(tmp_path / "target.json")
    os.mkfifo(tmp_path / "fifo.json")
    for path, needle in [
        (tmp_path / "link.json", "is a symbolic link"),
        (tmp_path / "fifo.json", "FIFO, socket or device"),
        (tmp_path / "file" / "r.json", "is not a folder"),
        (tmp_path, "it is a folder"),
    ]:
        code, _, err = run(capsys, "simulate", "exploding-dice", "--json", str(path))
        assert code == 2 and needle in one_error_line(err)
    assert not (tmp_path / "target.json").exists()
    assert (tmp_path / "link.json").is_symlink()
    code, _, err = run(
        capsys, "simulate", "exploding-dice", "--report", "--out", str(tmp_path / "file" / "o")
    )
    assert code == 2 and "is not a folder" in one_error_line(err)


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "exploding-dice", "--report"],
        ["tune", "exploding-dice", "--over", "n=4..6:2", "--target", "turns in 5..30", "--report"],
        ["build", "exploding-dice", "--format", "pdf"],
    ],
)
def test_an_out_name_too_long_is_refused_before_the_first_game(capsys, monkeypatch, tmp_path, args):
    def nothing(*args, **kwargs):
        raise AssertionError("games were played or built before --out was checked")

    monkeypatch.setattr(command, "run_jobs", nothing)
    monkeypatch.setattr(tune_module, "run_tune", nothing)
    monkeypatch.setattr(build_module, "build_game", nothing)
    for out in (tmp_path / ("o" * 300), tmp_path / ("o" * 200) / ("o" * 300) / "x"):
        code, stdout, err = run(capsys, *args, "--out", str(out))
        assert code == 2 and stdout == ""
        assert one_error_line(err).endswith(": File name too long")
    assert list(tmp_path.iterdir()) == []


def test_params_shows_defaults_as_toml_that_reads_back_as_the_default():
    for game in registry().values():
        params = game.default_params()
        for cls in (type(params), PrintParams):
            hints = dataclasses.fields(cls)
            defaults = {
                f.name: f.default if f.default is not dataclasses.MISSING else f.default_factory()
                for f in hints
            }
            for key, _, shown, _ in describe(cls):
                read = tomllib.loads(f"v = {shown}")["v"]
                assert read == _as_toml(defaults[key]), (game.slug, key, shown)


def _as_toml(value):
    if isinstance(value, tuple | list):
        return [_as_toml(v) for v in value]
    if isinstance(value, dict):
        return {k: _as_toml(v) for k, v in value.items()}
    return value


def test_params_output_is_toml_not_python():
    r = pnp("params", "parcheesi")
    assert r.returncode == 0, r.stderr
    rows = {
        ln.split("│")[1].strip(): ln.split("│")[3].strip()
        for ln in r.stdout.splitlines()
        if ln.count("│") == 6 and ln.split("│")[1].strip()  # key, type, default, range, rules
    }
    assert rows["paper"] == '"a4"' and rows["common_line"] == "false"
    assert rows["paper_dice"] == "true"
    assert rows["colours"].startswith('["red", "blue"')
    assert "'" not in "".join(rows.values()) and "True" not in r.stdout


@pytest.mark.parametrize(
    "exc, needle",
    [
        (MemoryError(), "out of memory"),
        (RecursionError(), "nested too deeply"),
        (OSError(24, "Too many open files"), "Too many open files: raise the open-file limit"),
        (OSError(11, "Resource temporarily unavailable"), "raise the process limit"),
        (PermissionError(13, "Permission denied", "/x/y"), "/x/y: Permission denied"),
    ],
)
def test_what_the_environment_raises_is_one_line(capsys, monkeypatch, exc, needle):
    def failing():
        raise exc

    monkeypatch.setattr(cli, "registry", failing)
    code, _, err = run(capsys, "list")
    assert code == 2 and needle in one_error_line(err)
