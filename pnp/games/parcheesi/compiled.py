"""The compiled kernel's handle and its copy of each board, for the engine and the state.

`_kernel.c` is built at install time when a C compiler is there; without one `kernel` is
None and everything plays on the readable rules. The board the kernel reads is built
once per play model, from the model (each colour's path, the safe nodes, the strips).
"""

from __future__ import annotations

from pnp.games.parcheesi.model import PlayModel
from pnp.memo import PerModel

try:
    from pnp.games.parcheesi import _kernel as kernel
except ImportError:  # built without a C compiler: the readable rules play
    kernel = None  # type: ignore[assignment]


def _board(model: PlayModel) -> kernel.Board:
    """The kernel's copy of the board: each colour's path of nodes, safe nodes, strips."""
    assert kernel is not None
    home = model.home
    strips = [path.index(model.home_entry[c]) + 1 for c, path in enumerate(model.paths)]
    return kernel.board([path[:home] for path in model.paths], model.safe, strips)


board: PerModel[PlayModel, kernel.Board] = PerModel(_board)
"""The kernel's board of a play model (built once per model and process)."""
