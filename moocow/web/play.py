"""A game against the computer: its secret rides in the URL sealed (``tokens``), the guesses in
the clear; each page replays them against the secret. When the game ends, by the win or by
giving up, a review shows each guess beside what the engine would have played and what it left.
"""

from __future__ import annotations

from typing import Any

from starlette.datastructures import QueryParams
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from moocow.engine.errors import MoocowError, quoted
from moocow.engine.game import Game
from moocow.play.opponent import Match, deal_secret
from moocow.play.pieces import alphabet, separator
from moocow.play.table import counted, solved_in
from moocow.web.ends import Ends, address
from moocow.web.marks import feedback_data, model_data
from moocow.web.moves import MAX_TYPED, Url, pieces, read_url, sent_whole
from moocow.web.offload import worked
from moocow.web.pages import Reply, problem, refusal, respond
from moocow.web.review import review
from moocow.web.specs import web_game
from moocow.web.tokens import seal, unseal

PATH = "/play"


def play_page(request: Request) -> Response:
    """A game against the computer, worked out here or in a worker by its game's cost; a new game
    is dealt only while its address and the server have room, and a token whose game ended shows
    that end and nothing else (``ends``)."""
    ends: Ends = request.app.state.ends
    query = request.query_params
    token, gave_up, now = query.get("t"), query.get("end") == "1", ends.now()
    reply = worked(request, play_reply, ends.key, now)
    if not token and reply.redirect is not None:  # a new game: sealed, given out if counted
        full = ends.start(address(request.client and request.client.host), now)
        return respond(request, reply) if full is None else problem(request, *full)
    if not token or reply.redirect is not None or "entries" not in reply.data:
        return respond(request, reply)
    guesses = [entry["guess"] for entry in reply.data["entries"]]
    refused = ends.check(token, guesses)
    if refused is None and reply.data["over"] and reply.status == 200:
        refused = ends.record(token, guesses, gave_up and not reply.data["solved"], now)
    if refused is not None:
        return problem(request, refused, 400)
    end = ends.get(token)
    if end is not None and end.gave_up and not gave_up:
        return RedirectResponse(str(request.url.include_query_params(end="1")), 303)
    return respond(request, reply)


def play_reply(pairs: list[tuple[str, str]], json: bool, key: bytes, now: int) -> Reply:
    """A new game started at ``now`` (redirected to its sealed URL), the game so far, or its
    review once it ends; a token past its life is refused."""
    query = QueryParams(pairs)
    try:
        url = read_url(query, PATH, ("game", "t"))
        game = web_game(url.base.get("game", ""))
        if "t" not in url.base:
            seed = _seed(query.get("seed"))
            token = seal(key, game.spec, deal_secret(game, seed), now)
            started = Url(PATH, {"game": game.spec, "t": token})
            return Reply(redirect=started.to(json=json))
        secret = unseal(key, game.spec, url.base["t"], len(game.secrets), now)
        match = replay(game, secret, url.moves)
    except MoocowError as error:
        return refusal(str(error))
    typed = sent_whole(query, "guess", "p", separator(game))
    data = board(match, url, query.get("end") == "1")
    if typed is not None and not data["over"]:
        try:
            if len(typed) > MAX_TYPED:
                raise MoocowError(f"{quoted(typed)} is too long to be a guess")
            index = game.guess_index(typed)
            match.check(index)  # hard mode: refused in one line, saying why
        except MoocowError as error:
            return Reply("play.html", {**data, "error": str(error)}, 400)
        return Reply(redirect=url.to(moves=[*url.moves, game.format_code(game.guesses[index])], json=json))
    if data["over"]:
        data["secret"] = game.format_code(game.secrets[secret])
        data["review"] = review(game, match.played, secret)
    return Reply("play.html", data)


def _seed(text: str | None) -> int | None:
    if text is None or not text.strip():
        return None
    if not text.strip().isdigit() or len(text.strip()) > 40:
        raise MoocowError(f"seed {quoted(text)} is not a whole number of at most 40 digits")
    return int(text)


def replay(game: Game, secret: int, moves: list[str]) -> Match:
    """The game of the URL: each guess played against the secret (``Match``); a guess after the
    win, or one the rule forbids (hard mode), is refused saying which."""
    match = Match(game, secret)
    for number, move in enumerate(moves, 1):
        if match.solved:
            raise MoocowError(f"guess {number - 1} found the secret; the guesses after it cannot be played")
        try:
            match.play(game.guess_index(move))
        except MoocowError as error:
            raise MoocowError(f"guess {number}: {error}") from None
    return match


def board(match: Match, url: Url, gave_up: bool) -> dict[str, Any]:
    """What the page shows while the game goes on (the secret nowhere in it); a rule on guesses
    (hard mode) has only the pieces of the guesses it leaves offered."""
    game, played, solved = match.game, match.played, match.solved
    over = solved or gave_up
    data: dict[str, Any] = {
        "page": "play",
        "game": game.spec,
        "codes": counted(len(game.secrets), game.code_noun),
        "entries": [
            {"guess": game.format_code(game.guesses[guess]), **feedback_data(game, value)}
            for guess, value in played
        ],
        "solved": solved,
        "over": over,
        "result": solved_in(len(played)) if solved else None,
        "warning": match.repeat_warning(),
        "moves": url.moves,
        "token": url.base["t"],
        "alphabet": alphabet(game),
        "undo": url.to(moves=url.moves[:-1]) if url.moves and not over else None,
        "give_up": None if over else url.to(end="1"),
        "again": Url(PATH, {"game": game.spec}).to(),
        "json": url.to(json=True, typed=url.typed, end="1" if gave_up else None),
        "board": None,
        **model_data(game),
    }
    if not over:
        finish = lambda typed: url.to(moves=[*url.moves, typed])  # noqa: E731
        data["board"] = pieces(game, url, finish=finish, allowed=match.allowed)
    return data
