"""The compiled kernels are portable, reentrant C: they build with any C99 compiler (gcc,
clang, MSVC for the release wheels) and keep no mutable state between calls, so two games
may run at once in one process (threads, a web server) without sharing a table."""

from __future__ import annotations

import re
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
KERNELS = sorted(ROOT.glob("pnp/games/*/fast/_*.c"))  # game kernels, the solver's search
HEADERS = sorted(ROOT.glob("pnp/play/_*.h")) + sorted(ROOT.glob("pnp/games/*/fast/_*.h"))
SOURCES = [*KERNELS, *HEADERS]  # every C file a kernel is built from
COMPILERS = [c for c in ("gcc", "clang") if shutil.which(c)]


def code(path: Path) -> str:
    """The C source without comments and string literals (so prose cannot trip a rule)."""
    text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(\\.|[^"\\])*"', '""', text)


def test_there_are_kernels_to_check():
    assert len(KERNELS) >= 2


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.parent.name + "/" + p.name)
def test_no_compiler_extension_without_a_portable_fallback(path):
    """`__int128` and `__builtin_*` exist in gcc and clang only: each use must sit in a
    preprocessor branch that has a plain-C alternative (`#else`)."""
    depth_else: list[bool] = []  # per open #if: has an #else been seen
    for n, line in enumerate(code(path).splitlines(), 1):
        s = line.strip()
        if s.startswith("#if"):
            depth_else.append(False)
        elif s.startswith(("#else", "#elif")) and depth_else:
            depth_else[-1] = True
        elif s.startswith("#endif") and depth_else:
            depth_else.pop()
        elif re.search(r"__int128|__builtin_", s) and not (depth_else and not depth_else[-1]):
            pytest.fail(
                f"{path.name}:{n}: '{s}' uses a compiler extension outside an #if branch "
                "that has an #else fallback"
            )


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.parent.name + "/" + p.name)
def test_no_mutable_state_at_file_scope(path):
    """Only constants, the module tables Python needs, and functions live at file scope."""
    allowed = ("PyMethodDef", "PyModuleDef")
    for n, line in enumerate(code(path).splitlines(), 1):
        m = re.match(r"^static\s+(?!inline)([^(=;]*?)[\s*](\w+)\s*(\[[^\]]*\])?\s*[=;]", line)
        if m and "const" not in m.group(1).split() and not any(a in m.group(1) for a in allowed):
            pytest.fail(
                f"{path.name}:{n}: file-scope mutable '{line.strip()}': make it a "
                "per-call or per-object buffer"
            )


@pytest.mark.skipif(not COMPILERS, reason="no C compiler on this machine")
@pytest.mark.parametrize("compiler", COMPILERS)
@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.parent.name)
def test_kernel_is_strict_c99(path, compiler):
    include = sysconfig.get_paths()["include"]
    run = subprocess.run(
        [
            compiler,
            "-std=c99",
            "-Wall",
            "-pedantic",
            "-Werror",
            "-fsyntax-only",
            f"-I{include}",
            f"-I{ROOT / 'pnp'}",
            str(path),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-3000:]
