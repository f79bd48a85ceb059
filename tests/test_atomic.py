"""Single-file writes: never a half-written file, never through a link, never onto a device."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pnp.atomic import is_null_device, write_bytes, write_text
from pnp.errors import PnpError


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
