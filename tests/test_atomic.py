"""Atomic writes: never a half-written file, never a device replaced by a file."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pnp.atomic import write_bytes
from pnp.errors import PnpError


def test_write_replaces_whole_file_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "sub" / "a.txt"
    write_bytes(target, b"one")
    write_bytes(target, b"two")
    assert target.read_bytes() == b"two"
    assert sorted(p.name for p in target.parent.iterdir()) == ["a.txt"]


def test_failed_write_keeps_old_file(tmp_path, monkeypatch):
    target = tmp_path / "a.txt"
    write_bytes(target, b"old")

    def boom(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        write_bytes(target, b"new")
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]


def test_fifo_is_written_in_place_not_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    r = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_bytes(fifo, b"hello")
        assert os.read(r, 10) == b"hello"
    finally:
        os.close(r)
    assert stat.S_ISFIFO(fifo.stat().st_mode)


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
