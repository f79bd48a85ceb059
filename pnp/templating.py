"""One jinja environment for every template: rule cards, the gallery and the report.

Templates live in the top-level `templates/` folder, which installs beside the `pnp`
package (see pyproject.toml), so the same relative path works from a checkout and from a
wheel. HTML templates (`*.html.j2`) are autoescaped; rule-card markup is plain text.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import jinja2

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


@cache
def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=lambda name: bool(name and name.endswith(".html.j2")),
        undefined=jinja2.StrictUndefined,  # a misspelt variable is a bug, not a blank
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render(name: str, **context: object) -> str:
    """Render the template at `name`, a path relative to `templates/`."""
    return environment().get_template(name).render(**context)
