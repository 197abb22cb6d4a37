"""A position written in a URL, so the server keeps nothing: each entry is one ``m`` parameter,
the back button undoes, and a position can be sent as a link.

``m=GUESS:SCORE`` is an entry at the table (the score as the game writes it); a game against the
computer has ``m=GUESS`` alone, the score being the computer's. ``g`` is a guess being tapped in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from starlette.datastructures import QueryParams

from moocow.engine.errors import MoocowError, quoted
from moocow.engine.game import Game
from moocow.play.pieces import keyboard, next_pieces
from moocow.web.pages import link

MAX_MOVES = 40
"""Entries a URL may hold: every default game is solved in far fewer, and each one is replayed."""
MAX_TYPED = 60
"""Characters of a typed guess or score read from a URL."""


@dataclass
class Url:
    """A page's URL as parameters, so that each link on it is this URL changed a little."""

    path: str
    base: dict[str, str]
    """Parameters every link keeps (game, strategy, token)."""
    moves: list[str] = field(default_factory=list)
    typed: str = ""

    def to(self, moves: list[str] | None = None, typed: str = "", json: bool = False, **extra: Any) -> str:
        """This page with other entries or another partial guess."""
        params: list[tuple[str, Any]] = [*self.base.items()]
        params += [("m", move) for move in (self.moves if moves is None else moves)]
        params += [("g", typed), *extra.items()]
        return link(self.path + (".json" if json else ""), params)


def read_url(query: QueryParams, path: str, keys: tuple[str, ...]) -> Url:
    """The parameters of a request, bounded: too many entries or overlong text is refused."""
    moves = query.getlist("m")
    if len(moves) > MAX_MOVES:
        raise MoocowError(f"more than {MAX_MOVES} entries in one position")
    for text in [*moves, query.get("g", "")]:
        if len(text) > MAX_TYPED:
            raise MoocowError(f"{quoted(text)} is longer than {MAX_TYPED} characters")
    base = {key: query[key] for key in keys if query.get(key)}
    return Url(path, base, moves, query.get("g", "").strip())


def pieces(
    game: Game, url: Url, finish: Callable[[str], str] | None = None, allowed: np.ndarray | None = None
) -> dict[str, Any]:
    """What can be tapped next: each piece as a link adding it, and links taking pieces back;
    ``finish`` makes the link of a guess's last piece (a game against the computer plays it);
    ``allowed`` masks the guesses a rule leaves (hard mode offers only pieces of legal guesses).
    ``typed_pieces`` is the partial guess cut into its pieces (``10`` is one piece of a number)."""
    board = keyboard(game)
    offered = next_pieces(game, url.typed, allowed) if board is not None else []
    typed = board.split(url.typed) if board is not None else list(url.typed)
    join = board.join if board is not None else "".join

    def adding(piece: str) -> str:
        text = join([*typed, piece])
        whole = len(typed) + 1 == game.code_length
        return finish(text) if finish is not None and whole else url.to(typed=text)

    return {
        "tappable": board is not None,
        "typed": url.typed,
        "typed_pieces": typed,
        "length": game.code_length,
        "pieces": [{"piece": piece, "link": adding(piece)} for piece in offered],
        "all": board.all if board is not None else [],
        "back": url.to(typed=join(typed[:-1])) if url.typed else None,
        "clear": url.to(typed="") if url.typed else None,
    }


def entry_move(game: Game, guess: int, value: int) -> str:
    """An entry at the table (a guess index and its feedback value) as its ``m=GUESS:SCORE``."""
    return f"{game.format_code(game.guesses[guess])}:{game.format_feedback(value)}"


def sent_whole(query: Mapping[str, str], name: str, place: str, separator: str = "") -> str | None:
    """A guess or a score sent whole: typed (``name=``), or picked place by place without
    JavaScript (``place`` and its number: ``p0=A&p1=C...`` for pieces, ``f0=G&f1=B...`` for
    Wordle's marks; up to the first place missing), so that a guess is one step of the browser's
    history and not one a tap (``separator``: what stands between places as the game writes them)."""
    if name in query:
        return query[name]
    picked = []
    for number in range(MAX_TYPED):
        piece = query.get(f"{place}{number}")
        if piece is None:
            break
        picked.append(piece)
    return separator.join(picked) if picked else None
