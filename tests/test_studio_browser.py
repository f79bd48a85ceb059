"""The studio in a real browser: Debian's Chromium driven by Playwright against `pnp studio`
on 127.0.0.1, doing what a designer does. A screenshot of every step is kept under the
test's temporary folder (`screens/`).

Chromium comes from the system (`apt-get install chromium`; `.ci/run` installs it), never
downloaded by Playwright. Without it the tests are skipped on a developer's machine and fail
in CI (CI=true), where it must be there.

The page comes in by the address `pnp studio` prints (its token sets the cookie), under the
studio's real Content-Security-Policy: a policy violation fails the test, and every wait is
a function (`() => ...`), since Playwright evaluates an expression string with eval, which
the policy forbids."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import launched, require_chromium
from cli_run import pnp
from studio_client import Served, cli_json, config_file, running

from pnp.draw.render.laser import LASER_LAYERS
from pnp.games import registry
from pnp.sim.tables import summary_rows

pytestmark = pytest.mark.slow
WAIT = 180_000  # ms: a kit build on a busy 2-core machine; only a bound, never a target

require_chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Served]:
    with running(tmp_path_factory.mktemp("studio-cache")) as served:
        yield served
        os.killpg(served.proc.pid, signal.SIGINT)
        served.proc.communicate(timeout=15)


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One Chromium for the module; each test has a fresh context (`page`)."""
    with launched() as browser:
        yield browser


@pytest.fixture
def page(chromium, server, tmp_path):
    shots = tmp_path / "screens"
    shots.mkdir()
    context = chromium.new_context(viewport={"width": 1400, "height": 900}, accept_downloads=True)
    pg = context.new_page()
    pg.set_default_timeout(WAIT)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.on(
        "console",
        lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None,
    )
    pg.goto(server.address)  # the address `pnp studio` printed, with its token
    pg.shots = shots  # type: ignore[attr-defined]
    yield pg
    context.close()
    assert not errors, f"the page's script failed: {errors}"


def shot(pg, name: str) -> Path:
    path = pg.shots / f"{name}.png"
    pg.screenshot(path=path)
    return path


def built(pg) -> None:
    pg.wait_for_function(
        "() => document.querySelector('#build-status').textContent.startsWith('checked and built')"
    )


def set_field(pg, key: str, value: str) -> None:
    box = pg.locator(f"#f-{key}")
    box.fill(value)


def test_edit_exploding_dice_see_it_change_play_it_and_download_it(page, tmp_path):
    pg = page
    assert pg.locator(".game-card").count() == 5
    shot(pg, "1-games")
    pg.click("text=Exploding Dice >> nth=0")
    built(pg)
    assert pg.locator("#pages img").count() >= 4
    shot(pg, "2-kit")

    # an out-of-range value: the CLI's line beside the field, nothing built
    set_field(pg, "die_size", "50")
    error = pg.locator('.field[data-key="die_size"] .error')
    error.wait_for(state="visible")
    assert error.inner_text().startswith("'die_size' must be from 5 to 40")
    assert "not built" in pg.inner_text("#build-status")
    shot(pg, "3-refused")

    # a good value: the board's preview changes
    board = pg.locator("#parts figure", has_text="board").locator("img").first
    set_field(pg, "die_size", "10")
    built(pg)
    before, src = board.screenshot(), board.get_attribute("src")
    set_field(pg, "die_size", "16")
    pg.wait_for_function(
        "src => { const i = [...document.querySelectorAll('#parts figure')]"
        ".find(f => f.textContent.includes('board')); const img = i && i.querySelector('img');"
        " return img && img.getAttribute('src') !== src && img.complete && img.naturalWidth; }",
        arg=src,
    )
    built(pg)
    after = board.screenshot()
    assert before != after
    shot(pg, "4-changed")

    # a simulation: the table's figures are the CLI's JSON for the same request
    pg.click("button[data-tab=play]")
    pg.select_option("#players", "4")
    pg.fill("input[name=games]", "2000")
    pg.fill("input[name=seed]", "5")
    pg.click("#run")
    pg.locator("#summary-table").wait_for()
    shot(pg, "5-simulated")
    want = cli_json(
        "simulate",
        "exploding-dice",
        "--games",
        "2000",
        "--seed",
        "5",
        "--players",
        "4",
        "--config",
        str(config_file(tmp_path, {"die_size": 16.0})),
    )
    rows = {
        tr.get_attribute("data-metric"): tr.locator("td").inner_text()
        for tr in pg.locator("#summary-table tr[data-metric]").all()
    }
    table = summary_rows(want)  # how `pnp simulate` prints the CLI's own JSON
    printed = dict(zip(table.keys, (value for _, value in table.rows), strict=True))
    assert {k: " ".join(v.split()) for k, v in rows.items()} == {
        k: " ".join(v.split()) for k, v in printed.items()
    }
    # the share with its interval: "±" when symmetric, else its two ends
    assert re.search(r"±|\(\d[\d.]*-\d[\d.]*\)", rows["advantage_p1"]), rows["advantage_p1"]
    assert rows["first_player_advantage"]

    # a long run is cancelled
    pg.fill("input[name=games]", "5000000")
    pg.click("#run")
    pg.wait_for_function(
        "() => /[1-9][0-9,]* of 5,000,000 games/"
        ".test(document.querySelector('#run-text').textContent)"
    )
    shot(pg, "6-running")
    pg.click("#cancel-run")
    pg.wait_for_function("() => document.querySelector('#run-text').textContent === 'cancelled'")

    # the kit's zip holds the very bytes `pnp build` writes
    pg.click("button[data-tab=kit]")
    with pg.expect_download() as download:
        pg.click("#zip-link")
    data = Path(download.value.path()).read_bytes()
    out = tmp_path / "cli"
    r = pnp(
        "build",
        "exploding-dice",
        "--paper",
        "a4",
        "--out",
        str(out),
        "--config",
        str(config_file(tmp_path, {"die_size": 16.0})),
    )
    assert r.returncode == 0, r.stderr
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        name = "exploding-dice/exploding-dice-a4.pdf"
        assert z.read(name) == (out / name).read_bytes()
        assert len(z.namelist()) == sum(
            1 for p in (out / "exploding-dice").rglob("*") if p.is_file()
        )


def test_building_community_solve_shows_the_winning_line(page, tmp_path):
    pg = page
    pg.click("text=Building Community >> nth=0")
    built(pg)
    set_field(pg, "radius", "2")
    built(pg)
    pg.click("button[data-tab=solve]")
    pg.select_option("#solve-players", "2")
    pg.click("#solve-run")
    pg.locator("#solve-line").wait_for()
    shot(pg, "7-solved")
    want = cli_json(
        "solve",
        "building-community",
        "--players",
        "2",
        "--config",
        str(config_file(tmp_path, {"radius": 2})),
    )
    assert pg.locator("#solve-line li").count() == want["length"] == len(want["line"])
    assert f"won in {want['length']} turns" in pg.inner_text(".verdict")
    assert json.dumps(want["result"]) == '"win"'


def test_custom_dice_faces_are_edited_as_a_grid(page):
    """Home in One Piece's dice (a die per row, a face per column): a cell edits the value,
    a fourth die is refused beside the field with the CLI's line."""
    pg = page
    pg.click("text=Home in One Piece >> nth=0")
    field = pg.locator('.field[data-key="dice"]')
    cells = field.locator(".grid-edit input")
    cells.first.wait_for()
    assert cells.count() == 18  # three dice of six faces
    cells.nth(1).fill("0")
    value = json.loads(pg.eval_on_selector("#f-dice", "e => e.value"))
    assert value[0][1] == 0 and len(value) == 3
    field.locator("text=+ row").click()
    error = field.locator(".error")
    error.wait_for(state="visible")
    assert error.inner_text() == "'dice' takes at most 3 entries, got 4"
    shot(pg, "8-dice-grid")


def checks_say(pg, start: str) -> None:
    pg.wait_for_function(
        "s => (document.querySelector('#checks-for') || {}).textContent?.startsWith(s)", arg=start
    )


def test_findings_name_their_values_and_leave_with_a_refused_value(page):
    """The Checks tab says which values its findings were made for, shows a busy mark while
    new ones are checked, and keeps no finding for values that were refused: an unknown
    colour gets the CLI's line beside its field, and a finding beside a field goes when
    that field's value is refused."""
    pg = page
    pg.click("text=Exploding Dice >> nth=0")
    built(pg)
    pg.click("button[data-tab=checks]")
    checks_say(pg, "Found for the default parameters on A4.")
    assert pg.inner_text("#check-badge") == "✓"

    # a rebuild: the tab is busy and names the values it checks; the old findings are
    # marked as the values before
    set_field(pg, "die_size", "30")
    checks_say(pg, "Checking die_size = 30 on A4…")
    assert "busy" in pg.get_attribute("#check-badge", "class")
    assert "The findings below are for the values before." in pg.inner_text("#checks-for")
    assert "stale" in pg.get_attribute("#checks", "class")
    shot(pg, "9-checking")
    checks_say(pg, "Found for die_size = 30 on A4.")
    assert pg.get_attribute("#check-badge", "class") == "badge errors"
    assert "cannot be folded to fit the tin" in pg.inner_text("#checks")
    assert "can be printed" not in pg.inner_text("#checks")

    # an unknown colour: refused beside its field with the CLI's line, nothing checked
    set_field(pg, "colours", "pink, red, blue, green")
    error = pg.locator('.field[data-key="colours"] .error')
    error.wait_for(state="visible")
    assert error.inner_text().startswith("unknown colour 'pink' in 'colours[0]': choose from")
    checks_say(pg, 'Not checked: die_size = 30, colours = ["pink","red","blue","green"] on A4.')
    assert pg.inner_text("#check-badge") == "!"
    assert "not built" in pg.inner_text("#build-status")
    shot(pg, "10-pink")

    # a finding beside a field, then that field's value refused: the finding goes
    pg.click("text=Building Community >> nth=0")
    set_field(pg, "radius", "8")
    checks_say(pg, "Found for radius = 8 on A4.")
    finding = pg.locator('.field[data-key="solver_budget"] .finding')
    finding.wait_for(state="visible")
    assert "found no win within 50,000 positions" in finding.inner_text()
    set_field(pg, "solver_budget", "0")
    pg.locator('.field[data-key="solver_budget"] .error').wait_for(state="visible")
    assert finding.is_hidden() and finding.inner_text() == ""
    checks_say(pg, "Not checked: radius = 8, solver_budget = 0 on A4.")
    shot(pg, "11-finding-refused")


# --- the page's address: reload, share, Back and Forward (issue 31, item 13) -------------


def field_values(pg) -> dict[str, str]:
    """What the form shows for the fields these tests change, and the paper."""
    return pg.evaluate(
        """() => ({die_size: document.querySelector('#f-die_size').value,
                  colours: document.querySelector('#f-colours').value,
                  stall: document.querySelector('#f-stall').value,
                  paper: document.querySelector('#paper-seg .on').dataset.paper})"""
    )


def address_is(pg, *words: str) -> None:
    """Wait until the address holds exactly these `key=value` words (any order)."""
    pg.wait_for_function(
        """want => { const q = location.hash.split('?')[1] || '';
                     const have = q ? q.split('&').sort() : [];
                     return JSON.stringify(have) === JSON.stringify([...want].sort()); }""",
        arg=list(words),
    )


def test_the_address_keeps_the_edits_for_a_reload_a_link_and_back_and_forward(page, server):
    pg = page
    assert "token" not in pg.url  # the printed address set the cookie and left the address
    pg.click("text=Exploding Dice >> nth=0")
    built(pg)
    assert pg.url.endswith("/#/exploding-dice")
    set_field(pg, "die_size", "12")
    address_is(pg, "die_size=12")
    built(pg)
    pg.select_option("#f-stall", "skip")
    address_is(pg, "die_size=12", "stall=skip")
    set_field(pg, "colours", "red, blue, green, purple")
    address_is(pg, "die_size=12", "stall=skip", "colours=red%2C+blue%2C+green%2C+purple")
    pg.click("#paper-seg button[data-paper=letter]")
    address_is(
        pg, "die_size=12", "stall=skip", "colours=red%2C+blue%2C+green%2C+purple", "paper=letter"
    )
    built(pg)
    edited = {
        "die_size": "12",
        "colours": "red, blue, green, purple",
        "stall": "skip",
        "paper": "letter",
    }
    assert field_values(pg) == edited
    assert pg.locator("#downloads a", has_text="exploding-dice-letter.pdf").count() == 1
    shot(pg, "9-address")

    # a reload keeps every edit, and builds them
    pg.reload()
    built(pg)
    assert field_values(pg) == edited
    assert pg.locator("#downloads a", has_text="exploding-dice-letter.pdf").count() == 1

    # Back walks the edits one by one, Forward walks them again
    pg.go_back()
    address_is(pg, "die_size=12", "stall=skip", "colours=red%2C+blue%2C+green%2C+purple")
    assert field_values(pg) == {**edited, "paper": "a4"}
    pg.go_back()
    pg.go_back()
    address_is(pg, "die_size=12")
    assert field_values(pg) == {
        "die_size": "12",
        "colours": "red, green, blue, purple",
        "stall": "redraw",
        "paper": "a4",
    }
    pg.go_back()
    address_is(pg)
    assert field_values(pg)["die_size"] == "10"
    built(pg)
    pg.go_forward()
    address_is(pg, "die_size=12")
    assert field_values(pg)["die_size"] == "12"
    built(pg)

    # a link shares a variant: another tab opens it as it was
    other = pg.context.new_page()
    other.goto(server.url + "/#/exploding-dice?die_size=14&paper=letter")
    built(other)
    assert field_values(other) == {
        "die_size": "14",
        "colours": "red, green, blue, purple",
        "stall": "redraw",
        "paper": "letter",
    }
    assert other.locator('.field[data-key="die_size"]').get_attribute("class") == "field changed"
    other.close()


def test_a_page_without_the_key_says_how_to_get_it_and_a_stale_token_leaves_the_address(
    chromium, server, tmp_path
):
    context = chromium.new_context()  # no cookie: the key was never given
    pg = context.new_page()
    pg.set_default_timeout(WAIT)
    pg.goto(server.url + "/?token=from-an-old-start#/exploding-dice")
    banner = pg.locator("#page-error")
    banner.wait_for(state="visible")
    assert "needs its key" in banner.inner_text()
    assert pg.url == server.url + "/#/exploding-dice"  # the stale token is out of the address
    pg.screenshot(path=tmp_path / "no-key.png")
    context.close()


# --- laser presets come from a file, never a path (issue 31, item 4) ----------------------


def test_laser_presets_are_loaded_from_a_file_and_a_path_is_refused(page, tmp_path):
    pg = page
    pg.click("text=Desert Home >> nth=0")
    built(pg)
    row = pg.locator('.field[data-key="laser_presets"]')
    assert pg.eval_on_selector("#f-laser_presets", "e => e.readOnly")
    chooser = row.locator("input[type=file]")

    bad = tmp_path / "broken.toml"
    bad.write_text("power = = 11\n")
    chooser.set_input_files(bad)
    error = row.locator(".error")
    error.wait_for(state="visible")
    assert error.inner_text().startswith("the uploaded presets is not valid TOML")

    mine = tmp_path / "my-laser.toml"
    mine.write_text(
        '[materials]\ndefault = "mine"\n[presets.mine]\n'
        + "".join(f"{layer} = {{ speed = 9, power = 22 }}\n" for layer in LASER_LAYERS)
    )
    chooser.set_input_files(mine)
    built(pg)
    assert error.is_hidden()
    assert pg.input_value("#f-laser_presets") == "my-laser.toml"
    assert pg.evaluate(TRUNCATED) == []  # the file's name shows whole
    assert "laser_presets" not in pg.url  # the text is sent to the studio, not kept in a link
    row.screenshot(path=pg.shots / "10-presets.png")

    # a config file that names a path: the path is refused beside the field, never read
    config = tmp_path / "names-a-path.toml"
    config.write_text('laser_presets = "/etc/shadow"\n')
    pg.set_input_files("#toml-load", config)
    error.wait_for(state="visible")
    assert "the studio reads no file a request names" in error.inner_text()
    assert "shadow" not in pg.inner_text("body").replace("/etc/shadow", "")


# --- nothing truncated at the page's usual widths (issue 31, item 14) ---------------------

TRUNCATED = """() => {
  // every visible input, select, label and caption whose text does not fit its box
  const ctx = document.createElement("canvas").getContext("2d");
  const width = (e, text) => {
    ctx.font = getComputedStyle(e).font;
    return ctx.measureText(text).width;
  };
  const inner = (e) => { const cs = getComputedStyle(e);
    return e.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight); };
  const out = [];
  const sel = "input, select, textarea, label, figcaption, figcaption span, button, .button, "
    + ".key, .unit, .default, .game-tabs a, .tag, legend, .status, caption, th, td, h2, h3, h4";
  for (const e of document.querySelectorAll(sel)) {
    if (!e.offsetParent || ["checkbox", "file", "hidden", "radio"].includes(e.type)) continue;
    if (["auto", "scroll"].includes(getComputedStyle(e).overflowX)) continue;
    let need = e.scrollWidth, have = e.clientWidth + 1, what = e.value || e.textContent;
    if (e.tagName === "INPUT" && !e.value && e.placeholder) {
      what = e.placeholder; need = width(e, what); have = inner(e) + 1;
    }
    if (e.tagName === "SELECT" && e.selectedOptions.length) {  // the text and its arrow
      what = e.selectedOptions[0].text; need = width(e, what) + 20; have = inner(e) + 1;
    }
    if (need > have) out.push(`${e.tagName.toLowerCase()}#${e.id}[${e.name || ""}] '`
      + `${String(what).trim().slice(0, 50)}' needs ${Math.ceil(need)} px, `
      + `has ${Math.floor(have)}`);
  }
  return out;
}"""


@pytest.mark.parametrize("width", [1280, pytest.param(1440, marks=pytest.mark.long)])
def test_no_input_or_caption_is_truncated_at_the_usual_widths(page, server, width):
    """Every game's form and each of its tabs, at a laptop's and a desktop's width: the
    text of every input (its placeholder when empty), choice, label and caption fits."""
    pg = page
    pg.set_viewport_size({"width": width, "height": 900})
    found = {"home": pg.evaluate(TRUNCATED)}
    shot(pg, f"width-{width}-home")
    for slug in registry():
        pg.goto(f"{server.url}/#/{slug}")
        pg.wait_for_function(
            "() => !document.querySelector('#build-status').className.includes('busy')"
        )
        for tab in ("kit", "checks", "play", "solve"):
            button = pg.locator(f"button[data-tab={tab}]")
            if button.is_hidden():
                continue
            button.click()
            found[f"{slug} {tab}"] = pg.evaluate(TRUNCATED)
            shot(pg, f"width-{width}-{slug}-{tab}")
    assert {k: v for k, v in found.items() if v} == {}


@pytest.mark.long
def test_tune_finds_settings_watches_the_trials_and_loads_the_best_into_the_form(page):
    """The Tune tab: a target and a parameter picked on the page, the trials watched, the
    answer the CLI's for the same request, and the best setting loaded into the form."""
    pg = page
    pg.click("text=Exploding Dice >> nth=0")
    built(pg)
    pg.click("button[data-tab=tune]")
    metric = pg.locator(".tune-target .t-metric").first
    assert "seat_gap" in metric.inner_text() and "mcts_vs_greedy" in metric.inner_text()
    pg.fill(".tune-target .t-a", "18")
    pg.fill(".tune-target .t-b", "25")
    keys = pg.locator("#tune-keys input[name=over]")
    offered = [keys.nth(i).get_attribute("value") for i in range(keys.count())]
    assert "dice_per_colour" in offered and "die_size" not in offered  # rule keys only
    pg.check("input[name=over][value=dice_per_colour]")
    pg.fill("[data-range=dice_per_colour]", "2..6")
    pg.select_option("#tune-players", "3")
    pg.fill("#tune-form input[name=budget]", "2000games")
    pg.fill("#tune-form input[name=seed]", "4")
    shot(pg, "tune-1-asked")
    pg.click("#tune-run")
    pg.wait_for_function(
        "() => !document.querySelector('#tune-progress').hidden"
        " || document.querySelector('#tune-answer')"
    )
    shot(pg, "tune-2-running")
    pg.wait_for_selector("#tune-answer")
    shot(pg, "tune-3-answer")
    expected = cli_json("tune", "exploding-dice", "--players", "3", "--target", "turns in 18..25",
                        "--over", "dice_per_colour=2..6", "--budget", "2000games", "--seed", "4",
                        "--progress", "none")  # fmt: skip
    assert pg.inner_text("#tune-answer") == expected["answer"]
    rows = pg.locator("#tune-table tr")
    best = expected["recommended"][0]
    first = rows.nth(1).inner_text()
    assert f"dice_per_colour = {best['setting']['dice_per_colour']}" in first
    assert str(best["targets"][0]["value"]) in first and best["targets"][0]["verdict"] in first
    pg.locator(".tune-load").first.click()
    pg.wait_for_function(
        "v => document.querySelector('#f-dice_per_colour').value === v",
        arg=str(best["setting"]["dice_per_colour"]),
    )
    built(pg)
    assert f"dice_per_colour={best['setting']['dice_per_colour']}" in pg.url
    assert pg.input_value("#players") == "3"
    shot(pg, "tune-4-loaded")
