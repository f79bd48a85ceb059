"""The figure tables of docs/ hold what their commands give (pnp/reference/figures.py):
each block on a page is rerun and compared, the day it was run aside."""

from __future__ import annotations

import pytest

from pnp.reference import figure_tables, figures
from pnp.runtime.errors import PnpError

REGISTRY = figures.registry()


def _tier(figure: figures.Figure) -> pytest.MarkDecorator | tuple[()]:
    return {"slow": pytest.mark.slow, "long": pytest.mark.long}.get(figure.tier, ())


def _cases() -> list[object]:
    return [pytest.param(f, id=f.name, marks=_tier(f)) for f in figures.FIGURES]


def test_every_block_is_registered_and_every_table_has_its_block():
    on_pages = {(page, name) for page, found in figures.pages().items() for name in found}
    registered = {(f.page, f.name) for f in figures.FIGURES}
    assert on_pages, "no block found on any page: the finder is broken"
    assert on_pages == registered


def test_a_block_names_each_command_and_its_seed():
    for page, found in figures.pages().items():
        for name, body in found.items():
            f = REGISTRY[name]
            for args, command in zip(f.argvs, f.commands, strict=True):
                seed = figures.seed_of(args)
                assert f"`{command}` (seed {seed})" in body, (page, name, command)
                assert ("--json", "-") == args[-2:], (name, command)


def test_a_table_of_several_commands_names_each_in_its_footer():
    f = figures.Figure(
        "t",
        "p.md",
        (figures.argv("simulate a --seed 1"), figures.argv("simulate b --seed 2")),
        lambda datas: "|".join(d["x"] for d in datas),
    )
    out = figures.block(f, [{"x": "1"}, {"x": "2"}], "2000-01-01")
    assert out.startswith("1|2\n\nMade by `pnp simulate a --seed 1 --json -` (seed 1) and ")
    assert "`pnp simulate b --seed 2 --json -` (seed 2), run 2000-01-01;" in out


def test_each_figure_left_out_of_ci_is_named_on_the_testing_page():
    page = (figures.DOCS / "testing.md").read_text(encoding="utf-8")
    long = [f.name for f in figures.FIGURES if f.tier == "long"]
    assert long, "every figure is in CI's tiers: the long row of docs/testing.md is stale"
    assert [n for n in long if f"`{n}`" not in page] == []
    assert [f.name for f in figures.FIGURES if f.tier == "slow"], "CI reruns no figure"


@pytest.mark.parametrize("figure", _cases())
def test_the_block_holds_what_its_command_gives(figure: figures.Figure):
    page = (figures.DOCS / figure.page).read_text(encoding="utf-8")
    fresh = figures.block(figure, figures.run(figure), "2000-01-01")
    assert figures.without_date(figures.blocks(page)[figure.name]) == figures.without_date(fresh)


SWEEP = {
    "sweep": ["dice_per_colour", "n"],
    "runs": [
        {
            "values": {"dice_per_colour": 3, "n": 6},
            "metrics": {
                "duration_turns": {"mean": 15.62, "ci": [15.4, 15.8]},
                "advantage_p1": 0.2581,
                "advantage_p1_ci": [0.2447, 0.2719],
            },
            "end_reasons": {"reserve": 3354, "fifty": 646, "timeout": 0},
        }
    ],
}


def test_the_sweep_renderer_makes_one_row_a_setting_and_repeats_itself():
    table = figure_tables.sweep_table(SWEEP)
    assert table == figure_tables.sweep_table(SWEEP)
    header, rule, row = table.splitlines()
    assert header.startswith("| dice per colour | n |")
    assert row == "| 3 | 6 | 15.6 ± 0.2 | 0.258 ± 0.014 | fifty 646, reserve 3,354 |"


def test_rewriting_a_block_leaves_the_rest_of_the_page_alone():
    page = (
        "before\n<!-- figures: a -->\nold\n<!-- /figures -->\n"
        "middle\n<!-- figures: b -->\nB\n<!-- /figures -->\nafter\n"
    )
    out = figures.replace(page, "a", "new\n")
    assert out == page.replace("old\n", "new\n")
    with pytest.raises(PnpError):
        figures.replace(page, "c", "x\n")
    with pytest.raises(PnpError):
        figures.blocks(page + page)


def test_the_date_is_the_only_part_ignored():
    a = "| 1 |\n\nMade by `pnp x` (seed 1), run 2026-12-07; rerun."
    assert figures.without_date(a) == figures.without_date(a.replace("2026-12-07", "2030-01-01"))
    assert figures.without_date(a) != figures.without_date(a.replace("| 1 |", "| 2 |"))


TUNE = {
    "targets": [
        {"target": "turns <= 120", "metric": "turns"},
        {"target": "seat_gap <= 0.06", "metric": "seat_gap"},
    ],
    "answer": "meets every target",
    "best": {"players": 2, "rules": "standard"},
    "recommended": [
        {
            "setting": {"players": 2, "rules": "standard"},
            "games": 4000,
            "targets": [
                {"value": 68.742, "ci": [68.356, 69.13], "verdict": "met"},
                {"value": 0.012, "ci": [0.0, 0.0474], "verdict": "undecided"},
            ],
        }
    ],
    "games": {"search": 18000, "evidence": 12000, "total": 30000},
}


def test_the_tune_renderer_shows_each_target_with_its_interval_and_verdict():
    table = figure_tables.tune_table(TUNE)
    assert table == figure_tables.tune_table(TUNE)
    lines = table.splitlines()
    assert lines[0] == "| setting | `turns <= 120` | `seat_gap <= 0.06` | fresh games |"
    assert lines[2] == (
        "| players = 2, rules = standard | 68.7 [68.4, 69.1] met"
        " | 0.012 [0.000, 0.047] undecided | 4,000 |"
    )
    assert "18,000 games of search, 12,000 of evidence" in lines[-1]


def test_an_unknown_name_is_one_error_line_and_no_page_written(capsys):
    before = {f.page: (figures.DOCS / f.page).read_bytes() for f in figures.FIGURES}
    assert figures.main(["no-such-table"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no figure table 'no-such-table'") and err.count("\n") == 1
    assert before == {page: (figures.DOCS / page).read_bytes() for page in before}


LADDER = {
    "game": "g",
    "players": 2,
    "seed": 1,
    "ladder": [
        {"rung": r, "games": n, "players_said": f"every seat {r}"}
        for r, n in (("random", 100), ("greedy", 100), ("mcts", 10))
    ],
    "skill": {
        "duration_turns": {
            "label": "turns a game (mean)",
            "verdict": "depends on skill",
            "rungs": {
                "random": {"value": 50.0, "ci": [49.0, 51.0]},
                "greedy": {"value": 40.0, "ci": [39.5, 40.5]},
                "mcts": {"value": 30.0, "ci": [28.0, 32.0]},
            },
        },
        "moves": {
            "label": "moves a game (mean)",
            "verdict": "holds on every rung",
            "rungs": {r: {"value": 1.0, "ci": [0.5, 1.5]} for r in ("random", "greedy", "mcts")},
        },
        "deaths": {
            "label": "deaths a game (mean)",
            "verdict": "holds on every rung",
            "rungs": {r: {"value": 2.0, "ci": [1.0, 3.0]} for r in ("random", "greedy", "mcts")},
        },
    },
    "first_player_advantage": {"random": None, "greedy": None, "mcts": None},
}


def test_a_ladder_block_keeps_the_pages_rows_and_says_who_played():
    text = figure_tables.ladder_table(("deaths",))([LADDER])
    lines = text.splitlines()
    assert (
        lines[0] == "| metric | random (100 games) | greedy (100 games) | mcts (10 games) | skill |"
    )
    assert (
        lines[2]
        == "| turns a game (mean) | 50.0 ± 1.0 | 40.0 ± 0.5 | 30.0 ± 2.0 | depends on skill |"
    )
    assert lines[3].startswith("| deaths a game (mean) | 2.00 ± 1.00 |")
    assert "moves" not in text and "every seat mcts" in lines[-1]


def test_a_table_of_several_runs_has_a_row_a_command_in_their_order():
    runs = [
        {
            "players": p,
            "bot": "random",
            "games": 4000,
            "params": {"rules": "seed"},
            "end_reasons": {"reserve": 3000, "fifty": 1000, "timeout": 0},
        }
        for p in (2, 3)
    ]
    render = figure_tables.runs_table(("rules", "players", "bot"), (figure_tables.ENDS,))
    header, _, first, second = render(runs).splitlines()
    assert header == "| rules | players | bot | ends |"
    assert first == "| seed | 2 | random | reserve 75.0 %, fifty 25.0 % |"
    assert second.startswith("| seed | 3 | random |")
