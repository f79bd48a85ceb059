"""MkDocs hook: the command-line reference page, written at build time from `pnp --help`.

Each command's help is what `pnp COMMAND --help` prints (run as a process, at a fixed width
and without colour), so the page cannot drift from the command line: a new command, option
or game option shows up on the next `make docs`, and nobody edits the page by hand. The
command list comes from the command line itself (`pnp.cli.command_names`).
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from mkdocs.structure.files import File, Files

PAGE = "reference/cli.md"
WIDTH = "80"  # what fits a code block of the Material theme without a scroll bar

INTRO = """# Command-line reference

Every command's `--help`, as `pnp` prints it. This page is generated from the command line
each time the site is built (`docs/hooks/cli_reference.py`), so it always matches the `pnp`
it was built with. [The command line](../command-line.md) shows the commands at work, with
config files and what bad input does.
"""


def help_text(args: list[str]) -> str:
    """What `pnp ARGS --help` prints, trailing spaces trimmed; a failure stops the build."""
    env = {**os.environ, "COLUMNS": WIDTH, "TERMINAL_WIDTH": WIDTH, "NO_COLOR": "1"}
    env.pop("FORCE_COLOR", None)
    done = subprocess.run(
        [sys.executable, "-m", "pnp", *args, "--help"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"pnp {' '.join(args)} --help failed: {done.stderr.strip()}")
    lines = [line.rstrip() for line in done.stdout.splitlines()]
    return "\n".join(lines).strip("\n")


def reference() -> str:
    """The whole page: `pnp --help`, then each command's help in `pnp --help`'s order."""
    from pnp.cli import command_names

    commands = [[], *([name] for name in command_names())]
    with ThreadPoolExecutor(max_workers=4) as pool:
        texts = list(pool.map(help_text, commands))
    parts = [INTRO]
    for args, text in zip(commands, texts, strict=True):
        parts.append(f"## `{' '.join(['pnp', *args])}`\n\n```text\n{text}\n```\n")
    return "\n".join(parts)


def on_files(files: Files, config) -> Files:  # noqa: ANN001 - MkDocs's hook signature
    files.append(File.generated(config, PAGE, content=reference()))
    return files
