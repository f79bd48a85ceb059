"""The studio's JSON API, through the ASGI test client: every route and every error case.

The fast tests need no job process (schemas, refusals); the slow ones run real jobs and
hold their results against what the command line writes for the same request."""

from __future__ import annotations

import dataclasses
import io
import json
import zipfile
from pathlib import Path

import pytest
from cli_run import one_error_line, pnp, run
from studio_client import cli_json, config_file, run_job, studio, wait

from pnp.build import check_game
from pnp.contract.config import parse_toml, split_config
from pnp.contract.gamedef import rule_keys
from pnp.contract.palette import INKS
from pnp.contract.params import PrintParams
from pnp.games import get_game, registry
from pnp.sim.grid import sweep_keys
from pnp.sim.runner import MAX_GAMES
from pnp.studio.app import MAX_BODY

ED = "exploding-dice"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with studio(tmp_path_factory.mktemp("studio-cache")) as c:
        yield c


# --- games and their schemas ----------------------------------------------------------


def test_games_lists_every_registered_game_with_its_players_and_options(client):
    games = client.get("/api/games").json()
    assert [g["slug"] for g in games] == list(registry())
    ed = next(g for g in games if g["slug"] == ED)
    assert ed["players"] == {"min": 2, "max": 4, "default": 4}
    assert [o["flag"] for o in ed["options"]] == ["--two-colours"]
    bc = next(g for g in games if g["slug"] == "building-community")
    assert bc["solver"] and bc["cooperative"]


@pytest.mark.parametrize("slug", list(registry()))
def test_the_schema_holds_every_key_pnp_params_lists_with_its_default(client, slug):
    fields = client.get(f"/api/games/{slug}/params").json()["fields"]
    game = get_game(slug)
    defaults = {
        **dataclasses.asdict(game.default_params()),
        **dataclasses.asdict(PrintParams()),
    }
    assert [f["key"] for f in fields] == list(defaults)
    for f in fields:
        want = defaults[f["key"]]
        assert json.dumps(f["default"]) == json.dumps(want, default=list), f["key"]
        assert f["type"] in (
            "number",
            "integer",
            "boolean",
            "choice",
            "text",
            "list",
            "table",
            "colours",
        )


def test_a_number_field_carries_its_range_unit_and_help(client):
    fields = {f["key"]: f for f in client.get(f"/api/games/{ED}/params").json()["fields"]}
    die = fields["die_size"]
    assert (die["type"], die["min"], die["max"], die["unit"]) == ("number", 5.0, 40, "mm")
    assert "smallest die" in die["help"]
    assert fields["n"]["type"] == "integer" and fields["n"]["step"] == 2  # even sizes only
    assert fields["dice_per_colour"]["step"] == 1
    assert fields["arrows"]["choices"] == ["all", "pinwheel"]
    assert fields["colours"]["type"] == "colours"
    assert fields["paper"]["choices"] == ["a4", "letter"]


def test_unknown_game_is_a_404_with_one_json_line(client):
    for method, url in (
        ("GET", "/api/games/chess/params"),
        ("POST", "/api/games/chess/check"),
        ("POST", "/api/games/chess/build"),
        ("POST", "/api/games/chess/simulate"),
    ):
        r = client.request(method, url, json={})
        assert r.status_code == 404, url
        assert list(r.json()) == ["error"] and "\n" not in r.json()["error"]
        assert "chess" in r.json()["error"]


# --- values refused beside their field --------------------------------------------------


def _cli_error(tmp_path: Path, toml: str) -> str:
    cfg = tmp_path / "bad.toml"
    cfg.write_text(toml + "\n")
    r = pnp("check", ED, "--config", str(cfg))
    assert r.returncode == 2
    (line,) = [ln for ln in r.stderr.splitlines() if ln.strip()]
    return line


def test_an_out_of_range_value_is_refused_with_the_cli_message(client, tmp_path):
    r = client.post(f"/api/games/{ED}/check", json={"params": {"die_size": 50}})
    assert r.status_code == 422
    body = r.json()
    assert body["field"] == "die_size"
    assert "'die_size' must be from 5 to 40" in body["error"]
    assert _cli_error(tmp_path, "die_size = 50").endswith(body["error"])


def test_every_bad_field_is_named_at_once(client):
    r = client.post(
        f"/api/games/{ED}/build", json={"params": {"die_size": "big", "n": 3.5, "margin": 1}}
    )
    assert r.status_code == 422
    assert set(r.json()["fields"]) == {"die_size", "n"}


@pytest.mark.parametrize("route", ["check", "build"])
def test_an_unknown_colour_is_refused_beside_its_field_with_the_cli_line(
    client, tmp_path, capsys, route
):
    colours = ["pink", "red", "blue", "green"]
    r = client.post(f"/api/games/{ED}/{route}", json={"params": {"colours": colours}})
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["field"] == "colours" and body["fields"] == {"colours": body["error"]}
    assert body["error"].startswith("unknown colour 'pink' in 'colours[0]': choose from red, ")
    cfg = tmp_path / "pink.toml"
    cfg.write_text('colours = ["pink", "red", "blue", "green"]\n')
    out = ["--out", str(tmp_path / "out")] if route == "build" else []
    code, _, err = run(capsys, route, ED, "--config", str(cfg), *out)
    assert code == 2 and one_error_line(err) == f"error: config file {cfg}: {body['error']}"
    assert not (tmp_path / "out").exists()  # the CLI writes nothing either


def test_a_single_colour_is_a_choice_of_the_palette(client):
    fields = {f["key"]: f for f in client.get("/api/games/desert-home/params").json()["fields"]}
    assert fields["sixth_colour"]["type"] == "choice"
    assert fields["sixth_colour"]["choices"] == list(INKS)
    assert fields["colours"]["type"] == "colours"
    r = client.post("/api/games/desert-home/check", json={"params": {"sixth_colour": "pink"}})
    assert r.status_code == 422 and r.json()["field"] == "sixth_colour"


@pytest.mark.parametrize("slug", list(registry()))
def test_the_sweep_menu_offers_only_keys_the_rules_read(client, slug):
    fields = client.get(f"/api/games/{slug}/params").json()["fields"]
    offered = [f["key"] for f in fields if f["sweep"]]
    game = get_game(slug)
    assert offered == [k for k in sweep_keys(game) if k != "players"]
    assert set(offered) <= set(rule_keys(game))
    assert not {"margin", "bleed", "kerf", "die_size", "card_width"} & set(offered)


def test_a_sweep_of_a_print_only_key_is_refused_beside_its_field(client):
    body = {"games": 10, "sweep": {"key": "die_size", "values": [10, 12, 16]}}
    r = client.post(f"/api/games/{ED}/simulate", json=body)
    assert r.status_code == 422 and r.json()["field"] == "die_size"
    assert "Exploding Dice's rules do not read 'die_size'" in r.json()["error"]


def test_an_unknown_key_says_which_key_was_meant(client):
    r = client.post(f"/api/games/{ED}/check", json={"params": {"die_sise": 12}})
    assert r.status_code == 422 and "did you mean 'die_size'" in r.json()["error"]


@pytest.mark.parametrize(
    "route, body, words",
    [
        ("simulate", {"games": MAX_GAMES + 1}, "--games must be between"),
        ("simulate", {"games": "many"}, "'games' must be a whole number"),
        ("simulate", {"bot": "clever"}, "unknown bot 'clever'"),
        ("simulate", {"players": 2, "bots": "mcts,random,random"}, "names 3 bots for 2 seats"),
        ("simulate", {"bot": "mcts", "bot_budget": 0}, "--bot-budget must be 1 to"),
        ("simulate", {"players": 9}, "takes 2 to 4 players"),
        ("simulate", {"seed": 2**64}, "--seed must be a whole number below"),
        ("simulate", {"options": {"colours": True}}, "unknown option '--colours'"),
        ("simulate", {"options": {"two_colours": "yes"}}, "is a switch"),
        ("simulate", {"sweep": {"key": "n", "values": [4, 99]}}, "--sweep n"),
        ("simulate", {"sweep": {"key": "n", "values": ["2..8:3"]}}, "'n' goes in steps of 2"),
        ("simulate", {"sweep": {"key": "n", "values": [4, 5]}}, "5 is not one of its values"),
        ("simulate", {"sweep": {"key": "die_size", "values": [12, 14]}}, "rules do not read"),
        ("simulate", {"sweep": "die_size=1,2"}, "'sweep' must be"),
        ("simulate", {"ladder": "yes"}, "'ladder' must be true or false"),
        ("simulate", {"ladder": True, "players": 2, "bots": "mcts,random"}, "chooses the seats"),
        ("solve", {}, "has no solver"),
        ("build", {"formats": ["pdf", "jpeg"]}, "'formats' must be a list"),
        ("build", {"paper": "a3"}, "a3"),
        ("tune", {}, "give at least one --target"),
        ("tune", {"targets": ["turns in 5..3"]}, "the range 5..3 is empty"),
        ("tune", {"targets": ["length in 1..3"]}, "reports no metric 'length'"),
        ("tune", {"targets": ["turns <= 9"], "over": ["die_size"]}, "rules do not read"),
        ("tune", {"targets": ["turns <= 9"], "over": ["n=4..99"]}, "'n' must be from 2 to 16"),
        ("tune", {"targets": ["turns <= 9"], "budget": "soon"}, "is not a budget"),
        ("tune", {"targets": ["turns <= 9"], "budget": "1" * 309 + "games"}, "games, a whole"),
        ("tune", {"targets": ["turns <= 9"], "over": ["n=5..9"]}, "in steps of 2"),
        ("tune", {"targets": "turns <= 9"}, "'targets' must be a list of strings"),
    ],
)
def test_a_request_the_cli_would_refuse_is_a_422(client, route, body, words):
    r = client.post(f"/api/games/{ED}/{route}", json=body)
    assert r.status_code == 422, r.text
    assert words in r.json()["error"]


def test_solve_refuses_a_budget_over_the_cap(client):
    r = client.post("/api/games/building-community/solve", json={"budget": 10**12})
    assert r.status_code == 422 and "--budget must be from 1 to" in r.json()["error"]


JSON_TYPE = {"content-type": "application/json"}


def test_a_body_over_one_megabyte_is_a_413(client):
    big = json.dumps({"params": {"colours": ["x" * 1000] * (MAX_BODY // 1000)}})
    r = client.post(f"/api/games/{ED}/check", content=big, headers=JSON_TYPE)
    assert r.status_code == 413 and "larger than" in r.json()["error"]


def test_a_body_that_is_not_a_json_object_is_a_400(client):
    for body in (b"{not json", b"[1, 2]"):
        r = client.post(f"/api/games/{ED}/check", content=body, headers=JSON_TYPE)
        assert r.status_code == 400, r.text


def test_unknown_job_is_a_404_for_every_job_route(client):
    for method, url in (
        ("GET", "/api/jobs/nope"),
        ("DELETE", "/api/jobs/nope"),
        ("GET", "/api/jobs/nope/kit.zip"),
        ("GET", "/api/jobs/nope/files/x.pdf"),
    ):
        r = client.request(method, url)
        assert r.status_code == 404 and "no job 'nope'" in r.json()["error"], url


def test_a_wrong_method_and_an_unknown_page_are_json_errors(client):
    assert client.get(f"/api/games/{ED}/check").status_code == 405
    r = client.get("/api/nothing")
    assert r.status_code == 404 and "error" in r.json()


# --- config files in and out ------------------------------------------------------------


def test_the_form_saves_a_toml_that_pnp_build_reads_and_loads_it_back(client):
    values = {
        "die_size": 12.5,
        "colours": ["red", "blue", "sky", "orange"],
        "arrows": "pinwheel",
        "margin": 5.0,
    }
    r = client.post(f"/api/games/{ED}/config.toml", json={"params": values})
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    data = parse_toml(r.text, "saved")
    assert data == values  # only what differs from the defaults
    split_config(data, get_game(ED).default_params(), "saved")  # what `--config` does
    back = client.post(f"/api/games/{ED}/config", json={"toml": r.text}).json()["params"]
    assert back == values


def test_loading_a_bad_toml_is_one_line_naming_the_field(client):
    r = client.post(f"/api/games/{ED}/config", json={"toml": "die_size = 1\n"})
    assert r.status_code == 422 and r.json()["field"] == "die_size"
    r = client.post(f"/api/games/{ED}/config", json={"toml": "die_size = = 1"})
    assert r.status_code == 422 and "not valid TOML" in r.json()["error"]


def test_the_page_and_its_script_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "pnp studio" in page.text
    for slug in registry():
        assert f'href="#/{slug}"' in page.text
    assert client.get("/static/studio.js").status_code == 200
    assert client.get("/static/studio.css").status_code == 200
    assert "http://" not in page.text.replace("http://www.w3.org", "")  # nothing fetched


# --- jobs (slow: real job processes) ----------------------------------------------------


@pytest.mark.slow
def test_check_answers_what_pnp_check_finds(client):
    values = {"die_size": 14.0, "tin_width": 80.0}
    r = client.post(f"/api/games/{ED}/check", json={"params": values, "paper": "letter"})
    assert r.status_code == 200
    got = r.json()
    want = check_game(ED, None, "letter", values)
    assert [f["message"] for f in got["warnings"]] == [
        f.message for f in want if f.level == "warning"
    ]
    assert len(got["errors"]) + len(got["warnings"]) + len(got["infos"]) == len(want)


@pytest.mark.slow
def test_a_build_zip_holds_exactly_the_files_pnp_build_writes(client, tmp_path):
    values = {"die_size": 12.0, "arrows": "pinwheel"}
    job = client.post(f"/api/games/{ED}/build", json={"params": values, "paper": "a4"})
    assert job.status_code == 202
    done = wait(client, job.json()["job"])
    assert done["state"] == "done", done
    out = tmp_path / "cli"
    r = pnp(
        "build",
        ED,
        "--paper",
        "a4",
        "--config",
        str(config_file(tmp_path, values)),
        "--out",
        str(out),
    )
    assert r.returncode == 0, r.stderr
    written = {
        p.relative_to(out).as_posix(): p.read_bytes() for p in (out / ED).rglob("*") if p.is_file()
    }
    z = client.get(f"/api/jobs/{done['id']}/kit.zip")
    assert z.status_code == 200
    with zipfile.ZipFile(io.BytesIO(z.content)) as zf:
        zipped = {name: zf.read(name) for name in zf.namelist()}
    assert zipped.keys() == written.keys()
    for name, data in written.items():
        assert zipped[name] == data, name
    assert sorted(done["result"]["files"]) == sorted(written)
    # a page picture for every page of the PDF, and each file served by its listed name
    pages = done["result"]["pages"][f"{ED}/{ED}-a4.pdf"]
    assert len(pages) >= 4
    pic = client.get(f"/api/jobs/{done['id']}/files/{pages[0]}")
    assert pic.status_code == 200 and pic.content[:4] == b"\x89PNG"
    assert client.get(f"/api/jobs/{done['id']}/files/../../etc/passwd").status_code == 404


@pytest.mark.slow
def test_asking_for_the_same_build_twice_builds_once(client):
    body = {"params": {"die_size": 11.0}, "paper": "a4", "formats": ["pdf"]}
    first = run_job(client, f"/api/games/{ED}/build", body)
    assert first["state"] == "done"
    entries = client.app.state.studio.cache.entries  # type: ignore[attr-defined]
    made = sorted(p.name for p in entries.iterdir())
    second = run_job(client, f"/api/games/{ED}/build", body)
    assert second["state"] == "done" and second["result"] == first["result"]
    assert sorted(p.name for p in entries.iterdir()) == made
    assert second["seconds"] < first["seconds"]


@pytest.mark.slow
def test_a_kit_with_check_errors_is_refused_with_its_findings(client):
    body = {"params": {"card_width": 150.0, "card_height": 150.0}, "formats": ["pdf"]}
    done = run_job(client, f"/api/games/{ED}/build", body)
    assert done["state"] == "failed" and "check error" in done["error"]
    assert done["result"]["checks"]["errors"]


@pytest.mark.slow
def test_a_simulation_result_is_the_cli_json_for_the_same_request(client, tmp_path):
    values = {"die_size": 12.0, "arrows": "pinwheel"}
    body = {"params": values, "games": 300, "players": 3, "bot": "greedy", "seed": 7}
    done = run_job(client, f"/api/games/{ED}/simulate", body)
    assert done["state"] == "done", done
    want = cli_json(
        "simulate",
        ED,
        "--games",
        "300",
        "--players",
        "3",
        "--bot",
        "greedy",
        "--seed",
        "7",
        "--config",
        str(config_file(tmp_path, values)),
    )
    assert done["result"]["json"] == want
    assert done["progress"]["done"] == done["progress"]["total"] == 300
    report = client.get(f"/api/jobs/{done['id']}/files/{done['result']['report']}")
    assert report.status_code == 200 and "<svg" in report.text


@pytest.mark.slow
def test_a_sweep_and_a_game_option_give_the_cli_json(client):
    body = {
        "games": 200,
        "players": 2,
        "seed": 3,
        "options": {"two_colours": True},
        "sweep": {"key": "n", "values": [4, 6]},
    }
    done = run_job(client, f"/api/games/{ED}/simulate", body)
    assert done["state"] == "done", done
    want = cli_json(
        "simulate",
        ED,
        "--games",
        "200",
        "--players",
        "2",
        "--seed",
        "3",
        "--sweep",
        "n=4,6",
        "--two-colours",
    )
    assert done["result"]["json"] == want


@pytest.mark.slow
def test_a_ladder_of_skill_is_the_cli_json_for_the_same_request(client):
    body = {"games": 12, "players": 2, "bot": "mcts", "bot_budget": 8, "ladder": True}
    done = run_job(client, f"/api/games/{ED}/simulate", body)
    assert done["state"] == "done", done
    want = cli_json(
        "simulate", ED, "--ladder", "--games", "12", "--players", "2", "--bot-budget", "8"
    )
    assert done["result"]["json"] == want
    assert done["result"]["table"]["columns"][-1] == "skill"
    assert done["progress"]["done"] == done["progress"]["total"] == 36  # 12 games a rung
    report = client.get(f"/api/jobs/{done['id']}/files/{done['result']['report']}")
    assert report.status_code == 200 and "A ladder of skill" in report.text


@pytest.mark.slow
def test_a_request_the_engine_refuses_fails_the_job_with_its_line(client):
    body = {"games": 10, "players": 4, "options": {"two_colours": True}}
    done = run_job(client, f"/api/games/{ED}/simulate", body)
    assert done["state"] == "failed"
    r = pnp("simulate", ED, "--games", "10", "--players", "4", "--two-colours")
    assert r.returncode == 2 and r.stderr.strip() == f"error: {done['error']}"


@pytest.mark.slow
def test_a_cancelled_simulation_stops_and_leaves_no_files(client):
    body = {"games": 5_000_000, "seed": 99, "players": 2}
    job = client.post(f"/api/games/{ED}/simulate", json=body).json()["job"]
    view = client.get(f"/api/jobs/{job}").json()
    for _ in range(200):  # until it plays
        if view["progress"]["done"] > 0:
            break
        view = wait_a_little(client, job)
    r = client.delete(f"/api/jobs/{job}")
    assert r.status_code == 200
    done = wait(client, job, until=10)
    assert done["state"] == "cancelled"
    work = client.app.state.studio.cache.work  # type: ignore[attr-defined]
    assert list(work.iterdir()) == []


def wait_a_little(client, job: str) -> dict:
    import time

    time.sleep(0.05)
    return client.get(f"/api/jobs/{job}").json()


@pytest.mark.slow
def test_a_solve_gives_the_cli_answer(client, tmp_path):
    values = {"radius": 2}
    body = {"params": values, "players": 2, "budget": 200_000}
    done = run_job(client, "/api/games/building-community/solve", body)
    assert done["state"] == "done", done
    want = cli_json(
        "solve",
        "building-community",
        "--players",
        "2",
        "--budget",
        "200000",
        "--config",
        str(config_file(tmp_path, values)),
    )
    got = done["result"]["json"]
    assert {k: v for k, v in got.items() if k != "seconds"} == {
        k: v for k, v in want.items() if k != "seconds"
    }


@pytest.mark.slow
def test_two_tabs_simulating_and_building_at_once_get_their_own_results(client):
    """Two simulations with different seeds and a build, all in flight together."""
    runs = {
        seed: client.post(
            f"/api/games/{ED}/simulate", json={"games": 400, "seed": seed, "players": 2}
        ).json()["job"]
        for seed in (11, 12)
    }
    build = client.post(
        f"/api/games/{ED}/build", json={"params": {"die_size": 15.0}, "formats": ["pdf"]}
    ).json()["job"]
    for seed, job in runs.items():
        done = wait(client, job)
        want = cli_json("simulate", ED, "--games", "400", "--seed", str(seed), "--players", "2")
        assert done["result"]["json"] == want
    assert wait(client, build)["state"] == "done"
    listed = {j["id"]: j for j in client.get("/api/jobs").json()}  # the list, oldest first
    assert [listed[j]["kind"] for j in (*runs.values(), build)] == ["simulate"] * 2 + ["build"]
    assert list(listed).index(runs[11]) < list(listed).index(build)
    assert all("result" not in j for j in listed.values())


PREVIEWS_IN_CI = ("exploding-dice", "building-community")
"""Games whose previews CI builds in the studio (the others' kits are built in their own
kit tests; every game's previews come from the same build code)."""


@pytest.mark.slow
@pytest.mark.parametrize(
    "slug",
    [s if s in PREVIEWS_IN_CI else pytest.param(s, marks=pytest.mark.long) for s in registry()],
)
def test_every_game_builds_its_previews_and_plays_in_the_studio(client, slug):
    built = run_job(client, f"/api/games/{slug}/build", {"formats": ["pdf", "svg"]})
    assert built["state"] == "done", built
    pages = [p for pics in built["result"]["pages"].values() for p in pics]
    assert pages and all(
        client.get(f"/api/jobs/{built['id']}/files/{p}").status_code == 200 for p in pages[:3]
    )
    assert any(f.endswith(".svg") for f in built["result"]["files"])
    played = run_job(client, f"/api/games/{slug}/simulate", {"games": 20, "seed": 4})
    assert played["state"] == "done", played
    assert played["result"]["json"]["games"] == 20
    preview = client.get(f"/api/games/{slug}/preview.png")
    assert preview.status_code == 200 and preview.content[:4] == b"\x89PNG"


@pytest.mark.slow
def test_mixed_seats_with_an_mcts_bot_give_the_cli_json(client):
    body = {"games": 12, "players": 2, "seed": 9, "bots": "mcts,random", "bot_budget": 20}
    done = run_job(client, f"/api/games/{ED}/simulate", body)
    assert done["state"] == "done", done
    want = cli_json(
        "simulate",
        ED,
        "--games",
        "12",
        "--players",
        "2",
        "--seed",
        "9",
        "--bots",
        "mcts,random",
        "--bot-budget",
        "20",
    )
    assert done["result"]["json"] == want


@pytest.mark.slow
def test_a_tune_job_answers_as_the_cli_does_with_its_report_and_config(client):
    body = {"targets": ["turns in 18..25"], "over": ["dice_per_colour=2..6"], "players": 3,
            "budget": "2000games", "seed": 4}  # fmt: skip
    job = run_job(client, f"/api/games/{ED}/tune", body)
    assert job["state"] == "done", job.get("error")
    expected = cli_json("tune", ED, "--players", "3", "--target", "turns in 18..25",
                        "--over", "dice_per_colour=2..6", "--budget", "2000games", "--seed", "4",
                        "--progress", "none")  # fmt: skip
    assert job["result"]["json"] == expected
    config = client.get(f"/api/jobs/{job['id']}/files/tune.toml")
    assert config.status_code == 200
    assert f"dice_per_colour = {expected['best']['dice_per_colour']}" in config.text
    report = client.get(f"/api/jobs/{job['id']}/files/tune.html")
    assert report.status_code == 200 and "which settings meet the targets" in report.text
