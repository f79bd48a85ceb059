"""The studio's cache: finished results in folders named by the hash of what made them.

No value from a request becomes a path: an entry's name is the SHA-256 of its request
(kind, game, effective parameters, the content of the files they name, paper, pnp's
version...), so asking twice builds once and any two requests that differ land apart. A
task works in a fresh folder under ``work/`` and the finished folder is renamed into place
in one step, so an entry is whole or absent; a cancelled or failed task's folder is
removed. The cache has a size limit: the entries used least recently go first.

The studio deletes only what it made. The cache folder carries a `CACHEDIR.TAG` (the
Cache Directory Tagging Specification's file, which backup tools skip) with pnp's line
and format version; a non-empty folder without it is refused. Each entry and work folder
carries a marker naming its key, and only a folder whose name and marker agree is ever
removed: a folder of the user's, wherever it sits, is left as it is and not counted.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import pnp
from pnp.runtime.errors import PnpError

DEFAULT_LIMIT = 2_000_000_000  # bytes
RESULT = "result.json"
FORMAT = 1  # the layout of entries, work folders and markers; a change bumps it
TAG = "CACHEDIR.TAG"
SIGNATURE = "Signature: 8a477f597d28d172789f06886806bc55"  # the tagging spec's first line
OURS = re.compile(r"^# pnp studio cache, format (\d+)\b", re.MULTILINE)
MARK = ".pnp-studio"  # in every entry and work folder: the key it was made for
KEY = re.compile(r"[0-9a-f]{64}")


class CacheError(PnpError):
    """The cache folder cannot be used or written: one line naming the folder and why."""

    def __init__(self, folder: Path, cause: str) -> None:
        super().__init__(f"cannot write the studio's cache folder {folder}: {cause}")
        self.folder = folder


def default_root() -> Path:
    """`$XDG_CACHE_HOME/pnp/studio`, else `~/.cache/pnp/studio` (Windows: LOCALAPPDATA)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.environ.get("LOCALAPPDATA")
    root = Path(base) if base else Path.home() / ".cache"
    return root / "pnp" / "studio"


def key_of(request: dict[str, Any]) -> str:
    """The hash that names a request's entry: the same request, the same name."""
    text = json.dumps({**request, "pnp": pnp.__version__}, sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _cause(exc: OSError) -> str:
    return exc.strerror or str(exc)


def claim_root(root: Path, adopt: bool = False) -> None:
    """Make `root` the studio's cache folder, or refuse it with one line: a new or empty
    folder is tagged; a tagged one of this format is used; a non-empty folder without the
    tag is refused (unless `adopt`: the default folder, under pnp's own name, which an
    earlier pnp made without a tag)."""
    if root.exists() and not root.is_dir():
        raise PnpError(f"--cache {root} is not a folder")
    tag = root / TAG
    try:
        text = tag.read_text(encoding="utf-8", errors="replace") if tag.is_file() else None
        found = OURS.search(text) if text is not None else None
        if found is not None:
            if int(found[1]) != FORMAT:
                raise PnpError(
                    f"--cache {root} holds a pnp studio cache of format {found[1]}, and this "
                    f"pnp reads format {FORMAT}: give another folder"
                )
            return
        if root.is_dir() and any(root.iterdir()) and not adopt:
            raise PnpError(
                f"--cache {root} is not empty and has no pnp studio {TAG}: the studio keeps "
                "its cache only in a folder it made (give a new or an empty folder)"
            )
        root.mkdir(parents=True, exist_ok=True)
        tag.write_text(
            f"{SIGNATURE}\n# pnp studio cache, format {FORMAT}. pnp studio removes only the "
            f"folders it made here (each holds a {MARK} file naming its key).\n",
            encoding="utf-8",
        )
    except OSError as exc:
        raise PnpError(f"cannot use {root} as the cache: {_cause(exc)}") from None


def _marked_key(path: Path) -> str | None:
    """The key a folder's marker names, if the folder is a real folder with a marker."""
    try:
        if path.is_symlink() or not path.is_dir():
            return None
        text = (path / MARK).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    key = text.strip()
    return key if KEY.fullmatch(key) else None


def is_entry(path: Path) -> bool:
    """An entry the studio made: named by the key its marker holds."""
    return _marked_key(path) == path.name


def is_work(path: Path) -> bool:
    """A work folder the studio made: `<key[:16]>-<pid>-<time>`, its marker holding the key."""
    key = _marked_key(path)
    return key is not None and re.fullmatch(rf"{key[:16]}-\d+-\d+", path.name) is not None


class Cache:
    """Entries under `root`/entries/<key>/, each with its `result.json` and its files."""

    def __init__(self, root: Path, limit: int = DEFAULT_LIMIT) -> None:
        claim_root(root)
        self.root = root
        self.limit = limit
        self.entries = root / "entries"
        self.work = root / "work"
        self._lock = threading.Lock()
        for folder in (self.entries, self.work):
            try:
                folder.mkdir(exist_ok=True)
            except OSError as exc:
                raise CacheError(folder, _cause(exc)) from None
        for path in _listed(self.work):  # a stopped studio's unfinished tasks
            if is_work(path) and not _alive(path.name):
                shutil.rmtree(path, ignore_errors=True)

    def folder(self, key: str) -> Path | None:
        """The finished entry for `key`, marked as just used; None if there is none."""
        path = self.entries / key
        if not (path / RESULT).is_file():
            return None
        try:
            os.utime(path)
        except OSError:
            return None
        return path

    def result(self, key: str) -> Any | None:
        path = self.folder(key)
        if path is None:
            return None
        try:
            return json.loads((path / RESULT).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def new_work_folder(self, key: str) -> Path:
        """A fresh folder for one task, marked with its key (never an entry until `keep`)."""
        path = self.work / f"{key[:16]}-{os.getpid()}-{time.monotonic_ns()}"
        try:
            path.mkdir()
            (path / MARK).write_text(key + "\n", encoding="utf-8")
        except OSError as exc:
            shutil.rmtree(path, ignore_errors=True)
            raise CacheError(self.work, _cause(exc)) from None
        return path

    def keep(self, key: str, folder: Path, result: Any) -> Path:
        """Move a finished task's folder into place as the entry for `key`, in one rename
        (its marker already names the key). A `CacheError` if it cannot be written."""
        try:
            (folder / RESULT).write_text(json.dumps(result), encoding="utf-8")
        except OSError as exc:
            raise CacheError(self.work, _cause(exc)) from None
        target = self.entries / key
        with self._lock:
            if (target / RESULT).is_file():
                shutil.rmtree(folder, ignore_errors=True)  # another task made it first
            else:
                if target.exists() or target.is_symlink():
                    if not is_entry(target):
                        raise CacheError(target, "a folder pnp studio did not make is in the way")
                    shutil.rmtree(target, ignore_errors=True)  # a half-removed entry of ours
                try:
                    os.replace(folder, target)
                except OSError as exc:
                    raise CacheError(self.entries, _cause(exc)) from None
            self._trim(target)
        return target

    @staticmethod
    def drop(folder: Path) -> None:
        shutil.rmtree(folder, ignore_errors=True)

    def size(self) -> int:
        """The bytes of the entries the studio made (nothing else counts)."""
        return sum(_size(p) for p in _listed(self.entries) if is_entry(p))

    def _trim(self, newest: Path) -> None:
        """Remove the least recently used entries until the cache is under its limit (never
        the one just made: its job is about to be read). Only entries the studio made."""
        entries = []
        for path in _listed(self.entries):
            if path == newest or not is_entry(path):
                continue
            try:
                entries.append((path.stat().st_mtime, path, _size(path)))
            except OSError:
                continue
        total = sum(size for _, _, size in entries) + _size(newest)
        for _, path, size in sorted(entries):
            if total <= self.limit:
                break
            shutil.rmtree(path, ignore_errors=True)
            total -= size


def _listed(folder: Path) -> list[Path]:
    try:
        return list(folder.iterdir())
    except OSError:
        return []


def _size(path: Path) -> int:
    total = 0
    for dirpath, _, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(dirpath, name)).st_size
            except OSError:
                pass
    return total


def _alive(name: str) -> bool:
    """Is the process that made the work folder `name` (key-pid-time) still running?"""
    try:
        pid = int(name.split("-")[1])
        os.kill(pid, 0)
    except (IndexError, ValueError, ProcessLookupError):
        return False
    except PermissionError:
        return True
    return True
