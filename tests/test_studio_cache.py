"""The studio's cache folder with real folders in it: it deletes only what it made, an
unwritable cache is one line of JSON naming the folder, a build's key holds the content of
the files it reads, and a check no client waits for is cancelled.

A cache "that cannot be written" is made by putting a file where the studio's folder was:
every write into it then fails in the kernel (ENOTDIR), for root as for anyone, where
permission bits (`chmod`) do not hold root back and `chattr +i` needs a file system that
has the flag. The studio's code meets the same `OSError` at the same calls either way."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from cli_run import one_error_line, run
from procs import gone
from starlette.testclient import TestClient
from studio_client import ADDRESS, login, studio, wait

import pnp.studio.server
from pnp.runtime.errors import PnpError
from pnp.studio import app as studio_app
from pnp.studio import jobs as jobs_module
from pnp.studio.app import Settings, create_app
from pnp.studio.cache import FORMAT, MARK, TAG, Cache, claim_root
from pnp.studio.jobs import Jobs

ED = "exploding-dice"
BC = "building-community"
MB = 1_000_000
HOST = ADDRESS.removeprefix("http://")  # the Host the studio answers (tests/studio_client.py)
BOUND = 60.0  # seconds: only there so a broken cancel fails a test instead of hanging it


def tree(root: Path) -> dict[str, bytes]:
    """Every file under `root` with its bytes."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def dead_pid() -> int:
    """The pid of a process that has ended."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def plant(root: Path) -> dict[str, bytes]:
    """A user's folders in every place the studio looks: beside its folders, in work/ (one
    named like a work folder of an ended process), in entries/ (one named like an entry),
    12 MB each in entries/, and one with a marker that names another key. Returns their
    files."""
    files = {
        "thesis-2024/chapter-1.tex": b"\\chapter{Print and play}\n",
        "work/photos/cat.jpg": b"\xff\xd8" + b"\x01" * 5000,
        f"work/0123456789abcdef-{dead_pid()}-5/notes.txt": b"mine\n",
        "entries/photos-2023/big.raw": os.urandom(12 * MB),
        f"entries/{'ab' * 32}/result.json": b'{"mine": true}',
        f"entries/{'ab' * 32}/big.raw": os.urandom(12 * MB),
        f"entries/{'cd' * 32}/{MARK}": ("ef" * 32 + "\n").encode(),
        f"entries/{'cd' * 32}/result.json": b"{}",
    }
    for name, data in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return files


def kept_entries(root: Path) -> set[str]:
    """The entries the studio made (name and marker agree)."""
    out = set()
    for path in (root / "entries").iterdir():
        marker = path / MARK
        if marker.is_file() and marker.read_text().strip() == path.name:
            out.add(path.name)
    return out


# --- item 5: only what the studio made is ever deleted -----------------------------------


def test_a_folder_with_files_and_no_tag_is_refused_and_left_as_it_was(
    capsys, tmp_path, monkeypatch
):
    monkeypatch.setattr(pnp.studio.server, "serve", lambda *a, **k: pytest.fail("it served"))
    root = tmp_path / "my-folder"
    files = plant(root)
    code, out, err = run(capsys, "studio", "--cache", str(root))
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert line == (
        f"error: --cache {root} is not empty and has no pnp studio {TAG}: the studio keeps "
        "its cache only in a folder it made (give a new or an empty folder)"
    )
    assert tree(root) == files  # not a byte added or taken


def test_a_cache_of_another_format_is_refused(tmp_path):
    root = tmp_path / "cache"
    Cache(root)
    tag = root / TAG
    tag.write_text(tag.read_text().replace(f"format {FORMAT}", "format 99"))
    with pytest.raises(PnpError, match="holds a pnp studio cache of format 99"):
        Cache(root)


def test_a_new_or_empty_folder_is_tagged_and_the_default_one_adopted(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    Cache(empty)
    text = (empty / TAG).read_text()
    assert text.startswith("Signature: 8a477f597d28d172789f06886806bc55\n")  # the spec's
    assert f"pnp studio cache, format {FORMAT}" in text
    # the default folder is pnp's own: an earlier pnp's untagged cache there is adopted,
    # and its old entries (no marker) are left as they are
    default = tmp_path / "xdg" / "pnp" / "studio"
    files = plant(default)
    claim_root(default, adopt=True)
    cache = Cache(default, limit=1)
    assert (default / TAG).is_file() and cache.size() == 0
    assert {k: v for k, v in tree(default).items() if k != TAG} == files


def test_start_and_trim_remove_only_the_studios_own_folders(tmp_path):
    """Planted folders survive a restart and a trim down to nothing (limit 1 byte); the
    studio's own unfinished work folder and its older entries are removed."""
    root = tmp_path / "cache"
    Cache(root)
    files = plant(root)
    own_work = root / "work" / f"{'12' * 8}-{dead_pid()}-7"
    own_work.mkdir()
    (own_work / MARK).write_text("12" * 32 + "\n")
    cache = Cache(root, limit=1)  # a restart
    assert not own_work.exists()
    made = []
    for n in range(3):
        key = f"{n:064x}"
        work = cache.new_work_folder(key)
        (work / "page.png").write_bytes(b"x" * 1000)
        made.append(cache.keep(key, work, {"n": n}))
    assert kept_entries(root) == {made[-1].name}  # the older two were trimmed
    assert cache.size() == 1000 + len(json.dumps({"n": 2})) + 65
    assert all(tree(root)[name] == data for name, data in files.items())


def test_an_entry_name_taken_by_a_folder_of_the_users_is_not_replaced(tmp_path):
    root = tmp_path / "cache"
    cache = Cache(root)
    key = "ab" * 32
    mine = root / "entries" / key
    mine.mkdir()
    (mine / "thesis.pdf").write_bytes(b"%PDF-1.7 mine")
    work = cache.new_work_folder(key)
    with pytest.raises(PnpError, match="a folder pnp studio did not make is in the way"):
        cache.keep(key, work, {})
    assert tree(mine) == {"thesis.pdf": b"%PDF-1.7 mine"}


@pytest.mark.slow
def test_user_folders_survive_real_checks_trimming_a_tiny_cache(tmp_path):
    """Through the API: two checks with different values on a cache of 1 byte; the second
    trims the first entry away, and every planted folder is there, byte for byte."""
    root = tmp_path / "cache"
    Cache(root)
    files = plant(root)
    with studio_at(root, limit=1) as client:
        first = client.post(f"/api/games/{ED}/check", json={"params": {"die_size": 12.0}})
        assert first.status_code == 200, first.text
        made = kept_entries(root)
        assert len(made) == 1
        second = client.post(f"/api/games/{ED}/check", json={"params": {"die_size": 13.0}})
        assert second.status_code == 200, second.text
        assert len(kept_entries(root)) == 1 and kept_entries(root) != made
    assert all(tree(root)[name] == data for name, data in files.items())


@contextmanager
def studio_at(root: Path, limit: int) -> Iterator[TestClient]:
    """The app on this cache folder and limit, and a client that came in as the page does."""
    settings = Settings(root, 2, limit)
    with TestClient(create_app(settings), base_url=ADDRESS) as client:
        login(client, settings)
        yield client


# --- item 6: a cache that cannot be written mid-run ---------------------------------------


def block(folder: Path) -> None:
    """The folder can no longer be written: a file stands where it was."""
    folder.rename(folder.with_name(folder.name + ".moved"))
    folder.write_text("not a folder\n")


def no_work_left(root: Path) -> None:
    work = root / "work"
    if work.is_dir():
        assert list(work.iterdir()) == []


@pytest.mark.slow
@pytest.mark.parametrize("blocked", ["entries", "work"])
def test_an_unwritable_cache_is_one_json_line_for_checks_previews_and_builds(tmp_path, blocked):
    root = tmp_path / "cache"
    with studio(root) as client:
        block(root / blocked)
        want = f"cannot write the studio's cache folder {root / blocked}: Not a directory"
        for method, url, body in (
            ("POST", f"/api/games/{ED}/check", {"params": {"die_size": 12.0}}),
            ("GET", f"/api/games/{BC}/preview.png", None),
        ):
            r = client.request(method, url, json=body)
            assert r.status_code == 500, r.text
            assert r.headers["content-type"] == "application/json"
            assert r.json() == {"error": want, "folder": str(root / blocked)}
            no_work_left(root)
        job = client.post(f"/api/games/{ED}/build", json={"formats": ["pdf"]}).json()["job"]
        done = wait(client, job)
        assert done["state"] == "failed" and done["error"] == want
        no_work_left(root)


# --- item 7: a key holds the content of the files a build reads ---------------------------


PRESETS = """[presets.card-300gsm]
title = "my card"
cut = {{ speed = 20, power = {power} }}
inner-cut = {{ speed = 20, power = {power} }}
score = {{ speed = 80, power = 5 }}
drill = {{ speed = 100, power = 5 }}
engrave = {{ speed = 250, power = 5 }}
"""


@pytest.mark.slow
def test_an_edited_presets_file_is_built_again(tmp_path):
    """The page uploads the presets file's text (the studio reads no path a request names):
    the text is part of the key, so the same file edited is a new build, not the cache's."""
    lbrn = f"{BC}/cut/tiles-1.lbrn2"
    with studio(tmp_path / "cache") as client:
        powers = []
        for power in (11, 22):
            body = {"laser_presets_toml": PRESETS.format(power=power), "formats": ["lbrn2"]}
            job = client.post(f"/api/games/{BC}/build", json=body).json()["job"]
            done = wait(client, job)
            assert done["state"] == "done", done
            assert not any("laser-presets" in name for name in done["result"]["files"])
            text = client.get(f"/api/jobs/{job}/files/{lbrn}").text
            powers.append(sorted(set(_powers(text))))
    assert powers == [[11], [22]]


def _powers(lbrn2: str) -> list[int]:
    """The powers a LightBurn project's layers run at (`<maxPower Value="11"/>`)."""
    return [int(x) for x in re.findall(r'<maxPower Value="(\d+)"/>', lbrn2)]


# --- item 8: checks are capped and cancelled when no client waits -------------------------


LONG_CHECK = {"params": {"radius": 6, "solver_budget": 50_000_000}}  # well over a minute


class Client:
    """One request driven straight into the ASGI app, whose client can go away: its
    `receive` gives the body, then `http.disconnect` once `leave()` is called."""

    def __init__(self, app, path: str, body: dict) -> None:
        token = app.state.studio.settings.token
        self.left = asyncio.Event()
        self.sent: list[dict] = []
        self.body = json.dumps(body).encode()
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": [
                (b"host", HOST.encode()),
                (b"content-type", b"application/json"),
                (b"authorization", f"Bearer {token}".encode()),  # a script's key
            ],
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 8765),
        }
        self.task = asyncio.ensure_future(app(scope, self._receive, self._send))

    async def _receive(self) -> dict:
        if self.body is not None:
            body, self.body = self.body, None
            return {"type": "http.request", "body": body, "more_body": False}
        await self.left.wait()
        return {"type": "http.disconnect"}

    async def _send(self, message: dict) -> None:
        self.sent.append(message)

    def leave(self) -> None:
        self.left.set()

    async def status(self) -> int:
        await asyncio.wait_for(self.task, BOUND)
        return self.sent[0]["status"]


async def until(test, what: str) -> None:
    ends = time.monotonic() + BOUND
    while not test():
        assert time.monotonic() < ends, f"{what} did not happen within {BOUND:.0f} s"
        await asyncio.sleep(0.05)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_a_check_no_client_waits_for_is_cancelled_and_checks_are_capped(tmp_path, monkeypatch):
    monkeypatch.setattr(studio_app, "MAX_WAITING", 1)
    root = tmp_path / "cache"
    app = create_app(Settings(root, 2, 500 * MB))
    jobs = app.state.studio.jobs
    url = f"/api/games/{BC}/check"

    async def scenario() -> None:
        first, second = Client(app, url, LONG_CHECK), Client(app, url, LONG_CHECK)
        await until(lambda: jobs._processes, "the check's process start")
        (proc,) = list(jobs._processes)
        # one check is under way: a different one is past the cap
        other = Client(app, url, {"params": {"radius": 3}})
        assert await other.status() == 429
        assert b"jobs and checks are waiting" in other.sent[1]["body"]
        # two clients wait for the same check: one going away does not stop it
        first.leave()
        assert await first.status() == 499
        await asyncio.sleep(1.5)  # longer than a cancel takes (SIGTERM, then SIGKILL at 1 s)
        assert not gone(proc.pid) and list((root / "work").iterdir())
        # the last one going away does
        second.leave()
        assert await second.status() == 499
        await until(lambda: gone(proc.pid), "the cancelled check's end")
        await until(lambda: jobs.waiting() == 0, "the check leaving the count")
        await until(lambda: not list((root / "work").iterdir()), "its work folder's removal")
        assert kept_entries(root) == set()  # nothing half-made was kept
        # and the next check is taken and answered
        again = Client(app, url, {"params": {"radius": 2}})
        assert await again.status() == 200

    try:
        asyncio.run(scenario())
    finally:
        jobs.close()


@pytest.mark.slow
def test_a_closed_studio_leaves_the_next_one_in_the_process_a_working_forkserver(tmp_path):
    """Closing a studio ends its forkserver; a studio made next in the same process (the
    test suite does this all the time) must get a new one, not the dying one's address:
    that was a check that never started (EOFError in the task's launch)."""
    if "forkserver" not in __import__("multiprocessing").get_all_start_methods():
        pytest.skip("no forkserver on this platform")
    for round_ in range(2):  # each round's forkserver warms up a kit: two show the hand-over
        app = create_app(Settings(tmp_path / f"cache-{round_}", 1, 500 * MB))
        jobs = app.state.studio.jobs
        jobs.start()
        proc = jobs.ctx.Process(target=os.getpid)
        proc.start()  # raised EOFError when the last round's forkserver was still dying
        proc.join(BOUND)
        assert proc.exitcode == 0
        jobs.close()


class _Clock:
    """`time` for `pnp.studio.jobs`: seconds pass only when the studio waits, so what it
    waits in all is counted, not the machine's speed."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


class _Stubborn:
    """A job process that ignores SIGTERM (busy in C code, or its handler stuck): only a
    SIGKILL ends it; waiting on it takes the whole time given."""

    def __init__(self, clock: _Clock) -> None:
        self.clock = clock
        self.killed = False

    def terminate(self) -> None:
        pass

    def join(self, timeout: float | None = None) -> None:
        self.clock.now += BOUND if timeout is None else timeout

    def is_alive(self) -> bool:
        return not self.killed

    def kill(self) -> None:
        self.killed = True


def _ignores_sigterm() -> subprocess.Popen[bytes]:
    """A child of this process that ignores SIGTERM (it is ready once it has said so)."""
    code = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); " \
           "print(flush=True); time.sleep(600)"  # fmt: skip
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline() == b"\n"
    return proc


def test_a_used_studio_whose_processes_ignore_sigterm_stops_at_once(tmp_path, monkeypatch):
    """Issue 40: a used studio stops in under a second, whatever its job processes and its
    forkserver do with SIGTERM: both are killed, with under a second waited in all. (The
    wall time of a real stop is `make bench`'s: `studio_stop_seconds`.)"""
    from multiprocessing import forkserver

    clock = _Clock()
    monkeypatch.setattr(jobs_module, "time", clock)
    jobs = Jobs(Cache(tmp_path / "cache", 500 * MB), 2)
    running = [_Stubborn(clock), _Stubborn(clock)]
    jobs._processes.update(running)
    server = _ignores_sigterm()  # the forkserver, as the studio's record names it
    alive_r, alive_w = os.pipe()
    record = forkserver._forkserver
    monkeypatch.setattr(record, "_forkserver_pid", server.pid)
    monkeypatch.setattr(record, "_forkserver_alive_fd", alive_w)
    monkeypatch.setattr(record, "_forkserver_address", None)
    try:
        began = clock.now
        jobs.close()
        waited = clock.now - began
    finally:
        os.close(alive_r)
        if record._forkserver_pid is not None:
            os.close(alive_w)
        if server.poll() is None:
            server.kill()
        server.wait()
        server.stdout.close()
    assert all(p.killed for p in running)
    assert record._forkserver_pid is None  # killed, collected and forgotten
    assert waited < 1.0


def test_the_stop_kills_a_child_of_ours_that_ignores_sigterm_at_its_deadline():
    """The forkserver's end (`_reap`): SIGTERM ignored, SIGKILL at the deadline."""
    proc = _ignores_sigterm()
    try:
        os.kill(proc.pid, signal.SIGTERM)
        assert jobs_module._reap(proc.pid, time.monotonic() + 0.05) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        proc.stdout.close()


def test_the_stop_collects_a_child_that_ended_on_sigterm_with_its_signal():
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        os.kill(proc.pid, signal.SIGTERM)
        assert jobs_module._reap(proc.pid, time.monotonic() + BOUND) == -signal.SIGTERM
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
