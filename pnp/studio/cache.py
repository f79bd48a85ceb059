"""The studio's cache: finished results in folders named by the hash of what made them.

No value from a request becomes a path: an entry's name is the SHA-256 of its request
(kind, game, effective parameters, paper, pnp's version...), so asking twice builds once and
any two requests that differ land apart. A task works in a fresh folder under ``work/`` and
the finished folder is renamed into place in one step, so an entry is whole or absent; a
cancelled or failed task's folder is removed. The cache has a size limit: the entries used
least recently go first.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import pnp

DEFAULT_LIMIT = 2_000_000_000  # bytes
RESULT = "result.json"


def default_root() -> Path:
    """`$XDG_CACHE_HOME/pnp/studio`, else `~/.cache/pnp/studio` (Windows: LOCALAPPDATA)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.environ.get("LOCALAPPDATA")
    root = Path(base) if base else Path.home() / ".cache"
    return root / "pnp" / "studio"


def key_of(request: dict[str, Any]) -> str:
    """The hash that names a request's entry: the same request, the same name."""
    text = json.dumps({**request, "pnp": pnp.__version__}, sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Cache:
    """Entries under `root`/entries/<key>/, each with its `result.json` and its files."""

    def __init__(self, root: Path, limit: int = DEFAULT_LIMIT) -> None:
        self.root = root
        self.limit = limit
        self.entries = root / "entries"
        self.work = root / "work"
        self._lock = threading.Lock()
        self.entries.mkdir(parents=True, exist_ok=True)
        self.work.mkdir(parents=True, exist_ok=True)
        for path in self.work.iterdir():  # a stopped studio's unfinished tasks
            if not _alive(path.name):
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
        """A fresh, empty folder for one task (never an entry until `keep`)."""
        stamp = f"{key[:16]}-{os.getpid()}-{time.monotonic_ns()}"
        path = self.work / stamp
        path.mkdir(parents=True)
        return path

    def keep(self, key: str, folder: Path, result: Any) -> Path:
        """Move a finished task's folder into place as the entry for `key`, in one rename."""
        (folder / RESULT).write_text(json.dumps(result), encoding="utf-8")
        target = self.entries / key
        with self._lock:
            if (target / RESULT).is_file():
                shutil.rmtree(folder, ignore_errors=True)  # another task made it first
            else:
                shutil.rmtree(target, ignore_errors=True)
                os.replace(folder, target)
            self._trim(target)
        return target

    @staticmethod
    def drop(folder: Path) -> None:
        shutil.rmtree(folder, ignore_errors=True)

    def size(self) -> int:
        return sum(_size(p) for p in self.entries.iterdir())

    def _trim(self, newest: Path) -> None:
        """Remove the least recently used entries until the cache is under its limit (never
        the one just made: its job is about to be read)."""
        entries = []
        for path in self.entries.iterdir():
            if path == newest:
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
