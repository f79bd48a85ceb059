"""A package as pip would install it, without pip: a `<name>-<version>.dist-info` folder
(its metadata and entry points) in a folder the test puts on `sys.path`. Python's
`importlib.metadata` finds it as it finds any installed distribution, so a game declared
in it reaches the registry through the `pnp.games` entry points, the real code path.
A test installs nothing; it writes this into a temporary folder."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import pytest


def entry_points_text(groups: Mapping[str, Mapping[str, str]]) -> str:
    """The `entry_points.txt` of a distribution declaring `groups` ({group: {name: target}})."""
    return "".join(
        f"[{group}]\n" + "".join(f"{name} = {target}\n" for name, target in points.items()) + "\n"
        for group, points in groups.items()
    )


def fake_install(
    site: Path, name: str, groups: Mapping[str, Mapping[str, str]], version: str = "0.1"
) -> Path:
    """Declare distribution `name` in folder `site` with the entry points `groups`; return
    its dist-info folder. The package's modules are found wherever `sys.path` finds them."""
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(entry_points_text(groups), encoding="utf-8")
    return info


@contextmanager
def installed(
    site: Path, name: str, groups: Mapping[str, Mapping[str, str]], paths: Iterable[Path] = ()
) -> Iterator[Path]:
    """`fake_install` for the length of a block: `site` (and `paths`, where the package's
    modules are) on `sys.path`, pnp's cache of plugins emptied on the way in and out, and
    the rule templates of the games loaded meanwhile forgotten on the way out. Returns
    `site`."""
    from pnp.draw.templating import packaged_games, use_game_templates
    from pnp.games.plugins import plugins

    fake_install(site, name, groups)
    before = packaged_games()
    with pytest.MonkeyPatch.context() as patch:
        for path in [*paths, site]:
            patch.syspath_prepend(str(path))
        plugins.cache_clear()
        try:
            yield site
        finally:
            for slug in packaged_games() - before:
                use_game_templates(slug, None)
            plugins.cache_clear()
