"""The studio's web application: the page, its static files and the JSON API under it.

Every route calls the functions the command line calls (`pnp.build`, `pnp.sim`), through
the job processes of `pnp.studio.jobs`, so what the page shows is what the CLI makes. Bad
input is one line of JSON, ``{"error": ...}``, with the CLI's message: 404 for an unknown
game or job, 413 for a body over 1 MB, 422 for a value the CLI would refuse (with the
field's key when one field is at fault), 429 when too many jobs and checks wait, 500 with
the folder when the cache cannot be written. Before any route, the doors of
`pnp.studio.guard` refuse what does not come from the studio's own page (400, 401, 403, 415).

A check answers in its request; when its client goes away before the answer (a page that
moved on to newer values), the check is cancelled unless another client waits for it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pnp.contract.gamedef import GameDef, max_budget
from pnp.contract.paper import paper_name
from pnp.draw.formats import EXTRA_FORMATS, FORMATS
from pnp.draw.render.laser import presets_from_text
from pnp.draw.templating import TEMPLATES, render
from pnp.games import get_game, registry
from pnp.runtime.errors import PnpError
from pnp.sim.command import MAX_SEED, parse_options, parse_sweep
from pnp.sim.grid import check_sweep
from pnp.sim.runner import check_limits
from pnp.sim.seats import bot_names, engine_for, lineup, seat_count
from pnp.sim.solve import MAX_BUDGET, solver_for
from pnp.studio import schema
from pnp.studio.cache import Cache, CacheError
from pnp.studio.guard import Doors, Guard, new_token
from pnp.studio.jobs import Asked, Busy, Job, JobCancelled, Jobs, TaskError
from pnp.studio.work import write_zip
from pnp.tune.targets import metric_names

MAX_BODY = 1_000_000  # bytes
MAX_WAITING = 64  # jobs queued or running, and checks under way, at once
STATIC = TEMPLATES / "studio" / "static"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


class ApiError(Exception):
    """An answer other than 200: its status and one line."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.extra = extra


@dataclass
class Settings:
    cache: Path
    slots: int
    cache_limit: int
    host: str = DEFAULT_HOST  # the address served: the only Host the studio answers
    port: int = DEFAULT_PORT
    token: str | None = field(default_factory=new_token)  # None: --no-token

    @property
    def doors(self) -> Doors:
        return Doors(self.host, self.port, self.token)


def _game(slug: str) -> GameDef:
    try:
        return get_game(slug)
    except PnpError as exc:
        raise ApiError(404, str(exc)) from None


async def _gone(request: Request) -> None:
    """Returns once the client has gone away (its body is read: what comes next is the
    disconnect)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


def _busy(waiting: int) -> ApiError:
    return ApiError(429, f"{waiting} jobs and checks are waiting: cancel one or try again later")


def _cache_error(exc: CacheError) -> ApiError:
    return ApiError(500, str(exc), folder=str(exc.folder))


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read at most `MAX_BODY` bytes far."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > MAX_BODY:
        raise ApiError(413, f"the request body is larger than {MAX_BODY:,} bytes")
    data = bytearray()
    try:
        async for chunk in request.stream():
            data += chunk
            if len(data) > MAX_BODY:
                raise ApiError(413, f"the request body is larger than {MAX_BODY:,} bytes")
    except ClientDisconnect:  # it left, or its body came too slowly (`connections`)
        raise ApiError(499, "the client went away before its request was read") from None
    if not data:
        return {}
    try:
        body = json.loads(data)
    except (ValueError, RecursionError):
        raise ApiError(400, "the request body is not valid JSON") from None
    if not isinstance(body, dict):
        raise ApiError(400, "the request body must be a JSON object")
    return body


def _values(game: GameDef, body: dict[str, Any]) -> dict[str, Any]:
    """The body's `params`, read as a config file is: the effective parameters. A path is
    never one of them: the studio reads no file a request names (laser presets come as
    content, `laser_presets_toml`)."""
    try:
        values = schema.read_values(game, body.get("params", {}))
    except schema.FieldError as exc:
        raise ApiError(422, str(exc), field=exc.key, fields=exc.fields) from None
    named = [key for key in schema.path_keys(game) if values.get(key)]
    if named:
        line = (
            f"'{named[0]}' names a file, and the studio reads no file a request names: "
            "load the file in the page instead (its text is sent, never its path)"
        )
        raise ApiError(422, line, field=named[0], fields={named[0]: line})
    return values


def _presets(body: dict[str, Any]) -> str:
    """The laser presets the page uploaded (TOML text, '' for the built-in ones), checked
    now so that a fault is refused beside the field, in the words of the text itself."""
    text = body.get("laser_presets_toml", "")
    if not isinstance(text, str):
        raise ApiError(422, "'laser_presets_toml' must be the text of a presets file")
    if text:
        try:
            presets_from_text(text, "the uploaded presets")
        except PnpError as exc:
            raise ApiError(
                422, str(exc), field="laser_presets", fields={"laser_presets": str(exc)}
            ) from None
    return text


def _paper(body: dict[str, Any], values: dict[str, Any]) -> str:
    try:
        return paper_name(body.get("paper") or values.get("paper") or "a4")
    except PnpError as exc:
        raise ApiError(422, str(exc), field="paper") from None


def _whole(body: dict[str, Any], key: str, default: int) -> int:
    """A whole number the body may leave out (then `default`); `null` is not one."""
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(422, f"'{key}' must be a whole number, got {json.dumps(value)[:40]}")
    return value


def _maybe_whole(body: dict[str, Any], key: str) -> int | None:
    """A whole number whose absence (or `null`) leaves the choice to pnp, as an option
    left off the command line does (`players`: the game's default)."""
    return None if body.get(key) is None else _whole(body, key, 0)


def _options(game: GameDef, options: Any) -> dict[str, Any]:
    """A game's own options as `pnp simulate` reads them from its flags."""
    if not isinstance(options, dict):
        raise ApiError(422, "'options' must be an object")
    engine = engine_for(game)
    words: list[str] = []
    declared = {o.name: o for o in engine.OPTIONS}
    for name, value in options.items():
        option = declared.get(name)
        flag = option.flag if option else "--" + str(name).replace("_", "-")
        if option is not None and option.kind is bool:
            if value is True:
                words.append(flag)
            elif value is not False:
                raise ApiError(422, f"{flag} is a switch: true or false")
        else:
            words += [flag, str(value)]
    return parse_options(engine, words)


class Studio:
    """The routes' state: the jobs and the cache behind them."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.cache = Cache(settings.cache, settings.cache_limit)
        self.jobs = Jobs(self.cache, settings.slots)

    # --- pages --------------------------------------------------------------------------

    async def page(self, request: Request) -> Response:
        games = [_game_view(g) for g in registry().values()]
        return HTMLResponse(render("studio/index.html.j2", games=games))

    # --- games --------------------------------------------------------------------------

    async def games(self, request: Request) -> Response:
        return JSONResponse([_game_view(g) for g in registry().values()])

    async def params(self, request: Request) -> Response:
        return JSONResponse(schema.schema(_game(request.path_params["game"])))

    async def preview(self, request: Request) -> Response:
        game = _game(request.path_params["game"])
        asked = self.jobs.ask("preview", {"slug": game.slug}, {"game": game.slug})
        result, folder = await self._answer(request, asked)
        return FileResponse(folder / result["png"], media_type="image/png")

    async def check(self, request: Request) -> Response:
        game = _game(request.path_params["game"])
        body = await _body(request)
        values = _values(game, body)
        paper = _paper(body, values)
        args = {"slug": game.slug, "values": values, "paper": paper}
        key = {"game": game.slug, "values": values, "paper": paper}
        try:
            asked = self.jobs.ask("check", args, key, most=MAX_WAITING)
        except Busy as exc:
            raise _busy(exc.waiting) from None
        result, _ = await self._answer(request, asked)
        return JSONResponse(result)

    async def _answer(self, request: Request, asked: Asked) -> tuple[Any, Path]:
        """The asked task's result and folder once it ends, as one line of JSON if it
        fails; if the client goes away first, it no longer waits (the task is cancelled
        when no one else does)."""
        answer = asyncio.wrap_future(asked.future)
        gone = asyncio.ensure_future(_gone(request))
        try:
            first: set[asyncio.Future[Any]] = {answer, gone}  # whichever ends first
            await asyncio.wait(first, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
        if not answer.done():
            self.jobs.leave(asked)
            answer.add_done_callback(lambda f: f.cancelled() or f.exception())  # unread
            raise ApiError(499, "the client went away: nothing waits for this answer")
        try:
            return answer.result()
        except TaskError as exc:
            raise ApiError(422, str(exc)) from None
        except CacheError as exc:
            raise _cache_error(exc) from None
        except JobCancelled:
            raise ApiError(503, "the studio is stopping: the task was cancelled") from None

    async def toml_out(self, request: Request) -> Response:
        game = _game(request.path_params["game"])
        values = _values(game, await _body(request))
        text = schema.to_toml(game, values)
        name = f"{game.slug}.toml"
        headers = {"content-disposition": f'attachment; filename="{name}"'}
        return Response(text, media_type="application/toml", headers=headers)

    async def toml_in(self, request: Request) -> Response:
        game = _game(request.path_params["game"])
        body = await _body(request)
        text = body.get("toml", "")
        if not isinstance(text, str):
            raise ApiError(422, "'toml' must be the text of a config file")
        try:
            values = schema.from_toml(game, text)
        except schema.FieldError as exc:
            raise ApiError(422, str(exc), field=exc.key) from None
        except PnpError as exc:
            raise ApiError(422, str(exc)) from None
        return JSONResponse({"params": values})

    # --- jobs ---------------------------------------------------------------------------

    def _submit(
        self, kind: str, game: GameDef, args: dict[str, Any], request: dict[str, Any]
    ) -> Response:
        waiting = self.jobs.waiting()
        if waiting >= MAX_WAITING:
            raise _busy(waiting)
        job = self.jobs.submit(kind, game.slug, args, {"game": game.slug, **request})
        return JSONResponse({"job": job.id}, status_code=202)

    async def build(self, request: Request) -> Response:
        game = _game(request.path_params["game"])
        body = await _body(request)
        values = _values(game, body)
        paper = _paper(body, values)
        formats = body.get("formats", list(FORMATS))  # what `pnp build` writes by default
        known = FORMATS + EXTRA_FORMATS
        if not isinstance(formats, list) or not formats or not set(formats) <= set(known):
            raise ApiError(422, f"'formats' must be a list of {', '.join(known)}")
        chosen = tuple(f for f in known if f in formats)
        presets = _presets(body)
        args = {"slug": game.slug, "values": values, "paper": paper, "formats": chosen}
        request_key = {"values": values, "paper": paper, "formats": chosen}
        if presets:  # the text is the key, so an edited file is built again
            args["presets"] = request_key["presets"] = presets
        return self._submit("build", game, args, request_key)

    async def simulate(self, request: Request) -> Response:
        game = _game(request.path_params["game"])
        body = await _body(request)
        values = _values(game, body)
        try:
            engine_for(game)
            games = _whole(body, "games", 1000)
            bot = body.get("bot", "random")
            if not isinstance(bot, str):
                raise ApiError(422, "'bot' must be a bot's name")
            players = seat_count(game, _maybe_whole(body, "players"), bot)
            bots = body.get("bots")
            if bots is not None and not isinstance(bots, str):
                raise ApiError(422, "'bots' must name one bot per seat, comma-separated")
            budget = _maybe_whole(body, "bot_budget")
            lineup(engine_for(game), players, bot, bots, budget)  # the CLI's checks
            seed = _whole(body, "seed", 1)
            check_limits(games, 1)
            if not -MAX_SEED <= seed < MAX_SEED:
                raise ApiError(422, f"--seed must be a whole number below {MAX_SEED}, got {seed}")
            options = _options(game, body.get("options", {}))
            sweep = body.get("sweep")
            if sweep is not None:
                sweep = self._sweep(game, values, sweep)
            ladder = body.get("ladder", False)
            if not isinstance(ladder, bool):
                raise ApiError(422, "'ladder' must be true or false")
            if ladder and (sweep is not None or bots is not None):
                raise ApiError(422, "a ladder of skill chooses the seats itself: no sweep, no bots")
        except PnpError as exc:
            raise ApiError(422, str(exc)) from None
        changed = schema.changed(game, values)
        args = {
            "slug": game.slug,
            "values": changed,
            "games": games,
            "players": players,
            "bot": bot,
            "seed": seed,
            "options": options,
            "sweep": sweep,
            "bots": bots,
            "budget": budget,
        }
        if ladder:  # absent otherwise: a plain run keeps its cache key
            args["ladder"] = True
        return self._submit("simulate", game, args, {k: v for k, v in args.items() if k != "slug"})

    @staticmethod
    def _sweep(game: GameDef, values: dict[str, Any], sweep: Any) -> str:
        """`{"key": K, "values": [...]}` as `--sweep K=V1,V2`, each value checked now."""
        if not isinstance(sweep, dict) or not isinstance(sweep.get("values"), list):
            raise ApiError(422, '\'sweep\' must be {"key": KEY, "values": [V1, V2, ...]}')
        key = str(sweep.get("key", ""))
        text = f"{key}=" + ",".join(str(v) for v in sweep["values"])
        try:
            key, swept = parse_sweep(text, game.slug)
        except PnpError as exc:
            raise ApiError(422, str(exc), field=key) from None
        try:
            check_sweep(game, (key,))
        except PnpError as exc:
            raise ApiError(422, str(exc), field=key) from None
        for value in swept:
            try:
                schema.read_values(game, {**schema.changed(game, values), key: value})
            except schema.FieldError as exc:
                raise ApiError(422, f"--sweep {key}: {exc}", field=key) from None
        return text

    async def tune(self, request: Request) -> Response:
        """`pnp tune` for the page's targets and keys, from the form's values: checked now
        (the CLI's one-line errors, 422), run as a job like a simulation."""
        game = _game(request.path_params["game"])
        body = await _body(request)
        values = _values(game, body)
        targets, over = body.get("targets", []), body.get("over", [])
        for name, words in (("targets", targets), ("over", over)):
            if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
                raise ApiError(422, f"'{name}' must be a list of strings")
        budget = body.get("budget", "5000games")
        bot = body.get("bot", "random")
        if not isinstance(budget, str) or not isinstance(bot, str):
            raise ApiError(422, "'budget' and 'bot' must be strings")
        changed = schema.changed(game, values)
        try:
            from pnp.tune import plan_tune

            players = _maybe_whole(body, "players")
            seed = _whole(body, "seed", 1)
            plan_tune(game.slug, targets, over, players, bot, budget, seed, 1, None,
                      None, None, 10.0, changed)  # fmt: skip
        except PnpError as exc:
            raise ApiError(422, str(exc)) from None
        args = {
            "slug": game.slug,
            "values": changed,
            "targets": targets,
            "over": over,
            "players": players,
            "bot": bot,
            "budget": budget,
            "seed": seed,
        }
        return self._submit("tune", game, args, {k: v for k, v in args.items() if k != "slug"})

    async def solve(self, request: Request) -> Response:
        game = _game(request.path_params["game"])
        body = await _body(request)
        values = _values(game, body)
        try:
            solver = solver_for(game)
            players = seat_count(game, _maybe_whole(body, "players"))
            budget = _whole(body, "budget", 1_000_000)
            most = max_budget(solver, MAX_BUDGET)
            if not 1 <= budget <= most:
                raise ApiError(422, f"--budget must be from 1 to {most:,} nodes, got {budget:,}")
        except PnpError as exc:
            raise ApiError(422, str(exc)) from None
        changed = schema.changed(game, values)
        args = {"slug": game.slug, "values": changed, "players": players, "budget": budget}
        return self._submit("solve", game, args, {k: v for k, v in args.items() if k != "slug"})

    def _job(self, request: Request) -> Job:
        job = self.jobs.get(request.path_params["job"])
        if job is None:
            raise ApiError(404, f"no job '{request.path_params['job'][:40]}'")
        return job

    async def job_list(self, request: Request) -> Response:
        """The jobs the studio remembers, oldest first, without their results."""
        views = [job.view() for job in list(self.jobs.jobs.values())]
        return JSONResponse([{k: v for k, v in view.items() if k != "result"} for view in views])

    async def job(self, request: Request) -> Response:
        return JSONResponse(self._job(request).view())

    async def cancel(self, request: Request) -> Response:
        job = self._job(request)
        self.jobs.cancel(job)
        return JSONResponse(job.view())

    async def job_file(self, request: Request) -> Response:
        """A file of a finished job, by a name its result lists (never a path as given)."""
        job = self._job(request)
        if job.state != "done" or job.folder is None:
            raise ApiError(409, f"job {job.id} has not finished (it is {job.state})")
        wanted = request.path_params["name"]
        known = set(_listed(job.result))
        if wanted not in known:
            raise ApiError(404, f"job {job.id} has no file '{wanted[:80]}'")
        path = job.folder / wanted
        if not path.is_file():
            raise ApiError(410, "the file has left the cache: build again")
        return FileResponse(path, media_type=_media(wanted))

    async def kit_zip(self, request: Request) -> Response:
        job = self._job(request)
        if job.kind != "build":
            raise ApiError(404, f"job {job.id} is a {job.kind}, not a build: it has no kit.zip")
        if job.state != "done" or job.folder is None:
            raise ApiError(409, f"job {job.id} has not finished (it is {job.state})")
        target = job.folder / "kit.zip"
        if not target.is_file():
            try:
                await asyncio.to_thread(write_zip, job.folder, job.result["files"], target)
            except OSError as exc:
                raise _cache_error(CacheError(job.folder, exc.strerror or str(exc))) from None
        name = f"{job.game}-{job.result['paper']}.zip"
        headers = {"content-disposition": f'attachment; filename="{name}"'}
        return FileResponse(target, media_type="application/zip", headers=headers)


def _listed(result: Any) -> list[str]:
    """The file names a job's result mentions: the only files it serves."""
    if not isinstance(result, dict):
        return []
    names = list(result.get("files", []))
    for pages in result.get("pages", {}).values():
        names += pages
    names += result.get("diagrams", [])
    for key in ("zip", "report", "png", "pdf", "config"):
        if isinstance(result.get(key), str):
            names.append(result[key])
    return names


MEDIA = {
    ".pdf": "application/pdf",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".dxf": "image/vnd.dxf",
    ".json": "application/json",
    ".html": "text/html; charset=utf-8",
    ".zip": "application/zip",
    ".toml": "application/toml",
}


def _media(name: str) -> str:
    return MEDIA.get(Path(name).suffix, "application/octet-stream")


def _game_view(game: GameDef) -> dict[str, Any]:
    engine = game.engine
    out: dict[str, Any] = {
        "slug": game.slug,
        "title": game.title,
        "blurb": game.blurb,
        "preview": f"/api/games/{game.slug}/preview.png",
        "solver": game.solver is not None,
        "simulate": engine is not None,
    }
    if engine is not None:
        out["players"] = {
            "min": engine.MIN_PLAYERS,
            "max": engine.MAX_PLAYERS,
            "default": engine.DEFAULT_PLAYERS,
        }
        out["bots"] = list(bot_names(engine))
        out["metrics"] = metric_names(engine)  # what a tune's target may name
        out["cooperative"] = engine.COOPERATIVE
        out["options"] = [
            {
                "name": o.name,
                "flag": o.flag,
                "help": o.help,
                "type": "boolean" if o.kind is bool else "choice",
                "choices": list(o.choices),
                "default": o.default,
            }
            for o in engine.OPTIONS
        ]
    return out


async def _error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return JSONResponse({"error": str(exc), **exc.extra}, status_code=exc.status)


async def _not_found(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": f"no such page: {request.url.path[:80]}"}, status_code=404)


async def _bad_method(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": f"{request.method} is not allowed here"}, status_code=405)


def create_app(settings: Settings) -> Starlette:
    """The studio as an ASGI application (uvicorn serves it; tests call it directly)."""
    studio = Studio(settings)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        studio.jobs.start()
        yield
        studio.jobs.close()

    game = "/api/games/{game}"
    routes = [
        Route("/", studio.page),
        Route("/api/games", studio.games),
        Route(game + "/params", studio.params),
        Route(game + "/preview.png", studio.preview),
        Route(game + "/check", studio.check, methods=["POST"]),
        Route(game + "/build", studio.build, methods=["POST"]),
        Route(game + "/simulate", studio.simulate, methods=["POST"]),
        Route(game + "/solve", studio.solve, methods=["POST"]),
        Route(game + "/tune", studio.tune, methods=["POST"]),
        Route(game + "/config.toml", studio.toml_out, methods=["POST"]),
        Route(game + "/config", studio.toml_in, methods=["POST"]),
        Route("/api/jobs", studio.job_list, methods=["GET"]),
        Route("/api/jobs/{job}", studio.job, methods=["GET"]),
        Route("/api/jobs/{job}", studio.cancel, methods=["DELETE"]),
        Route("/api/jobs/{job}/kit.zip", studio.kit_zip),
        Route("/api/jobs/{job}/files/{name:path}", studio.job_file),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(Guard, doors=settings.doors)],
        exception_handlers={ApiError: _error, 404: _not_found, 405: _bad_method},
    )
    app.state.studio = studio
    return app
