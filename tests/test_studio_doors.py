"""The studio's doors through the ASGI test client: each refusal's status and one line of
JSON (400 Host, 401 key, 403 origin, 415 body type), the token address, the headers every
answer carries, the laser presets that never come from a path, and a host `pnp studio`
refuses. The same doors against a real server and a real browser on a second origin are
tests/test_studio_attacks.py."""

from __future__ import annotations

import json
import re

import pytest
from cli_run import one_error_line, run
from starlette.testclient import TestClient
from studio_client import ADDRESS, login

from pnp.runtime.errors import PnpError
from pnp.studio.app import Settings, create_app
from pnp.studio.guard import Doors
from pnp.studio.server import check_host

ED = "exploding-dice"
JSON_TYPE = {"content-type": "application/json"}
CONFIG = f"/api/games/{ED}/config"  # a route that writes nothing and needs no job process


@pytest.fixture(scope="module")
def settings(tmp_path_factory) -> Settings:
    return Settings(tmp_path_factory.mktemp("cache"), 1, 100_000_000)


@pytest.fixture(scope="module")
def app(settings):
    # no lifespan: no job process starts, and every request here is answered before one would
    return create_app(settings)


@pytest.fixture
def stranger(app) -> TestClient:
    """A client at the studio's address that never visited the token address."""
    return TestClient(app, base_url=ADDRESS)


@pytest.fixture
def page(app, settings) -> TestClient:
    """A client that came in as the page does: by the token address."""
    client = TestClient(app, base_url=ADDRESS)
    login(client, settings)
    return client


def refused(answer, status: int) -> str:
    """The refusal's one line (its status checked, its body one JSON object of one key)."""
    assert answer.status_code == status, answer.text
    assert "\n" not in answer.text and list(answer.json()) == ["error"]
    return answer.json()["error"]


def config(client: TestClient, **headers: str):
    return client.post(
        CONFIG, content=json.dumps({"toml": "die_size = 12"}), headers={**JSON_TYPE, **headers}
    )


# --- 400: the Host must be the studio's address (DNS rebinding) -------------------------


@pytest.mark.parametrize(
    "host", ["evil.example:8765", "127.0.0.1:8766", "evil.example", "127.0.0.1.nip.io:8765", "[::1"]
)
def test_a_host_that_is_not_the_studios_address_is_a_400(page, host):
    for answer in (page.get("/", headers={"host": host}), config(page, host=host)):
        assert "is not this studio's address" in refused(answer, 400)


def test_the_loopback_names_and_the_served_host_are_the_studios_address(page):
    for host in ("127.0.0.1:8765", "localhost:8765", "LOCALHOST:8765"):
        assert config(page, host=host, origin=f"http://{host}").status_code == 200


@pytest.mark.parametrize(
    "bound, allowed, refused_",
    [
        ("::1", ["[::1]:8765", "localhost:8765"], ["[::2]:8765", "evil.example:8765"]),
        ("my-box.local", ["my-box.local:8765"], ["other-box.local:8765"]),
        # every interface: an address is no rebound name, a name other than ours is refused
        ("0.0.0.0", ["192.168.1.20:8765", "[fe80::1]:8765"], ["evil.example:8765", "10.0.0.1:1"]),
    ],
)
def test_the_host_served_decides_which_names_are_allowed(bound, allowed, refused_):
    doors = Doors(bound, 8765, "k")
    assert all(doors.allowed(h) for h in allowed)
    assert not any(doors.allowed(h) for h in refused_)


# --- 401: the start's secret ------------------------------------------------------------


def test_the_api_without_the_key_is_a_401_and_the_page_says_how_to_get_it(stranger, settings):
    for answer in (
        stranger.get("/api/games"),
        stranger.get(f"/api/games/{ED}/preview.png"),  # a GET that starts work
        config(stranger),
        stranger.delete("/api/jobs/0123456789abcdef"),
        stranger.get("/api/games", headers={"authorization": "Bearer not-the-key"}),
        TestClient(stranger.app, base_url=ADDRESS, cookies={settings.doors.cookie: "no"}).get(
            "/api/games"
        ),
        stranger.get(f"/api/games?token={settings.token}"),  # the address's token is for the page
    ):
        assert "needs its key" in refused(answer, 401)
    # the page, its script and its style hold no secret
    assert stranger.get("/").status_code == 200
    assert stranger.get("/static/studio.js").status_code == 200


def test_the_token_address_sets_a_strict_cookie_and_leaves_the_address(stranger, settings):
    answer = stranger.get(f"/?token={settings.token}", follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/"
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"pnp-studio-8765={settings.token};")
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/" in cookie
    assert stranger.get("/api/games").status_code == 200
    # a wrong or old token: the page, no cookie (its script then says the key is missing)
    other = TestClient(stranger.app, base_url=ADDRESS)
    wrong = other.get("/?token=an-old-one", follow_redirects=False)
    assert wrong.status_code == 200 and "set-cookie" not in wrong.headers
    assert other.get("/api/games").status_code == 401


def test_a_script_sends_the_key_as_a_bearer_header(stranger, settings):
    answer = stranger.get("/api/games", headers={"authorization": f"Bearer {settings.token}"})
    assert answer.status_code == 200 and answer.json()[0]["slug"]


def test_no_token_asks_for_no_key_but_keeps_every_other_door(tmp_path):
    app = create_app(Settings(tmp_path, 1, 100_000_000, token=None))
    client = TestClient(app, base_url=ADDRESS)
    assert client.get("/api/games").status_code == 200
    assert config(client).status_code == 200
    refused(config(client, origin="http://localhost:9999"), 403)
    refused(config(client, host="evil.example:8765"), 400)
    refused(client.post(CONFIG, content="{}", headers={"content-type": "text/plain"}), 415)


# --- 403: only the studio's own page ----------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://localhost:9999"},
        {"origin": "http://127.0.0.1:9999"},  # the same site, another origin
        {"origin": "null"},  # a sandboxed frame, a data: page
        {"origin": "https://127.0.0.1:8765"},
        {"referer": "http://attacker.example/page.html"},
        {"sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-site"},
    ],
)
def test_a_request_from_another_origin_is_a_403(page, headers):
    assert "another site" in refused(config(page, **headers), 403)
    assert "another site" in refused(page.get("/api/games", headers=headers), 403)


def test_the_studios_own_origin_passes(page):
    own = {
        "origin": ADDRESS,
        "referer": ADDRESS + "/#/exploding-dice",
        "sec-fetch-site": "same-origin",
    }
    assert config(page, **own).status_code == 200
    assert config(page).status_code == 200  # a script sends neither Origin nor Referer


# --- 415: a body a form or a no-cors fetch can send is not JSON --------------------------


@pytest.mark.parametrize(
    "kind",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None],
)
def test_a_body_that_is_not_application_json_is_a_415(page, kind):
    headers = {} if kind is None else {"content-type": kind}
    body = json.dumps({"games": 10})
    for route in ("simulate", "build", "check", "solve", "config.toml", "config"):
        answer = page.post(f"/api/games/{ED}/{route}", content=body, headers=headers)
        assert "must be application/json" in refused(answer, 415)


def test_json_with_a_charset_is_json(page):
    answer = page.post(
        CONFIG,
        content=json.dumps({"toml": "die_size = 12"}),
        headers={"content-type": "application/json; charset=utf-8"},
    )
    assert answer.status_code == 200 and answer.json()["params"] == {"die_size": 12}


# --- the headers on every answer --------------------------------------------------------


def test_every_answer_carries_the_security_headers(page, stranger, settings):
    answers = [
        page.get("/"),
        page.get("/static/studio.js"),
        page.get("/static/studio.css"),
        page.get("/api/games"),
        page.get("/api/nothing"),  # 404
        stranger.get("/api/games"),  # 401
        page.get("/", headers={"host": "evil.example:8765"}),  # 400
        config(page, origin="http://localhost:1"),  # 403
        page.get(f"/?token={settings.token}", follow_redirects=False),  # 303
    ]
    for answer in answers:
        h = answer.headers
        assert h["x-content-type-options"] == "nosniff"
        assert h["x-frame-options"] == "DENY"
        assert h["referrer-policy"] == "no-referrer"
        policy = dict(p.strip().split(" ", 1) for p in h["content-security-policy"].split(";"))
        assert policy["frame-ancestors"] == "'none'"
        assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
        assert policy["default-src"] == "'self'" and policy["object-src"] == "'none'"


def test_a_jobs_files_may_be_framed_by_the_page_and_run_no_script(page):
    h = page.get("/api/jobs/0123456789abcdef/files/report.html").headers
    assert h["x-frame-options"] == "SAMEORIGIN"
    policy = dict(p.strip().split(" ", 1) for p in h["content-security-policy"].split(";"))
    assert policy["frame-ancestors"] == "'self'"
    assert policy["default-src"] == "'none'" and "script-src" not in policy


def test_the_page_has_no_inline_script_or_style_the_policy_would_block(page):
    html = page.get("/").text
    assert "<script>" not in html and "<style" not in html and " style=" not in html
    assert html.count("<script") == 1 and 'src="/static/studio.js"' in html
    assert not re.search(r"\son[a-z]+\s*=", html)  # no onclick= and the like


# --- laser presets: content, never a path -----------------------------------------------


def test_a_presets_path_is_refused_the_same_whatever_the_file(page, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("power = = 11")  # a parse error would say where: line 1, column 9
    paths = ["/etc/shadow", "/etc/passwd", "/no/such/file.toml", str(bad), "../laser.toml"]
    lines = set()
    for path in paths:
        for route in ("build", "check", "simulate", "config.toml"):
            answer = page.post(f"/api/games/{ED}/{route}", json={"params": {"laser_presets": path}})
            assert answer.status_code == 422, answer.text
            assert answer.json()["field"] == "laser_presets"
            lines.add(answer.json()["error"])
    (line,) = lines  # one answer for every path: nothing learnt about any file
    assert "line" not in line and "column" not in line and "/" not in line


@pytest.mark.parametrize(
    "text, words",
    [
        ("not toml [", "the uploaded presets is not valid TOML"),
        ('[materials]\nplywood = "nothing"\n', "names preset 'nothing'"),
        ("[presets.x]\ncut = 3\n", "presets.x needs"),
    ],
)
def test_uploaded_presets_are_checked_before_any_build(page, text, words):
    answer = page.post(f"/api/games/{ED}/build", json={"laser_presets_toml": text})
    assert answer.status_code == 422 and answer.json()["field"] == "laser_presets"
    assert words in answer.json()["error"]


def test_uploaded_presets_must_be_text(page):
    answer = page.post(f"/api/games/{ED}/build", json={"laser_presets_toml": ["/etc/shadow"]})
    assert answer.status_code == 422 and "text of a presets file" in answer.json()["error"]


# --- a host pnp studio refuses ----------------------------------------------------------


@pytest.mark.parametrize(
    "host",
    [
        "",
        " ",
        "bad host",
        "[::1]",
        "-x",
        "a..b",
        "127.1",
        "0",
        "x" * 300,
        "http://127.0.0.1",
        "a_b",
    ],
)
def test_an_empty_or_malformed_host_is_one_error_line(capsys, tmp_path, host):
    code, _, err = run(capsys, "studio", "--host", host, "--cache", str(tmp_path / "cache"))
    assert code == 2
    assert one_error_line(err).startswith("error: --host must be an IP address or a host name")
    assert not (tmp_path / "cache").exists()


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "my-box.local", "0.0.0.0"])
def test_an_address_or_a_name_is_a_host(host):
    check_host(host)


def test_check_host_says_what_it_got():
    with pytest.raises(PnpError, match="got ''"):
        check_host("")


# --- WebSockets and other protocol upgrades: refused by the guard -------------------------


@pytest.mark.parametrize("path", ["/", "/api/jobs", "/ws"])
def test_a_websocket_upgrade_over_http_is_a_400(page, path):
    headers = {"upgrade": "websocket", "connection": "Upgrade", "sec-websocket-version": "13"}
    assert "no WebSocket" in refused(page.get(path, headers=headers), 400)


def test_a_websocket_is_closed_before_it_is_accepted(page):
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect) as closed:
        with page.websocket_connect("/api/jobs"):
            pass
    assert closed.value.code == 1008


# --- null and absurd values: a 422 (or the default), never a 500 --------------------------

ROUTES = {
    "simulate": ["seed", "games", "players", "bot", "bots", "bot_budget", "options", "sweep"],
    "tune": ["seed", "players", "targets", "over", "budget", "bot"],
    "solve": ["players", "budget"],
    "check": ["params", "paper"],
    "build": ["params", "paper", "formats", "laser_presets_toml"],
    "config": ["toml"],
    "config.toml": ["params"],
}
CASES = [(route, key) for route, keys in ROUTES.items() for key in keys]


@pytest.fixture
def no_jobs(app, monkeypatch):
    """The app's jobs and checks answered at once, with no process: what a request is
    answered before its task would run is what these tests look at."""
    from concurrent.futures import Future

    from pnp.studio.jobs import Asked, Job

    jobs = app.state.studio.jobs

    def submit(kind, game, args, request):
        return Job("0" * 16, kind, game, "key", args)

    def ask(kind, args, request, most=None):
        future: Future = Future()
        future.set_result(({"errors": [], "warnings": [], "infos": []}, None))
        return Asked("key", future)

    monkeypatch.setattr(jobs, "submit", submit)
    monkeypatch.setattr(jobs, "ask", ask)


@pytest.mark.parametrize("route, key", CASES)
def test_a_null_field_is_refused_in_one_line_or_taken_as_left_out(page, no_jobs, route, key):
    game = "building-community" if route == "solve" else ED
    url = f"/api/games/{game}/{route}"
    answer = page.post(url, json={key: None})
    assert answer.status_code in (200, 202, 422) and "\n" not in answer.text, answer.text
    if answer.text != page.post(url, json={}).text:  # else null is the key left out
        assert answer.status_code == 422 and f"'{key}'" in answer.json()["error"]


@pytest.mark.parametrize("route, key", [("simulate", "seed"), ("simulate", "games"),
                                        ("tune", "seed"), ("solve", "budget")])  # fmt: skip
def test_a_null_number_that_has_a_default_is_a_422_not_the_default(page, no_jobs, route, key):
    game = "building-community" if route == "solve" else ED
    answer = page.post(f"/api/games/{game}/{route}", json={key: None})
    assert refused_field(answer) == f"'{key}' must be a whole number, got null"


@pytest.mark.parametrize("value", ["1e400", "-1e400", "NaN", "Infinity", "1" + "0" * 400])
@pytest.mark.parametrize("route, key", [("simulate", "games"), ("simulate", "seed"),
                                        ("simulate", "players"), ("solve", "budget")])  # fmt: skip
def test_a_huge_number_is_a_422(page, no_jobs, route, key, value):
    game = "building-community" if route == "solve" else ED
    answer = page.post(
        f"/api/games/{game}/{route}", content=f'{{"{key}": {value}}}', headers=JSON_TYPE
    )
    assert answer.status_code == 422 and "\n" not in answer.text, answer.text


def refused_field(answer) -> str:
    assert answer.status_code == 422, answer.text
    return answer.json()["error"]
