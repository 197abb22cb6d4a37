"""The assistant at the table: what ``moocow assist`` does, on a page whose URL is the position.

Each request replays the entries of its URL through the library's ``Assistant`` and shows what
the CLI would say next: the count, the codes when few, the marked suggestion, and, once a guess
is tapped in, every score some remaining code could give with the codes it would leave (for a
marks game, Wordle, its letters as tiles to tap as well: ``web.marks``).
"""

from __future__ import annotations

from typing import Any

from starlette.datastructures import QueryParams
from starlette.requests import Request
from starlette.responses import Response

from moocow.engine.errors import MoocowError, quoted
from moocow.engine.position import wins
from moocow.play.assistant import Assistant
from moocow.play.pieces import alphabet, separator
from moocow.play.table import counted, read_entry, solved_in, split_entry
from moocow.web.marks import feedback_data, has_tiles, model_data, read_pattern, tiles
from moocow.web.moves import MAX_TYPED, Url, entry_move, pieces, read_url, sent_whole
from moocow.web.offload import worked
from moocow.web.pages import Reply, refusal, respond
from moocow.web.specs import web_assistant, web_game

PATH = "/assist"


def assist_page(request: Request) -> Response:
    """The assistant's page, worked out here or in a worker by its game's cost."""
    return respond(request, worked(request, assist_reply))


def assist_reply(pairs: list[tuple[str, str]], json: bool) -> Reply:
    """The assistant's page, or the one-line refusal of what its URL or form holds."""
    query = QueryParams(pairs)
    try:
        url = read_url(query, PATH, ("game", "strategy"))
        game = web_game(url.base.get("game", ""))
        assistant = web_assistant(game, url.base.get("strategy", "minmax"))
        left = replay(assistant, url.moves)
    except Unplayable as error:
        return kept_reply(assistant, url, error)
    except MoocowError as error:
        return refusal(str(error))
    typed = sent_whole(query, "guess", "p", separator(game))
    try:
        if typed is not None:
            score = sent_whole(query, "score", "f") or ""
            return Reply(redirect=entered(assistant, url, typed, score, json))
        data = board(assistant, url, left, query.get("f"))
    except MoocowError as error:
        url.typed = ""
        return Reply("assist.html", {**board(assistant, url, left), "error": str(error)}, 400)
    return Reply("assist.html", data)


class Unplayable(MoocowError):
    """An entry of the URL that cannot be played (a shared link with a mistyped score), with what
    was played before it and the entries that would be kept without it."""

    def __init__(self, message: str, left: list[int], without: list[str], entry: str | None) -> None:
        super().__init__(message)
        self.left = left
        """The codes left after each entry played before it."""
        self.without = without
        """The URL's entries without the one refused (or without those after a win)."""
        self.entry = entry
        """The entry refused, to be entered again; ``None`` when entries follow a win."""


def replay(assistant: Assistant, moves: list[str]) -> list[int]:
    """Record the URL's entries in order, returning the codes left after each; a bad one is
    refused saying which, the entries before it played."""
    left: list[int] = []
    for number, move in enumerate(moves, 1):
        guess, _, feedback = move.partition(":")
        try:
            assistant.record(guess, feedback)
        except MoocowError as error:
            without = [*moves[: number - 1], *moves[number:]]
            raise Unplayable(f"entry {number}: {error}", left, without, move) from None
        left.append(assistant.remaining)
        if assistant.solved and number < len(moves):
            message = f"entry {number} solved the game; the entries after it cannot be played"
            raise Unplayable(message, left, moves[:number], None)
    return left


def kept_reply(assistant: Assistant, url: Url, error: Unplayable) -> Reply:
    """A link whose entry cannot be played is not thrown away: the page shows the position before
    that entry, with the refusal, a link dropping the entry (every other entry kept), and the
    entry's guess tapped in with its score in the typed form, to be entered again."""
    played = url.moves[: len(error.left)]
    guess, _, score = (error.entry or "").partition(":")
    kept = Url(url.path, url.base, played)
    offer = {"drop": url.to(moves=error.without), "entry": error.entry, "kept": len(played)}
    offer.update(guess=guess, score=score)
    try:
        kept.typed = guess if not assistant.solved else ""
        data = board(assistant, kept, error.left)
    except MoocowError:  # the guess itself is what cannot be read: it is typed again whole
        kept.typed = ""
        data = board(assistant, kept, error.left)
    return Reply("assist.html", {**data, "error": str(error), "stuck": offer}, 400)


def entered(assistant: Assistant, url: Url, typed: str, score: str, json: bool = False) -> str:
    """Where a typed entry leads: a guess and its score (or ``GUESS SCORE`` in one box, as the CLI
    reads it: ``table.split_entry``) is recorded; a guess alone waits for its score to be tapped."""
    if len(typed) > MAX_TYPED or len(score) > MAX_TYPED:
        raise MoocowError(f"{quoted(typed)} is too long to be a guess")
    guess, score = (typed, score.strip()) if score.strip() else split_entry(typed)
    game = assistant.game
    if not score:
        return url.to(typed=game.format_code(game.guesses[game.guess_index(guess)]), json=json)
    index, value = read_entry(game, guess, score)
    assistant.enter(index, value)
    return url.to(moves=[*url.moves, entry_move(game, index, value)], json=json)


def board(assistant: Assistant, url: Url, left: list[int], pattern: str | None = None) -> dict[str, Any]:
    """Everything the page shows, as plain data (the JSON twin); ``pattern`` is the marks being
    tapped on a whole guess's tiles (``f=``)."""
    game = assistant.game
    data: dict[str, Any] = {
        "page": "assist",
        "game": game.spec,
        "strategy": assistant.strategy.spec,
        "noun": game.code_noun,
        "entries": entries(assistant, url, left),
        "remaining": assistant.remaining,
        "remaining_text": counted(assistant.remaining, game.code_noun),
        "solved": assistant.solved,
        "result": solved_in(assistant.entries) if assistant.solved else None,
        "undo": url.to(moves=url.moves[:-1]) if url.moves else None,
        "json": url.to(json=True, typed=url.typed),
        "codes": assistant.listed(),
        "warning": assistant.repeat_warning(),
        **model_data(game),
        "moves": url.moves,
        "alphabet": alphabet(game),
    }
    if assistant.solved:  # nothing is "still possible" once the secret is found
        return {**data, "suggestion": None, "answers": [], "board": None, "tiles": None}
    data["suggestion"] = suggestion(assistant, url)
    data["board"] = pieces(game, url, allowed=assistant.position.allowed)
    data["answers"], data["tiles"] = [], None
    guess = typed_guess(assistant, url.typed)
    if guess is None:
        return data
    given = assistant.answers(guess)
    data["answers"] = [answer(assistant, url, guess, value, left) for value, left in given]
    if given and has_tiles(game):
        shown = game.format_code(game.guesses[guess])
        data["tiles"] = tiles(game, url, shown, read_pattern(game, pattern), dict(given))
        data["json"] = url.to(json=True, typed=url.typed, f=data["tiles"]["pattern"])
    return data


def entries(assistant: Assistant, url: Url, left: list[int]) -> list[dict[str, Any]]:
    """The history with the codes each entry left and a link back to just after it."""
    game = assistant.game
    return [
        {
            "guess": guess,
            **feedback_data(game, value),
            "left": count,
            "link": url.to(moves=url.moves[:number]),
        }
        for number, ((guess, value), count) in enumerate(zip(assistant.recorded(), left, strict=True), 1)
    ]


def suggestion(assistant: Assistant, url: Url) -> dict[str, Any]:
    """The suggestion as the CLI says it (``Assistant.suggested``), with a link that taps it in."""
    shown = assistant.suggested()
    if shown.code is None:
        return {"code": None, "text": shown.text, "link": None, "possible": False}
    return {
        "code": shown.code,
        "text": shown.text,
        "possible": shown.possible,
        "note": shown.note,
        "link": url.to(typed=shown.code),
        "prefix": shown.prefix,
    }


def typed_guess(assistant: Assistant, typed: str) -> int | None:
    """The whole guess tapped or typed in (an index), read once a request; ``None`` while it is
    partial. A whole one that is no guess, or that the rule forbids here (hard mode), is refused
    in one line saying why."""
    game = assistant.game
    if not typed:
        return None
    try:
        guess = game.guess_index(typed)
    except MoocowError:
        if len(typed) < game.code_length:
            return None
        raise
    assistant.position.check_legal(guess)
    return guess


def answer(assistant: Assistant, url: Url, guess: int, value: int, left: int) -> dict[str, Any]:
    """One score some remaining code gives the typed guess, what it leaves, and the link entering it."""
    game = assistant.game
    return {
        **feedback_data(game, value),
        "remaining": left,
        "win": wins(game, value),
        "link": url.to(moves=[*url.moves, entry_move(game, guess, value)]),
    }
