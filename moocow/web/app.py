"""The web application: routes to thin views, the static files, and bounds on every request.

``create_app`` is the factory ``moocow serve`` runs and the tests drive through Starlette's
``TestClient``. The server keeps no state between requests beyond what it was started with:
the results files named on the command line and the key that hides the computer's secrets.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from moocow.web import assist, compare, home, play, tournament
from moocow.web import trees as tree_views
from moocow.web.ends import Ends
from moocow.web.jobs import Jobs
from moocow.web.pages import HERE, MAX_BODY, MAX_QUERY, problem, twin_paths
from moocow.web.workers import Busy, ProcessQueue


def create_app(
    results: Sequence[str | Path] = (), key: bytes | None = None, trees: Sequence[str | Path] = ()
) -> Starlette:
    """The app; ``results`` and ``trees`` are the only files it opens, ``key`` seals the secrets of
    games against the computer (a fresh random one when ``None``: a restart forgets running games)."""
    routes: list[Any] = []
    views = {
        "/": home.home_page,
        assist.PATH: assist.assist_page,
        play.PATH: play.play_page,
        compare.PATH: compare.compare_page,
        tree_views.PATH: tree_views.tree_page,
        tournament.PATH: tournament.files_page,
        tournament.PATH + "/{number:int}": tournament.file_page,
        tournament.PATH + "/{number:int}/player": tournament.player_page,
        tournament.PATH + "/{number:int}/round": tournament.round_page,
    }
    for path, view in views.items():
        routes += [Route(twin, view) for twin in (twin_paths(path) if path != "/" else ("/", "/index.json"))]
    for grades in ("/{number:int}.csv", "/{number:int}/grades.json"):
        routes.append(Route(tournament.PATH + grades, tournament.grades))
    routes.append(Route(tree_views.PATH + ".svg", tree_views.tree_picture))
    routes.append(Route(tree_views.PATH, tree_views.tree_upload, methods=["POST"]))
    routes.append(Route("/favicon.ico", _favicon))
    routes.append(Mount("/static", StaticFiles(directory=HERE / "static"), name="static"))
    app = Starlette(
        routes=routes,
        exception_handlers={HTTPException: _http_problem, Busy: _busy, Exception: _server_problem},
    )
    app.state.results = [Path(path) for path in results]
    app.state.ends = Ends(key if key is not None else secrets.token_bytes(32))
    app.state.workers = ProcessQueue()
    app.state.jobs = Jobs(app.state.workers)
    app.state.trees = [Path(path) for path in trees]
    app.state.uploads = OrderedDict()
    return Bounded(app)  # type: ignore[return-value]


async def _favicon(request: Request) -> Response:
    """The icon a browser asks for at the root whatever the page says (moocow's four pegs, drawn
    as ``static/favicon.svg`` is), so that no page's visit logs a 404."""
    return FileResponse(HERE / "static" / "favicon.ico", media_type="image/x-icon")


async def _http_problem(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    message = {404: "no such page", 405: "this page is only read (GET)"}.get(error.status_code, error.detail)
    return problem(request, message, error.status_code)


async def _busy(request: Request, error: Exception) -> Response:
    """The queue of big work is full: one line, 503."""
    return problem(request, str(error), 503)


async def _server_problem(request: Request, error: Exception) -> Response:
    """A bug still answers in one line, never with a traceback."""
    message = f"internal error: {type(error).__name__} (a bug in moocow: please report it)"
    return problem(request, message, 500)


class Bounded:
    """Refuse an overlong query (414) or body (413) before any view runs: the work one request
    may cost is bounded by what it may say."""

    def __init__(self, app: Starlette) -> None:
        self.app = app
        self.state = app.state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            length = dict(scope["headers"]).get(b"content-length", b"0")
            if len(scope.get("query_string", b"")) > MAX_QUERY:
                message = f"the URL is longer than {MAX_QUERY} bytes"
                return await _refuse(scope, receive, send, 414, message)
            if not length.isdigit() or int(length) > MAX_BODY:
                message = f"the request is larger than {MAX_BODY} bytes"
                return await _refuse(scope, receive, send, 413, message)
        await self.app(scope, receive, send)


async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, message: str) -> None:
    response = problem(Request(scope, receive), message, status)
    await response(scope, receive, send)
