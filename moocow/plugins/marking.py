"""Wordle's marks, a mark per letter of the guess: green in place, yellow elsewhere, grey absent.

The rule, with repeated letters: greens first; then, from left to right, a letter not green is
yellow while the answer still has an unmatched copy of it (each green or yellow uses one copy),
and grey once none is left. Packed as ``feedback.Marks`` packs it: base 3, the first letter most
significant. The table of 12,972 guesses by 2,315 answers (30 million pairs) is computed in
compiled code; one pair alone (the referee, ``solve``) in plain Python, which needs no compile.
"""

from __future__ import annotations

import numpy as np

from moocow.engine.game import Codes

GREY, YELLOW, GREEN = 0, 1, 2
"""The marks, as ``feedback.Marks`` numbers them."""


def marks_table(guesses: Codes, secrets: Codes, symbols: int) -> np.ndarray:
    """The packed marks of each guess against each secret, ``(len(guesses), len(secrets))``."""
    guesses, secrets = np.asarray(guesses, np.uint8), np.asarray(secrets, np.uint8)
    dtype = np.uint8 if guesses.shape[1] <= 5 else np.uint16 if guesses.shape[1] <= 10 else np.uint32
    if len(guesses) == 1 and len(secrets) == 1:
        return np.array([[pack(one_pair(guesses[0].tolist(), secrets[0].tolist()))]], dtype)
    from moocow.plugins.kernel.entries import MARKS_INTO

    out = np.empty((len(secrets), len(guesses)), dtype)  # secret by secret: the engine's table layout
    MARKS_INTO(np.ascontiguousarray(guesses), np.ascontiguousarray(secrets), max(symbols, 1), out)
    return out.T


def one_pair(guess: list[int], secret: list[int]) -> list[int]:
    """The marks of one guess against one secret: the rule as written, for one pair."""
    marks = [GREEN if g == s else GREY for g, s in zip(guess, secret, strict=True)]
    left: dict[int, int] = {}
    for place, letter in enumerate(secret):
        if marks[place] != GREEN:
            left[letter] = left.get(letter, 0) + 1
    for place, letter in enumerate(guess):
        if marks[place] != GREEN and left.get(letter, 0) > 0:
            marks[place] = YELLOW
            left[letter] -= 1
    return marks


def pack(marks: list[int]) -> int:
    """Marks packed in base 3, first place most significant."""
    value = 0
    for mark in marks:
        value = value * 3 + mark
    return value
