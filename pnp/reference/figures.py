"""The figure tables of docs/: each one made by running a pnp command, so a page cannot drift
from what its command gives.

A page holds a generated block between `<!-- figures: NAME -->` and `<!-- /figures -->`: the
table a registered renderer makes from the JSON of its command (or of several, say one per
player count), and a line naming each command with its seed, and the day they were run.
`make docs-figures` (`python -m pnp.reference.figures [NAME...]`) reruns the commands and
rewrites the blocks; tests/test_docs_figures.py reruns them and compares the figures, the
day aside.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from pnp.reference.figure_tables import (
    EDGE,
    ENDS,
    SEATS,
    TURNS,
    Json,
    Renderer,
    bots_side_by_side,
    colours_column,
    counter,
    faces_column,
    ladder_table,
    one,
    runs_table,
    share,
    sweep_table,
    sweep_with,
    tune_table,
)
from pnp.runtime.atomic import write_text
from pnp.runtime.errors import PnpError

DOCS = Path(__file__).resolve().parents[2] / "docs"

BLOCK = re.compile(
    r"(?P<open><!-- figures: (?P<name>[a-z0-9-]+) -->\n)(?P<body>.*?)(?P<close><!-- /figures -->)",
    re.DOTALL,
)
# The line under a table; the date is the one part a rerun may change.
FOOTER = "Made by {commands}, run {date}; `make docs-figures FIGURES={name}` reruns it."
DATE = re.compile(r"run \d{4}-\d{2}-\d{2};")

Argv = tuple[str, ...]


def argv(line: str) -> Argv:
    """A pnp command line (without `pnp`) as arguments, asked for its JSON on stdout."""
    return (*shlex.split(line), "--json", "-")


def seed_of(args: Argv) -> str:
    return args[args.index("--seed") + 1]


def command_of(args: Argv) -> str:
    return shlex.join(["pnp", *args])


@dataclass(frozen=True)
class Figure:
    """One table: where it is, the commands that give it (one, or one per row or column),
    and how their JSON, in the same order, becomes markdown. `tier` is how long the commands
    take together, for the tests: `fast` (under a second or so), `slow` (a second or two:
    CI reruns it) or `long` (more, up to minutes: `make test-long` only)."""

    name: str
    page: str
    argvs: tuple[Argv, ...]
    render: Renderer
    tier: str = "slow"

    @property
    def commands(self) -> list[str]:
        return [command_of(a) for a in self.argvs]

    def footer(self, date: str) -> str:
        named = [f"`{command_of(a)}` (seed {seed_of(a)})" for a in self.argvs]
        listed = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
        return FOOTER.format(commands=listed, date=date, name=self.name)


FIGURES: tuple[Figure, ...] = (
    Figure(
        "sweep-dice",
        "sweeps-and-dask.md",
        (
            argv(
                "simulate exploding-dice --games 4000 --sweep dice_per_colour=2..4"
                " --sweep n=4,6 --seed 1"
            ),
        ),
        one(sweep_table),
        tier="long",
    ),
    Figure(
        "sweep-hiop",
        "sweeps-and-dask.md",
        (
            argv(
                "simulate home-in-one-piece --bot greedy --games 200"
                " --sweep board_height=300..500:100 --sweep blobs_per_player=6,8 --seed 1"
            ),
        ),
        one(sweep_table),
        tier="long",
    ),
    Figure(
        "tune-parcheesi",
        "tune.md",
        (
            argv(
                "tune parcheesi --target 'turns <= 120' --target 'seat_gap <= 0.06'"
                " --over players,rules --budget 30000games --jobs 2 --seed 1"
            ),
        ),
        one(tune_table),
        tier="long",
    ),
    Figure(
        "answers-exploding-dice",
        "games/exploding-dice.md",
        tuple(
            argv(f"simulate exploding-dice {line} --seed 1")
            for line in (
                "--games 20000 --players 2",
                "--games 20000 --players 3",
                "--games 20000 --players 4",
                "--games 20000 --players 2 --two-colours",
                "--bot greedy --games 4000 --players 2",
                "--bot greedy --games 4000 --players 3",
                "--bot greedy --games 4000 --players 4",
            )
        ),
        runs_table(
            ("players", "two_colours", "bot"),
            (
                TURNS,
                ENDS,
                share("advantage_p1", "seat-1 win share"),
                share("lead_changes", "lead changes a game", 2),
                share("leader_at_midgame_wins", "mid-game leader wins", 2),
                EDGE,
            ),
        ),
        tier="long",
    ),
    Figure(
        "faces-exploding-dice",
        "games/exploding-dice.md",
        tuple(
            argv(f"simulate exploding-dice --games 20000 --players 4 --seed 1{config}")
            for config in (
                "",
                " --config docs/examples/exploding-dice-low-faces.toml",
                " --config docs/examples/exploding-dice-own-number.toml",
            )
        ),
        runs_table(
            (), (("faces", faces_column), TURNS, ENDS, ("colour win shares", colours_column))
        ),
        tier="long",
    ),
    Figure(
        "answers-building-community",
        "games/building-community.md",
        tuple(
            argv(
                f"simulate building-community --games 2000 --players {n}{bot}"
                " --sweep radius=2,3 --seed 1"
            )
            for n in range(2, 7)
            for bot in ("", " --bot greedy")
        ),
        bots_side_by_side,
        tier="long",
    ),
    Figure(
        "answers-parcheesi",
        "games/parcheesi.md",
        tuple(
            argv(f"simulate parcheesi --games 1000 {line} --seed 1")
            for line in (
                "--players 2",
                "--players 3",
                "--players 4",
                "--players 4 --bot greedy",
                "--players 2 --rules standard",
                "--players 3 --rules standard",
                "--players 4 --rules standard",
            )
        ),
        runs_table(
            ("rules", "players", "bot"),
            (
                TURNS,
                counter("decisions"),
                counter("captures"),
                SEATS,
                ("branching factor", lambda d: f"{d['metrics']['branching_factor']:.1f}"),
                EDGE,
            ),
        ),  # fmt: skip
        tier="long",
    ),
    Figure(
        "tune-exploding-dice",
        "tune.md",
        (
            argv(
                "tune exploding-dice --players 3 --target 'turns in 18..25'"
                " --target 'seat_gap <= 0.05' --target 'mcts_vs_greedy >= 0.6'"
                " --over dice_per_colour=2..12 --over n=4..8:2 --budget 60000games --jobs 2"
                " --seed 1"
            ),
        ),
        one(tune_table),
        tier="long",
    ),
    Figure(
        "tune-building-community",
        "tune.md",
        (
            argv(
                "tune building-community --bot greedy --target 'completion in 0.2..0.4'"
                " --over players --over radius=2..4 --budget 20000games --jobs 2 --seed 1"
            ),
        ),
        one(tune_table),
        tier="long",
    ),
    Figure(
        "tune-home-in-one-piece",
        "tune.md",
        (
            argv(
                "tune home-in-one-piece --bot greedy --target 'turns in 30..45'"
                " --target 'seat_gap <= 0.1' --over blobs_per_player=4..12"
                " --over dough_grams=100..300:25 --budget 20000games --jobs 2 --seed 1"
            ),
        ),
        one(tune_table),
        tier="long",
    ),
    Figure(
        "tune-desert-home",
        "tune.md",
        (
            argv(
                "tune desert-home --bot greedy --target 'turns in 50..70'"
                " --target 'seat_gap <= 0.05' --over goal_per_colour=3..7"
                " --over tent_value=1..5 --budget 20000games --jobs 2 --seed 1"
            ),
        ),
        one(tune_table),
        tier="long",
    ),
    Figure(
        "thirst-desert-home",
        "games/desert-home.md",
        (
            argv(
                "simulate desert-home --bot greedy --games 300"
                " --sweep deck_thirst=0,6,12,18,24 --seed 1"
            ),
        ),
        sweep_with("duration_rounds", "deaths"),
        tier="long",
    ),
    Figure(
        "deck-desert-home",
        "games/desert-home.md",
        (
            argv(
                "simulate desert-home --bot greedy --games 1000"
                " --sweep deck_safe=2,8,14,24 --seed 1"
            ),
        ),
        sweep_with("duration_rounds", "deaths"),
        tier="long",
    ),
    Figure(
        "height-home-in-one-piece",
        "games/home-in-one-piece.md",
        (
            argv(
                "simulate home-in-one-piece --bot greedy --games 1000"
                " --sweep board_height=250,300,400,500,600 --seed 1"
            ),
        ),
        sweep_with(),
        tier="long",
    ),
    # Each game page's "who plays": its answers with every seat random, greedy and mcts.
    *(
        Figure(
            f"ladder-{game}",
            f"games/{game}.md",
            (argv(f"simulate {game} {line}"),),
            ladder_table(counters),
            tier,
        )  # fmt: skip
        for game, line, counters, tier in (
            ("exploding-dice", "--ladder --games 1000 --players 3 --seed 1 --jobs 2", (), "slow"),
            (
                "building-community",
                "--ladder --games 1000 --players 4 --seed 1 --jobs 2",
                ("passes", "isolated_left"),
                "long",
            ),
            (
                "parcheesi",
                "--ladder --games 1000 --ladder-games 10 --players 2 --seed 1 --jobs 2",
                ("captures",),
                "long",
            ),
            (
                "home-in-one-piece",
                "--ladder --games 1000 --ladder-games 10 --seed 1 --jobs 2",
                ("stalled_turns", "bridges"),
                "long",
            ),
            (
                "desert-home",
                "--ladder --games 1000 --ladder-games 10 --seed 1 --jobs 2",
                ("duration_rounds", "deaths"),
                "long",
            ),
        )
    ),
)


def registry() -> dict[str, Figure]:
    return {f.name: f for f in FIGURES}


# --- running and rewriting -----------------------------------------------------------------


def run(figure: Figure) -> list[Json]:
    """Each command's JSON, in order, each from a fresh process (as a reader of the page
    would run it)."""
    return [_run_one(figure.name, args) for args in figure.argvs]


def _run_one(name: str, args: Argv) -> Json:
    """One command's JSON, run from the repository's root (where a `--config` path starts)."""
    done = subprocess.run(
        [sys.executable, "-m", "pnp", *args, "--progress", "none"],
        cwd=DOCS.parent,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise PnpError(f"figures {name}: `{command_of(args)}` failed: {last}")
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError as exc:
        raise PnpError(f"figures {name}: `{command_of(args)}` wrote no JSON ({exc})") from exc


def block(figure: Figure, datas: list[Json], date: str) -> str:
    """What goes between the markers: the table, a blank line, the line naming the commands."""
    return f"{figure.render(datas)}\n\n{figure.footer(date)}\n"


def without_date(text: str) -> str:
    return DATE.sub("run DATE;", text)


def blocks(text: str) -> dict[str, str]:
    """The generated blocks of a page, by name (a name twice on a page is an error)."""
    found: dict[str, str] = {}
    for m in BLOCK.finditer(text):
        if m["name"] in found:
            raise PnpError(f"figures {m['name']}: two blocks of that name on one page")
        found[m["name"]] = m["body"]
    return found


def pages() -> dict[str, dict[str, str]]:
    """Every page of docs/ with a block: its blocks by name."""
    out = {}
    for path in sorted(DOCS.rglob("*.md")):
        found = blocks(path.read_text(encoding="utf-8"))
        if found:
            out[path.relative_to(DOCS).as_posix()] = found
    return out


def replace(text: str, name: str, body: str) -> str:
    """The page with one block's body replaced; nothing outside the markers changes."""
    hits = [m for m in BLOCK.finditer(text) if m["name"] == name]
    if len(hits) != 1:
        raise PnpError(f"figures {name}: {len(hits)} blocks of that name on the page, not 1")
    m = hits[0]
    return text[: m.start("body")] + body + text[m.end("body") :]


def rewrite(figure: Figure, date: str | None = None) -> Path:
    """Run a figure's commands and write its block into its page (the page written whole)."""
    data = run(figure)
    path = DOCS / figure.page
    text = path.read_text(encoding="utf-8")
    day = date or datetime.now(UTC).date().isoformat()
    write_text(path, replace(text, figure.name, block(figure, data, day)))
    return path


def main(asked: list[str]) -> int:
    known = registry()
    names = asked or list(known)
    unknown = [n for n in names if n not in known]
    if unknown:
        print(f"error: no figure table {unknown[0]!r}; known: {', '.join(known)}", file=sys.stderr)
        return 2
    for name in names:
        try:
            path = rewrite(known[name])
        except (PnpError, OSError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print(f"{name}: {path.relative_to(DOCS.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
