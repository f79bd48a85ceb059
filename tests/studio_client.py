"""The studio for tests: an app on a cache folder of the test's, a bounded wait for jobs,
and the command line's own answers to hold its results against."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import httpx2 as httpx
from cli_run import pnp
from procs import default_sigint
from starlette.testclient import TestClient

from pnp.contract.params import toml_literal
from pnp.studio.app import Settings, create_app

JOB_WAIT = 120.0  # seconds: only there so a broken studio fails a test instead of hanging it
START = 60.0  # seconds, the same for a server's start


ADDRESS = "http://127.0.0.1:8765"  # what the app's Settings serve by default


@contextmanager
def studio(cache: Path, slots: int = 2) -> Iterator[TestClient]:
    """The app with its lifespan (job processes are stopped when the block ends), and a
    client that came in as the page does: by the token address, which sets its cookie."""
    settings = Settings(cache, slots, 500_000_000)
    with TestClient(create_app(settings), base_url=ADDRESS) as client:
        login(client, settings)
        yield client


def login(client: TestClient, settings: Settings) -> None:
    """Visit the address `pnp studio` prints: the answer sets the cookie and drops the token."""
    answer = client.get(f"/?token={settings.token}", follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/", answer.text
    assert client.cookies.get(settings.doors.cookie) == settings.token


def wait(client: TestClient, job: str, until: float = JOB_WAIT) -> dict[str, Any]:
    """The job once it has ended (done, failed or cancelled)."""
    ends = time.monotonic() + until
    while time.monotonic() < ends:
        view = client.get(f"/api/jobs/{job}").json()
        if view["state"] in ("done", "failed", "cancelled"):
            return view
        time.sleep(0.1)
    raise AssertionError(f"job {job} did not end within {until:.0f} s")


def run_job(client: TestClient, url: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST a job's request, then the job once it has ended."""
    answer = client.post(url, json=body)
    assert answer.status_code == 202, answer.text
    return wait(client, answer.json()["job"])


def config_file(tmp_path: Path, values: dict[str, Any], name: str = "studio.toml") -> Path:
    """The same values as a config file for the command line."""
    path = tmp_path / name
    path.write_text("".join(f"{k} = {toml_literal(v)}\n" for k, v in values.items()))
    return path


def cli_json(*args: str) -> Any:
    """`pnp ARGS --json -`'s object."""
    r = pnp(*args, "--json", "-")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def studio_command(port: int, cache: Path, *args: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "pnp.cli",
        "studio",
        "--port",
        str(port),
        "--cache",
        str(cache),
        *args,
    ]


@dataclass
class Served:
    """A running `pnp studio`: its process, its base URL, and the address it printed (with
    the token a browser opens)."""

    proc: subprocess.Popen
    url: str
    address: str
    banner: str  # the first line it printed (read here, so no longer in its stderr)

    def cookies(self) -> httpx.Cookies:
        """What a browser keeps from the printed address: the key's cookie (none with
        `--no-token`, whose address carries no token)."""
        answer = httpx.get(self.address, follow_redirects=False, timeout=START)
        assert answer.status_code == (303 if "?token=" in self.address else 200), answer.text
        return answer.cookies

    def client(self, **options: Any) -> httpx.Client:
        """A client that came in by the printed address, as a browser does."""
        return httpx.Client(base_url=self.url, cookies=self.cookies(), **options)

    def async_client(self, **options: Any) -> httpx.AsyncClient:
        """The same for asyncio."""
        return httpx.AsyncClient(base_url=self.url, cookies=self.cookies(), **options)


def first_line(stream: IO[str], until: float) -> str:
    """The first line a process writes, waiting at most `until` seconds."""
    box: list[str] = []
    reader = threading.Thread(target=lambda: box.append(stream.readline()), daemon=True)
    reader.start()
    reader.join(until)
    return box[0] if box else ""


@contextmanager
def running(cache: Path, *args: str, env: dict[str, str] | None = None) -> Iterator[Served]:
    """`pnp studio` in a process group of its own, until it answers; stopped after.
    `env` adds to its environment."""
    port = free_port()
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200", **(env or {})}
    proc = subprocess.Popen(
        studio_command(port, cache, "--jobs", "2", *args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
        preexec_fn=default_sigint,  # a terminal's Ctrl-C, even where this shell ignores it
    )
    url = f"http://127.0.0.1:{port}"
    try:
        banner = first_line(proc.stderr, START)  # type: ignore[arg-type]
        printed = re.match(r"pnp studio: (http://\S+)", banner)
        if printed is None:
            raise AssertionError(f"pnp studio did not start: {banner}")
        ends = time.monotonic() + START
        while True:
            try:
                if httpx.get(url + "/", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > ends:
                raise AssertionError(f"pnp studio did not start: {proc.communicate()[1]}")
            time.sleep(0.2)
        yield Served(proc, url, printed[1], banner)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
