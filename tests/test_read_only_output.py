"""An output folder the user made partly read-only: a build fails with one line and leaves
it exactly as it was, and `simulate --report` says so before the first game.

The tests run as root, whom `chmod` does not stop, so the failures are made for real in two
ways: `chattr +i` / `+a` (immutable, append-only: not even root may change such a file or
folder) where the file system and the capability allow it, and `chmod` while running the
code as an unprivileged user (setpriv; `nobody` below, though not uid 65534). Each is
skipped where it cannot be done."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_run import one_error_line, run
from test_staging import snapshot

from pnp.runtime.errors import PnpError
from pnp.runtime.staging import Staging

NOBODY = 64999
"""An unprivileged user id of these tests' own (no passwd entry is needed): not 65534, so
that a test limiting the processes `nobody` may run never counts these."""
AS_NOBODY = ("setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups")


def _can_chattr(tmp: Path) -> bool:
    probe = tmp / "chattr-probe"
    probe.write_text("x")
    try:
        done = subprocess.run(["chattr", "+i", str(probe)], capture_output=True).returncode == 0
    except FileNotFoundError:
        return False
    subprocess.run(["chattr", "-i", str(probe)], capture_output=True)
    probe.unlink()
    return done


@pytest.fixture
def chattr(tmp_path: Path) -> Iterator[list[tuple[Path, str]]]:
    """Set flags with `chattr` (`flags.append((path, "i"))`); they are cleared at the end,
    so the temporary folder can be removed."""
    if not _can_chattr(tmp_path):
        pytest.skip("chattr +i is not allowed here (needs CAP_LINUX_IMMUTABLE and ext4-like fs)")
    flags: list[tuple[Path, str]] = []
    yield flags
    for path, flag in flags:
        subprocess.run(["chattr", f"-{flag}", str(path)], capture_output=True)


def lock(flags: list[tuple[Path, str]], path: Path, flag: str) -> None:
    subprocess.run(["chattr", f"+{flag}", str(path)], check=True)
    flags.append((path, flag))


def can_become_nobody() -> bool:
    return os.geteuid() == 0 and shutil.which("setpriv") is not None


@pytest.fixture
def shared_tmp() -> Iterator[Path]:
    """A temporary folder `nobody` can reach (pytest's own are root's alone, mode 700)."""
    folder = Path(tempfile.mkdtemp(prefix="pnp-read-only-"))
    os.chmod(folder, 0o755)
    yield folder
    for path in [folder, *folder.rglob("*")]:
        if not path.is_symlink():
            os.chmod(path, 0o755 if path.is_dir() else 0o644)
    shutil.rmtree(folder)


def as_nobody(where: Path, *argv: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """`python ARGV` as `nobody`, with a home of its own in `where` (ezdxf keeps a cache),
    run from there (ezdxf looks for an `ezdxf.ini` in the working folder, which another
    test may have left as one `nobody` cannot read)."""
    home = where / "home"
    home.mkdir(exist_ok=True)
    os.chown(home, NOBODY, NOBODY)
    env = {**os.environ, "HOME": str(home), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [*AS_NOBODY, sys.executable, *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=home,
        timeout=timeout,
    )


def give_to_nobody(out: Path) -> None:
    for path in [out, *out.rglob("*")]:
        os.chown(path, NOBODY, NOBODY, follow_symlinks=False)


# --- a build: the staging folder's commit, on a real previous build ------------------------

PREVIOUS = {
    "game/game-a4.pdf": "old pdf",
    "game/manifest.json": "old manifest",
    "game/svg/board.svg": "old board",
    "game/svg/old.svg": "a part the new build no longer has",
    "game/notes.txt": "the user's notes, in the game's folder",
    "game/png/x.png": "a format not asked for this time",
    "game/png/sub/y.png": "deeper",
    "index.html": "old index",
}
NEW = {
    "game/game-a4.pdf": "new pdf",
    "game/manifest.json": "new manifest",
    "game/svg/board.svg": "new board",
    "game/dxf/board.dxf": "new cut file",
    "index.html": "new index",
}


def previous_build(out: Path) -> None:
    for rel, text in PREVIOUS.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text(text)


BUILD = """
import sys
from pnp.runtime.errors import PnpError
from pnp.runtime.staging import Staging

try:
    with Staging(sys.argv[1]) as stage:
        for rel, text in {new!r}.items():
            stage.write_text(rel, text)
        stage.own("game")
except PnpError as exc:
    print(f"error: {{exc}}", file=sys.stderr)
    sys.exit(2)
"""


def build(out: Path) -> None:
    with Staging(out) as stage:
        for rel, text in NEW.items():
            stage.write_text(rel, text)
        stage.own("game")


def built_in_full(out: Path) -> bool:
    files = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    return files == set(NEW) and all((out / r).read_text() == t for r, t in NEW.items())


# Every file and folder of the previous build (and the output folder itself), locked.
PLACES = ["", "game", "game/svg", "game/png", "game/png/sub", *PREVIOUS]


@pytest.mark.parametrize("flag", ["i", "a"])
@pytest.mark.parametrize("place", PLACES)
def test_a_locked_file_or_folder_stops_the_build_and_the_output_stays_as_it_was(
    tmp_path, chattr, place, flag
):
    """Immutable (+i) or append-only (+a): each place the build replaces, sweeps away or
    writes in. The build fails with one line and every file, folder and byte is as it was
    (no staging folder left either)."""
    out = tmp_path / "out"
    previous_build(out)
    lock(chattr, out / place, flag)
    before = snapshot(out)
    with pytest.raises(PnpError) as refused:
        build(out)
    assert "\n" not in str(refused.value)
    assert place.rstrip("/") in str(refused.value) or str(out) in str(refused.value)
    assert snapshot(out) == before


NOBODY_CASES = {
    "the output folder 555": ("", 0o555, None),
    "the game's folder 555": ("game", 0o555, None),
    "svg/ 555": ("game/svg", 0o555, None),
    "a folder swept away 555": ("game/png", 0o555, None),
    "a folder in one swept away 555": ("game/png/sub", 0o555, None),
    "a file swept away, root's in a sticky folder": ("game/svg", 0o1777, "game/svg/old.svg"),
    "a file deep in a swept folder, root's, sticky": ("game/png/sub", 0o1777, "game/png/sub/y.png"),
    "a file replaced, root's in a sticky folder": ("game/svg", 0o1777, "game/svg/board.svg"),
}


@pytest.mark.skipif(not can_become_nobody(), reason="needs root and setpriv")
@pytest.mark.parametrize("case", list(NOBODY_CASES))
def test_a_folder_the_user_may_not_write_stops_the_build_and_nothing_changes(shared_tmp, case):
    """The same, for permissions: the build runs as `nobody`, who owns the output but not
    the folder (or file) the case names; the line names it."""
    folder, mode, roots = NOBODY_CASES[case]
    out = shared_tmp / "out"
    previous_build(out)
    give_to_nobody(out)
    if roots is not None:
        os.chown(out / roots, 0, 0)
        os.chown(out / folder, 0, 0)
    os.chmod(out / folder, mode)
    before = snapshot(out)
    r = as_nobody(shared_tmp, "-c", textwrap.dedent(BUILD.format(new=NEW)), str(out))
    assert r.returncode == 2, r.stderr
    assert f"{out / (roots or folder)}".rstrip("/") in one_error_line(r.stderr)
    assert snapshot(out) == before


def test_a_build_with_nothing_locked_replaces_everything(tmp_path):
    """The cases above fail because of the lock, not the build: without it, it succeeds."""
    out = tmp_path / "out"
    previous_build(out)
    build(out)
    assert built_in_full(out)


# --- simulate --report: refused before the first game --------------------------------------


@pytest.fixture
def no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """A simulation that starts playing fails the test (as an internal error, exit 70)."""
    import pnp.cli.simulate

    def played(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the games were played before the output was checked")

    monkeypatch.setattr(pnp.cli.simulate, "run_all", played)


def report_out(tmp_path: Path) -> Path:
    out = tmp_path / "out"
    (out / "exploding-dice").mkdir(parents=True)
    (out / "exploding-dice" / "report.html").write_text("old report")
    (out / "index.html").write_text("old index")
    return out


def simulate_report(capsys, out: Path, *more: str) -> str:
    code, _, err = run(
        capsys,
        "simulate",
        "exploding-dice",
        "--games",
        "10000000",
        "--report",
        "--out",
        str(out),
        *more,
    )
    line = one_error_line(err)
    assert code == 2, err
    return line


@pytest.mark.parametrize(
    "place, flag",
    [
        ("", "i"),
        ("", "a"),
        ("exploding-dice", "i"),
        ("exploding-dice", "a"),
        ("exploding-dice/report.html", "i"),
        ("exploding-dice/report.html", "a"),
        ("index.html", "i"),
    ],
)
def test_simulate_report_into_a_locked_place_is_refused_before_the_first_game(
    tmp_path, capsys, chattr, no_games, place, flag
):
    out = report_out(tmp_path)
    lock(chattr, out / place, flag)
    before = snapshot(out)
    line = simulate_report(capsys, out)
    assert "immutable or append-only" in line
    assert snapshot(out) == before


@pytest.mark.parametrize(
    "make, needle",
    [
        (lambda out: (out / "index.html").unlink() or (out / "index.html").mkdir(), "a folder"),
        (
            lambda out: (
                shutil.rmtree(out / "exploding-dice") or (out / "exploding-dice").write_text("x")
            ),
            "in the way",
        ),
        (
            lambda out: (
                (out / "exploding-dice/report.html").unlink()
                or (out / "exploding-dice/report.html").mkdir()
            ),
            "a folder",
        ),
        (
            lambda out: (
                shutil.rmtree(out / "exploding-dice")
                or (out / "exploding-dice").symlink_to(out.parent)
            ),
            "symbolic link",
        ),
    ],
    ids=["index-is-a-folder", "game-is-a-file", "report-is-a-folder", "game-is-a-link"],
)
def test_simulate_report_where_a_file_cannot_go_is_refused_before_the_first_game(
    tmp_path, capsys, no_games, make, needle
):
    out = report_out(tmp_path)
    make(out)
    before = snapshot(out)
    assert needle in simulate_report(capsys, out)
    assert snapshot(out) == before


def test_json_onto_an_immutable_file_is_refused_before_the_first_game(
    tmp_path, capsys, chattr, no_games
):
    target = tmp_path / "runs.json"
    target.write_text("{}")
    lock(chattr, target, "i")
    code, _, err = run(
        capsys, "simulate", "exploding-dice", "--games", "10000000", "--json", str(target)
    )
    assert code == 2 and "immutable or append-only" in one_error_line(err)


NOBODY_REPORT = """
import sys
import pnp.cli.simulate

def played(*args, **kwargs):
    print("the games were played", file=sys.stderr)
    sys.exit(99)

pnp.cli.simulate.run_all = played
from pnp.cli import main
main(["simulate", "exploding-dice", "--games", "10000000", "--report", "--out", sys.argv[1]])
"""


@pytest.mark.skipif(not can_become_nobody(), reason="needs root and setpriv")
@pytest.mark.parametrize("folder", ["", "exploding-dice"])
def test_simulate_report_into_a_folder_nobody_may_write_is_refused_before_the_first_game(
    shared_tmp, folder
):
    out = report_out(shared_tmp)
    give_to_nobody(out)
    os.chmod(out / folder, 0o555)
    before = snapshot(out)
    r = as_nobody(shared_tmp, "-c", NOBODY_REPORT, str(out))
    assert r.returncode == 2, r.stderr
    line = one_error_line(r.stderr)
    assert f"no permission to write in {out / folder}".rstrip("/") in line
    assert snapshot(out) == before


# --- the whole command, once each way --------------------------------------------------------

GAME = "building-community"
"""The kit these builds make: what is at stake is the output folder, not the game, and
Building Community's kit builds in a third of Exploding Dice's time."""


@pytest.mark.slow
def test_pnp_build_with_an_immutable_stale_file_deep_in_its_folder_changes_nothing(
    tmp_path, capsys, chattr
):
    """A real build: a png/ folder from an earlier build holds an immutable file. It used
    to be moved aside with the commit and then could not be deleted: the build 'worked'
    and left it in a hidden staging folder. Now the build refuses, and nothing changes."""
    out = tmp_path / "out"
    args = ("build", GAME, "--paper", "a4", "--format", "svg", "--out", str(out))
    assert run(capsys, *args)[0] == 0
    (out / GAME / "png" / "sub").mkdir(parents=True)
    (out / GAME / "png" / "sub" / "y.png").write_text("old")
    lock(chattr, out / GAME / "png" / "sub" / "y.png", "i")
    before = snapshot(out)
    code, _, err = run(capsys, *args, "--config", str(_config(tmp_path)))
    assert code == 2 and "y.png" in one_error_line(err)
    assert snapshot(out) == before


@pytest.mark.slow
@pytest.mark.skipif(not can_become_nobody(), reason="needs root and setpriv")
def test_pnp_build_as_a_user_with_svg_made_read_only_changes_nothing(shared_tmp, capsys):
    out = shared_tmp / "out"
    args = ["build", GAME, "--paper", "a4", "--format", "pdf,svg", "--out", str(out)]
    assert run(capsys, *args)[0] == 0
    give_to_nobody(out)
    os.chmod(out / GAME / "svg", 0o555)
    before = snapshot(out)
    r = as_nobody(shared_tmp, "-m", "pnp", *args, "--config", str(_config(shared_tmp)), timeout=300)
    assert r.returncode == 2, r.stderr
    assert f"{out}/{GAME}/svg/" in one_error_line(r.stderr)
    assert "Permission denied" in r.stderr
    assert snapshot(out) == before


def _config(tmp_path: Path) -> Path:
    """A config that changes every part, so a half-done commit would show."""
    config = tmp_path / "kit.toml"
    config.write_text("tile_size = 30\n")
    os.chmod(config, 0o644)
    return config
