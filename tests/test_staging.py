"""Staged builds: everything moves into the output at the end, or nothing changes at all."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from pnp.runtime.errors import PnpError
from pnp.runtime.staging import STAGING_PREFIX, Staging


def snapshot(root: Path) -> dict[str, tuple]:
    """Everything under `root`, links not followed: what 'exactly as it was' compares."""
    seen: dict[str, tuple] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            mode = path.lstat().st_mode
            if stat.S_ISLNK(mode):
                seen[path.relative_to(root).as_posix()] = ("link", os.readlink(path))
            elif stat.S_ISREG(mode):
                seen[path.relative_to(root).as_posix()] = ("file", path.read_bytes())
            else:
                seen[path.relative_to(root).as_posix()] = (stat.S_IFMT(mode),)
    return seen


@pytest.fixture
def built(tmp_path) -> Path:
    """An output folder holding a previous build."""
    out = tmp_path / "out"
    with Staging(out) as stage:
        stage.write_text("game/game-a4.pdf", "old pdf")
        stage.write_text("game/svg/board.svg", "old svg")
        stage.write_text("index.html", "old index")
    return out


def test_a_build_moves_every_file_in_and_leaves_no_staging_folder(tmp_path):
    out = tmp_path / "new" / "out"
    old = os.umask(0o022)
    try:
        with Staging(out) as stage:
            path = stage.write_bytes("game/svg/board.svg", b"<svg/>")
            stage.write_text("index.html", "index")
            assert not path.exists()  # nothing is in place before the end
    finally:
        os.umask(old)
    assert path == out / "game" / "svg" / "board.svg" and path.read_bytes() == b"<svg/>"
    assert sorted(p.name for p in out.iterdir()) == ["game", "index.html"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    assert stat.S_IMODE((out / "game").stat().st_mode) == 0o755


def test_a_second_build_replaces_the_files(built):
    with Staging(built) as stage:
        stage.write_text("game/svg/board.svg", "new svg")
    assert (built / "game" / "svg" / "board.svg").read_text() == "new svg"
    assert (built / "game" / "game-a4.pdf").read_text() == "old pdf"
    assert not [p for p in built.iterdir() if p.name.startswith(STAGING_PREFIX)]


def test_a_failed_build_leaves_the_output_exactly_as_it_was(built):
    before = snapshot(built)
    with pytest.raises(RuntimeError, match="renderer broke"):
        with Staging(built) as stage:
            stage.write_text("game/svg/board.svg", "new svg")
            stage.write_text("other/x.txt", "x")
            raise RuntimeError("renderer broke")
    assert snapshot(built) == before


def test_a_failed_first_build_does_not_even_make_the_output_folder(tmp_path):
    with pytest.raises(KeyboardInterrupt):
        with Staging(tmp_path / "a" / "out") as stage:
            stage.write_text("index.html", "x")
            raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("folder", ["game", "game/svg"])
def test_a_linked_folder_inside_the_output_is_refused_and_nothing_changes(built, folder):
    elsewhere = built.parent / "elsewhere"
    elsewhere.mkdir()
    real = built / folder
    real.rename(built.parent / "moved")
    real.symlink_to(elsewhere)
    before = snapshot(built)
    with pytest.raises(PnpError, match=f"{real} is a symbolic link: refusing to write"):
        with Staging(built) as stage:
            stage.write_text("index.html", "new index")  # moved in first, then put back
            stage.write_text("game/svg/board.svg", "new svg")
    assert snapshot(built) == before
    assert list(elsewhere.iterdir()) == []


def test_a_link_in_a_files_place_is_replaced_and_its_target_untouched(built, tmp_path):
    secret, fifo = tmp_path / "secret.txt", tmp_path / "pipe"
    secret.write_text("keep me")
    os.mkfifo(fifo)
    (built / "index.html").unlink()
    (built / "index.html").symlink_to(secret)
    (built / "game" / "game-a4.pdf").unlink()
    (built / "game" / "game-a4.pdf").symlink_to(fifo)
    with Staging(built) as stage:
        stage.write_text("index.html", "new index")
        stage.write_text("game/game-a4.pdf", "new pdf")  # would hang if written through
    assert secret.read_text() == "keep me" and stat.S_ISFIFO(fifo.lstat().st_mode)
    assert not (built / "index.html").is_symlink()
    assert (built / "index.html").read_text() == "new index"
    assert (built / "game" / "game-a4.pdf").read_text() == "new pdf"


@pytest.mark.parametrize(
    ("make", "kind"),
    [(os.mkfifo, "a FIFO, socket or device"), (os.mkdir, "a folder")],
)
def test_a_fifo_or_folder_in_a_files_place_is_refused(built, make, kind):
    (built / "game" / "game-a4.pdf").unlink()
    make(built / "game" / "game-a4.pdf")
    before = snapshot(built)
    with pytest.raises(PnpError, match=f"game-a4.pdf: it is {kind}, not a regular file"):
        with Staging(built) as stage:
            stage.write_text("game/svg/board.svg", "new svg")
            stage.write_text("game/game-a4.pdf", "new pdf")
    assert snapshot(built) == before


def test_a_file_in_a_folders_place_is_refused(built):
    before = snapshot(built)
    with pytest.raises(PnpError, match="index.html is in the way: it is not a folder"):
        with Staging(built) as stage:
            stage.write_text("index.html/x", "x")
    assert snapshot(built) == before


# renames: 1 new dxf in; 2 old pdf aside, 3 new pdf in; 4 old svg aside, 5 new svg in
@pytest.mark.parametrize("failing", [4, 5])
def test_a_move_failing_half_way_puts_everything_back(built, monkeypatch, failing):
    """An immutable file (EPERM) at the third file of four: moving it aside, or in."""
    before = snapshot(built)
    real_replace, calls = os.replace, []

    def replace(*args, **kwargs):
        calls.append(args)
        if len(calls) == failing:
            raise OSError(errno.EPERM, "Operation not permitted")
        return real_replace(*args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    target = built / "game" / "svg" / "board.svg"
    with pytest.raises(PnpError, match=f"cannot write {target}: Operation not permitted"):
        with Staging(built) as stage:
            stage.write_text("game/dxf/board.dxf", "new dxf")
            stage.write_text("game/game-a4.pdf", "new pdf")
            stage.write_text("game/svg/board.svg", "new svg")
            stage.write_text("index.html", "new index")
    assert snapshot(built) == before


def test_a_full_disk_while_staging_is_one_line_naming_the_file(built, monkeypatch):
    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("pnp.runtime.staging.open", full, raising=False)
    before = snapshot(built)
    target = built / "game" / "game-a4.pdf"
    with pytest.raises(PnpError, match=f"^cannot write {target}: No space left on device$"):
        with Staging(built) as stage:
            stage.write_text("game/game-a4.pdf", "new pdf")
    assert snapshot(built) == before


@pytest.mark.parametrize("relpath", ["../x.txt", "game/../../x.txt", "/tmp/x.txt", ""])
def test_paths_must_stay_inside_the_output(tmp_path, relpath):
    with pytest.raises(PnpError, match="must stay inside the output folder"):
        with Staging(tmp_path / "out") as stage:
            stage.write_text(relpath, "x")
    assert list(tmp_path.iterdir()) == []


def test_find_sees_the_build_as_it_will_be(built, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "x.png").write_text("x")
    (built / "linked").symlink_to(elsewhere)
    with Staging(built) as stage:
        stage.write_text("game/manifest.json", "[]")
        assert stage.find("game/manifest.json").read_text() == "[]"  # staged
        assert stage.find("game/game-a4.pdf").read_text() == "old pdf"  # already there
        assert stage.find("game/game-letter.pdf") is None
        assert stage.find("game/svg") is None  # a folder, not a file
        assert stage.find("linked/x.png") is None  # never through a link


def test_the_output_folder_itself_may_be_a_link(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "out").symlink_to(real)
    with Staging(tmp_path / "out") as stage:
        stage.write_text("game/x.txt", "x")
    assert (real / "game" / "x.txt").read_text() == "x"


def test_the_null_device_builds_but_keeps_nothing(tmp_path):
    null = Path(os.devnull)
    before = null.lstat()
    with Staging(null) as stage:
        assert stage.discard
        assert stage.write_text("game/x.txt", "x") == null / "game" / "x.txt"
        assert stage.find("game/x.txt") is None
    after = null.lstat()
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev


def test_an_owned_folder_holds_exactly_what_the_build_wrote(built):
    """A build owns its game's folder: files and folders it did not write this time go;
    other folders of the output are left alone."""
    (built / "game" / "png").mkdir()
    (built / "game" / "png" / "board.png").write_text("old png")
    (built / "game" / "report.html").write_text("old report")
    with Staging(built) as stage:
        stage.own("game")
        stage.write_text("game/svg/dice.svg", "new svg")
        stage.write_text("game/game-letter.pdf", "new pdf")
        assert stage.find("game/game-a4.pdf") is None  # will be gone
        assert stage.find("index.html").read_text() == "old index"  # not owned: stays
    files = {k for k, v in snapshot(built / "game").items() if v[0] == "file"}
    assert files == {"svg/dice.svg", "game-letter.pdf"}
    assert sorted(p.name for p in built.iterdir()) == ["game", "index.html"]


@pytest.mark.parametrize("failing", [3, 4])
def test_a_failing_sweep_puts_everything_back(built, monkeypatch, failing):
    """Renames: 1 new pdf in; the sweep: 2 old a4 pdf, 3 stale-1, 4 stale-2, 5 svg/ aside.
    When one fails (an immutable old file), the moves before it are undone too."""
    (built / "game" / "stale-1.txt").write_text("a")
    (built / "game" / "stale-2.txt").write_text("b")
    before = snapshot(built)
    real_replace, calls = os.replace, []

    def replace(*args, **kwargs):
        calls.append(args)
        if len(calls) == failing:
            raise OSError(errno.EPERM, "Operation not permitted")
        return real_replace(*args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(PnpError, match="Operation not permitted"):
        with Staging(built) as stage:
            stage.own("game")
            stage.write_text("game/game-letter.pdf", "new pdf")
    assert snapshot(built) == before


def _dead_pid() -> int:
    """The id of a process that has finished (and been reaped)."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_staging_folder_left_by_a_killed_build_is_cleaned_by_the_next(built):
    dead = built / f"{STAGING_PREFIX}{_dead_pid()}-abc123"
    (dead / "new" / "game").mkdir(parents=True)
    (dead / "new" / "game" / "x.pdf").write_text("half a build")
    running = built / f"{STAGING_PREFIX}{os.getpid()}-zzz999"  # a live process: in use
    (running / "new").mkdir(parents=True)
    kept = built / f"{STAGING_PREFIX}{_dead_pid()}-kept00"  # old files it could not put back
    kept.mkdir()
    (kept / "KEPT").write_text("x")
    unknown = built / f"{STAGING_PREFIX}abcdefgh"  # no process id: not ours to judge
    unknown.mkdir()
    with Staging(built) as stage:
        stage.write_text("game/game-a4.pdf", "new pdf")
    left = sorted(p.name for p in built.iterdir() if p.name.startswith(STAGING_PREFIX))
    assert left == sorted([running.name, kept.name, unknown.name])


def test_a_sweep_takes_a_link_away_never_what_it_points_at(built, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "mine.txt").write_text("keep me")
    (built / "game" / "png").symlink_to(elsewhere)
    with Staging(built) as stage:
        stage.own("game")
        stage.write_text("game/game-a4.pdf", "new pdf")
    assert not os.path.lexists(built / "game" / "png")
    assert (elsewhere / "mine.txt").read_text() == "keep me"
