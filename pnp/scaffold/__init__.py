"""`pnp new SLUG`: the skeleton of a small complete game, ready to build, check and play.

The files under `files/` are templates of a working game (a race with captures: board,
tokens, rule cards, State-API rules, bots, checks, tests); `$${name}` placeholders take the
new game's slug, package, class prefix and title. The game passes the suite as written;
the guide (docs/writing-a-game.md) walks a designer from it to their own game.

Everything is written to a temporary folder first and moved in at the end, so a failure
leaves the checkout as it was.
"""

from __future__ import annotations

import keyword
import shutil
import string
import tempfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from pnp.errors import PnpError
from pnp.gamedef import slug_problem

REGISTRY = Path("pnp/games/__init__.py")


@dataclass(frozen=True)
class Names:
    """How the new game is named in each place it appears."""

    slug: str  # "lantern-race": the CLI, output folders, templates
    pkg: str  # "lantern_race": the Python package
    cls: str  # "LanternRace": class-name prefix
    title: str  # "Lantern Race": what players read

    @classmethod
    def of(cls, slug: str) -> Names:
        """The names, once `slug` is a slug that also makes a Python package name."""
        problem = slug_problem(slug)
        if problem is not None:
            raise PnpError(problem)
        pkg = slug.replace("-", "_")
        if keyword.iskeyword(pkg):
            raise PnpError(f"'{slug}' is a Python keyword: choose another slug")
        words = slug.split("-")
        return cls(slug, pkg, "".join(w.capitalize() for w in words), " ".join(words).title())

    def mapping(self) -> dict[str, str]:
        return {"slug": self.slug, "pkg": self.pkg, "Class": self.cls, "title": self.title}


def targets(names: Names) -> dict[str, Path]:
    """Where each template folder goes in a checkout."""
    return {
        "game": Path("pnp/games") / names.pkg,
        "rules": Path("templates/rules") / names.slug,
        "tests": Path("tests"),
    }


def _rendered(names: Names) -> dict[Path, str]:
    """Every file of the skeleton: its path in the checkout and its text."""
    files: dict[Path, str] = {}
    root = resources.files(__package__ or "pnp.scaffold") / "files"
    for folder, dest in targets(names).items():
        for entry in sorted(root.joinpath(folder).iterdir(), key=lambda e: e.name):
            if not entry.name.endswith(".tmpl"):
                continue
            name = entry.name.removesuffix(".tmpl")
            if folder == "tests":
                name = f"test_game_{names.pkg}.py"
            text = string.Template(entry.read_text(encoding="utf-8")).substitute(names.mapping())
            files[dest / name] = text
    return files


def registry_line(names: Names) -> str:
    """The line that registers the game: its package in `pnp.games.BUILT_IN`."""
    return f'"{names.pkg}",'


def made_paths(names: Names) -> list[Path]:
    """Every file or folder `pnp new` makes in a checkout (the skeleton and its reference
    data): none may exist before, and a failed `pnp new` removes each again."""
    return [
        *(dest for folder, dest in targets(names).items() if folder != "tests"),
        Path("tests") / f"test_game_{names.pkg}.py",
        Path("tests/conformance") / f"{names.slug}.json",
        Path("tests/golden") / names.slug,
    ]


def check_free(names: Names, root: Path) -> None:
    """A `PnpError` unless `root` is a pnp checkout where the name is free: no game has the
    slug (a built-in, a plugin), and nothing is where the new game's files go (a module
    of `pnp.games` of that name either: `pnp new plugins` would shadow the plugin loader)."""
    from pnp.games import registry

    if not (root / REGISTRY).is_file():
        raise PnpError(f"{root} is not a pnp checkout (no {REGISTRY}): run pnp new in one")
    if names.slug in registry():
        raise PnpError(f"'{names.slug}' is taken: a game of that slug is registered")
    module = Path("pnp/games") / f"{names.pkg}.py"
    for path in (module, *made_paths(names)):
        if (root / path).exists() or (root / path).is_symlink():
            raise PnpError(f"{root / path} already exists: choose another slug")


def new_game(slug: str, root: Path) -> list[Path]:
    """Write the skeleton of game `slug` into the checkout at `root`; return the files.

    Everything is checked, then written into a temporary folder, then moved in."""
    names = Names.of(slug)
    check_free(names, root)
    files = _rendered(names)
    with tempfile.TemporaryDirectory(dir=root, prefix=".pnp-new-") as tmp:
        for path, text in files.items():
            (Path(tmp) / path).parent.mkdir(parents=True, exist_ok=True)
            (Path(tmp) / path).write_text(text, encoding="utf-8")
        for dest in targets(names).values():
            if dest.name == "tests":
                for f in (Path(tmp) / dest).iterdir():
                    shutil.move(str(f), root / dest / f.name)
            else:
                (root / dest).parent.mkdir(parents=True, exist_ok=True)
                shutil.move(str(Path(tmp) / dest), root / dest)
    return [root / p for p in files]


def remove_made(names: Names, root: Path) -> None:
    """Take out what a `pnp new` that failed had made (see `made_paths`)."""
    for path in made_paths(names):
        target = root / path
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        elif target.exists() or target.is_symlink():
            target.unlink()
