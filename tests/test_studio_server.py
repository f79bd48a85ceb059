"""`pnp studio` as a user runs it: a real uvicorn server on 127.0.0.1, stopped by Ctrl-C,
and a small load of concurrent requests against it. Every wait is bounded."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import httpx2 as httpx
import pytest
from studio_client import START, Served, running, studio_command

pytestmark = pytest.mark.slow


def descendants(pid: int) -> set[int]:
    """Every process below `pid` (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.add(child)
            todo.append(child)
    return out


def alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_ctrl_c_stops_the_server_and_its_running_jobs(tmp_path):
    with running(tmp_path / "cache") as served, served.client() as client:
        proc = served.proc
        job = client.post("/api/games/exploding-dice/simulate", json={"games": 5_000_000})
        assert job.status_code == 202
        job_id = job.json()["job"]
        ends = time.monotonic() + START
        while client.get(f"/api/jobs/{job_id}").json()["progress"]["done"] == 0:
            assert time.monotonic() < ends, "the simulation never started"
            time.sleep(0.1)
        below = descendants(proc.pid)
        assert below, "the job runs in processes of its own"
        started = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C sends
        out, err = proc.communicate(timeout=15)
        took = time.monotonic() - started
        assert proc.returncode == 130, err
        assert "Traceback" not in err
        assert served.banner.startswith("pnp studio: http://127.0.0.1:")
        time.sleep(0.2)
        assert not [p for p in below if alive(p)], "job processes outlived the server"
        print(f"stopped in {took:.2f} s")


def test_ctrl_c_while_the_job_processes_warm_up_is_one_line(tmp_path):
    """At once after the start: the job processes' server is still importing pnp and
    building its warm-up kit (seconds), and a terminal's Ctrl-C reaches it too."""
    with running(tmp_path / "cache") as served:
        os.killpg(served.proc.pid, signal.SIGINT)
        _, err = served.proc.communicate(timeout=30)
    assert served.proc.returncode == 130
    assert err.strip().splitlines() == ["interrupted"], err


SLOW_WARM_UP = """\
import pnp.studio.jobs
pnp.studio.jobs.PRELOAD.append("slow_warm_up")  # the job processes' server imports it
"""


def test_ctrl_c_while_a_job_waits_for_the_warm_up_does_not_wait_for_it(tmp_path):
    """A job asked for while the job processes' server still warms up waits for it in a
    thread; Ctrl-C then ends the studio at once, not when the warm-up ends (here never:
    it sleeps for ten minutes, through a module the test adds to what that server loads)."""
    (tmp_path / "sitecustomize.py").write_text(SLOW_WARM_UP)
    (tmp_path / "slow_warm_up.py").write_text("import time\n\ntime.sleep(600)\n")
    path = os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])
    with running(tmp_path / "cache", env={"PYTHONPATH": path}) as served, served.client() as c:
        job = c.post("/api/games/exploding-dice/simulate", json={"games": 10})
        assert job.status_code == 202
        assert c.get(f"/api/jobs/{job.json()['job']}").json()["state"] == "running"
        os.killpg(served.proc.pid, signal.SIGINT)
        _, err = served.proc.communicate(timeout=120)  # the warm-up would take 600 s
    assert served.proc.returncode == 130, err
    assert "Traceback" not in err


def test_another_host_is_served_with_a_warning(tmp_path):
    with running(tmp_path / "cache", "--host", "0.0.0.0") as served:
        os.killpg(served.proc.pid, signal.SIGINT)
        _, err = served.proc.communicate(timeout=15)
    assert "warning: serving on 0.0.0.0: anyone on that network can use" in err


def test_a_port_in_use_is_one_error_line(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        r = subprocess.run(
            studio_command(port, tmp_path),
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        f"error: cannot serve on 127.0.0.1:{port}: Address already in use"
    ]


def test_fifty_checks_and_five_builds_at_once_all_answer_correctly(tmp_path):
    sizes = [10.0, 11.0, 12.0, 13.0, 14.0]

    async def load(served: Served) -> tuple[list[httpx.Response], list[dict]]:
        async with served.async_client(timeout=240) as client:
            checks = [
                client.post(
                    "/api/games/exploding-dice/check", json={"params": {"die_size": sizes[i % 5]}}
                )
                for i in range(50)
            ]
            builds = [
                client.post(
                    "/api/games/exploding-dice/build",
                    json={"params": {"die_size": size}, "formats": ["pdf"]},
                )
                for size in sizes
            ]
            answers = await asyncio.gather(*checks, *builds)
            jobs = [r.json()["job"] for r in answers[50:]]
            ends = time.monotonic() + 240
            views: dict[str, dict] = {}
            while len(views) < len(jobs):
                assert time.monotonic() < ends, "builds did not finish"
                for job in jobs:
                    if job not in views:
                        view = (await client.get(f"/api/jobs/{job}")).json()
                        if view["state"] not in ("queued", "running"):
                            views[job] = view
                await asyncio.sleep(0.2)
            return answers[:50], [views[j] for j in jobs]

    with running(tmp_path / "cache") as served:
        checks, builds = asyncio.run(load(served))
        os.killpg(served.proc.pid, signal.SIGINT)
        served.proc.communicate(timeout=15)
    assert all(r.status_code == 200 for r in checks)
    for i, r in enumerate(checks):  # the same parameters, the same findings
        assert r.json() == checks[i % 5].json()
        assert f"dice of {sizes[i % 5]:g} mm" in str(r.json()["infos"])
    assert [b["state"] for b in builds] == ["done"] * 5
    pdfs = {b["result"]["files"][0] for b in builds}
    assert pdfs == {"exploding-dice/exploding-dice-a4.pdf"}
    assert len({b["id"] for b in builds}) == 5
