"""What the studio's job processes do: the CLI's own library calls, one per task.

Each task runs in a process of its own (see `pnp.studio.jobs`), so a long simulation never
blocks the page and a cancelled one can be stopped: the process gets SIGTERM, which pnp
treats as Ctrl-C (`pnp.runtime.interrupt`): a simulation stops between games, a build's staging is
rolled back. A task writes only inside the folder it is handed, and reports to its parent
over a pipe: ``("progress", done, total, message)`` while it works, then one of
``("done", result)``, ``("error", line)`` (bad input: the CLI's one line), ``("cancelled",)``
or ``("failed", line)`` (a bug).
"""

from __future__ import annotations

import json
import os
import zipfile
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from pnp.build import ChecksFailed, build_game, check_game, make_kit
from pnp.draw.checks import Finding
from pnp.draw.formats import FORMATS
from pnp.games import get_game
from pnp.runtime import interrupt
from pnp.runtime.errors import PnpError
from pnp.sim.command import Request, cap_warnings, parse_sweep, results, run_all, write_run_report
from pnp.sim.grid import Grid
from pnp.sim.runner import default_jobs
from pnp.sim.solve import draw_solution, plain, run_solve, turn_lines
from pnp.sim.tables import results_table

Say = Callable[[int, int | None, str], None]
PAGE_DPI = 60  # page pictures: a sheet is 500 px wide, enough to see the layout
SOLUTION_DPI = 110  # the solution's diagrams: each space's name must be readable
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # a fixed date: the same kit is the same zip


class Cancelled(Exception):
    """The job was cancelled while it ran."""


class Refused(PnpError):
    """Bad input, with what the task found out about it (a build's check findings)."""

    def __init__(self, message: str, result: dict[str, Any]) -> None:
        super().__init__(message)
        self.result = result


def check(
    slug: str, values: dict[str, Any], paper: str, folder: Path, say: Say
) -> dict[str, list[dict[str, str]]]:
    """`pnp check`'s findings for these values and paper, by level."""
    return by_level(check_game(slug, None, paper, values))


def by_level(findings: list[Finding]) -> dict[str, list[dict[str, str]]]:
    """Findings as the API gives them: errors, warnings and infos, each with its component."""
    out: dict[str, list[dict[str, str]]] = {"errors": [], "warnings": [], "infos": []}
    for f in findings:
        out[{"error": "errors", "warning": "warnings"}.get(f.level, "infos")].append(
            {"component": f.component, "message": f.message}
        )
    return out


def build(
    slug: str,
    values: dict[str, Any],
    paper: str,
    folder: Path,
    say: Say,
    formats: tuple[str, ...] = FORMATS,
    presets: str = "",
) -> dict[str, Any]:
    """`pnp build SLUG --paper PAPER --format FORMATS` into `folder`, then a picture of every
    PDF page and the kit as one zip. The result lists the files, relative to `folder`, and
    the check findings (a kit with check errors is refused with them). `presets` is the
    text of uploaded laser presets: the build reads them from a file of its own folder."""
    steps = [0]
    own = folder / ".laser-presets.toml"
    if presets:
        own.write_text(presets, encoding="utf-8")
        values = {**values, "laser_presets": str(own)}

    def progress(message: str) -> None:
        steps[0] += 1
        say(steps[0], None, message)

    try:
        result = build_game(slug, [paper], folder, None, formats, progress, values)
    except ChecksFailed as exc:
        errors = sum(f.level == "error" for f in exc.findings)
        raise Refused(
            f"not built: {errors} check error(s)", {"checks": by_level(exc.findings)}
        ) from None
    finally:
        own.unlink(missing_ok=True)
    kit_files = sorted(p.relative_to(folder).as_posix() for p in result.files)
    pages = {}
    for name in kit_files:
        if name.endswith(".pdf"):
            say(steps[0], None, f"{slug}: pictures of {Path(name).name}")
            pages[name] = page_pictures(folder / name, folder / "pages" / Path(name).stem)
    return {
        "game": slug,
        "paper": paper,
        "files": kit_files,
        "pages": {k: [p.relative_to(folder).as_posix() for p in v] for k, v in pages.items()},
        "zip": "kit.zip",
        "formats": sorted(formats),
        "checks": by_level(result.findings),
        "seconds": round(result.seconds, 2),
    }


def page_pictures(pdf: Path, folder: Path, dpi: float = PAGE_DPI) -> list[Path]:
    """Every page of `pdf` as a PNG: the very bytes `pnp build` wrote, as a printer sees them."""
    import pypdfium2 as pdfium

    folder.mkdir(parents=True, exist_ok=True)
    out = []
    doc = pdfium.PdfDocument(str(pdf))
    try:
        for i in range(len(doc)):
            page = doc[i]
            image = page.render(scale=dpi / 72).to_pil()
            path = folder / f"{i + 1:03d}.png"
            image.save(path, format="PNG", optimize=False)
            out.append(path)
            page.close()
    finally:
        doc.close()
    return out


def write_zip(folder: Path, names: list[str], target: Path) -> None:
    """The kit's files as `pnp build` wrote them, in one zip that is the same for the same
    kit (fixed dates and order). Made when first asked for (a preview never is), under a
    temporary name and renamed into place."""
    part = target.with_name(f".{target.name}.{os.getpid()}.part")
    try:
        with zipfile.ZipFile(part, "w", zipfile.ZIP_DEFLATED) as z:
            for name in sorted(names):
                info = zipfile.ZipInfo(name, ZIP_TIME)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                z.writestr(info, (folder / name).read_bytes())
        os.replace(part, target)
    except OSError:
        part.unlink(missing_ok=True)  # never half a zip left in an entry
        raise


def simulate(
    slug: str,
    values: dict[str, Any],
    games: int,
    players: int | None,
    bot: str,
    seed: int,
    options: dict[str, Any],
    sweep: str | None,
    folder: Path,
    say: Say,
    bots: str | None = None,
    budget: int | None = None,
    ladder: bool = False,
) -> dict[str, Any]:
    """`pnp simulate --json` for the same request (and its `--report`, in `folder`);
    `ladder`: `pnp simulate --ladder`'s."""
    grid = Grid.of(*parse_sweep(sweep, slug)) if sweep else None
    request = Request(
        slug, games, players, bot, seed, default_jobs(), None, options, bots, budget, values
    )
    if ladder:
        return _ladder(request, folder, say)
    total = games * (len(grid) if grid else 1)

    def tick(_settings: int, n: int) -> None:
        say(n, total, f"{n:,} of {total:,} games")

    runs = run_all(request, grid, tick)
    if runs[-1][1].interrupted:
        raise Cancelled
    report = write_run_report(request, runs, folder, grid)
    data = results(runs, grid)
    return {
        "json": data,
        "table": results_table(data).as_json(),
        "warnings": cap_warnings(request, runs),
        "report": report.relative_to(folder).as_posix(),
    }


def _ladder(request: Request, folder: Path, say: Say) -> dict[str, Any]:
    """The Play tab's ladder of skill: every rung played, its JSON, table and report."""
    from pnp.sim.ladder import MCTS_GAMES, ladder_json, run_ladder, rungs
    from pnp.sim.report import write_ladder_report
    from pnp.sim.tables import ladder_rows

    total = sum(r.games for r in rungs(request, MCTS_GAMES))

    def tick(_rungs: int, n: int) -> None:
        say(n, total, f"{n:,} of {total:,} games (every rung)")

    ladder = run_ladder(request, MCTS_GAMES, None, tick)
    if ladder[-1][1].interrupted or len(ladder) < len(rungs(request, MCTS_GAMES)):
        raise Cancelled
    data = ladder_json(request, ladder)
    report = write_ladder_report(request, ladder, data, folder)
    warnings = [
        f"{rung.name}: {w}" for rung, sim in ladder for w in cap_warnings(request, [({}, sim)])
    ]
    return {
        "json": data,
        "table": ladder_rows(data).as_json(),
        "warnings": warnings,
        "report": report.relative_to(folder).as_posix(),
    }


def solve(
    slug: str, values: dict[str, Any], players: int | None, budget: int, folder: Path, say: Say
) -> dict[str, Any]:
    """`pnp solve --json`'s answer, and its sentence."""

    def tick(nodes: int, most: int) -> None:
        say(nodes, most, f"{nodes:,} positions searched")

    answer = run_solve(slug, players, None, budget, values=values, progress=tick)
    out: dict[str, Any] = {"json": answer, "text": plain(answer), "steps": turn_lines(answer)}
    if answer["result"] == "win" and get_game(slug).draw_line is not None:
        say(answer["nodes"], answer["nodes"], "drawing the winning line")
        pdf = draw_solution(slug, None, answer, folder / "solution.pdf", values)
        out["pdf"] = pdf.name
        pictures = page_pictures(pdf, folder / "solution", SOLUTION_DPI)
        out["diagrams"] = [p.relative_to(folder).as_posix() for p in pictures]
    return out


def tune(
    slug: str,
    values: dict[str, Any],
    targets: list[str],
    over: list[str],
    players: int | None,
    bot: str,
    budget: str,
    seed: int,
    folder: Path,
    say: Say,
) -> dict[str, Any]:
    """`pnp tune --json --report` for the same request, from the form's values: the
    answer, its report and the best setting as a config file."""
    from pnp.tune import plan_tune, run_tune, status_line
    from pnp.tune.report import write_tune_report

    setup, dims, spent = plan_tune(
        slug, targets, over, players, bot, budget, seed, default_jobs(), values=values
    )

    def told(status: dict[str, Any]) -> None:
        say(int(1000 * status["spent"]), 1000, status_line(status))

    tuned = run_tune(setup, dims, spent, told)
    if tuned.stopped == "interrupted":
        raise Cancelled
    if tuned.stopped == "failure":
        raise PnpError(f"the tune stopped: {tuned.failure}")
    report = write_tune_report(tuned, folder / "tune.html", root=folder)
    out: dict[str, Any] = {"json": tuned.json, "report": report.relative_to(folder).as_posix()}
    if tuned.config:
        (folder / "tune.toml").write_text(tuned.config, encoding="utf-8")
        out["config"] = "tune.toml"
    return out


def preview(slug: str, folder: Path, say: Say) -> dict[str, Any]:
    """One picture of the game for the studio's list: its board (else its first part)."""
    from pnp.draw.render.png import component_png

    _, kit = make_kit(slug, paper="a4")
    names = [c.name for c in kit.components]
    comp = kit.component("board") if "board" in names else kit.components[0]
    (folder / "preview.png").write_bytes(component_png(comp, max_px=480))
    return {"png": "preview.png"}


TASKS: dict[str, Callable[..., dict[str, Any]]] = {
    "check": check,
    "build": build,
    "simulate": simulate,
    "solve": solve,
    "tune": tune,
    "preview": preview,
}


def child_main(conn: Connection, kind: str, args: dict[str, Any], folder: str) -> None:
    """A job process: run one task and send its end down the pipe. SIGTERM is the cancel."""
    last = [0.0]

    def say(done: int, total: int | None, message: str) -> None:
        import time

        now = time.monotonic()
        if now - last[0] >= 0.1 or (total is not None and done >= total):
            last[0] = now
            conn.send(("progress", done, total, message))

    os.environ.setdefault("PNP_STUDIO_CHILD", "1")
    interrupt.ctrl_c_raises()  # the forkserver ignores it
    try:
        with interrupt.command_signals():
            result = TASKS[kind](**args, folder=Path(folder), say=say)
        json.dumps(result)  # a result must travel as JSON: fail here, not in the page
        conn.send(("done", result))
    except (KeyboardInterrupt, Cancelled, interrupt.Stopped):
        conn.send(("cancelled",))
    except Refused as exc:
        conn.send(("error", str(exc), exc.result))
    except PnpError as exc:
        conn.send(("error", str(exc)))
    except Exception as exc:  # a bug: one line for the page, the traceback for the log
        import traceback

        traceback.print_exc()
        conn.send(("failed", f"internal error ({type(exc).__name__}: {exc})"))
    finally:
        conn.close()
