"""`python -m pnp.bench [GAME ...]`: the benchmark (see `pnp.bench`)."""

from pnp.bench import main

main()
