"""The compiled kernels: CI has a C compiler, so there a kernel that did not build fails.

Elsewhere pnp installs without a compiler and plays on its Python paths (the kernels'
own tests skip); each kernel's tests check it against the readable rules.
"""

from __future__ import annotations

import os

import pytest

from pnp.games.building_community.fast import solver_proof as bc_proof
from pnp.games.desert_home import engine as dh_engine
from pnp.games.exploding_dice.fast import kernel as ed_kernel
from pnp.games.home_in_one_piece.fast import kernel as hiop_compiled
from pnp.games.parcheesi import engine as parcheesi_engine


def test_ci_builds_every_compiled_path():
    """CI has a compiler: a kernel that failed to build is a failure there, not a skip."""
    if not os.environ.get("CI"):
        pytest.skip("only CI promises a compiler")
    assert parcheesi_engine._kernel is not None
    assert dh_engine._kernel is not None
    assert hiop_compiled.available()
    assert bc_proof._search is not None
    assert ed_kernel._kernel is not None
