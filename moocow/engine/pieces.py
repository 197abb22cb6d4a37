"""A game's pieces: what a person taps, one per symbol, to enter a guess on the phone page.

A plugin game need not say how its codes are tapped: when its codes are written with a few short
symbols (digits, letters, ``red-blue``), the symbols are read back from ``format_code`` on a few
guesses that between them hold every symbol in every place (``Game.pieces`` asks this by default).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from moocow.engine.game import Game

MAX_DERIVED = 36
"""Symbols a derived keyboard may have: past this, a grid of keys is no quicker than typing."""
MAX_DERIVED_LENGTH = 3
"""Characters a derived piece may have (``10``, ``red``): longer ones are words, typed better."""
SEPARATORS = ("", "-", " ", ",", ":", "/", ".")
"""What may stand between the pieces of a code's text (none for ``1234``, ``-`` for ``red-blue``)."""


def split_text(text: str, separator: str, length: int) -> list[str] | None:
    """A code's text as its ``length`` pieces, or ``None`` when it is not written so."""
    if length == 1:
        return [text] if separator == "" else None
    parts = list(text) if separator == "" else text.split(separator)
    return parts if len(parts) == length else None


def covering(codes: np.ndarray) -> np.ndarray:
    """Indices of a few codes that hold every symbol found in each place (the first and last too),
    so a game's text is read for every symbol without writing all its codes."""
    firsts = [np.unique(codes[:, place], return_index=True)[1] for place in range(codes.shape[1])]
    return np.unique(np.concatenate([[0, len(codes) - 1], *firsts]))


def pieces_written(
    game: Game, codes: np.ndarray, separator: str, pieces: Sequence[str] | None = None
) -> dict[int, str] | None:
    """Each symbol's piece as ``codes`` are written with ``separator`` between pieces, or ``None``
    when they are not so written (or disagree with ``pieces`` where given)."""
    found: dict[int, str] = {}
    for code in codes:
        parts = split_text(game.format_code(code), separator, game.code_length)
        if parts is None:
            return None
        for symbol, part in zip(code.tolist(), parts, strict=True):
            if not part or found.setdefault(symbol, part) != part:
                return None
            if pieces is not None and (symbol >= len(pieces) or pieces[symbol] != part):
                return None
    return found


def derive_pieces(game: Game) -> tuple[str, ...] | None:
    """The piece of each symbol read from the game's own text (``""`` for a symbol no guess has),
    or ``None`` when its symbols are too many or too long to tap, or not written one by one."""
    letters = getattr(game, "alphabet", None)
    if isinstance(letters, str) and letters:
        return tuple(letters)  # a SymbolGame says its characters itself
    guesses = game.guesses
    if len(np.unique(guesses)) > MAX_DERIVED:
        return None
    sample = guesses[covering(guesses)]
    for separator in SEPARATORS:
        found = pieces_written(game, sample, separator)
        if found is None or len(set(found.values())) != len(found):
            continue
        if max(map(len, found.values())) > MAX_DERIVED_LENGTH:
            return None
        return tuple(found.get(symbol, "") for symbol in range(max(found) + 1))
    return None
