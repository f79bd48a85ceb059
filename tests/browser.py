"""Debian's Chromium for the browser tests, driven by Playwright (which downloads no browser).

`apt-get install chromium` puts it at /usr/bin/chromium (`.ci/run` installs it);
`PNP_CHROMIUM` names another. Without it a browser test is skipped on a developer's machine
and fails in CI (CI=true), where it must be there.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("PNP_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def require_chromium() -> None:
    """Skip the calling test module where Chromium is missing, except in CI."""
    if not Path(CHROMIUM).exists() and not os.environ.get("CI"):
        pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)


@contextmanager
def launched(*flags: str) -> Iterator[Any]:
    """Chromium started once, for a module's tests: a test opens a context of its own
    (`browser.new_context()`: its own cookies and storage) instead of a browser, which
    saves a Chromium start (seconds on a busy machine) per test."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[*FLAGS, *flags])
        try:
            yield browser
        finally:
            browser.close()
