"""`pnp studio` as a user runs it: a real uvicorn server on 127.0.0.1, stopped by Ctrl-C,
and a small load of concurrent requests against it. Every wait is bounded."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import httpx2 as httpx
import pytest
from studio_client import START, Served, first_line, running, studio_command

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
    """The line after the banner. (Read from the same stream as the banner: its reader may
    already hold the warning, which `communicate` would never see.)"""
    with running(tmp_path / "cache", "--host", "0.0.0.0") as served:
        warning = first_line(served.proc.stderr, START)  # type: ignore[arg-type]
        os.killpg(served.proc.pid, signal.SIGINT)
        served.proc.communicate(timeout=15)
    assert "warning: serving on 0.0.0.0: anyone on that network can use" in warning


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


def test_thirty_checks_and_three_builds_at_once_all_answer_correctly(tmp_path):
    sizes = [10.0, 12.0, 14.0]  # a build is seconds of CPU: three of them load the slots

    async def load(served: Served) -> tuple[list[httpx.Response], list[dict]]:
        async with served.async_client(timeout=240) as client:
            checks = [
                client.post(
                    "/api/games/exploding-dice/check", json={"params": {"die_size": sizes[i % 3]}}
                )
                for i in range(30)
            ]
            builds = [
                client.post(
                    "/api/games/exploding-dice/build",
                    json={"params": {"die_size": size}, "formats": ["pdf"]},
                )
                for size in sizes
            ]
            answers = await asyncio.gather(*checks, *builds)
            jobs = [r.json()["job"] for r in answers[30:]]
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
            return answers[:30], [views[j] for j in jobs]

    with running(tmp_path / "cache") as served:
        checks, builds = asyncio.run(load(served))
        os.killpg(served.proc.pid, signal.SIGINT)
        served.proc.communicate(timeout=15)
    assert all(r.status_code == 200 for r in checks)
    for i, r in enumerate(checks):  # the same parameters, the same findings
        assert r.json() == checks[i % 3].json()
        assert f"dice of {sizes[i % 3]:g} mm" in str(r.json()["infos"])
    assert [b["state"] for b in builds] == ["done"] * 3
    pdfs = {b["result"]["files"][0] for b in builds}
    assert pdfs == {"exploding-dice/exploding-dice-a4.pdf"}
    assert len({b["id"] for b in builds}) == 3


# --- slow clients, a connection cap, upgrades and the terminal, on a real server ----------

QUICK_LIMITS = """\
import pnp.studio.connections as connections
connections.MOST_CONNECTIONS = 8  # the cap the server takes (connection_cap)
connections.Connection.read_limit = 1.0  # seconds for a whole request
"""


def _answer_of(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (bounded by the socket's
    own timeout)."""
    out = b""
    while chunk := sock.recv(65536):
        out += chunk
    return out


def _status_and_json(raw: bytes) -> tuple[int, dict]:
    head, _, body = raw.partition(b"\r\n\r\n")
    assert b"\n" not in body.strip(), raw
    return int(head.split()[1]), json.loads(body)


def test_slow_and_surplus_clients_are_answered_in_one_line_and_starve_no_one(tmp_path):
    """With a cap of 8 connections and 1 s to send a request (set through a module the
    test adds to what the server imports): 20 half-sent requests do not keep the key's
    request out, each of them is answered 408 or 503 in one line of JSON and closed, so is
    a request whose body comes too late, a WebSocket upgrade is refused in one line, 30
    malformed requests are one line on the terminal, and nothing else is said there but
    the end."""
    (tmp_path / "sitecustomize.py").write_text(QUICK_LIMITS)
    path = os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])
    with running(tmp_path / "cache", env={"PYTHONPATH": path}) as served:
        port = int(served.url.rsplit(":", 1)[1])
        host = f"127.0.0.1:{port}".encode()
        half = []
        for _ in range(20):
            s = socket.create_connection(("127.0.0.1", port), timeout=30)
            s.sendall(b"GET /api/games HTTP/1.1\r\nHost: " + host + b"\r\nX-Pad: ")
            half.append(s)
        with served.client(timeout=30) as client:  # past the cap: it takes an idle one's place
            assert client.get("/api/games").status_code == 200
            upgrade = client.get(
                "/api/jobs", headers={"upgrade": "websocket", "connection": "Upgrade"}
            )
        assert upgrade.status_code == 400 and "no WebSocket" in upgrade.json()["error"]
        answers = []
        for s in half:
            with s:
                answers.append(_status_and_json(_answer_of(s)))
        assert {status for status, _ in answers} <= {408, 503}
        assert any(status == 408 for status, _ in answers)  # some outlived their second
        assert all(list(body) == ["error"] for _, body in answers)
        with socket.create_connection(("127.0.0.1", port), timeout=30) as s:  # a late body
            s.sendall(
                b"POST /api/games/exploding-dice/config HTTP/1.1\r\nHost: " + host
                + b"\r\nContent-Type: application/json\r\nContent-Length: 100\r\n"
                + b"Authorization: Bearer " + served.address.split("token=")[1].encode()
                + b"\r\n\r\n{\"toml\""
            )  # fmt: skip
            assert _status_and_json(_answer_of(s))[0] == 408
        for _ in range(30):
            with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
                s.sendall(b"NOT HTTP AT ALL\r\n\r\n")
                assert _answer_of(s).startswith(b"HTTP/1.1 400")
        os.killpg(served.proc.pid, signal.SIGINT)
        _, err = served.proc.communicate(timeout=30)
    assert served.proc.returncode == 130
    assert err.strip().splitlines() == ["warning: Invalid HTTP request received.", "interrupted"]
