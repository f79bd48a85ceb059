"""The build hook: every compiled kernel carries the SHA-256 of the C files it was built from.

The kernels are optional extensions (pyproject.toml): where one fails to compile the
install goes on, and an editable checkout keeps the `.so` an earlier build left. Stamped,
a kernel says which sources it is (`sources()`), and tests/test_kernel_sources.py holds each
one to the files in the checkout, so a stale kernel fails a test instead of being played.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def sources_digest(paths: Iterable[str], root: Path = ROOT) -> str:
    """SHA-256 over the files in the order pyproject.toml lists them (sources, then depends)."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.encode() + b"\0")
        digest.update((root / path).read_bytes())
    return digest.hexdigest()


class StampedBuildExt(build_ext):
    """build_ext that defines PNP_SOURCES (read by `pnp/play/_seam.h`) for each kernel."""

    def build_extension(self, ext: Extension) -> None:
        stamp = sources_digest([*ext.sources, *ext.depends])
        macros = [m for m in ext.define_macros if m[0] != "PNP_SOURCES"]
        ext.define_macros = [*macros, ("PNP_SOURCES", f'"{stamp}"')]
        super().build_extension(ext)


if __name__ == "__main__":
    setup(cmdclass={"build_ext": StampedBuildExt})
