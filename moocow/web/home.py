"""The first page: every game at its default size, to help at the table or to play, and the
results files the server was started with."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from moocow.plugins import game_classes
from moocow.plugins.strategy_registry import strategy_classes
from moocow.web.pages import link, page
from moocow.web.specs import FILE_STRATEGIES

SUGGESTED = ("bottles:n=7", "mastermind", "digits", "words", "wordle")
"""Games the first page offers at a tap (any spec can be typed)."""


def home_page(request: Request) -> Response:
    """Links to the assistant and to a game against the computer, for each game."""
    games: list[dict[str, Any]] = []
    for name, cls in game_classes().items():
        shown = [param for param in cls.params if param.default is not None]
        params = ", ".join(f"{param.name}={param.default}" for param in shown)
        games.append({"name": name, "summary": cls.summary, "params": params})
    data = {
        "page": "home",
        "games": games,
        "quick": [
            {"game": spec, "assist": link("/assist", {"game": spec}), "play": link("/play", {"game": spec})}
            for spec in SUGGESTED
        ],
        "strategies": [name for name in strategy_classes() if name not in FILE_STRATEGIES],
        "trees": [
            {"name": path.name, "link": f"/tree?file={number}"}
            for number, path in enumerate(request.app.state.trees)
        ],
        "results": [
            {"name": path.name, "link": f"/results/{number}"}
            for number, path in enumerate(request.app.state.results)
        ],
    }
    return page(request, "home.html", data)
