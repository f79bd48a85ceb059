"""One jinja environment for every template: rule cards, the gallery and the report.

Templates live in the top-level `templates/` folder, which installs beside the `pnp`
package (see pyproject.toml), so the same relative path works from a checkout and from a
wheel. HTML templates (`*.html.j2`) are autoescaped; rule-card markup is plain text.

A game's rule templates are found through a loader of its own, under ``rules/<slug>/``:
the built-in `templates/rules/<slug>/` folder, unless the game named a package folder
(`GameDef.templates`, which the registry hands to `use_game_templates`), so a game from
another package ships its own.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import jinja2

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
RULES = "rules"


class _GameLoaders(dict[str, jinja2.BaseLoader]):
    """Slug -> its rule templates' loader; a game that named none has the built-in folder."""

    def __missing__(self, slug: str) -> jinja2.BaseLoader:
        return jinja2.FileSystemLoader(str(TEMPLATES / RULES / slug))


_GAMES = _GameLoaders()
_SOURCES: dict[str, tuple[str, str]] = {}


def use_game_templates(slug: str, source: tuple[str, str] | None) -> None:
    """Find `slug`'s rule templates in the (package, folder) `source`, or the built-in
    folder when None. Called by the registry for every game it lists."""
    if _SOURCES.get(slug) == source:
        return
    if source is None:
        _SOURCES.pop(slug, None)
        _GAMES.pop(slug, None)
    else:
        _SOURCES[slug] = source
        _GAMES[slug] = jinja2.PackageLoader(*source)
    cached = environment().cache
    if cached is not None:
        cached.clear()  # templates read through the loader this one replaces


def packaged_games() -> set[str]:
    """The games whose rule templates are read from a package (`use_game_templates`)."""
    return set(_SOURCES)


def game_templates(slug: str, prefix: str = "") -> list[str]:
    """The names of `slug`'s rule templates that start with `prefix`, in name order."""
    return sorted(
        n
        for n in _GAMES[slug].list_templates()
        if "/" not in n and n.startswith(prefix) and n.endswith(".j2")
    )


def game_templates_place(slug: str) -> str:
    """Where `slug`'s rule templates are looked for, for a message."""
    source = _SOURCES.get(slug)
    return str(TEMPLATES / RULES / slug) if source is None else f"{source[0]}:{source[1]}"


@cache
def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.ChoiceLoader(
            [
                jinja2.PrefixLoader({RULES: jinja2.PrefixLoader(_GAMES)}),
                jinja2.FileSystemLoader(str(TEMPLATES)),
            ]
        ),
        autoescape=lambda name: bool(name and name.endswith(".html.j2")),
        undefined=jinja2.StrictUndefined,  # a misspelt variable is a bug, not a blank
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render(name: str, **context: object) -> str:
    """Render the template at `name`, a path relative to `templates/` (a game's rule
    template is ``rules/<slug>/<file>``, wherever its game keeps it)."""
    return environment().get_template(name).render(**context)
