"""Folders a test run makes once and every pytest-xdist worker of the run reads: a kit
built for several tests, the documentation site. A module-scoped fixture is made once per
worker, and work stealing spreads a module's tests over the workers, so each worker would
build the same kit again.

The first worker to ask makes the folder under a lock, in a staging folder renamed when
done; the others wait for it and read it. Tests only ever read a shared folder."""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest


def run_root(factory: pytest.TempPathFactory) -> Path:
    """This run's folder that every worker sees (a worker's own base folder is inside it)."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def shared_folder(
    factory: pytest.TempPathFactory, name: str, make: Callable[[Path], object]
) -> Path:
    """`<run>/shared-<name>`, filled by `make(folder)` once per run."""
    root = run_root(factory)
    target = root / f"shared-{name}"
    with open(root / f"shared-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not target.exists():
            staging = root / f"shared-{name}.partial"
            shutil.rmtree(staging, ignore_errors=True)
            staging.mkdir()
            make(staging)
            staging.rename(target)
    return target
