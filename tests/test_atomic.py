"""Single-file writes: never a half-written file, never through a link, never onto a device."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pnp.runtime.atomic import (
    check_user_file,
    is_null_device,
    output_folder,
    stream_named,
    write_bytes,
    write_text,
    write_user_file,
)
from pnp.runtime.errors import PnpError


def test_write_replaces_whole_file_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "sub" / "a.txt"
    write_bytes(target, b"one")
    write_bytes(target, b"two")
    assert target.read_bytes() == b"two"
    assert sorted(p.name for p in target.parent.iterdir()) == ["a.txt"]


def test_failed_write_keeps_old_file_and_is_one_line_naming_it(tmp_path, monkeypatch):
    target = tmp_path / "a.txt"
    write_bytes(target, b"old")

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(PnpError, match=f"cannot write {target}: No space left on device"):
        write_bytes(target, b"new")
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]


def test_a_fifo_is_refused_and_left_alone(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(PnpError, match="it is a FIFO, socket or device, not a regular file"):
        write_bytes(fifo, b"hello")  # would block forever if it opened the FIFO
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_a_link_to_a_fifo_is_replaced_not_written_through(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "out").mkdir()
    link = tmp_path / "out" / "report.html"
    link.symlink_to(tmp_path / "pipe")
    write_text(link, "<html>", root=tmp_path / "out")
    assert not link.is_symlink() and link.read_text() == "<html>"
    assert stat.S_ISFIFO((tmp_path / "pipe").lstat().st_mode)


def test_a_linked_folder_below_the_root_is_refused(tmp_path):
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    out.mkdir()
    elsewhere.mkdir()
    (out / "game").symlink_to(elsewhere)
    with pytest.raises(PnpError, match=f"{out / 'game'} is a symbolic link: refusing"):
        write_text(out / "game" / "report.html", "x", root=out)
    assert list(elsewhere.iterdir()) == []


def test_a_folder_in_the_files_place_is_refused(tmp_path):
    (tmp_path / "a.txt").mkdir()
    with pytest.raises(PnpError, match="it is a folder, not a regular file"):
        write_bytes(tmp_path / "a.txt", b"x")


def test_a_path_outside_the_root_is_refused(tmp_path):
    with pytest.raises(PnpError, match="outside the output folder"):
        write_bytes(tmp_path / "a.txt", b"x", root=tmp_path / "out")


def test_the_null_device_discards(tmp_path):
    assert is_null_device(os.devnull)
    link = tmp_path / "null"
    link.symlink_to(os.devnull)
    assert is_null_device(link)
    assert not is_null_device(tmp_path) and not is_null_device(tmp_path / "missing")
    assert write_bytes(Path(os.devnull), b"x") == Path(os.devnull)
    assert write_bytes(link, b"x") == link and link.is_symlink()
    report = Path(os.devnull) / "game" / "report.html"  # --out /dev/null --report
    assert write_bytes(report, b"x", root=Path(os.devnull)) == report


def test_unwritable_folder_is_a_user_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(PnpError, match="cannot create output folder"):
        write_bytes(Path(blocker / "out" / "a.txt"), b"x")


def test_written_files_get_ordinary_permissions(tmp_path):
    old = os.umask(0o022)
    try:
        target = write_bytes(tmp_path / "a.pdf", b"%PDF")
    finally:
        os.umask(old)
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


# --- files the user names (--json FILE) ---------------------------------------------------


def test_a_user_file_that_is_a_link_is_refused_and_left_alone(tmp_path):
    target = tmp_path / "target.json"
    target.write_text("mine")
    link = tmp_path / "r.json"
    link.symlink_to(target)
    for call in (lambda: check_user_file(link), lambda: write_user_file(link, "{}")):
        with pytest.raises(PnpError, match="is a symbolic link: pnp neither writes through"):
            call()
    assert link.is_symlink() and target.read_text() == "mine"


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_user_file_that_is_special_is_refused(tmp_path, kind):
    path = tmp_path / "r.json"
    os.mkfifo(path) if kind == "fifo" else path.mkdir()
    with pytest.raises(PnpError, match="not a regular file"):
        write_user_file(path, "{}")  # would block forever if it opened the FIFO


def test_a_user_file_is_written_whole_and_its_folders_made(tmp_path):
    path = tmp_path / "a" / "b" / "r.json"
    check_user_file(path)
    assert write_user_file(path, "{}\n") == path and path.read_text() == "{}\n"
    write_user_file(path, "[]\n")
    assert path.read_text() == "[]\n" and sorted(p.name for p in path.parent.iterdir()) == [
        "r.json"
    ]


def test_standard_output_by_any_name_is_written_through(tmp_path, capfd):
    assert stream_named("/dev/stdout") == 1 and stream_named("/dev/stderr") == 2
    assert stream_named(f"/proc/self/fd/{1}") == 1
    assert stream_named(tmp_path) is None and stream_named(tmp_path / "missing") is None
    write_user_file("/dev/stderr", "to stderr\n")
    assert capfd.readouterr().err == "to stderr\n"
    assert os.path.islink("/dev/stderr")


def test_the_null_device_is_accepted_and_discards():
    check_user_file(os.devnull)
    assert write_user_file(os.devnull, "x") == Path(os.devnull)
    assert Path(os.devnull).is_char_device()


def test_an_empty_out_is_refused_not_the_current_folder():
    with pytest.raises(PnpError, match="--out needs a folder name"):
        output_folder("")
    assert output_folder(".") == Path(".")
