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
from moocow.engine.wording import plural
from moocow.play.assistant import LIST_LIMIT, Assistant, marked
from moocow.play.pieces import alphabet, separator
from moocow.web.marks import feedback_data, has_tiles, model_data, read_pattern, tiles
from moocow.web.moves import MAX_TYPED, Url, pieces, read_url, sent_whole, split_entry
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
    reads it) is recorded; a guess alone waits for its score to be tapped."""
    if len(typed) > MAX_TYPED or len(score) > MAX_TYPED:
        raise MoocowError(f"{quoted(typed)} is too long to be a guess")
    guess, score = (typed, score.strip()) if score.strip() else split_entry(typed)
    game = assistant.game
    shown = game.format_code(game.guesses[game.guess_index(guess)])
    if not score:
        return url.to(typed=shown, json=json)
    assistant.record(guess, score)
    entry = f"{shown}:{game.format_feedback(assistant.position.history[-1][1])}"
    return url.to(moves=[*url.moves, entry], json=json)


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
        "remaining_text": f"{assistant.remaining:,} {plural(assistant.remaining, game.code_noun)}",
        "solved": assistant.solved,
        "undo": url.to(moves=url.moves[:-1]) if url.moves else None,
        "json": url.to(json=True, typed=url.typed),
        "codes": assistant.possible_codes(LIST_LIMIT) if assistant.remaining <= LIST_LIMIT else [],
        "warning": None,
        **model_data(game),
        "moves": url.moves,
        "alphabet": alphabet(game),
    }
    earlier = assistant.earlier_entry()
    if earlier is not None:
        data["warning"] = f"guess {earlier} was the same guess; the same guess again tells nothing new"
    if assistant.solved:  # nothing is "still possible" once the secret is found
        return {**data, "codes": [], "suggestion": None, "answers": [], "board": None, "tiles": None}
    data["suggestion"] = suggestion(assistant, url)
    data["board"] = pieces(game, url, allowed=assistant.position.allowed)
    data["answers"] = answers(assistant, url)
    data["tiles"] = None
    if data["answers"] and has_tiles(game):
        guess = game.guess_index(url.typed)
        leaves = dict(assistant.answers(guess))
        shown = game.format_code(game.guesses[guess])
        data["tiles"] = tiles(game, url, shown, read_pattern(game, pattern), leaves)
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
    """The suggestion as the CLI marks it, with a link that taps it in."""
    try:
        text = marked(assistant)
    except MoocowError as error:
        return {"code": None, "text": f"No suggestion: {error}.", "link": None, "possible": False}
    code = assistant.suggestion()
    return {
        "code": code,
        "text": text,
        "possible": assistant.suggestion_is_possible(),
        "note": assistant.suggestion_note(),
        "link": url.to(typed=code),
        "prefix": "It must be" if assistant.remaining == 1 else "Suggested next guess:",
    }


def answers(assistant: Assistant, url: Url) -> list[dict[str, Any]]:
    """Once a whole guess is in: each score some remaining code gives it, and what it leaves."""
    game = assistant.game
    if not url.typed:
        return []
    try:
        guess = game.guess_index(url.typed)
    except MoocowError:
        if len(url.typed) < game.code_length:
            return []
        raise
    assistant.position.check_legal(guess)  # hard mode: refused in one line, saying why
    shown = game.format_code(game.guesses[guess])
    return [
        {
            **feedback_data(game, value),
            "remaining": left,
            "win": wins(game, value),
            "link": url.to(moves=[*url.moves, f"{shown}:{game.format_feedback(value)}"]),
        }
        for value, left in assistant.answers(guess)
    ]
