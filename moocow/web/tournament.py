"""Tournament results from the files named on ``moocow serve --results``: the leaderboards, each
player's rounds with failures and reasons, and any round replayed guess by guess beside what the
engine would have played. A file still being written is re-read at each request, and its page
polls (htmx) until the last round is in. Files are named by their place on the command line:
no path is ever taken from a URL.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from moocow.engine.errors import MoocowError, quoted
from moocow.play.opponent import scored
from moocow.referee.bacrunner import count_bulls_and_cows, is_course_deck
from moocow.referee.decks import load_deck
from moocow.runner.grades import grade_rows, grades_csv
from moocow.runner.leaderboard import Standing, standings
from moocow.runner.shown_results import ShownResults, read_shown
from moocow.web.named import named_file
from moocow.web.pages import link, page, problem, wants_json
from moocow.web.review import review

PATH = "/results"
POLL_SECONDS = 2
"""How often a page of a tournament still being written asks again."""


def shown(request: Request, number: int) -> tuple[str, ShownResults]:
    """The ``number``-th results file of the command line, read (again if it changed)."""
    path, results = named_file(request.app.state.results, number, "results file", read_shown)
    return path.name, results


def files_page(request: Request) -> Response:
    """Every results file the server was started with, and how far each has got."""
    listed = []
    for number, path in enumerate(request.app.state.results):
        entry: dict[str, Any] = {"name": path.name, "link": f"{PATH}/{number}"}
        try:
            _, results = shown(request, number)
            entry.update(rounds=len(results.rounds), expected=results.expected)
        except MoocowError as error:
            entry["error"] = str(error)
        listed.append(entry)
    return page(request, "results_files.html", {"page": "results", "files": listed})


def file_page(request: Request) -> Response:
    """The leaderboard over all games, and per game where there are several; live while rounds
    are still coming. ``?find=`` keeps the rows whose name, student id or author holds it (a form
    that works without JavaScript); each row keeps its rank and has an anchor of its own."""
    number = request.path_params["number"]
    try:
        name, results = shown(request, number)
    except MoocowError as error:
        return problem(request, str(error), 400)
    base = f"{PATH}/{number}"
    find = request.query_params.get("find", "").strip()[:FIND_LONGEST]
    rounds = results.rounds
    games = list(results.description["games"])
    overall = _table(standings(rounds), base, results)
    data = {
        "page": "results_file",
        "name": name,
        "link": link(base, {"find": find}),
        "all": base,
        "csv": f"{base}.csv",
        "grades": f"{base}/grades.json",
        "games": games,
        "seed_fingerprint": results.seed_fingerprint,
        "mercy": results.description.get("mercy"),
        "rounds": len(rounds),
        "expected": results.expected,
        "finished": results.finished,
        "signed": results.signed,
        "poll": None if results.finished else POLL_SECONDS,
        "find": find,
        "players": len(overall),
        "overall_title": "Over all games" if len(games) > 1 else games[0],
        "overall": _found(overall, find),
        "per_game": [
            {"game": game, "standings": _found(_table(standings(rounds, game), base, results), find)}
            for game in (games if len(games) > 1 else ())
        ],
    }
    return page(request, "results_file.html", data)


FIND_LONGEST = 200
"""Characters of ``?find=`` kept: a name, an id or an author, not a page of text."""


def _found(rows: list[dict[str, Any]], find: str) -> list[dict[str, Any]]:
    """The rows whose name, student id or author holds ``find`` (any case); all of them without it."""
    wanted = find.casefold()
    return [
        row
        for row in rows
        if not wanted or any(wanted in row[key].casefold() for key in ("player", "student_id", "author"))
    ]


def _table(table: list[Standing], base: str, results: ShownResults) -> list[dict[str, Any]]:
    places = {player["name"]: place for place, player in enumerate(results.description["players"])}
    return [
        {
            "rank": rank,
            "player": row.player,
            "anchor": f"p{places.get(row.player, rank)}",
            "student_id": results.identity(row.player).student_id,
            "author": results.identity(row.player).author,
            "rounds": row.rounds,
            "total": row.total,
            "average": round(row.average, 3),
            "worst": row.worst,
            "failed": row.failed,
            "ms_per_guess": round(row.seconds_per_guess * 1000, 2),
            "link": link(f"{base}/player", {"name": row.player}),
        }
        for rank, row in enumerate(table, 1)
    ]


def grades(request: Request) -> Response:
    """The grades (``runner.grades``), a row a player over all games, as ``moocow export`` writes
    them: CSV at ``/results/N.csv``, its JSON twin (the same rows) at ``/results/N/grades.json``."""
    try:
        name, results = shown(request, request.path_params["number"])
    except MoocowError as error:
        return problem(request, str(error), 400)
    rows = grade_rows(results.rounds, results.identities)
    if wants_json(request):
        return JSONResponse(rows)
    download = quote(Path(name).stem + "-grades.csv")
    headers = {"Content-Disposition": f"attachment; filename*=UTF-8''{download}"}
    return Response(grades_csv(rows), media_type="text/csv; charset=utf-8", headers=headers)


def player_page(request: Request) -> Response:
    """One player's rounds: the secret, the score, and for a lost round its failure and reason."""
    number = request.path_params["number"]
    player = request.query_params.get("name", "")
    try:
        name, results = shown(request, number)
        if player not in results.check.players:
            raise MoocowError(f"no player {quoted(player)} in this tournament")
    except MoocowError as error:
        return problem(request, str(error), 400)
    base = f"{PATH}/{number}"
    rows = [
        {
            "game": result.game,
            "round": result.round,
            "secret": result.secret,
            "guesses": len(result.guesses),
            "score": result.score,
            "solved": result.solved,
            "failure": result.failure,
            "reason": result.reason,
            "link": link(f"{base}/round", {"player": player, "game": result.game, "round": result.round}),
        }
        for result in results.rounds
        if result.player == player
    ]
    who = results.identity(player)
    data: dict[str, Any] = {"page": "player", "name": name, "file": base, "player": player, "rounds": rows}
    data.update(student_id=who.student_id, author=who.author)
    data["poll"] = None if results.finished else POLL_SECONDS
    return page(request, "results_player.html", data)


def round_page(request: Request) -> Response:
    """One round replayed: each guess, its score, the codes left and the engine's choice there."""
    number = request.path_params["number"]
    query = request.query_params
    try:
        name, results = shown(request, number)
        wanted = (query.get("player", ""), query.get("game", ""), query.get("round", ""))
        found = next((r for r in results.rounds if (r.player, r.game, str(r.round)) == wanted), None)
        if found is None:
            raise MoocowError(
                f"no round {quoted(wanted[2])} of {quoted(wanted[0])} in {quoted(wanted[1])} here"
            )
        steps = replay_round(results, found.game, found.round, found.secret, found.guesses)
    except MoocowError as error:
        return problem(request, str(error), 400)
    data = {
        "page": "round",
        "name": name,
        "file": f"{PATH}/{number}",
        "player": found.player,
        "game": found.game,
        "round": found.round,
        "secret": found.secret,
        "solved": found.solved,
        "score": found.score,
        "failure": found.failure,
        "reason": found.reason,
        "steps": steps,
        "kind": round_kind(found.game),
        "course": is_course_deck(found.game),
        "player_link": link(f"{PATH}/{number}/player", {"name": found.player}),
    }
    return page(request, "results_round.html", data)


def round_kind(game_spec: str) -> str:
    """The kind of the round's feedback (``counts`` or ``marks``: Wordle's are shown as tiles)."""
    return load_deck(game_spec).feedback_kind


def replay_round(
    results: ShownResults, game_spec: str, round_number: int, secret: str, guesses: tuple[str, ...]
) -> list[dict]:
    """The round's review (``review``); a course round, played in its own protocol (any text is a
    guess), shows each guess's bulls and cows as the course scores them, and nothing of the engine."""
    if is_course_deck(game_spec):
        return [
            {"guess": guess, "feedback": "{}B{}C".format(*count_bulls_and_cows(guess, secret))}
            for guess in guesses
        ]
    deal = results.check.deal(game_spec, round_number, secret)
    indices = [deal.game.guess_index(guess) for guess in guesses]
    played = [(index, scored(deal.game, deal.secret, index)[0]) for index in indices]
    return review(deal.game, played, deal.secret)
