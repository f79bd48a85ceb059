"""Every command the README and the getting-started page show runs as written (and the
README's links, which `mkdocs build --strict` does not see, point at files).

The ```sh blocks of those pages are read line by line (a comment after ` #` dropped, a line
ending in a backslash joined to the next). Each `pnp ...` line runs through the installed
`pnp` script, as a reader's shell would run it after `source .venv/bin/activate`, in a
folder of its own holding the files a command names (`FILES`). A line the test does not run
is listed in `NOT_RUN` with the reason; any other line fails the test, so a command added
to those pages is either run here or named there. Running them is the slow tier's; reading
them is fast.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("README.md", "docs/getting-started.md")
PNP = Path(sys.executable).with_name("pnp")
NOT_RUN = {
    "make kits": "the set-up and a build of every kit: CI's fresh clone runs `make test`, "
    "and tests/test_contract.py builds every kit",
    "make test": "the suite this test belongs to",
    "make setup": "the set-up that made the venv this test runs in",
    "source .venv/bin/activate": "the test calls the venv's pnp by its path instead",
    "pnp studio": "serves until stopped: tests/test_studio_server.py starts and stops it",
    "pnp new lantern-race": "writes into this checkout: tests/test_scaffold.py runs it in a copy",
}
FILES = {"my-kit.toml": "die_size = 16\n"}  # what a reader would have written beforehand
QUICK_START = "## Quick start"
README = (ROOT / "README.md").read_text()


def sh_lines(text: str) -> list[str]:
    """The command lines of a page's ```sh blocks, comments dropped, continuations joined."""
    lines: list[str] = []
    for block in re.findall(r"^```sh\n(.*?)^```", text, flags=re.S | re.M):
        for line in block.replace("\\\n", " ").splitlines():
            command = re.split(r"\s+#", " " + line, maxsplit=1)[0].strip()
            if command:
                lines.append(" ".join(command.split()))
    return lines


def quick_start(page: str) -> list[str]:
    """The command lines of a page's quick start section."""
    text = (ROOT / page).read_text()
    section = text.split(QUICK_START, 1)[1].split("\n## ", 1)[0]
    return sh_lines(section)


def shown() -> list[str]:
    """Every command line of the pages, each once, in the order they first appear."""
    seen: dict[str, None] = {}
    for page in PAGES:
        seen.update(dict.fromkeys(sh_lines((ROOT / page).read_text())))
    return list(seen)


QUICK = [c for c in quick_start("README.md") if c not in NOT_RUN]  # run in one folder, in turn
LONG = {
    "pnp solve building-community --players 2": "tests/test_bc_solver.py runs `pnp solve`",
    "pnp build exploding-dice --config my-kit.toml": "the same build without the config runs",
}
"""Commands run only in the long tier (each a full minute of CPU), with CI's proof."""
COMMANDS = [c for c in shown() if c not in NOT_RUN and c not in QUICK]


def test_every_command_shown_is_run_or_named_with_a_reason():
    assert COMMANDS and QUICK, "no command found in the pages"
    for command in COMMANDS + QUICK:
        assert command.split()[0] == "pnp", f"not a pnp command, and not in NOT_RUN: {command}"
    assert set(NOT_RUN) | set(LONG) <= set(shown()), "a command the pages no longer show"


def test_both_quick_starts_end_with_a_pdf_and_a_simulation():
    for page in PAGES:
        steps = [c for c in quick_start(page) if c.startswith("pnp ")]
        assert [s.split()[1] for s in steps[-2:]] == ["build", "simulate"], (page, steps)
        assert "--format pdf" in steps[-2] and "--out" in steps[-2], steps[-2]


def test_the_readmes_links_and_picture_are_files_of_the_checkout():
    """The site's pages are checked by `mkdocs build --strict`; the README, outside it, here."""
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", (ROOT / "README.md").read_text())
    local = [t for t in targets if "://" not in t]
    assert "docs/getting-started.md" in local and "LICENSE" in local
    for target in local:
        assert (ROOT / target).is_file(), target


def pnp(command: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1"}
    return subprocess.run(
        [str(PNP), *shlex.split(command)[1:]],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,  # the longest (a solve, a full build) on a loaded machine: only a bound
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "command", [pytest.param(c, marks=pytest.mark.long) if c in LONG else c for c in COMMANDS]
)
def test_the_command_runs_as_written(command, tmp_path):
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    done = pnp(command, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "error:" not in done.stderr, done.stderr
    assert (done.stdout + done.stderr).strip(), "the command said nothing"
    if command.startswith("pnp build"):  # where the README says: output/<game>/, both papers
        assert {p.name for p in (tmp_path / "output" / "exploding-dice").glob("*.pdf")} == {
            "exploding-dice-a4.pdf",
            "exploding-dice-letter.pdf",
        }


@pytest.mark.slow
def test_the_quick_start_writes_the_pdf_and_prints_the_table(tmp_path):
    build, simulate = QUICK[-2:]
    assert pnp(build, tmp_path).returncode == 0
    out = shlex.split(build)[shlex.split(build).index("--out") + 1]
    pdf = tmp_path / out / "exploding-dice" / "exploding-dice-a4.pdf"
    assert pdf.read_bytes().startswith(b"%PDF") and pdf.stat().st_size > 10_000
    # the README's picture caption names the page of this PDF that holds the board
    caption = re.search(r"\*Page (\d+) of `output/exploding-dice/exploding-dice-a4\.pdf`", README)
    assert caption, "the README's picture caption names no page"
    from pypdf import PdfReader

    page = PdfReader(pdf).pages[int(caption[1]) - 1].extract_text()
    assert "SCORE TRACK" in page and "SCORE SHEET" in page, page[:300]
    table = pnp(simulate, tmp_path)
    assert table.returncode == 0, table.stderr
    for row in ("turns (mean / median)", "win rate by seat", "first-player advantage?"):
        assert row in table.stdout, table.stdout
