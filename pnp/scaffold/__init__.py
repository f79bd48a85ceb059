"""`pnp new SLUG`: the skeleton of a small complete game, ready to build, check and play,
written into this checkout (`new_game`) or as a plugin repository of its own
(`new_package`, `pnp new SLUG --package DIR`).

The files under `files/` are templates of a working game (a race with captures: board,
tokens, rule cards, State-API rules, bots, checks, tests); `$${name}` placeholders take the
new game's slug, package, class prefix and title, and where it lives. The game's modules
import each other relatively, so the same files work under `pnp.games` and as a package of
their own. The game passes the suite as written; the guide (docs/writing-a-game.md) walks
a designer from it to their own game.

The slug is checked before anything is written; everything is written to a temporary
folder first and moved in at the end, and a failure afterwards (the reference data) takes
back what was moved in, so a failure leaves the disk as it was. That folder is pnp's own
business: an error while it is written names the file where it was going (`_named_at`).
"""

from __future__ import annotations

import importlib.util
import keyword
import os
import shutil
import string
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from pnp import DISTRIBUTION
from pnp.contract.gamedef import slug_problem
from pnp.runtime.atomic import check_folder
from pnp.runtime.errors import PnpError

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


@dataclass(frozen=True)
class Layout:
    """Where a new game's files go and how they name its package."""

    module: str  # the game's package: "pnp.games.lantern_race" or "lantern_race"
    game: Path  # its folder
    rules: Path  # its rule-card templates' folder
    tests: Path  # the tests' folder
    test_file: str  # its own tests' file name
    templates: str  # the GameDef's `templates=` line, if it names them
    imports: str  # the snippet of its tests' import block (files/imports/)

    def mapping(self, names: Names) -> dict[str, str]:
        return names.mapping() | {
            "module": self.module,
            "rules_dir": f"{self.rules.as_posix()}/",
            "templates": self.templates,
            "distribution": DISTRIBUTION,
        }


def checkout_layout(names: Names) -> Layout:
    """A game among pnp's own: its package under `pnp.games`, its rule cards under
    `templates/rules/`, its tests with pnp's."""
    return Layout(
        module=f"pnp.games.{names.pkg}",
        game=Path("pnp/games") / names.pkg,
        rules=Path("templates/rules") / names.slug,
        tests=Path("tests"),
        test_file=f"test_game_{names.pkg}.py",
        templates="",
        imports="checkout",
    )


def package_layout(names: Names) -> Layout:
    """A game in a repository of its own: its package at the top, its rule cards inside
    it (package data), its tests beside it."""
    return Layout(
        module=names.pkg,
        game=Path(names.pkg),
        rules=Path(names.pkg) / "rule_cards",
        tests=Path("tests"),
        test_file=f"test_{names.pkg}.py",
        templates='\n    templates=(PACKAGE, "rule_cards"),  # its rule cards, package data',
        imports="package",
    )


def _template(folder: str, name: str) -> str:
    root = resources.files(__package__ or "pnp.scaffold") / "files"
    return root.joinpath(folder, *name.split("/")).read_text(encoding="utf-8")


def _folder(folder: str) -> list[str]:
    """The templates in `folder` and its role folders (a game's `rules/`, `kit/`), as paths
    relative to it."""
    root = resources.files(__package__ or "pnp.scaffold") / "files" / folder
    names: list[str] = []
    for entry in root.iterdir():
        if entry.is_dir():
            names += [f"{entry.name}/{e.name}" for e in entry.iterdir() if e.name.endswith(".tmpl")]
        elif entry.name.endswith(".tmpl"):
            names.append(entry.name)
    return sorted(names)


def _fill(text: str, mapping: dict[str, str]) -> str:
    return string.Template(text).substitute(mapping)


def rendered(names: Names, layout: Layout) -> dict[Path, str]:
    """Every file of the game: its path (relative to the checkout or the repository) and
    its text."""
    mapping = layout.mapping(names)
    files: dict[Path, str] = {}
    for name in _folder("game"):
        files[layout.game / name.removesuffix(".tmpl")] = _fill(_template("game", name), mapping)
    for name in _folder("rules"):
        files[layout.rules / name.removesuffix(".tmpl")] = _fill(_template("rules", name), mapping)
    imports = _fill(_template("imports", f"{layout.imports}.tmpl"), mapping).rstrip("\n")
    test = _fill(_template("tests", "test_game.py.tmpl"), mapping | {"imports": imports})
    files[layout.tests / layout.test_file] = test
    return files


def package_files(names: Names) -> dict[Path, str]:
    """A plugin repository's files: the game, and its pyproject, README, .gitignore and
    the test that holds it to pnp's bar (`pnp.testing`)."""
    layout = package_layout(names)
    mapping = layout.mapping(names)
    files = rendered(names, layout)
    for name, dest in {
        "pyproject.toml.tmpl": Path("pyproject.toml"),
        "README.md.tmpl": Path("README.md"),
        "gitignore.tmpl": Path(".gitignore"),
        "test_pnp.py.tmpl": layout.tests / "test_pnp.py",
    }.items():
        files[dest] = _fill(_template("package", name), mapping)
    return files


def registry_line(names: Names) -> str:
    """The line that registers the game: its package in `pnp.games.BUILT_IN`."""
    return f'"{names.pkg}",'


def _write(files: dict[Path, str], root: Path) -> None:
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")


@contextmanager
def _named_at(tmp: Path, final: Path) -> Iterator[None]:
    """Errors in the block name `final` where they name the temporary folder `tmp`, whose
    contents go there: `cannot write DIR/pyproject.toml: No space left on device`."""
    try:
        yield
    except OSError as exc:
        where = Path(exc.filename) if exc.filename else final
        if where.is_relative_to(tmp):
            where = final / where.relative_to(tmp)
        raise PnpError(f"cannot write {where}: {exc.strerror or exc}") from None
    except PnpError as exc:
        exc.args = (str(exc).replace(str(tmp), str(final)),)
        raise


ReferenceData = Callable[[str, Path], list[Path]]
"""(the game's module, its tests' folder) -> the reference data files written there."""


def made_paths(names: Names) -> list[Path]:
    """Every file or folder `pnp new` makes in a checkout (the skeleton and its reference
    data): none may exist before, and a failed `pnp new` removes each again."""
    layout = checkout_layout(names)
    return [
        layout.game,
        layout.rules,
        layout.tests / layout.test_file,
        layout.tests / "conformance" / f"{names.slug}.json",
        layout.tests / "golden" / names.slug,
    ]


def check_unregistered(names: Names) -> None:
    """A `PnpError` if a game of that slug is registered (a built-in, a plugin)."""
    from pnp.games import registry

    if names.slug in registry():
        raise PnpError(f"'{names.slug}' is taken: a game of that slug is registered")


def check_free(names: Names, root: Path) -> None:
    """A `PnpError` unless `root` is a pnp checkout where the name is free: no game has the
    slug (a built-in, a plugin), and nothing is where the new game's files go (a module
    of `pnp.games` of that name either: `pnp new plugins` would shadow the plugin loader)."""
    if not (root / REGISTRY).is_file():
        raise PnpError(f"{root} is not a pnp checkout (no {REGISTRY}): run pnp new in one")
    check_unregistered(names)
    module = Path("pnp/games") / f"{names.pkg}.py"
    for path in (module, *made_paths(names)):
        if (root / path).exists() or (root / path).is_symlink():
            raise PnpError(f"{root / path} already exists: choose another slug")


def new_game(slug: str, root: Path) -> list[Path]:
    """Write the skeleton of game `slug` into the checkout at `root`; return the files.

    Everything is checked, then written into a temporary folder, then moved in
    (`pnp.scaffold.data.create_game` adds the reference data, or takes it all out)."""
    names = Names.of(slug)
    check_free(names, root)
    layout = checkout_layout(names)
    files = rendered(names, layout)
    check_folder(root / layout.game, f"cannot write the game into {root}")
    with (
        tempfile.TemporaryDirectory(dir=root, prefix=".pnp-new-") as tmp,
        _named_at(Path(tmp), root),
    ):
        _write(files, Path(tmp))
        for dest in (layout.game, layout.rules):
            (root / dest).parent.mkdir(parents=True, exist_ok=True)
            shutil.move(str(Path(tmp) / dest), root / dest)
        shutil.move(str(Path(tmp) / layout.tests / layout.test_file), root / layout.tests)
    return [root / p for p in files]


def remove_made(names: Names, root: Path) -> None:
    """Take out what a `pnp new` that failed had made (see `made_paths`)."""
    for path in made_paths(names):
        target = root / path
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        elif target.exists() or target.is_symlink():
            target.unlink()


def _existing_ancestor(path: Path) -> Path:
    for folder in path.parents:
        if folder.is_dir():
            return folder
    raise PnpError(f"{path}: no folder to write it in")  # pragma: no cover (/ exists)


def new_package(slug: str, dest: Path, reference: ReferenceData | None = None) -> list[Path]:
    """Write game `slug` as a plugin repository in the new (or empty) folder `dest`, with
    its reference data (`reference`, given the game's module and the tests' folder, run
    while the repository is still in a temporary folder); return the files written. The
    slug must be free (no registered game has it, no installed module has its package's
    name), and a failure leaves nothing."""
    names = Names.of(slug)
    dest = dest.absolute()
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise PnpError(f"{dest} is not an empty folder: give the game's repository a new one")
    check_unregistered(names)
    if importlib.util.find_spec(names.pkg) is not None:
        raise PnpError(f"a module named '{names.pkg}' is already installed: choose another slug")
    files = package_files(names)
    check_folder(dest, f"cannot write the game's repository {dest}")
    with tempfile.TemporaryDirectory(dir=_existing_ancestor(dest), prefix=".pnp-new-") as tmp:
        repo = Path(tmp) / "repo"
        with _named_at(repo, dest):
            _write(files, repo)
            layout = package_layout(names)
            data = reference(layout.module, repo / layout.tests) if reference else []
            dest.parent.mkdir(parents=True, exist_ok=True)
            os.replace(repo, dest)  # onto an empty folder too
    return [dest / p for p in files] + [dest / p.relative_to(repo) for p in data]
