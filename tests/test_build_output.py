"""A build owns its game's folder: after `pnp build GAME ...`, output/GAME/ holds exactly
what that build made, and the gallery links only that (plus a report simulated after it)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_run import pnp, run


def _files(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def _gallery_links(out: Path) -> set[str]:
    html = (out / "index.html").read_text(encoding="utf-8")
    return set(re.findall(r'(?:href|src)="([^"#:]+)"', html))


@pytest.mark.slow
def test_a_new_build_leaves_no_file_of_the_previous_one(capsys, tmp_path):
    """The README's own example: a config with paper = "letter", formats pdf and dxf,
    after a full build. The A4 PDF, svg/ and png/ of the old parameters are gone, the
    report of the old kit too, and the gallery links nothing that is not there."""
    out = tmp_path / "out"
    code, _, err = run(capsys, "build", "exploding-dice", "--out", str(out))
    assert code == 0, err
    game = out / "exploding-dice"
    (game / "report.html").write_text("a report on the old kit")
    cfg = tmp_path / "letter.toml"
    cfg.write_text('paper = "letter"\n')
    code, _, err = run(
        capsys,
        "build",
        "exploding-dice",
        "--config",
        str(cfg),
        "--format",
        "pdf,dxf",
        "--out",
        str(out),
    )
    assert code == 0, err
    files = _files(game)
    assert "exploding-dice-letter.pdf" in files and "manifest.json" in files
    assert any(f.startswith("dxf/") for f in files)
    assert not [f for f in files if f.startswith(("svg/", "png/")) or "-a4" in f]
    assert "report.html" not in files
    manifest = json.loads((game / "manifest.json").read_text())
    listed = {c["name"] for c in manifest["components"]}
    assert listed and all(f"dxf/{n}.dxf" in files for n in listed)  # only parts with a file
    assert sorted(p.name for p in game.iterdir() if p.is_dir()) == ["dxf"]
    links = _gallery_links(out)
    assert links and all((out / href).is_file() for href in links)
    assert "exploding-dice/exploding-dice-letter.pdf" in links
    assert not [h for h in links if "-a4" in h or h.endswith("report.html")]


@pytest.mark.slow
def test_another_games_folder_is_left_alone(capsys, tmp_path):
    out = tmp_path / "out"
    other = out / "parcheesi"
    other.mkdir(parents=True)
    (other / "notes.txt").write_text("mine")
    code, _, err = run(
        capsys, "build", "exploding-dice", "--paper", "a4", "--format", "pdf", "--out", str(out)
    )
    assert code == 0, err
    assert (other / "notes.txt").read_text() == "mine"


@pytest.mark.slow
def test_a_simulated_report_joins_the_gallery(capsys, tmp_path):
    out = tmp_path / "out"
    code, _, err = run(
        capsys, "build", "exploding-dice", "--paper", "a4", "--format", "pdf", "--out", str(out)
    )
    assert code == 0, err
    assert "exploding-dice/report.html" not in _gallery_links(out)
    r = pnp(
        "simulate", "exploding-dice", "--games", "20", "--jobs", "1", "--report", "--out", str(out)
    )
    assert r.returncode == 0, r.stderr
    links = _gallery_links(out)
    assert "exploding-dice/report.html" in links
    assert "exploding-dice/exploding-dice-a4.pdf" in links  # the kit's files stay listed


def _hairlines(pdf_path: Path) -> int:
    import pdfplumber

    from pnp.draw.scene import PT_PER_MM

    with pdfplumber.open(pdf_path) as pdf:
        return sum(
            1
            for pg in pdf.pages
            for o in pg.lines + pg.rects + pg.curves
            if o.get("stroke") and o["linewidth"] < 0.05 * PT_PER_MM
        )


@pytest.mark.slow
def test_the_laser_cut_lines_print_only_when_asked(tmp_path):
    """Off by default; `print_cut_lines = true` draws them in the print PDF as well."""
    from pnp.build import build_game

    for on in (False, True):
        out = tmp_path / str(on)
        build_game("exploding-dice", ["a4"], out, formats=["pdf"], values={"print_cut_lines": on})
        assert bool(_hairlines(out / "exploding-dice" / "exploding-dice-a4.pdf")) == on
