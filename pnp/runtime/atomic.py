"""Write output files safely: whole files only, never through a link, never onto a device.

A file is written to a hidden temporary name in its folder and renamed into place, so a
failure never leaves half a file behind. Renaming replaces a symbolic link that stands
where the file goes; it never writes to what the link points at. A file the user names
outside an output folder (`--json FILE`) is stricter: a link or special file there is
refused before any work starts, never replaced (`check_user_file`), except standard
output and error, which are written through. Folders below a `root`
(the `--out` folder) are opened without following links, so a link planted inside the
output cannot send files elsewhere. Only regular files are written: a FIFO, socket or
device in a file's place is refused, except the null device, which a user names on
purpose to throw the output away.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import struct
import sys
from pathlib import Path, PurePosixPath

from pnp.runtime.errors import PnpError

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_NEW_FILE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def is_null_device(path: Path | str) -> bool:
    """Is `path` the system's null device (`os.devnull`, or a link to it)?

    Writing there is an explicit request to discard: `write_bytes` writes nothing and
    `pnp.runtime.staging.Staging` builds, checks and renders everything but moves nothing in.
    """
    try:
        st, null = os.stat(path), os.stat(os.devnull)
    except OSError:
        return False
    return stat.S_ISCHR(st.st_mode) and st.st_rdev == null.st_rdev


def ensure_dir(path: Path) -> Path:
    """Create `path` (and parents); turn OS errors into one clear user error."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise PnpError(
            f"output folder {path} is not a folder (a file or device is there)"
        ) from None
    except OSError as exc:
        raise PnpError(f"cannot create output folder {path}: {exc.strerror or exc}") from None
    if not os.access(path, os.W_OK):
        raise PnpError(f"output folder {path} is not writable")
    if locked(path):  # an append-only folder takes files but lets none be replaced
        raise PnpError(f"output folder {path} is immutable or append-only (see lsattr)")
    return path


def rel_parts(relpath: str | PurePosixPath) -> tuple[str, ...]:
    """The '/'-separated parts of a path inside the output; refuse one that could leave it."""
    parts = PurePosixPath(relpath).parts
    if not parts or PurePosixPath(relpath).is_absolute() or ".." in parts:
        raise PnpError(f"output path '{relpath}' must stay inside the output folder")
    return parts


def open_folder(
    root_fd: int, parts: tuple[str, ...], shown: Path, made: list[tuple[str, ...]] | None = None
) -> int:
    """Open (making it if missing) folder `parts` below `root_fd`, following no link.

    Returns a new fd. Each folder made is appended to `made` (its parts), so a caller can
    take it away again. A link or a file where a folder should be is a `PnpError`;
    `shown` is the path of `root_fd`, for the message.
    """
    fd = os.dup(root_fd)
    try:
        for i, name in enumerate(parts):
            try:
                child = os.open(name, _DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                os.mkdir(name, 0o777, dir_fd=fd)
                if made is not None:
                    made.append(parts[: i + 1])
                child = os.open(name, _DIR_FLAGS, dir_fd=fd)
            except OSError:
                path = shown.joinpath(*parts[: i + 1])
                if os.path.islink(path):
                    raise _link_in_the_way(path) from None
                if os.path.lexists(path) and not os.path.isdir(path):
                    raise PnpError(f"{path} is in the way: it is not a folder") from None
                raise
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


def _link_in_the_way(path: Path) -> PnpError:
    return PnpError(
        f"{path} is a symbolic link: refusing to write through it "
        "(remove it, or choose another output folder)"
    )


def check_target(dir_fd: int, name: str, path: Path) -> bool:
    """May a file be renamed onto `name` in `dir_fd`? True when something is there now.

    A regular file or a link (the link itself is replaced, never followed) may go; a
    folder, FIFO, socket or device may not.
    """
    try:
        mode = os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode
    except FileNotFoundError:
        return False
    if stat.S_ISREG(mode) or stat.S_ISLNK(mode):
        return True
    raise _not_a_file(path, mode)


def _not_a_file(path: Path, mode: int) -> PnpError:
    kind = "a folder" if stat.S_ISDIR(mode) else "a FIFO, socket or device"
    return PnpError(f"cannot write {path}: it is {kind}, not a regular file")


def refuse_locked(path: Path) -> None:
    """A `PnpError` if the file or folder at `path` may not be changed (`locked`)."""
    if locked(path):
        raise PnpError(f"cannot write {path}: it is immutable or append-only (see lsattr)")


def os_error(path: Path, exc: OSError) -> PnpError:
    """One line naming the file: 'No space left on device', 'Operation not permitted', ..."""
    return PnpError(f"cannot write {path}: {exc.strerror or exc}")


# Linux's FS_IOC_GETFLAGS, _IOR('f', 1, long): the flags `lsattr` shows.
_GETFLAGS = (2 << 30) | (struct.calcsize("l") << 16) | (ord("f") << 8) | 1
_LOCKED = 0x10 | 0x20  # FS_IMMUTABLE_FL (chattr +i), FS_APPEND_FL (chattr +a)


def locked(path: Path | str) -> bool:
    """Is the file or folder at `path` immutable or append-only (`chattr +i` or `+a`)? Then
    not even root may replace or delete it (nor, for a folder, an entry in it). False
    where the system has no such flags; devices and FIFOs are not opened to ask."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mode = os.lstat(path).st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            return False
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        flags = struct.unpack("i", fcntl.ioctl(fd, _GETFLAGS, bytes(8))[:4])[0]
    except OSError:
        return False  # a file system without flags
    finally:
        os.close(fd)
    return bool(flags & _LOCKED)


def cannot_remove(path: Path, why: str) -> PnpError:
    return PnpError(f"cannot remove {path} (a build clears its game's folder): {why}")


def check_removable(folder: Path) -> None:
    """A `PnpError` unless `folder` and everything in it can be deleted: nothing in it is
    immutable or append-only, and each folder in it may be written (and, if sticky, holds
    only this user's entries). Links are not followed."""
    euid = os.geteuid()
    here = os.lstat(folder)
    if locked(folder):
        raise cannot_remove(folder, "it is immutable or append-only (see lsattr)")
    if not os.access(folder, os.R_OK | os.W_OK | os.X_OK, follow_symlinks=False):
        raise cannot_remove(folder, "no permission to delete what is in it")
    try:
        entries = list(os.scandir(folder))
    except OSError as exc:
        raise cannot_remove(folder, exc.strerror or str(exc)) from None
    for entry in entries:
        path = Path(entry.path)
        owner = entry.stat(follow_symlinks=False).st_uid
        if here.st_mode & stat.S_ISVTX and euid not in (0, owner, here.st_uid):
            raise cannot_remove(path, "it is another user's, in a sticky folder")
        if entry.is_dir(follow_symlinks=False):
            check_removable(path)
        elif locked(path):
            raise cannot_remove(path, "it is immutable or append-only (see lsattr)")


def _new_file(dir_fd: int, name: str, data: bytes) -> None:
    """Create `name` (it must not exist) in `dir_fd` holding `data`, mode 0666 less umask."""
    fd = os.open(name, _NEW_FILE_FLAGS, 0o666, dir_fd=dir_fd)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)


def write_bytes(path: Path, data: bytes, root: Path | None = None) -> Path:
    """Write `path` whole, through a temporary file in the same folder renamed into place.

    Folders between `root` and the file are never followed through a link (give the
    output folder as `root`); without `root` the folder is the caller's to choose, as for
    a `--json FILE` the user named. The null device (as the file or as `root`) discards
    the data.
    """
    path = Path(path)
    if is_null_device(path) or (root is not None and is_null_device(root)):
        return path
    root = Path(root) if root is not None else path.parent
    try:
        parts = rel_parts(path.relative_to(root).as_posix())[:-1]
    except ValueError:
        raise PnpError(f"{path} is outside the output folder {root}") from None
    ensure_dir(root)
    try:
        root_fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            dir_fd = open_folder(root_fd, parts, root)
        finally:
            os.close(root_fd)
        try:
            _replace_file(dir_fd, path, data)
        finally:
            os.close(dir_fd)
    except OSError as exc:
        raise os_error(path, exc) from None
    return path


def _replace_file(dir_fd: int, path: Path, data: bytes) -> None:
    check_target(dir_fd, path.name, path)
    tmp = f".{path.name}.{os.urandom(6).hex()}.tmp"
    try:
        _new_file(dir_fd, tmp, data)
        os.replace(tmp, path.name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        try:
            os.unlink(tmp, dir_fd=dir_fd)
        except OSError:
            pass
        raise


def write_text(path: Path, text: str, root: Path | None = None) -> Path:
    return write_bytes(path, text.encode("utf-8"), root)


# --- paths the user names ------------------------------------------------------------------


def output_folder(text: str, option: str = "--out") -> Path:
    """An `--out` value as a folder; an empty one is an error, not the current folder
    (which is what `Path('')` would quietly mean)."""
    if not text.strip():
        raise PnpError(f"{option} needs a folder name ('.' for the current folder)")
    return Path(text)


def stream_named(path: Path | str) -> int | None:
    """1 or 2 when `path` is this process's standard output or error: `/dev/stdout`,
    `/dev/fd/2`, `/proc/self/fd/1`, or the terminal, pipe or file the stream is open on."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    for fd in (1, 2):
        try:
            if os.path.samestat(st, os.fstat(fd)):
                return fd
        except OSError:
            continue
    return None


def check_user_file(path: Path | str) -> None:
    """Refuse, before any work is done, a file the user named (`--json FILE`) that pnp
    would not write.

    Standard output or error (by any name) and the null device are fine: they are
    written through (`write_user_file`). Otherwise the path must be missing or a regular
    file, in a folder the user may write to (or may make). A symbolic link is refused
    rather than replaced or followed, and so is a folder, FIFO, socket or device."""
    path = Path(path)
    if is_null_device(path) or stream_named(path) is not None:
        return
    try:
        mode: int | None = os.lstat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        mode = None  # missing, or a file stands where a folder should: said below
    except OSError as exc:
        raise os_error(path, exc) from None
    if mode is not None and stat.S_ISLNK(mode):
        raise PnpError(
            f"{path} is a symbolic link: pnp neither writes through a link nor replaces it "
            "(name the file itself)"
        )
    if mode is not None and not stat.S_ISREG(mode):
        raise _not_a_file(path, mode)
    if mode is not None:
        refuse_locked(path)
    check_folder(path.parent, f"cannot write {path}")


def check_folder(folder: Path | str, what: str | None = None) -> None:
    """Can files be written in `folder` (made if missing)? Checked before a long run, so
    a permission problem is said at once, not after the work is done.

    Asked by trying: a file is made and deleted in the nearest folder that exists, which
    finds what a look at the permissions misses (an immutable folder, a read-only file
    system, an ACL, root on a network share). An append-only folder is refused without
    trying, as the trial file could not be deleted from it."""
    folder = Path(folder)
    what = what or f"cannot write in {folder}"
    if is_null_device(folder):
        return
    check_name_lengths(folder, what)
    nearest = folder
    while not os.path.lexists(nearest) and nearest != nearest.parent:
        nearest = nearest.parent
    if not nearest.is_dir():
        raise PnpError(f"{what}: {nearest} is not a folder")
    if locked(nearest):
        raise PnpError(f"{what}: {nearest} is immutable or append-only (see lsattr)")
    if not os.access(nearest, os.W_OK | os.X_OK):
        raise PnpError(f"{what}: no permission to write in {nearest}")
    trial = nearest / f".pnp-trial-{os.getpid()}-{os.urandom(4).hex()}"
    try:
        os.close(os.open(trial, _NEW_FILE_FLAGS, 0o600))
    except OSError as exc:
        raise PnpError(f"{what}: {nearest}: {exc.strerror or exc}") from None
    try:
        os.unlink(trial)
    except OSError:
        pass


def check_name_lengths(folder: Path, what: str) -> None:
    """Refuse, before any work, a folder whose name (or one of its folders' names, or the
    whole path) is longer than its file system takes: making it would fail only halfway,
    after the work, leaving the folders above it made."""
    nearest = folder
    while nearest != nearest.parent:
        try:
            os.lstat(nearest)
            break
        except OSError as exc:
            if exc.errno == errno.ENAMETOOLONG:
                raise PnpError(f"{what}: {exc.strerror}") from None
        nearest = nearest.parent
    try:
        most_name = os.pathconf(nearest, "PC_NAME_MAX")
        most_path = os.pathconf(nearest, "PC_PATH_MAX")
    except (OSError, ValueError):
        return  # not a folder (said by the caller's own checks), or the system does not say
    names = folder.relative_to(nearest).parts
    whole = len(os.fsencode(folder.absolute()))
    if any(len(os.fsencode(name)) > most_name for name in names) or whole >= most_path:
        raise PnpError(f"{what}: {os.strerror(errno.ENAMETOOLONG)}")


def check_output_files(root: Path, relpaths: list[str]) -> None:
    """Can these files be written below the output folder `root`? Checked before a long
    run (`simulate --report`): no link, file or locked folder on the way, no folder or
    special file (or an immutable one) where a file goes, and each folder takes a new file
    (`check_folder`)."""
    if is_null_device(root):
        return
    for relpath in relpaths:
        parts = rel_parts(relpath)
        path = root.joinpath(*parts)
        here = root
        for name in parts[:-1]:
            here /= name
            mode = lmode(here)
            if not mode:
                break
            if stat.S_ISLNK(mode):
                raise _link_in_the_way(here)
            if not stat.S_ISDIR(mode):
                raise PnpError(f"{here} is in the way: it is not a folder")
        else:
            mode = lmode(path)
            if mode and not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
                raise _not_a_file(path, mode)
            if mode:
                refuse_locked(path)
        check_folder(path.parent, f"cannot write {path}")


def lmode(path: Path) -> int:
    """The mode of `path` itself (a link is not followed); 0 if it cannot be seen."""
    try:
        return os.lstat(path).st_mode
    except OSError:
        return 0


def write_user_file(path: Path | str, text: str) -> Path:
    """Write `text` to a file the user named: through standard output or error when it
    names one of them, nowhere for the null device, otherwise whole (`write_text`). What
    `check_user_file` refuses is refused here too, never replaced."""
    path = Path(path)
    check_user_file(path)
    fd = stream_named(path)
    if fd is not None:
        stream = sys.stdout if fd == 1 else sys.stderr
        stream.write(text)
        stream.flush()
        return path
    return write_text(path, text)
