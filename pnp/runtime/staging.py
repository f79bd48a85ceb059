"""Build into a hidden folder inside the output, then move every file into place together.

    with Staging(out) as stage:
        stage.write_bytes("exploding-dice/exploding-dice-a4.pdf", pdf)
        manifest = stage.find("exploding-dice/manifest.json")  # staged, or already in out
        stage.write_text("index.html", gallery_html)

Files are written under ``out/.pnp-staging-PID-XXXXXXXX/`` (same file system as their
targets, so each move is one atomic rename). Leaving the block normally commits; leaving it by an
exception (Ctrl-C included) deletes the staging folder and leaves `out` exactly as it was,
down to folders the build would have made. A commit that fails part way (an immutable
file, a read-only folder) puts back every file it had already replaced before it raises.

Links are never followed below `out` (`out` itself may be a link: the user named it):

- a symbolic link where a folder goes is refused with a `PnpError`: replacing it would
  silently drop whatever the user keeps behind it;
- a symbolic link where a file goes is replaced by the file (rename replaces the link
  itself, never what it points at);
- a folder, FIFO, socket or device where a file goes is a `PnpError`;
- an OS error (no space, permission denied, read-only file system) is one `PnpError` line
  naming the file;
- a folder the build would sweep away holding something that cannot be deleted (an
  immutable file, a sub-folder the user may not write) is refused before the commit: once
  moved aside it could neither be deleted nor stay where it was.

`out` being the null device (`--out /dev/null`, see `pnp.runtime.atomic.is_null_device`) means
"build, check and render, keep nothing": writes are checked and dropped, nothing on disk
is touched, and `find` sees no file.

A build owns its game's folder (`own`): after the commit that folder holds exactly the
files this build wrote; anything else in it (a PDF for another paper, an `svg/` folder
of a format not asked for this time) goes with the commit, and comes back if the commit
fails.

A staging folder outlives its build only if the process is killed outright (kill -9); the
next build in the same output removes it once its process (the PID in its name) is gone.
A folder holding files a failed commit could not put back is marked `KEPT` and left alone.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import TracebackType

from pnp.runtime.atomic import (
    cannot_remove,
    check_removable,
    check_target,
    ensure_dir,
    is_null_device,
    lmode,
    open_folder,
    os_error,
    refuse_locked,
    rel_parts,
)
from pnp.runtime.errors import PnpError

STAGING_PREFIX = ".pnp-staging-"
KEPT_MARK = "KEPT"
"""A file in a staging folder whose old files could not all be put back: never cleaned."""


class Staging:
    """The files of one build, written aside and moved into `out` only if it all works."""

    def __init__(self, out: Path) -> None:
        self.out = Path(out)
        self.discard = is_null_device(self.out)
        self._files: dict[tuple[str, ...], None] = {}  # staged files, in write order
        self._owned: dict[tuple[str, ...], None] = {}  # folders this build owns whole
        self._made: list[Path] = []  # `out` and missing parents, made by us, deepest first
        self._dir: Path | None = None
        self._keep = False  # a failed commit could not put every old file back

    @property
    def _new(self) -> Path:
        """Staged files, laid out as they will be in `out`."""
        assert self._dir is not None, "use Staging as a context manager"
        return self._dir / "new"

    @property
    def _old(self) -> Path:
        """Files the commit replaced, kept until it has succeeded."""
        assert self._dir is not None, "use Staging as a context manager"
        return self._dir / "old"

    def __enter__(self) -> Staging:
        if self.discard:
            return self
        path = self.out
        while not os.path.lexists(path):
            self._made.append(path)
            path = path.parent
        try:
            ensure_dir(self.out)
            remove_stale_staging(self.out)
            self._dir = _staging_folder(self.out)
        except BaseException:
            self._clean_up(ok=False)
            raise
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        ok = exc_type is None
        try:
            if ok and not self.discard:
                self._commit()
        except BaseException:
            ok = False
            raise
        finally:
            self._clean_up(ok)

    def write_bytes(self, relpath: str, data: bytes) -> Path:
        """Stage `data` for ``out/relpath`` ('/'-separated, inside `out`); returns that path."""
        parts = rel_parts(relpath)
        target = self.out.joinpath(*parts)
        if self.discard:
            return target
        staged = self._new.joinpath(*parts)
        try:
            staged.parent.mkdir(parents=True, exist_ok=True)
            staged.unlink(missing_ok=True)  # the same file written twice: the last one counts
            with open(staged, "xb") as fh:
                fh.write(data)
        except OSError as exc:
            raise os_error(target, exc) from None
        self._files[parts] = None
        return target

    def write_text(self, relpath: str, text: str) -> Path:
        return self.write_bytes(relpath, text.encode("utf-8"))

    def own(self, folder: str) -> None:
        """After the commit, ``out/folder`` holds only the files staged below it: the rest
        of what is there now goes (a build owns its game's folder)."""
        self._owned[rel_parts(folder)] = None

    def _owned_by(self, parts: tuple[str, ...]) -> bool:
        return any(parts[: len(f)] == f for f in self._owned)

    def find(self, relpath: str) -> Path | None:
        """Where to read ``out/relpath`` as it will be after the commit, or None.

        The staged file if this build wrote it, else a regular file already in `out`
        reached without following a link (what the gallery may link to).
        """
        parts = rel_parts(relpath)
        if parts in self._files:
            return self._new.joinpath(*parts)
        if self.discard or self._owned_by(parts):
            return None
        path = self.out
        for part in parts[:-1]:
            path /= part
            if not stat.S_ISDIR(lmode(path)):
                return None
        path /= parts[-1]
        return path if stat.S_ISREG(lmode(path)) else None

    def _commit(self) -> None:
        """Move every staged file into place; on any failure undo the moves made so far."""
        undo: list[Callable[[], object]] = []
        folders: dict[tuple[str, ...], int] = {}
        try:
            root_fd = os.open(self.out, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError as exc:
            raise PnpError(f"cannot write to {self.out}: {exc.strerror or exc}") from None
        try:
            self._preflight()
            for n, parts in enumerate(self._files):
                try:
                    self._move_in(root_fd, folders, parts, n, undo)
                except OSError as exc:
                    raise os_error(self.out.joinpath(*parts), exc) from None
            for folder in self._owned:
                try:
                    self._sweep(root_fd, folders, folder, undo)
                except OSError as exc:
                    raise os_error(self.out.joinpath(*folder), exc) from None
        except BaseException as exc:
            if not _undo_all(undo):
                self._keep = True
                _mark_kept(self._old.parent)
                if isinstance(exc, PnpError):
                    raise PnpError(f"{exc} (replaced files are kept in {self._old})") from None
            raise
        finally:
            for fd in folders.values():
                os.close(fd)
            os.close(root_fd)

    def _preflight(self) -> None:
        """Refuse, before anything moves, what would stop the commit half way and then its
        undoing too: an immutable or append-only folder it writes in, or file it replaces."""
        places: dict[tuple[str, ...], None] = dict.fromkeys(self._owned)
        for parts in self._files:
            places.update(dict.fromkeys(parts[:i] for i in range(1, len(parts) + 1)))
        for parts in places:
            path = self.out.joinpath(*parts)
            if lmode(path):
                refuse_locked(path)

    def _folder(
        self,
        root_fd: int,
        folders: dict[tuple[str, ...], int],
        folder: tuple[str, ...],
        undo: list[Callable[[], object]],
    ) -> int:
        """The open descriptor of `folder` below the output root, made where missing (and
        removed again by `undo`), each opened once per commit."""
        if folder not in folders:
            made: list[tuple[str, ...]] = []
            try:
                folders[folder] = open_folder(root_fd, folder, self.out, made)
            finally:
                undo += [partial(os.rmdir, "/".join(m), dir_fd=root_fd) for m in made]
        return folders[folder]

    def _move_in(
        self,
        root_fd: int,
        folders: dict[tuple[str, ...], int],
        parts: tuple[str, ...],
        n: int,
        undo: list[Callable[[], object]],
    ) -> None:
        folder, name = parts[:-1], parts[-1]
        dir_fd = self._folder(root_fd, folders, folder, undo)
        if check_target(dir_fd, name, self.out.joinpath(*parts)):
            backup = self._old / str(n)
            os.replace(name, backup, src_dir_fd=dir_fd)
            undo.append(partial(os.replace, backup, name, dst_dir_fd=dir_fd))
            os.replace(self._new.joinpath(*parts), name, dst_dir_fd=dir_fd)
        else:
            os.replace(self._new.joinpath(*parts), name, dst_dir_fd=dir_fd)
            undo.append(partial(os.unlink, name, dir_fd=dir_fd))

    def _sweep(
        self,
        root_fd: int,
        folders: dict[tuple[str, ...], int],
        folder: tuple[str, ...],
        undo: list[Callable[[], object]],
    ) -> None:
        """Move out of owned `folder` every entry this build did not stage (into `old/`,
        deleted with the staging folder once the commit has succeeded)."""
        dir_fd = self._folder(root_fd, folders, folder, undo)
        for name in sorted(os.listdir(dir_fd)):
            parts = (*folder, name)
            if parts in self._files:
                continue
            mode = os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode
            if stat.S_ISDIR(mode) and any(f[: len(parts)] == parts for f in self._files):
                self._sweep(root_fd, folders, parts, undo)
                continue
            path = self.out.joinpath(*parts)
            if stat.S_ISDIR(mode):
                check_removable(path)  # its contents go with the staging folder
            backup = self._old / f"swept-{len(undo)}"
            try:
                os.replace(name, backup, src_dir_fd=dir_fd)
            except OSError as exc:
                raise cannot_remove(path, exc.strerror or str(exc)) from None
            undo.append(partial(os.replace, backup, name, dst_dir_fd=dir_fd))

    def _clean_up(self, ok: bool) -> None:
        """Drop the staging folder (unless it holds old files a failed commit could not put
        back), and after a failure the `out` folders this build made."""
        if self._dir is not None and not self._keep:
            shutil.rmtree(self._dir, ignore_errors=True)
        if not ok:
            for path in self._made:
                try:
                    path.rmdir()
                except OSError:
                    break


def _staging_folder(out: Path) -> Path:
    """A new hidden folder in `out` with `new/` (staged files) and `old/` (replaced ones),
    named after this process, so a later build can tell when it has been left behind."""
    try:
        folder = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{os.getpid()}-", dir=out))
        (folder / "new").mkdir()
        (folder / "old").mkdir()
    except OSError as exc:
        raise PnpError(f"cannot write to {out}: {exc.strerror or exc}") from None
    return folder


def remove_stale_staging(out: Path) -> list[Path]:
    """Delete the staging folders in `out` whose build was killed: the process named in the
    folder is gone. A running build's folder (its process alive, this one included), a
    folder without a process id, and one marked `KEPT` stay. Returns what was removed."""
    removed: list[Path] = []
    try:
        entries = list(os.scandir(out))
    except OSError:
        return removed
    for entry in entries:
        pid = _staging_pid(entry.name)
        if pid is None or not entry.is_dir(follow_symlinks=False) or _alive(pid):
            continue
        if os.path.lexists(os.path.join(entry.path, KEPT_MARK)):
            continue
        shutil.rmtree(entry.path, ignore_errors=True)
        removed.append(Path(entry.path))
    return removed


def _staging_pid(name: str) -> int | None:
    """The process id in a staging folder's name (`.pnp-staging-PID-XXXXXXXX`), or None."""
    if not name.startswith(STAGING_PREFIX):
        return None
    pid, sep, _ = name[len(STAGING_PREFIX) :].partition("-")
    return int(pid) if sep and pid.isdigit() and int(pid) > 0 else None


def _alive(pid: int) -> bool:
    """Is process `pid` running (on this machine)? Another user's process counts."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OverflowError:
        return False
    return True


def _mark_kept(folder: Path) -> None:
    try:
        (folder / KEPT_MARK).write_text("old files a failed commit could not put back\n")
    except OSError:
        pass


def _undo_all(undo: list[Callable[[], object]]) -> bool:
    """Run the undo steps, last first; False if any failed."""
    clean = True
    for step in reversed(undo):
        try:
            step()
        except OSError:
            clean = False
    return clean
