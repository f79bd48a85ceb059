"""The pnp command line. Each command calls library functions and nothing else."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console

from pnp.atomic import is_null_device
from pnp.build import ChecksFailed, build_gallery_for, build_game, check_game, game_slugs
from pnp.checks import Finding, has_errors
from pnp.errors import PnpError
from pnp.games import get_game, registry
from pnp.paper import paper_name
from pnp.staging import Staging

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
    """List the games pnp can build."""
    for slug, game in registry().items():
        out_console.print(
            f"[bold]{slug}[/bold]  {game.title} - {game.blurb}", highlight=False, soft_wrap=True
        )


@app.command("params")
def show_params(
    game: Annotated[str, typer.Argument(help="A game from 'pnp list'.")],
) -> None:
    """List the config keys a game takes: type, default and allowed range."""
    from rich.table import Table

    from pnp.params import PrintParams, describe

    gdef = get_game(game)
    table = Table(title=f"{gdef.title}: config keys (a TOML file, flat)")
    for column in ("key", "type", "default", "range / meaning"):
        table.add_column(column)
    for row in describe(type(gdef.default_params())) + describe(PrintParams):
        table.add_row(*row)
    out_console.print(table)


@app.command()
def build(
    game: Annotated[str, typer.Argument(help="A game from 'pnp list', or 'all'.")],
    paper: Annotated[str | None, typer.Option(help="a4 or letter (default: both).")] = None,
    out: Annotated[Path, typer.Option(help="Output folder.")] = Path("output"),
    config: Annotated[
        Path | None, typer.Option(help="TOML file overriding kit parameters.")
    ] = None,
    format: Annotated[
        str, typer.Option(help="Comma-separated: pdf,svg,png,dxf.")
    ] = "pdf,svg,png,dxf",
) -> None:
    """Build print-ready kits into OUT/<game>/ and the gallery OUT/index.html.

    Everything is written aside and moved in only when the command succeeds, so a failed
    build leaves OUT as it was. '--out /dev/null' checks and renders but keeps nothing."""
    slugs = game_slugs(game)
    papers = [paper_name(paper)] if paper is not None else None
    kept = "nothing kept (--out is the null device)" if is_null_device(out) else ""
    built, failed = [], []
    try:
        with err_console.status("building") as status, Staging(out) as stage:
            for slug in slugs:
                try:
                    built.append(
                        build_game(
                            slug,
                            papers,
                            out,
                            config,
                            format.split(","),
                            progress=lambda msg: status.update(msg),
                            stage=stage,
                        )
                    )
                except ChecksFailed as exc:
                    failed.append(exc)
            if not built:
                raise _NothingBuilt
            index = build_gallery_for(out, stage)
    except _NothingBuilt:
        pass
    for exc in failed:
        _print_findings(exc.findings, errors_only=True)
        err_console.print(f"{exc.game}: not built: fix the check errors above")
    for result in built:
        where = kept or f"in {out / result.game}"
        err_console.print(
            f"{result.game}: {len(result.files)} files {where} ({result.seconds:.1f} s)",
            highlight=False,
            soft_wrap=True,
        )
    if built and not kept:
        err_console.print(f"gallery: {index}", highlight=False, soft_wrap=True)
    if failed:
        raise typer.Exit(1)


class _NothingBuilt(Exception):
    """Every game failed its checks: roll the staging back, so not even a gallery lands."""


@app.command()
def check(
    game: Annotated[str, typer.Argument(help="A game from 'pnp list', or 'all'.")],
    config: Annotated[
        Path | None, typer.Option(help="TOML file overriding kit parameters.")
    ] = None,
    paper: Annotated[str | None, typer.Option(help="a4 or letter.")] = None,
) -> None:
    """Run the rule-aware layout checks; exit 1 on any error."""
    findings: list[Finding] = []
    for slug in game_slugs(game):
        findings += check_game(slug, config, paper)
    _print_findings(findings)
    errors = sum(f.level == "error" for f in findings)
    warnings = sum(f.level == "warning" for f in findings)
    out_console.print(f"{errors} error(s), {warnings} warning(s)")
    if has_errors(findings):
        raise typer.Exit(1)


def _print_findings(findings: list[Finding], errors_only: bool = False) -> None:
    colours = {"error": "red", "warning": "yellow", "info": "cyan"}
    for f in findings:
        if errors_only and f.level != "error":
            continue
        out_console.print(
            f"[{colours[f.level]}]{f.level:7}[/] {f.component}: {f.message}",
            highlight=False,
            soft_wrap=True,
        )


def _register_play_commands() -> None:
    from pnp.sim.command import simulate
    from pnp.sim.solve import solve

    app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})(
        simulate
    )
    app.command()(solve)


_register_play_commands()


def _fail(message: str, code: int = 2) -> NoReturn:
    """One line on stderr, however the message was built."""
    text = " ".join(message.split())
    print(f"error: {text}", file=sys.stderr)
    sys.exit(code)


def main(argv: list[str] | None = None) -> None:
    """Entry point: a user error is one line on stderr and exit code 2, never a traceback.

    The command runs outside click's standalone mode so that usage errors (a bad option,
    a missing argument, an unknown command) come here too and print as one line with a
    hint, like our own `PnpError`s. Ctrl-C is exit 130; running out of memory is one line
    and exit 1."""
    command = typer.main.get_command(app)
    code: object = None
    out_of_memory = False
    try:
        code = command.main(args=argv, prog_name="pnp", standalone_mode=False)
    except PnpError as exc:
        _fail(str(exc), exc.exit_code)
    except MemoryError:
        out_of_memory = True  # reported below, once leaving this block has freed the memory
    except (KeyboardInterrupt, typer.Abort):
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    except Exception as exc:
        if not hasattr(exc, "format_message"):  # not a usage error: a bug, show it
            raise
        if type(exc).__name__ == "NoArgsIsHelpError":
            print(exc.format_message())
            sys.exit(0)
        ctx = getattr(exc, "ctx", None)
        where = ctx.command_path if ctx is not None else "pnp"
        _fail(f"{exc.format_message()} (see '{where} --help')", getattr(exc, "exit_code", 2))
    if out_of_memory:
        _fail("out of memory: this machine cannot hold what was asked; ask for less", 1)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
