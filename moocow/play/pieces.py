"""Entering a guess piece by piece, as a person taps bottles, colours, digits or letters.

A game written one character per symbol (``SymbolGame.alphabet``) can be entered by tapping; at
each step only the pieces that still lead to some guess of the game are offered, so a bottle
already placed, or a letter no word continues with, cannot be tapped. Which pieces fit is read
from the guess space itself: no game's rules are known here.
"""

from __future__ import annotations

import numpy as np

from moocow.engine.errors import MoocowError, quoted
from moocow.engine.game import Game


def alphabet(game: Game) -> str | None:
    """The game's pieces, one character each, or ``None`` when its codes cannot be tapped."""
    letters = getattr(game, "alphabet", None)
    if not isinstance(letters, str) or not letters or len(set(letters.lower())) != len(letters):
        return None
    return letters


def symbols_of(game: Game, letters: str, typed: str) -> list[int]:
    """The symbols of a partly tapped guess (any case), or a one-line reason it is not one."""
    lookup = {character.lower(): symbol for symbol, character in enumerate(letters)}
    symbols = [lookup.get(character.lower()) for character in typed]
    if None in symbols or len(symbols) > game.code_length:
        raise MoocowError(f"{quoted(typed)} is not the start of a guess in {game.spec}")
    return [symbol for symbol in symbols if symbol is not None]


def next_pieces(game: Game, typed: str, allowed: np.ndarray | None = None) -> list[str]:
    """The pieces that may follow ``typed`` on the way to some guess (of those ``allowed``, a mask
    over the guesses: Wordle's hard mode); none once it is whole."""
    letters = alphabet(game)
    if letters is None:
        return []
    symbols = symbols_of(game, letters, typed)
    if len(symbols) >= game.code_length:
        return []
    guesses = game.guesses if allowed is None else game.guesses[allowed]
    fits = np.all(guesses[:, : len(symbols)] == np.asarray(symbols, dtype=guesses.dtype), axis=1)
    following = np.unique(guesses[fits, len(symbols)])
    if len(following) == 0:
        raise MoocowError(f"{quoted(typed)} is not the start of a guess in {game.spec}")
    return [letters[symbol] for symbol in following if symbol < len(letters)]
