"""Where a page's work is done: in the server for a game the cost model calls cheap, otherwise in
a worker process through the server's one queue (``workers``). A page's work is a function of its
query (as pairs) and whether the JSON twin was asked for, returning a ``Reply``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from starlette.datastructures import QueryParams
from starlette.requests import Request

from moocow.engine.errors import MoocowError
from moocow.web.pages import Reply, refusal, wants_json
from moocow.web.specs import cheap
from moocow.web.workers import ProcessQueue

T = TypeVar("T")
Work = Callable[..., Reply]
"""``work(query, json, *extra)``."""


def worked(request: Request, work: Work, *extra: Any, query: QueryParams | None = None) -> Reply:
    """``work`` on the request's query (or ``query``), here or in a worker by its game's cost."""
    params = request.query_params if query is None else query
    pairs = list(params.multi_items())
    try:
        reply: Reply = done(request, params.get("game", ""), work, pairs, wants_json(request), *extra)
    except MoocowError as error:
        return refusal(str(error))
    return reply


def done(request: Request, game: str, function: Callable[..., T], *args: Any) -> T:
    """``function(*args)``, work on the game ``game`` names: here when the cost model calls it
    cheap, else in a worker process of the server's queue (its refusal raised here again)."""
    if cheap(game):
        return function(*args)
    workers: ProcessQueue = request.app.state.workers
    result: T = workers.call(function, *args)
    return result
