"""Wordle's marks, a mark per letter of the guess: green in place, yellow elsewhere, grey absent.

The rule, with repeated letters: greens first; then, from left to right, a letter not green is
yellow while the answer still has an unmatched copy of it (each green or yellow uses one copy),
and grey once none is left. Packed as ``feedback.Marks`` packs it: base 3, the first letter most
significant. The table of 12,972 guesses by 2,315 answers (30 million pairs) is computed in
compiled code; a few thousand pairs (a player's guess against the answers left) in numpy, and one
pair alone (the referee, ``solve``) in plain Python, neither of which needs compiled code.
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
    if len(guesses) * len(secrets) <= SMALL_PAIRS:
        return small_table(guesses, secrets).astype(dtype)
    from moocow.plugins.kernel.entries import MARKS_INTO

    out = np.empty((len(secrets), len(guesses)), dtype)  # secret by secret: the engine's table layout
    MARKS_INTO(np.ascontiguousarray(guesses), np.ascontiguousarray(secrets), max(symbols, 1), out)
    return out.T


SMALL_PAIRS = 1 << 16
"""Up to this many pairs (a player's one guess against the answers left), numpy marks them: no
compiled code to load, which a sandboxed player could not build and would wait seconds for."""


def small_table(guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
    """``marks_table`` in numpy, every pair at once, a place at a time: greens, then each place's
    yellow takes the first unmatched copy of its letter left in the answer."""
    guess, secret = guesses[:, None, :], secrets[None, :, :]
    length = guesses.shape[1]
    green = guess == secret
    unmatched = ~green  # the answer's places not green: copies a yellow may use, once each
    values = np.zeros(green.shape[:2], np.int64)
    for place in range(length):
        wanted = ~green[..., place]
        yellow = np.zeros_like(wanted)
        for other in range(length):
            take = wanted & ~yellow & unmatched[..., other] & (secret[..., other] == guess[..., place])
            unmatched[..., other] &= ~take
            yellow |= take
        values = values * 3 + np.where(green[..., place], GREEN, np.where(yellow, YELLOW, GREY))
    return values


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
