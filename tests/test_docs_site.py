"""The documentation site as a reader sees it: built with `mkdocs build --strict` (as `make
docs` does) into a temporary folder, served from 127.0.0.1 by a server this module starts
and stops, and opened in Debian's Chromium. Three pages are checked to render: their title,
the navigation, a code block, and an image that loads; no request of theirs may fail (the
site fetches nothing from another host). A screenshot of each page is kept under the test's
temporary folder (`screens/`)."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from browser import launched, require_chromium
from shared import shared_folder

from pnp.cli import command_names

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent
WAIT = 60_000  # ms: a page on a busy 2-core machine; only a bound, never a target

require_chromium()


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base's name
        pass


def build_site(out: Path) -> None:
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert built.returncode == 0, built.stderr


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[str]:
    """The built site's address (built once a run); the server stops when the module's tests
    are done."""
    out = shared_folder(tmp_path_factory, "docs-site", build_site)
    server = ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(out))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One Chromium for the module; each test opens its pages in a fresh context."""
    with launched() as browser:
        yield browser


@pytest.fixture
def open_page(chromium, site, tmp_path):
    """`open_page(path)`: the page loaded in Chromium, with every failed request noted."""
    shots = tmp_path / "screens"
    shots.mkdir()
    failed: list[str] = []
    context = chromium.new_context(viewport={"width": 1300, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(WAIT)
    pg.on("requestfailed", lambda req: failed.append(f"{req.url}: {req.failure}"))
    pg.on("response", lambda r: r.status >= 400 and failed.append(f"{r.url}: {r.status}"))

    def load(path: str):
        pg.goto(site + path, wait_until="load")
        pg.screenshot(path=shots / f"{path.strip('/').replace('/', '-') or 'home'}.png")
        return pg

    yield load
    context.close()
    assert not failed, f"requests that failed: {failed}"


def nav_links(pg) -> list[str]:
    return [t.strip() for t in pg.locator("nav.md-nav--primary a").all_text_contents()]


def test_the_home_page_shows_the_kit_picture_and_leads_everywhere(open_page):
    pg = open_page("/")
    assert pg.title() == "pnp"
    links = nav_links(pg)
    for entry in (
        "Getting started",
        "Exploding Dice",
        "Printing and duplex",
        "The studio",
        "Simulation",
        "Writing a game",
        "Command-line reference",
        "pnp.play.state",
    ):
        assert entry in links, (entry, links)
    picture = pg.locator("article img").first
    picture.wait_for()
    width = picture.evaluate("img => img.complete ? img.naturalWidth : 0")
    assert width > 500, "the kit picture did not load"


def test_the_getting_started_page_shows_the_quick_start_as_code(open_page):
    pg = open_page("/getting-started/")
    assert pg.title() == "Getting started - pnp"
    assert "Getting started" in nav_links(pg)
    code = pg.locator("article pre code").all_inner_texts()
    assert any("pnp simulate exploding-dice" in block for block in code), code
    assert pg.locator("article pre code").first.is_visible()


def test_the_generated_cli_reference_holds_every_commands_help(open_page):
    pg = open_page("/reference/cli/")
    assert pg.title() == "Command-line reference - pnp"
    assert "The command line" in nav_links(pg)
    headings = [h.strip("¶ \n") for h in pg.locator("article h2").all_inner_texts()]
    names = command_names()
    assert headings == ["pnp", *(f"pnp {name}" for name in names)]
    blocks = pg.locator("article pre code").all_inner_texts()
    assert len(blocks) == len(names) + 1
    for name, block in zip(names, blocks[1:], strict=True):
        assert f"Usage: pnp {name} [OPTIONS]" in block, block[:200]
    assert "--games" in blocks[1 + names.index("simulate")]
