"""`pnp tune`: the command line over `pnp.tune` (targets in, settings and evidence out)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from pnp.cli.simulate import PROGRESS_MODES, whole_number
from pnp.runtime import interrupt
from pnp.runtime.atomic import (
    check_folder,
    check_user_file,
    is_null_device,
    output_folder,
    stream_named,
    write_text,
    write_user_file,
)
from pnp.runtime.errors import PnpError
from pnp.runtime.interrupt import report_after_ctrl_c
from pnp.runtime.progress import EVERY
from pnp.sim.runner import RunFailed, default_jobs, is_tty


def tune(
    game: Annotated[str, typer.Argument(help="A game from 'pnp list'.")],
    target: Annotated[
        list[str] | None,
        typer.Option(
            help="What the game must do: 'METRIC in A..B', 'METRIC <= X' or 'METRIC >= X' "
            "(turns, completion, timeouts, seat_gap, drawishness, lead_changes, "
            "mcts_vs_greedy, a counter of the game). Give it once per metric."
        ),
    ] = None,
    over: Annotated[
        list[str] | None,
        typer.Option(
            help="Keys to vary (default: every key the rules read with a declared range, "
            "see pnp params): keys 'n,arrows', a narrower range 'n=4..8' (A..B:STEP steps "
            "it: 'n=4..8:4'), or listed values 'n=4,8,12'. 'players' varies the seat count."
        ),
    ] = None,
    players: Annotated[
        int | None,
        typer.Option(
            help="Players per game (default: tuned if --over names players, else the "
            "config's players key, else the game's own).",
            parser=whole_number,
        ),
    ] = None,
    bot: Annotated[
        str, typer.Option(help="Bot for every seat: random, greedy or mcts.")
    ] = "random",
    bot_budget: Annotated[
        int | None,
        typer.Option(
            help="Playouts per mcts decision for mcts_vs_greedy (default: the game's).",
            parser=whole_number,
        ),
    ] = None,
    budget: Annotated[
        str,
        typer.Option(
            help="What the tune may spend: a time (90s, 20m, 1h), games (5000games), or "
            "games within a time (5000games,10m). A budget in games gives the same answer "
            "anywhere; a time budget ends within its time and a tenth more (30 s at most)."
        ),
    ] = "5000games",
    seed: Annotated[int, typer.Option(help="Master seed.", parser=whole_number)] = 1,
    jobs: Annotated[
        int,
        typer.Option(help="Worker processes (results do not depend on it).", parser=whole_number),
    ] = default_jobs(),
    config: Annotated[
        Path | None, typer.Option(help="TOML file with the kit parameters tuned around.")
    ] = None,
    json_out: Annotated[
        str | None, typer.Option("--json", help="Write the JSON answer to a file ('-': stdout).")
    ] = None,
    save_config: Annotated[
        str | None,
        typer.Option(
            help="Write the best setting, players included, as a config file (pnp simulate "
            "--config replays it)."
        ),
    ] = None,
    report: Annotated[
        bool,
        typer.Option(help="Write tune.html (plots) and tune.toml into OUT/<game>/ (see --out)."),
    ] = False,
    out: Annotated[str, typer.Option(help="Output folder for --report.")] = "output",
    check_kits: Annotated[
        bool, typer.Option(help="Run pnp check on the recommended settings' kits.")
    ] = True,
    progress: Annotated[
        str, typer.Option(help="auto (a bar on a terminal, else plain), bar, plain or none.")
    ] = "auto",
    scheduler: Annotated[
        str | None,
        typer.Option(
            help="Play on a Dask cluster: its scheduler's address, or 'local' for "
            "one on this machine with --jobs workers."
        ),
    ] = None,
    scheduler_timeout: Annotated[
        float, typer.Option(help="Seconds to reach the Dask scheduler and find a worker.")
    ] = 10.0,
) -> None:
    """Find the settings that meet a designer's targets, with the evidence.

    Example:
      pnp tune exploding-dice --players 3 --target "turns in 18..25"
        --target "seat_gap <= 0.05" --over dice_per_colour,n=4..8
        --budget 60000games

    A space small enough for the budget is played whole; a larger one is
    searched, candidates raced (few games for the weak, more for the
    promising). The best are played again on fresh seeds; a target is met
    only when its whole 95 % interval lies in its range."""
    from pnp.tune import plan_tune, run_tune, space_note

    if progress not in PROGRESS_MODES:
        raise PnpError(f"--progress must be one of {', '.join(PROGRESS_MODES)}, got '{progress}'")
    if json_out is not None and not json_out.strip():
        raise PnpError("--json needs a file name, or '-' for stdout")
    setup, dims, spent = plan_tune(
        game, list(target or []), list(over or []), players, bot, budget, seed, jobs, config,
        bot_budget, scheduler, scheduler_timeout,
    )  # fmt: skip
    folder = output_folder(out)
    for name in (json_out, save_config):
        if name not in (None, "-"):
            check_user_file(name)  # said now, not after the games are played
    if report:
        check_folder(folder)
    err = Console(stderr=True)
    huge = space_note(dims, spent)
    if huge:
        err.print(f"warning: {huge}", highlight=False, soft_wrap=True, markup=False)
    if json_out not in (None, "-") and stream_named(json_out) == 2:
        progress = "none"
    with report_after_ctrl_c():
        tuned = _run(
            lambda told: run_tune(setup, dims, spent, told, check_kits), game, err, progress
        )
        text = json.dumps(tuned.json, indent=2)
        if json_out == "-" or (json_out and stream_named(json_out) == 1):
            print(text)
        else:
            if json_out:
                write_user_file(json_out, text + "\n")
            Console().print(answer_table(tuned.json))
            for rec in tuned.json["recommended"]:
                for line in rec.get("kit_errors", []):
                    where = ", ".join(f"{k} = {v}" for k, v in rec["setting"].items())
                    err.print(
                        f"warning: {where}: pnp check: {line}",
                        highlight=False,
                        soft_wrap=True,
                        markup=False,
                    )
            for setting in tuned.json.get("kits_unchecked", []):
                where = ", ".join(f"{k} = {v}" for k, v in setting.items())
                err.print(
                    f"warning: {where}: the budget's time ran out before pnp check ran on its kit",
                    highlight=False,
                    soft_wrap=True,
                    markup=False,
                )
        if save_config and tuned.config:
            write_user_file(save_config, tuned.config)
        if report:
            _write_report(tuned, folder, game, err)
    if tuned.stopped == "failure":
        raise RunFailed(f"{tuned.failure}; the tune stopped: {_kept(tuned.json)}")
    if tuned.stopped == "interrupted":
        err.print(f"interrupted: {_kept(tuned.json)}", highlight=False)
        raise interrupt.Stopped


def _kept(answer: dict[str, Any]) -> str:
    which = "with the evidence played" if answer["recommended"] else "unverified"
    return (
        f"{len(answer['trials'])} trials and {answer['games']['total']:,} games; what was "
        f"found is reported, {which}"
    )


def _write_report(tuned: Any, folder: Path, game: str, err: Console) -> None:
    from pnp.tune.report import write_tune_report

    if is_null_device(folder):
        err.print("report: nothing kept (--out is the null device)", highlight=False)
        return
    path = write_tune_report(tuned, folder / game / "tune.html", root=folder)
    err.print(f"report: {path}", highlight=False, soft_wrap=True)
    if tuned.config:
        config = write_text(folder / game / "tune.toml", tuned.config, root=folder)
        err.print(
            f"config: {config} (pnp build {game} --config {config})",
            highlight=False,
            soft_wrap=True,
        )


def _run(work: Any, game: str, err: Console, mode: str) -> Any:
    """The tune, with a bar on a terminal or plain lines on stderr: trials done, the best
    setting so far, and what is left of the budget."""
    from pnp.tune import status_line

    if mode == "auto":
        mode = "bar" if is_tty() else "plain"
    if mode == "none":
        return work(None)
    if mode == "plain":
        due = [time.monotonic() + EVERY]

        def plain(status: dict[str, Any]) -> None:
            if time.monotonic() >= due[0]:
                due[0] = time.monotonic() + EVERY
                print(f"{game}: {status_line(status)}\u2026", file=sys.stderr, flush=True)

        return work(plain)
    from rich.progress import BarColumn, Progress

    with Progress(
        "{task.description}", BarColumn(), "{task.fields[line]}", console=err, transient=True
    ) as bar:
        task = bar.add_task(game, total=1000, line="")

        def told(status: dict[str, Any]) -> None:
            bar.update(task, completed=int(1000 * status["spent"]), line=status_line(status))

        return work(told)


def answer_table(answer: dict[str, Any]) -> Table:
    """The recommended settings, each target's value, 95 % interval and verdict."""
    games = answer["games"]
    lines = [
        f"{len(answer['trials'])} trials; {games['search']:,} games searching, "
        f"{games['evidence']:,} games of evidence on fresh seeds (stopped: {answer['stopped']})"
    ]
    if answer["optimizer"].get("method") == "grid":
        lines.append(f"the whole space was played: {answer['optimizer']['settings']} settings")
    if answer["recommended"]:
        lines.append(answer["ranking"])
    tied = answer.get("ties")
    if tied:
        said = "; ".join(", ".join(f"{k} = {v}" for k, v in s.items()) for s in tied["settings"])
        need = tied["games_to_separate"]
        more = (
            f"about {need:,} games each would separate them"
            if need
            else "they measure the same: no number of games would separate them"
        )
        lines.append(f"cannot be told apart at this budget: {said} ({more})")
    t = Table(title=f"{answer['game']}: {answer['answer']}", caption="\n".join(lines))
    t.add_column("setting")
    t.add_column("target")
    t.add_column("value", justify="right")
    t.add_column("95 % interval", justify="right")
    t.add_column("verdict")
    t.add_column("games", justify="right")
    for rec in answer["recommended"]:
        setting = ", ".join(f"{k} = {v}" for k, v in rec["setting"].items())
        for i, tg in enumerate(rec["targets"]):
            ci = tg["ci"]
            verdict = tg["verdict"]
            if verdict == "missed":
                verdict += f" by {tg['missed_by']:g}"
            elif verdict == "undecided" and tg.get("games_to_decide"):
                verdict += f" (~{tg['games_to_decide']:,} games would decide)"
            t.add_row(
                setting if i == 0 else "",
                tg["target"],
                "n/a" if tg["value"] is None else f"{tg['value']:g}",
                "n/a" if not ci else f"{ci[0]:g} - {ci[1]:g}",
                verdict,
                f"{tg['games']:,}",
            )
        if rec.get("degenerate"):
            t.add_row("", f"degenerate: {rec['degenerate']}", "", "", "", "")
        errors = rec.get("kit_errors", [])
        if errors:
            t.add_row(
                "", "pnp check (see below)", "", "", f"kit refused: {len(errors)} error(s)", ""
            )
    if not answer["recommended"] and answer.get("best"):
        setting = ", ".join(f"{k} = {v}" for k, v in answer["best"].items())
        t.add_row(setting, "(best so far, not verified)", "", "", "", "")
    return t
