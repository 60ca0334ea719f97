"""The web application: routes that turn requests into session calls and
views, and every error into a JSON answer with a 4xx status (never a
traceback). Work runs in a thread of its own, under the session's lock."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import threading
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import NordError, UsageError
from ..limits import MAX_BODY as LIMIT_BODY
from ..limits import OverLimit, load_json
from .catalog import Catalog
from .files import Folders, Outside
from .paths import Shown
from .sessions import Conflict, PlaySession, Store, Unknown
from .stepper import game_to_explain, open_scenario_timeline
from .timeline import open_replay_timeline, replay_from_text
from .views import game_view, secret_seed, timeline_view, viewer_of

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = LIMIT_BODY                # (an uploaded replay's MAX_UPLOAD bytes, written as JSON text, fit)
BODY_SECONDS = 10.0         # a request's body must arrive within this
log = logging.getLogger("nordlang.web")


class BadRequest(ValueError):
    """A request whose body or parameters are not what the endpoint takes."""


class SlowClient(BadRequest):
    """A body announced and not sent in time (408)."""


def _error(status: int, message: str, **more) -> JSONResponse:
    return JSONResponse({"error": message, **{k: v for k, v in more.items() if v}}, status_code=status)


async def _run(fn, *args, shown: Shown | None = None):
    """fn(*args) in a worker thread; its result as JSON, its errors as 4xx JSON
    (with the paths in them as the page names files)."""
    cut = shown.text if shown is not None else str
    try:
        out = await run_in_threadpool(fn, *args)
    except Unknown as e:
        return _error(404, str(e))
    except Outside as e:
        return _error(403, str(e))
    except FileNotFoundError as e:
        return _error(404, cut(str(e)))
    except Conflict as e:
        return _error(409, str(e))
    except NordError as e:
        return _error(400, cut(e.message), hint=e.hint and cut(e.hint),
                      where=cut(str(e.pos)) if e.pos is not None else None, detail=cut(e.format()))
    except (BadRequest, TypeError, ValueError) as e:
        return _error(400, str(e))
    except Exception as e:      # noqa: BLE001 - a bug: logged here, a plain message for the page
        log.exception("internal error")
        return _error(500, f"internal error: {type(e).__name__}")
    return out if isinstance(out, Response) else JSONResponse(out)


async def _body(request: Request) -> dict:
    """The request's JSON object, read within the limits of input: at most
    MAX_BODY bytes, arriving within BODY_SECONDS (a client that announces
    a body and never sends it holds no worker), at most MAX_NESTING deep."""
    size = request.headers.get("content-length", "")
    if size.isascii() and size.isdigit() and len(size) < 20 and int(size) > MAX_BODY:
        raise BadRequest(f"the request is {int(size)} bytes; at most {MAX_BODY} are taken")
    chunks, got = [], 0
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                got += len(chunk)
                if got > MAX_BODY:
                    raise BadRequest(f"the request is over {MAX_BODY} bytes; at most {MAX_BODY} are taken")
                chunks.append(chunk)
    except TimeoutError:
        raise SlowClient(f"the request's body did not come within {BODY_SECONDS:g} s") from None
    raw = b"".join(chunks)
    if not raw:
        return {}
    try:
        data = load_json(raw.decode("utf-8"))
    except OverLimit as e:
        raise BadRequest(f"the request body: {e.message}") from None
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise BadRequest("the request body is not JSON") from None
    if not isinstance(data, dict):
        raise BadRequest("the request body is a JSON object")
    return data


def _field(data: dict, key: str, typ, default=None, required=False):
    if key not in data or data[key] is None:
        if required:
            raise BadRequest(f"the request needs {key!r}")
        return default
    v = data[key]
    if typ is int and (type(v) is not int):
        raise BadRequest(f"{key!r} must be a whole number, not {json.dumps(v)}")
    if typ is list and not (isinstance(v, list) and all(isinstance(x, str) for x in v)):
        raise BadRequest(f"{key!r} must be a list of texts")
    if typ is str and not isinstance(v, str):
        raise BadRequest(f"{key!r} must be a text")
    return v


def _int_param(request: Request, key: str, default: int = 0) -> int:
    text = request.query_params.get(key)
    if text is None:
        return default
    try:
        return int(text)
    except ValueError:
        raise BadRequest(f"{key!r} must be a whole number, not {text!r}") from None


def create_app(folders=(), game: str | None = None, variants=(), cap: int = 64) -> Starlette:
    """The application: games, replays and scenarios in a store of `cap`
    sessions; files opened only from `folders`; `game` and `variants` the
    page's defaults."""
    store = Store(cap)
    served = Folders(folders)
    catalog = Catalog(game, variants)
    shown = Shown(served.roots)
    threading.Thread(target=_warm, args=(catalog,), daemon=True).start()    # (the page's first request finds it made)

    async def wrap(request, work):
        try:
            body = await _body(request) if request.method == "POST" else {}
        except BadRequest as e:
            return _error(408 if isinstance(e, SlowClient) else 400, str(e))
        return await _run(work, body, shown=shown)

    # ---------------- games ----------------
    async def new_game(request):
        def work(body):
            name = _field(body, "game", str, catalog.default_game)
            chosen = _field(body, "variants", list, [])
            seed = _field(body, "seed", int)
            if seed is None:
                seed = random.SystemRandom().randrange(2 ** 31)
            rules = catalog.rules(name, _field(body, "players", int), chosen)
            seats = _field(body, "seats", list) or ["human"] + ["random"] * (rules.num_players - 1)
            catalog.check_seats(seats, rules)
            s = PlaySession.new(rules, seed, seats, chosen)
            return JSONResponse(game_view(store.add(s), s), status_code=201)
        return await wrap(request, work)

    def with_game(act):
        async def endpoint(request):
            sid = request.path_params["sid"]

            def work(body):
                s = store.get(sid, "game")
                with s.lock:
                    out = act(s, body, request)
                    return out if out is not None else game_view(sid, s)
            return await wrap(request, work)
        return endpoint

    def move(s, body, request):
        s.play(_field(body, "move", str, required=True))

    def agent(s, body, request):
        s.agent_steps(_field(body, "steps", int, 1))

    def undo(s, body, request):
        s.undo()

    def explain_game(s, body, request):
        viewer = viewer_of(s)
        if viewer is not None and (s.game.rules.hidden_information or s.game.state.hidden_moves):
            # asked on a position the seat cannot tell from the real one: what he knows, never what he does not
            return _explain(s.game.for_player(viewer, s.header["seed"]), request, shown)
        return _explain(s.game, request, shown)

    def replay_file(s, body, request):
        if secret_seed(s):
            raise Conflict("the replay is the whole game (the seed, every hidden item and secret choice): it can be "
                           "saved when the game is over")
        name = f"{s.header['game'] or 'game'}-{s.header['seed']}.jsonl"
        return Response(s.replay_text(), media_type="application/x-ndjson",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    # ---------------- replays and scenarios ----------------
    def opener(kind):
        async def endpoint(request):
            def work(body):
                if kind == "replay" and "text" in body:
                    name = _field(body, "name", str, "upload.jsonl")
                    text = _field(body, "text", str, required=True)
                    t = replay_from_text(text.encode(), Path(name).name or "upload.jsonl")
                else:
                    folder = _field(body, "folder", int, 0)
                    rel = _field(body, "path", str, required=True)
                    path = served.resolve(folder, rel)
                    shown_name = f"{served.roots[folder].name}/{rel}"
                    t = (open_replay_timeline(path, shown_name) if kind == "replay"
                         else open_scenario_timeline(path, shown_name, shown))
                return JSONResponse(timeline_view(store.add(t), t, 0), status_code=201)
            return await wrap(request, work)
        return endpoint

    def timeline(kind, why=False):
        async def endpoint(request):
            sid = request.path_params["sid"]

            def work(body):
                whole = store.get(sid, kind)
                index = _int_param(request, "step")
                with whole.lock:
                    t = whole.select(request.query_params.get("branch") or None)
                    if why:
                        return _explain(game_to_explain(t, index), request, shown)
                    return timeline_view(sid, t, index)
            return await wrap(request, work)
        return endpoint

    async def index(request):
        return FileResponse(STATIC / "index.html")

    async def catalog_endpoint(request):
        return await wrap(request, lambda body: catalog.listing())

    async def files_endpoint(request):
        return await wrap(request, lambda body: served.listing())

    async def not_found(request, exc):
        status = getattr(exc, "status_code", 404)
        return _error(status, getattr(exc, "detail", None) or "not found")

    routes = [
        Route("/", index),
        Route("/api/catalog", catalog_endpoint),
        Route("/api/files", files_endpoint),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{sid}", with_game(lambda s, b, r: None)),
        Route("/api/games/{sid}/move", with_game(move), methods=["POST"]),
        Route("/api/games/{sid}/agent", with_game(agent), methods=["POST"]),
        Route("/api/games/{sid}/undo", with_game(undo), methods=["POST"]),
        Route("/api/games/{sid}/explain", with_game(explain_game)),
        Route("/api/games/{sid}/replay", with_game(replay_file)),
        Route("/api/replays", opener("replay"), methods=["POST"]),
        Route("/api/replays/{sid}", timeline("replay")),
        Route("/api/replays/{sid}/explain", timeline("replay", why=True)),
        Route("/api/scenarios", opener("scenario"), methods=["POST"]),
        Route("/api/scenarios/{sid}", timeline("scenario")),
        Route("/api/scenarios/{sid}/explain", timeline("scenario", why=True)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={404: not_found, 405: not_found})
    app.state.store = store
    return app


def _warm(catalog) -> None:
    try:
        catalog.listing()
    except Exception:       # noqa: BLE001 - said again, as a 4xx, when the page asks for it
        log.debug("the catalog could not be made ahead", exc_info=True)


def _explain(game, request, shown: Shown) -> dict:
    """Why a move is legal or not: one sentence for a player, then the
    details (the rule taken apart), paths as the page names files."""
    from ..explain import explain, summary
    text = request.query_params.get("move")
    if not text or not text.strip():
        raise UsageError("say which move to explain: ?move=CHOICE OPTION")
    legal, lines = explain(game, text)
    lines = shown.lines(lines)
    return {"move": text, "legal": legal, "sentence": summary(legal, lines), "lines": lines}
