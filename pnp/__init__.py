"""pnp: print-and-play kits that are solitaire-tested before they are printed."""

import os

# pnp's arrays are small (shapely, matplotlib): an OpenBLAS thread pool would only spin
# beside the simulation workers (its cost: docs/simulation.md, `make bench`). A setting of
# the user's wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from pnp import _compat

# the import paths before the floor plan keep working for a release (pnp._compat)
_compat.install()

__version__ = "0.1.0"

DISTRIBUTION = "pnp-kits"
"""The name pnp installs under (`pip install pnp-kits`, its metadata's name): `pnp` on the
package index is another project. The import name and the command are `pnp`."""
