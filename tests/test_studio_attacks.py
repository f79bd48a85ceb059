"""Other web pages must not drive the studio: Debian's Chromium, whose user has the studio
open (its cookie set by the printed address), visits an attacker's pages served from a
second origin, and each way a page can send a request fails to start a job.

The attacks: a `text/plain` no-cors `fetch`, a form posted into an iframe, a top-level form
post and a form into a popup, each from `http://localhost:OTHER` (another site) and from
`http://127.0.0.1:OTHER` (the same site, another origin: the strict cookie goes along). A
JSON `fetch` needs a CORS preflight and an image is shown no JSON answer: Chromium itself
stops those before the studio has a say; tests/test_studio_doors.py holds the studio's part.
Then DNS rebinding, with Chromium's `--host-resolver-rules` mapping `evil.example` to
127.0.0.1: a page of `http://evil.example:PORT` whose own-origin requests reach the studio.

Each case holds the studio's answer as Chromium saw it and the studio's job list, which
stays empty; the same request from the studio's own page does start a job (the control).
Each attack runs against a studio with its key and one started with `--no-token`, whose
other doors must hold alone."""

from __future__ import annotations

import json
import os
import signal
import threading
from collections.abc import Iterator
from contextlib import closing
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from browser import CHROMIUM, FLAGS, launched, require_chromium
from studio_client import Served, running

pytestmark = pytest.mark.slow

require_chromium()
WAIT = 60_000  # ms: a bound for a page load or an answer, never a target
SIM = "/api/games/exploding-dice/simulate"
FORM_FIELD = """<input type="hidden" name='{"games":222,"seed":940001,"pad":"' value='"}'>"""

ATTACKS = {
    # a simple request a page may send anywhere: text/plain, no preflight, answer unread
    "no-cors-fetch": """<script>
fetch(STUDIO + SIM, {method: "POST", mode: "no-cors", credentials: "include",
  headers: {"content-type": "text/plain"}, body: '{"games": 222, "seed": 940001}'})
  .finally(() => { document.title = "sent"; });
</script>""",
    "iframe-form": f"""<iframe name="sink"></iframe>
<form id="f" method="POST" enctype="text/plain" target="sink" action="STUDIO_SIM">
{FORM_FIELD}</form>
<script>document.getElementById("f").submit(); document.title = "sent";</script>""",
    "top-level-form": f"""<form id="f" method="POST" enctype="text/plain" action="STUDIO_SIM">
{FORM_FIELD}</form>
<script>document.title = "sent"; document.getElementById("f").submit();</script>""",
    "popup-form": f"""<form id="f" method="POST" enctype="text/plain" target="_blank"
action="STUDIO_SIM">{FORM_FIELD}<button id="go">Win a prize</button></form>""",
}


def attack_page(name: str, studio: str) -> str:
    body = ATTACKS[name]
    body = body.replace("STUDIO_SIM", studio + SIM)
    script = f"<script>const STUDIO = {json.dumps(studio)}; const SIM = {json.dumps(SIM)};</script>"
    return (
        f"<!doctype html><html><head><title>a page</title>{script}</head><body>{body}</body></html>"
    )


class Attacker:
    """A web server of the attacker's on another port: GET /NAME?studio=URL is that attack."""

    def __init__(self) -> None:
        pages = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                from urllib.parse import parse_qs, urlsplit

                parts = urlsplit(self.path)
                name = parts.path.strip("/")
                studio = parse_qs(parts.query).get("studio", [""])[0]
                if name not in ATTACKS:
                    self.send_error(404)
                    return
                data = attack_page(name, studio).encode()
                self.send_response(200)
                self.send_header("content-type", "text/html; charset=utf-8")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        del pages

    def __enter__(self) -> Attacker:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def attacker() -> Iterator[Attacker]:
    with Attacker() as a:
        yield a


@pytest.fixture(scope="module", params=["token", "no-token"])
def studio(request, tmp_path_factory) -> Iterator[Served]:
    args = ["--no-token"] if request.param == "no-token" else []
    with running(tmp_path_factory.mktemp("studio-cache"), *args) as served:
        yield served
        os.killpg(served.proc.pid, signal.SIGINT)
        served.proc.communicate(timeout=15)


def jobs(served: Served) -> list[dict]:
    """The studio's job list, as a script with the key reads it."""
    with served.client() as client:
        answer = client.get("/api/jobs")
        assert answer.status_code == 200, answer.text
        return answer.json()


def launch(browser_type, *flags: str):
    return browser_type.launch(executable_path=CHROMIUM, args=[*FLAGS, *flags])


@pytest.fixture(scope="module")
def browser() -> Iterator:
    """One Chromium for the module; each test's victim has a fresh context."""
    with launched() as b:
        yield b


def victim(browser, studio: Served):
    """A browser context whose user has the studio open: the printed address visited."""
    context = browser.new_context()
    context.set_default_timeout(WAIT)
    page = context.new_page()
    page.goto(studio.address)
    assert page.url == studio.url + "/"  # the token left the address
    cookies = {c["name"] for c in context.cookies()}
    assert cookies == (set() if "?token=" not in studio.address else {f"pnp-studio-{port(studio)}"})
    return context, page


def port(studio: Served) -> int:
    return int(studio.url.rsplit(":", 1)[1])


def ids(studio: Served) -> set[str]:
    return {job["id"] for job in jobs(studio)}


def attack(context, page, name: str, url: str) -> None:
    """Open the attacker's page `name`, and do what its visitor does (click, for the popup)."""
    if name == "popup-form":
        page.goto(url)
        with context.expect_page() as popup:
            page.click("#go")
        popup.value.wait_for_load_state()
    elif name == "top-level-form":
        page.goto(url)
        page.wait_for_url(lambda u: u.startswith("http://127.0.0.1") and SIM in u)
        page.wait_for_load_state()
    else:
        page.goto(url)
        page.wait_for_function("() => document.title === 'sent'")


@pytest.mark.parametrize("site", ["localhost", "127.0.0.1"])
def test_a_page_of_another_origin_starts_no_job(browser, studio, attacker, site, tmp_path):
    context, own = victim(browser, studio)
    seen: list[tuple[str, str, int]] = []

    def own_page(r) -> bool:
        if r.request.is_navigation_request():
            return False  # a navigation of the attacker's (a popup's has no frame yet)
        return r.frame.page == own

    def answered(r) -> None:
        if r.url.startswith(studio.url + "/api/") and not own_page(r):
            seen.append((r.request.method, r.url.removeprefix(studio.url), r.status))

    context.on("response", answered)
    before = ids(studio)
    for name in ATTACKS:
        seen.clear()
        page = context.new_page()
        attack(context, page, name, f"http://{site}:{attacker.port}/{name}?studio={studio.url}")
        for _ in range(WAIT // 100):  # the studio's answer as Chromium got it, at most WAIT
            if seen:
                break
            page.wait_for_timeout(100)
        page.screenshot(path=tmp_path / f"{name}-{site}.png")
        assert ids(studio) == before, f"{name} started a job"
        assert seen, f"{name}: the request never reached the studio"
        # another origin: refused before the key or the body is even looked at
        assert all(status == 403 for _, _, status in seen), (name, seen)
        for other in context.pages[1:]:
            other.close()

    # the control: the same request from the studio's own page starts a job
    status = own.evaluate(
        """async (sim) => (await fetch(sim, {method: "POST",
            headers: {"content-type": "application/json"},
            body: '{"games": 222, "seed": 940001}'})).status""",
        SIM,
    )
    assert status == 202
    assert len(ids(studio) - before) == 1
    context.close()


REBOUND = """<!doctype html><title>a page</title><script>
(async () => {
  // the name now points at 127.0.0.1: these are same-origin requests, answers readable
  const sim = await fetch("/api/games/exploding-dice/simulate", {method: "POST",
    headers: {"content-type": "application/json"}, body: '{"games": 10, "seed": 940002}'});
  const list = await fetch("/api/games");
  document.title = JSON.stringify({simulate: [sim.status, await sim.text()],
                                   games: [list.status, await list.text()]});
})();
</script>"""


# Chromium's own guard (Local Network Access: a public page may not reach loopback) is off, as
# in a browser without it or whose user allowed its prompt: the studio must not rely on it.
NO_LOCAL_NETWORK_CHECKS = (
    "--disable-features=BlockInsecurePrivateNetworkRequests,LocalNetworkAccessChecks,"
    "PrivateNetworkAccessSendPreflights"
)


def test_a_rebound_name_is_refused_by_the_host_check(browser, studio, tmp_path):
    """DNS rebinding: the attacker's page was served for `evil.example:PORT` (here by the
    browser's route), then the name is rebound to 127.0.0.1, so the page's own-origin
    requests reach the studio, with `Host: evil.example:PORT`; with `--no-token` only the
    Host check stands in their way."""
    here = f"http://evil.example:{port(studio)}"
    before = ids(studio)
    with closing(
        launch(  # another Chromium (its own flags) from the module's Playwright
            browser.browser_type,
            "--host-resolver-rules=MAP evil.example 127.0.0.1",
            NO_LOCAL_NETWORK_CHECKS,
        )
    ) as rebinding:
        context, _ = victim(rebinding, studio)
        context.route(
            here + "/", lambda route: route.fulfill(body=REBOUND, content_type="text/html")
        )
        page = context.new_page()
        page.goto(here + "/")
        page.wait_for_function("() => document.title.startsWith('{')")
        seen = json.loads(page.title())
        page.screenshot(path=tmp_path / "rebound.png")
        assert ids(studio) == before, "the rebound page started a job"
        for status, text in seen.values():
            assert status == 400, seen
            assert json.loads(text)["error"].startswith("the Host header 'evil.example:")
        # the studio's API opened under the rebound name: refused as well
        direct = page.goto(here + "/api/games")
        assert direct is not None and direct.status == 400
