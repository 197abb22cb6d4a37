"""Entering a guess piece by piece, as a person taps bottles, colours, digits, letters or numbers.

A game's pieces (``Game.pieces``: declared by the game, or read from how it writes its codes) make
a ``Keyboard``; at each step only the pieces that still lead to some guess of the game are
offered, so a bottle already placed, or a letter no word continues with, cannot be tapped. Which
pieces fit is read from the guess space itself: no game's rules are known here.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from moocow.engine.errors import MoocowError, quoted
from moocow.engine.game import Game
from moocow.engine.pieces import SEPARATORS, covering, pieces_written

MAX_PIECES = 256
"""Pieces a game may declare: one per symbol a code's byte can hold."""
MAX_PIECE_LENGTH = 8
"""Characters a declared piece may have: a key holds a short word at most."""

_KEYBOARDS: weakref.WeakKeyDictionary[Game, Keyboard | None] = weakref.WeakKeyDictionary()
"""Each game's keyboard, worked out once (a game does not change after it is made)."""


@dataclass(frozen=True)
class Keyboard:
    """A game's pieces, one per symbol (``""`` for a symbol no guess holds), and what stands
    between them in a code's text."""

    pieces: tuple[str, ...]
    separator: str
    length: int

    @property
    def all(self) -> list[str]:
        """Every piece, in symbol order: the keys of the page."""
        return [piece for piece in self.pieces if piece]

    @property
    def folded(self) -> bool:
        """Whether typed pieces are read in any case (they differ by more than case)."""
        return len({piece.lower() for piece in self.all}) == len(self.all)

    def split(self, typed: str) -> list[str]:
        """A partly entered guess as its pieces, or a one-line reason it is not the start of one."""
        if not typed:
            return []
        if self.separator or self.length == 1:
            parts = typed.split(self.separator) if self.separator else [typed]
        else:  # pieces one after another, none the start of another: read the longest each time
            parts, rest = [], typed
            while rest:
                part = max((p for p in self.all if self._same(rest[: len(p)], p)), key=len, default=None)
                if part is None:
                    raise MoocowError(f"{quoted(typed)} is not the start of a guess")
                parts.append(rest[: len(part)])
                rest = rest[len(part) :]
        return parts

    def join(self, parts: Sequence[str]) -> str:
        """Pieces as the code's text (its start, while tapped)."""
        return self.separator.join(parts)

    def symbols(self, game: Game, typed: str) -> list[int]:
        """The symbols of a partly entered guess (any case), or a one-line reason it is not one."""
        lookup = {self._key(piece): symbol for symbol, piece in enumerate(self.pieces) if piece}
        symbols = [lookup.get(self._key(part)) for part in self.split(typed)]
        if None in symbols or len(symbols) > game.code_length:
            raise MoocowError(f"{quoted(typed)} is not the start of a guess in {game.spec}")
        return [symbol for symbol in symbols if symbol is not None]

    def _key(self, piece: str) -> str:
        return piece.lower() if self.folded else piece

    def _same(self, text: str, piece: str) -> bool:
        return self._key(text) == self._key(piece)


def keyboard(game: Game) -> Keyboard | None:
    """The game's keyboard, or ``None`` when its codes cannot be tapped (a guess is typed)."""
    if game not in _KEYBOARDS:
        _KEYBOARDS[game] = _made(game)
    return _KEYBOARDS[game]


def _made(game: Game) -> Keyboard | None:
    """A keyboard from ``game.pieces()``, if they are few, short and distinct, and ``format_code``
    writes the codes as them (with one separator throughout)."""
    declared = game.pieces()
    if declared is None:
        return None
    pieces = tuple(declared)
    named = [piece for piece in pieces if piece]
    if (
        not named
        or len(pieces) > MAX_PIECES
        or not all(isinstance(piece, str) and len(piece) <= MAX_PIECE_LENGTH for piece in pieces)
        or len(set(named)) != len(named)
        or any(piece.strip() != piece for piece in named)
    ):
        return None
    sample = game.guesses[covering(game.guesses)]
    for separator in SEPARATORS:
        if pieces_written(game, sample, separator, pieces) is None:
            continue
        board = Keyboard(pieces, separator, game.code_length)
        ambiguous = not separator and any(a != b and b.startswith(a) for a in board.all for b in board.all)
        return None if ambiguous and game.code_length > 1 else board
    return None


def alphabet(game: Game) -> list[str]:
    """The game's pieces in symbol order (none when it cannot be tapped)."""
    board = keyboard(game)
    return board.all if board is not None else []


def next_pieces(game: Game, typed: str, allowed: np.ndarray | None = None) -> list[str]:
    """The pieces that may follow ``typed`` on the way to some guess (of those ``allowed``, a mask
    over the guesses: Wordle's hard mode); none once it is whole."""
    board = keyboard(game)
    if board is None:
        return []
    symbols = board.symbols(game, typed)
    if len(symbols) >= game.code_length:
        return []
    guesses = game.guesses if allowed is None else game.guesses[allowed]
    fits = np.all(guesses[:, : len(symbols)] == np.asarray(symbols, dtype=guesses.dtype), axis=1)
    following = np.unique(guesses[fits, len(symbols)])
    if len(following) == 0:
        raise MoocowError(f"{quoted(typed)} is not the start of a guess in {game.spec}")
    named = board.pieces
    return [named[symbol] for symbol in following if symbol < len(named) and named[symbol]]


def separator(game: Game) -> str:
    """What stands between the pieces of a code's text (``-`` in ``red-blue``; mostly nothing)."""
    board = keyboard(game)
    return board.separator if board is not None else ""
