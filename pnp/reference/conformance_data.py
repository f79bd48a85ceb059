"""Rewrite a game's conformance file, ``tests/conformance/<slug>.json`` (``make conformance``).

    python -m pnp.reference.conformance_data SLUG [SLUG ...]   # or: all (from the checkout)

The cases already in the file are played and counted again on the readable rules (review
the diff: a change is a change of the rules); a game without a file gets the default cases
of `pnp.reference.conformance.default_cases`. It sits above the registry, which
`pnp.reference.conformance` may not import; the tests never run it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pnp.games import get_game, registry
from pnp.reference.conformance import dumps, regenerate
from pnp.runtime.errors import PnpError

DATA = Path("tests") / "conformance"
"""From the repository root: pnp's own checkout, or a plugin game's repository."""


def rewrite(slug: str, folder: Path = DATA) -> Path:
    """Regenerate one game's file from the cases in it (or the defaults) and write it."""
    game = get_game(slug)
    path = folder / f"{slug}.json"
    old = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(regenerate(game, old)) + "\n", encoding="utf-8")
    return path


def main(argv: list[str]) -> int:
    slugs = argv or ["all"]
    if slugs == ["all"]:
        slugs = [slug for slug, game in registry().items() if game.engine is not None]
    for slug in slugs:
        try:
            path = rewrite(slug)
        except PnpError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print(f"{path}: {path.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
