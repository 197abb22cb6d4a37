"""Strategies compared on one game: totals, averages, worst cases and their histograms drawn side
by side as SVG. Evaluations run in ``jobs`` (a process each); the page polls until all are in. One
the cost model (``engine.cost``) puts past ``LIMIT`` is refused with its estimate, as the CLI's
note says it, before anything runs.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from moocow import api
from moocow.engine.cost import duration
from moocow.engine.errors import MoocowError
from moocow.engine.wording import plural
from moocow.web.jobs import Jobs
from moocow.web.offload import done
from moocow.web.pages import link, page, problem
from moocow.web.specs import web_game, web_strategy

PATH = "/evaluate"
LIMIT = 10.0
"""Modelled seconds (on the reference two-core machine) an evaluation from the page may take."""
MOST = 4
"""Strategies compared at once."""
DEFAULT = ("minmax", "entropy")
POLL_SECONDS = 1
COLOURS = ("#1f6feb", "#d9480f", "#2f9e44", "#ae3ec9")
"""One colour per strategy, readable on light and dark."""


def compare_page(request: Request) -> Response:
    """The comparison, started or followed; refused in one line when too costly or malformed."""
    query = request.query_params
    try:
        strategies = [web_strategy(spec) for spec in (query.getlist("s") or DEFAULT)]
        if len(strategies) > MOST:
            raise MoocowError(f"at most {MOST} strategies are compared at once")
        game, specs = done(request, query.get("game", ""), plan, query.get("game", ""), strategies)
        jobs: Jobs = request.app.state.jobs
        shown = [jobs.get(game, spec).to_dict() for spec in specs]
    except MoocowError as error:
        return problem(request, str(error), 400)
    for number, job in enumerate(shown):
        job["colour"] = COLOURS[number % len(COLOURS)]
    finished = all(job["state"] in ("done", "failed") for job in shown)
    data = {
        "page": "evaluate",
        "game": game,
        "strategies": shown,
        "finished": finished,
        "poll": None if finished else POLL_SECONDS,
        "link": link(PATH, [("game", game), *(("s", s) for s in strategies)]),
        "chart": chart([job for job in shown if job["result"] is not None]),
    }
    return page(request, "compare.html", data)


def plan(game: str, strategies: list[str]) -> tuple[str, list[str]]:
    """The canonical specs of the game and strategies to evaluate, each evaluation's cost checked."""
    loaded = web_game(game)
    specs = [api.load_strategy(strategy).spec for strategy in strategies]
    for spec in specs:
        check_cost(loaded.spec, spec)
    return loaded.spec, specs


def check_cost(game: str, strategy: str) -> None:
    """Refuse, with the model's estimate and its reason, an evaluation past ``LIMIT``."""
    cost = api.evaluation_cost(game, strategy)
    if cost.seconds > LIMIT:
        raise MoocowError(
            f"evaluating {strategy} on {game} would take about {duration(cost.seconds)} on a 2-core "
            f"machine ({cost.reason()}), more than the page's limit of {duration(LIMIT)}: "
            "moocow evaluate runs it"
        )


WIDTH, HEIGHT, LEFT, BOTTOM, TOP = 340, 180, 34, 22, 8
"""The chart's size and margins, in SVG units (it scales to the page's width)."""


def chart(jobs: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Bars of every finished evaluation, grouped by number of guesses, as rectangles to draw."""
    if not jobs:
        return None
    longest = max(len(job["result"]["histogram"]) for job in jobs)
    highest = max(max(job["result"]["histogram"]) for job in jobs) or 1
    group = (WIDTH - LEFT) / longest
    bar = group * 0.8 / len(jobs)
    scale = (HEIGHT - BOTTOM - TOP) / highest
    bars = []
    for number, job in enumerate(jobs):
        for guesses, count in enumerate(job["result"]["histogram"], 1):
            height = count * scale
            bars.append(
                {
                    "x": round(LEFT + (guesses - 1) * group + group * 0.1 + number * bar, 2),
                    "y": round(HEIGHT - BOTTOM - height, 2),
                    "width": round(bar, 2),
                    "height": round(height, 2),
                    "count": count,
                    "colour": job["colour"],
                    "title": f"{job['strategy']}: {count:,} {plural(count, 'secret')} in {guesses}",
                }
            )
    labels = [
        {"x": round(LEFT + (guesses - 0.5) * group, 2), "text": str(guesses)}
        for guesses in range(1, longest + 1)
    ]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "base": HEIGHT - BOTTOM,
        "top": TOP,
        "highest": highest,
        "bars": bars,
        "labels": labels,
    }
