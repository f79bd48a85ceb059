"""pnp's test kit: the checks pnp holds its own games to, for a game in a package of its own.

A pytest plugin (`pnp.testing.plugin`, loaded through the `pytest11` entry point wherever
pnp is installed) adds `--update-golden` and the `slow` marker. `pnp.testing.suite.GameSuite`
is the whole bar in one class a plugin's tests subclass: the registry contract
(`contract`), the golden files (`golden`), the conformance data (`conformance`) and the
bad-input properties (`bad_input`). docs/writing-a-game.md shows it in use.

pnp itself never imports this package (an import-linter contract holds it), so pnp runs
without pytest or Hypothesis installed; a plugin's tests need the `testing` extra.
"""
