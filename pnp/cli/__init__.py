"""The pnp command line. Each command calls library functions and nothing else.

The only package that imports typer and rich (an import-linter contract holds it): the
commands parse options and print what `pnp.build` and `pnp.sim` return. `simulate` and
`solve` live in their own modules here. Each command imports the library it calls in its
body, so a command pays for no other's imports (`pnp simulate` draws nothing).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from pnp.contract.paper import paper_name
from pnp.draw.formats import EXTRA_FORMATS, FORMATS
from pnp.games import get_game, registry
from pnp.runtime import interrupt
from pnp.runtime.atomic import check_name_lengths, is_null_device, output_folder
from pnp.runtime.errors import PnpError
from pnp.runtime.exits import (
    MarkedStdout,
    check_working_folder,
    environment_error,
    fail,
    settle_stdout,
    stdout_closed,
)

if TYPE_CHECKING:
    from pnp.draw.checks import Finding

app = typer.Typer(
    help="Print-and-play kits that are solitaire-tested before they are printed.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out_console = Console()
err_console = Console(stderr=True)


@app.command("list")
def list_games() -> None:
    """List the games pnp can build, each with its own `pnp simulate` options."""
    from pnp.sim.command import game_options

    options = game_options()
    for slug, game in registry().items():
        out_console.print(
            f"[bold]{slug}[/bold]  {game.title} - {game.blurb}", highlight=False, soft_wrap=True
        )
        for line in options.get(slug, []):
            out_console.print(f"    simulate {line}", highlight=False, soft_wrap=True, markup=False)


@app.command("params")
def show_params(
    game: Annotated[str, typer.Argument(help="A game from 'pnp list'.")],
) -> None:
    """List the config keys a game takes: type, default, allowed range, and whether the
    rules read it (the keys 'pnp simulate --sweep' and 'pnp tune --over' vary)."""
    from rich.table import Table

    from pnp.contract.gamedef import rule_keys
    from pnp.contract.params import PrintParams, describe

    gdef = get_game(game)
    read = set(rule_keys(gdef))
    table = Table(
        title=f"{gdef.title}: config keys (a TOML file, flat)",
        caption="rules: yes = the rules read the key, so a simulation or a tune can vary "
        "it; the others change the printed kit only",
    )
    for column in ("key", "type", "default", "range / meaning", "rules"):
        table.add_column(column)
    for row in describe(type(gdef.default_params())) + describe(PrintParams):
        table.add_row(*row, "yes" if row[0] in read else "")
    out_console.print(table)


@app.command()
def build(
    game: Annotated[str, typer.Argument(help="A game from 'pnp list', or 'all'.")],
    paper: Annotated[str | None, typer.Option(help="a4 or letter (default: both).")] = None,
    out: Annotated[str, typer.Option(help="Output folder.")] = "output",
    config: Annotated[
        Path | None, typer.Option(help="TOML file overriding kit parameters.")
    ] = None,
    format: Annotated[
        str,
        typer.Option(
            help=f"Comma-separated: {','.join(FORMATS)} (default); {', '.join(EXTRA_FORMATS)} "
            "on request (print-on-demand, Tabletop Simulator images)."
        ),
    ] = ",".join(FORMATS),
    split_by_stock: Annotated[
        bool,
        typer.Option(
            "--split-by-stock",
            help="Also write each kit's print jobs (one stock, one or two sides) as PDFs of "
            "their own in OUT/<game>/jobs/ (the same as adding 'jobs' to --format).",
        ),
    ] = False,
    shared_sheets: Annotated[
        bool,
        typer.Option(
            "--shared-sheets",
            help="Print the duplex alignment test and the sticker sheets once for all the "
            "kits built, in OUT/shared/, instead of in each kit.",
        ),
    ] = False,
) -> None:
    """Build print-ready kits into OUT/<game>/ and the gallery OUT/index.html.

    Everything is written aside and moved in only when the command succeeds, so a failed
    build leaves OUT as it was. '--out /dev/null' checks and renders but keeps nothing."""
    from pnp.build import (
        SHARED,
        ChecksFailed,
        build_gallery_for,
        build_game,
        build_shared,
        game_slugs,
    )
    from pnp.runtime.staging import Staging

    slugs = game_slugs(game)
    papers = [paper_name(paper)] if paper is not None else None
    formats = format_list(format) + (["jobs"] if split_by_stock else [])
    folder = output_folder(out)
    check_name_lengths(folder, f"cannot create output folder {folder}")  # before any game
    kept = "nothing kept (--out is the null device)" if is_null_device(folder) else ""
    built, failed = [], []
    try:
        with err_console.status("building") as status, Staging(folder) as stage:
            for slug in slugs:
                try:
                    built.append(
                        build_game(
                            slug,
                            papers,
                            folder,
                            config,
                            formats,
                            progress=lambda msg: status.update(msg),
                            values=SHARED_VALUES if shared_sheets else None,
                            stage=stage,
                        )
                    )
                except ChecksFailed as exc:
                    failed.append(exc)
            if not built:
                raise _NothingBuilt
            if shared_sheets:
                done = [r.game for r in built]
                stage.own(SHARED)
                shared = build_shared(done, papers, stage, config, lambda m: status.update(m))
            index = build_gallery_for(folder, stage, warn=_warn)
    except _NothingBuilt:
        pass
    for failure in failed:
        _print_findings(failure.findings, errors_only=True)
        err_console.print(f"{failure.game}: not built: fix the check errors above")
    for result in built:
        for line in result.warnings:
            _warn(f"warning: {line}")
        where = kept or f"in {folder / result.game}"
        err_console.print(
            f"{result.game}: {len(result.files)} files {where} ({result.seconds:.1f} s)",
            highlight=False,
            soft_wrap=True,
        )
    if built and shared_sheets:
        where = kept or f"in {folder / SHARED}"
        err_console.print(f"shared sheets: {len(shared)} files {where}", highlight=False)
    if built and not kept:
        err_console.print(f"gallery: {index}", highlight=False, soft_wrap=True)
    if failed:
        raise typer.Exit(1)


SHARED_VALUES = {"alignment_test": False, "sticker_sheets": False}
"""What each kit leaves to the shared sheets (`--shared-sheets`)."""


def format_list(text: str) -> list[str]:
    """`--format pdf,svg` as its names; an empty name (`pdf,,svg`, a trailing comma) is an
    error rather than skipped, like any other name pnp does not know."""
    names = [name.strip() for name in text.split(",")]
    if any(not name for name in names):
        raise PnpError(
            f"--format has an empty name in '{text}': give "
            f"{', '.join(FORMATS + EXTRA_FORMATS)}, comma-separated"
        )
    return names


def _warn(line: str) -> None:
    err_console.print(line, highlight=False, soft_wrap=True, markup=False)


class _NothingBuilt(Exception):
    """Every game failed its checks: roll the staging back, so not even a gallery lands."""


@app.command()
def check(
    game: Annotated[str, typer.Argument(help="A game from 'pnp list', or 'all'.")],
    config: Annotated[
        Path | None, typer.Option(help="TOML file overriding kit parameters.")
    ] = None,
    paper: Annotated[str | None, typer.Option(help="a4 or letter.")] = None,
    verbose: Annotated[
        bool, typer.Option("--verbose", help="Also list each check passed, with its value.")
    ] = False,
) -> None:
    """Run the rule-aware layout checks; exit 1 on any error."""
    from pnp.build import check_game, game_slugs
    from pnp.draw.checks import has_errors

    findings: list[Finding] = []
    for slug in game_slugs(game):
        findings += check_game(slug, config, paper, verbose=verbose)
    _print_findings(findings)
    errors = sum(f.level == "error" for f in findings)
    warnings = sum(f.level == "warning" for f in findings)
    out_console.print(f"{errors} error(s), {warnings} warning(s)")
    if has_errors(findings):
        raise typer.Exit(1)


def _print_findings(findings: list[Finding], errors_only: bool = False) -> None:
    colours = {"error": "red", "warning": "yellow", "info": "cyan", "ok": "green"}
    for f in findings:
        if errors_only and f.level != "error":
            continue
        out_console.print(
            f"[{colours[f.level]}]{f.level:7}[/] {f.component}: {f.message}",
            highlight=False,
            soft_wrap=True,
        )


PLAIN_COMMANDS = ("list", "params", "build", "check")
"""Commands that never need the others: run alone, they do not import the simulation
library that `simulate`, `solve`, `new` and `studio` load to declare their options."""


PLAY_COMMANDS = ("simulate", "solve", "new", "studio", "tune")
"""Commands that load the simulation library to declare their options, each registered
only when it may run (`_play_commands_needed`), in this order for `pnp --help`."""


def _register_play_command(name: str) -> None:
    if name in _registered:
        return
    _registered.add(name)
    if name == "simulate":
        from pnp.cli.simulate import SimulateCommand, simulate

        app.command(
            cls=SimulateCommand,
            context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
        )(simulate)
    elif name == "solve":
        from pnp.cli.solve import solve

        app.command()(solve)
    elif name == "new":
        from pnp.cli.new import new

        app.command()(new)
    elif name == "studio":
        from pnp.cli.studio import studio

        app.command()(studio)
    elif name == "tune":
        from pnp.cli.tune import tune

        app.command()(tune)


_registered: set[str] = set()


def _register_play_commands(names: tuple[str, ...] = PLAY_COMMANDS) -> None:
    for name in names:
        _register_play_command(name)
    # `pnp --help` lists them in PLAY_COMMANDS' order, after the plain commands, whichever
    # were registered first in this process (a sort is stable: the plain ones keep theirs)
    rank = {name: i for i, name in enumerate(PLAY_COMMANDS)}
    app.registered_commands.sort(key=lambda c: rank.get(getattr(c.callback, "__name__", ""), -1))


def command_names() -> list[str]:
    """Every command in the order `pnp --help` lists them: the documentation's generated
    command-line reference walks this list, so a new command cannot be left out of it."""
    _register_play_commands()
    group = typer.main.get_command(app)
    return list(getattr(group, "commands", {}))


def _play_commands_needed(argv: list[str]) -> tuple[str, ...]:
    """The play commands to register: none when the first word names a plain command,
    that one alone when it names a play command (its start-up then loads no other's
    library), every one otherwise (`pnp --help`, a mistyped command and its suggestions
    see them all)."""
    first = next((arg for arg in argv if not arg.startswith("-")), None)
    if first in PLAIN_COMMANDS:
        return ()
    return (first,) if first in PLAY_COMMANDS else PLAY_COMMANDS


def main(argv: list[str] | None = None) -> None:
    """Entry point: a user error is one line on stderr and exit code 2, never a traceback.

    The command runs outside click's standalone mode so that usage errors (a bad option,
    a missing argument, an unknown command) come here too and print as one line with a
    hint, like our own `PnpError`s. Ctrl-C and SIGTERM end as `pnp.runtime.interrupt` says: one
    line, exit 130 or 143.

    This is the one place that turns what goes wrong into a line: an environment pnp cannot
    work in (a deleted current folder, a full or closed stdout, too few file descriptors or
    processes, no memory, an output encoding without a character, input nested too deeply)
    is `error:` and exit 2; a reader closing stdout early (`| head`) ends pnp quietly with
    exit 1, as rich's consoles do. Anything else is a bug in pnp: one `error: internal error`
    line, exit 70, and `PNP_DEBUG=1` shows its traceback (so does it for the environment
    errors). Running out of memory is said once the failed command's memory is freed."""
    code: object = None
    out_of_memory = False
    stdout = sys.stdout
    sys.stdout = MarkedStdout(stdout)  # type: ignore[assignment]
    try:
        check_working_folder()
        with interrupt.command_signals():
            _register_play_commands(_play_commands_needed(sys.argv[1:] if argv is None else argv))
            command = typer.main.get_command(app)
            code = command.main(args=argv, prog_name="pnp", standalone_mode=False)
            if code == 130:  # typer's answer to a KeyboardInterrupt in the command
                interrupt.finish()
    except interrupt.Stopped:
        interrupt.finish(said=True)
    except PnpError as exc:
        fail(str(exc), exc.exit_code)
    except MemoryError:
        out_of_memory = True  # said below, once leaving this block has freed the memory
    except (KeyboardInterrupt, typer.Abort):
        interrupt.finish()
    except Exception as exc:
        if interrupt.stopping():  # C code that turned Ctrl-C into an error of its own
            interrupt.finish()
        if hasattr(exc, "format_message"):  # a usage error from click
            if type(exc).__name__ == "NoArgsIsHelpError":
                print(exc.format_message())
                sys.exit(0)
            ctx = getattr(exc, "ctx", None)
            where = ctx.command_path if ctx is not None else "pnp"
            fail(f"{exc.format_message()} (see '{where} --help')", getattr(exc, "exit_code", 2))
        if os.environ.get("PNP_DEBUG"):
            raise
        if stdout_closed(exc):
            sys.exit(1)  # quietly, as rich's own consoles do
        message = environment_error(exc)
        if message is not None:
            fail(message, 2)
        fail(
            f"internal error ({type(exc).__name__}: {exc}); this is a bug in pnp, "
            "please report it: run again with PNP_DEBUG=1 to see the traceback",
            70,
        )
    finally:
        sys.stdout = stdout
    if out_of_memory:
        fail(environment_error(MemoryError()) or "out of memory", 2)
    settle_stdout()
    sys.exit(code if isinstance(code, int) else 0)
