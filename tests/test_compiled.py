"""The compiled speed paths: built by the install, and never hiding an edit of the source.

Desert Home's random loop (`fastplay.py`) is compiled by Cython as it is, so a compiled
file sits beside its source; `pnp.compiled.load` takes the source once it is newer.
"""

from __future__ import annotations

import os
import shutil
import sys

import pytest

from pnp.compiled import SLACK, is_compiled, load
from pnp.games.desert_home import engine as dh_engine
from pnp.games.parcheesi import engine as parcheesi_engine

IN_CI = bool(os.environ.get("CI"))
compiled_only = pytest.mark.skipif(
    not is_compiled(dh_engine.fastplay) and not IN_CI,
    reason="pnp was installed without a C compiler: nothing was compiled",
)


def test_ci_builds_every_compiled_path():
    """CI has a compiler: a path that failed to build is a failure there, not a skip."""
    if not IN_CI:
        pytest.skip("only CI promises a compiler")
    assert parcheesi_engine._kernel is not None
    assert is_compiled(dh_engine.fastplay)


@compiled_only
def test_a_source_newer_than_its_build_is_loaded_instead(tmp_path, monkeypatch):
    """A copy of the compiled loop and its source in a package of their own: the build is
    used while it is as new as the source, the source once it is edited after the build."""
    built = dh_engine.fastplay.__file__
    package = tmp_path / "speedy"
    package.mkdir()
    (package / "__init__.py").write_text("")
    so = package / os.path.basename(built)
    py = package / "fastplay.py"
    shutil.copy(built, so)
    shutil.copy(os.path.join(os.path.dirname(built), "fastplay.py"), py)
    monkeypatch.syspath_prepend(str(tmp_path))
    os.utime(py, (1_000_000, 1_000_000))
    os.utime(so, (1_000_000, 1_000_000))
    assert is_compiled(load("speedy.fastplay"))
    del sys.modules["speedy.fastplay"]
    os.utime(py, (1_000_000 + SLACK + 1, 1_000_000 + SLACK + 1))  # edited after the build
    fresh = load("speedy.fastplay")
    assert not is_compiled(fresh) and fresh.__file__ == str(py)
    assert sys.modules["speedy.fastplay"] is fresh


def test_a_module_that_is_plain_python_is_left_alone():
    assert load("pnp.compiled").__file__.endswith("compiled.py")
    assert not is_compiled(sys.modules["pnp.compiled"])
