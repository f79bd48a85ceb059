"""The pnp command line. Each command calls library functions and nothing else."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from pnp.atomic import ensure_dir
from pnp.build import ChecksFailed, build_gallery_for, build_game, check_game, game_slugs
from pnp.checks import Finding, has_errors
from pnp.errors import PnpError
from pnp.games import registry

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
    """Build print-ready kits into OUT/<game>/ and the gallery OUT/index.html."""
    slugs = game_slugs(game)
    papers = [paper] if paper else None
    ensure_dir(out)
    failed = False
    with err_console.status("building") as status:
        for slug in slugs:
            try:
                result = build_game(
                    slug,
                    papers,
                    out,
                    config,
                    format.split(","),
                    progress=lambda msg: status.update(msg),
                )
            except ChecksFailed as exc:
                _print_findings(exc.findings, errors_only=True)
                err_console.print(f"{slug}: not built: fix the check errors above")
                failed = True
                continue
            err_console.print(
                f"{slug}: {len(result.files)} files in {out / slug} ({result.seconds:.1f} s)",
                highlight=False,
                soft_wrap=True,
            )
        index = build_gallery_for(out)
    err_console.print(f"gallery: {index}", highlight=False, soft_wrap=True)
    if failed:
        raise typer.Exit(1)


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


def _register_simulate() -> None:
    try:
        from pnp.sim.command import simulate
    except ImportError:  # the simulation runner is optional while it is being built
        return
    app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})(
        simulate
    )


_register_simulate()


def main() -> None:
    """Entry point: a user error is one line on stderr and exit code 2, never a traceback.

    Typer runs in standalone mode, so its usage errors and exit codes behave as usual;
    only our own PnpError needs catching.
    """
    try:
        app()
    except PnpError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(exc.exit_code)


if __name__ == "__main__":
    main()
