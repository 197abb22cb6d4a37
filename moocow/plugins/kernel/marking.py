"""The compiled loop of ``plugins.marking.marks_table``: served built ahead of time
(``entries.MARKS_INTO``), so that a table is made without importing numba.

Most guesses repeat no letter (about two in three of Wordle's). For those the rule needs no
counting: a letter not in place is yellow exactly when the answer holds it anywhere, since no
other place of the guess can have used the answer's copies of it. That is one bit test per place
against the answer's letters as a bit set, with no branch to mispredict; the guesses that repeat
a letter take the rule as written (``_counted``). Measured on the original lists (30 million
pairs), the whole table in a third of the time the rule as written takes for every pair.
"""

from __future__ import annotations

import numpy as np

from moocow.engine.kernel.loading import njit


@njit
def _letter_sets(codes: np.ndarray) -> np.ndarray:
    """Each code's symbols as a bit set (symbols below 64)."""
    sets = np.zeros(codes.shape[0], np.uint64)
    for index in range(codes.shape[0]):
        for symbol in codes[index]:
            sets[index] |= np.uint64(1) << np.uint64(symbol)
    return sets


@njit
def _repeats(codes: np.ndarray) -> np.ndarray:
    """Whether each code holds a symbol more than once."""
    length = codes.shape[1]
    repeated = np.zeros(codes.shape[0], np.bool_)
    for index in range(codes.shape[0]):
        for first in range(length):
            for second in range(first + 1, length):
                if codes[index, first] == codes[index, second]:
                    repeated[index] = True
    return repeated


@njit
def _counted(guess: np.ndarray, secret: np.ndarray, left: np.ndarray, green: np.ndarray) -> int:
    """The packed marks of one pair by the rule as written: greens, then yellows from the left
    while the answer has unmatched copies. ``left`` is zeroed scratch, left zeroed."""
    length = len(guess)
    for place in range(length):
        green[place] = guess[place] == secret[place]
        if not green[place]:
            left[secret[place]] += 1
    value = 0
    for place in range(length):
        mark = 0
        if green[place]:
            mark = 2
        else:
            letter = guess[place]
            if left[letter] > 0:
                mark = 1
                left[letter] -= 1
        value = value * 3 + mark
    for place in range(length):
        if not green[place]:
            left[secret[place]] = 0
    return value


@njit
def marks_into(  # pragma: no cover - compiled
    guesses: np.ndarray, secrets: np.ndarray, symbols: int, out: np.ndarray
) -> None:
    """``out[s, g]``: the packed marks of guess ``g`` against secret ``s`` (``marking``'s rule)."""
    length = guesses.shape[1]
    left = np.zeros(symbols, np.int32)
    green = np.zeros(length, np.bool_)
    repeated = _repeats(guesses) if symbols <= 64 else np.ones(guesses.shape[0], np.bool_)
    plain = np.flatnonzero(~repeated)
    counted = np.flatnonzero(repeated)
    by_place = np.ascontiguousarray(guesses[plain].T).astype(np.uint64)  # a place's letters in a row
    letters = _letter_sets(secrets) if symbols <= 64 else np.zeros(secrets.shape[0], np.uint64)
    values = np.zeros(len(plain), np.int64)
    one = np.uint64(1)
    for s in range(secrets.shape[0]):
        secret = secrets[s]
        present = letters[s]
        values[:] = 0
        for place in range(length):  # every plain guess at once, a place at a time: vectorised
            column = by_place[place]
            here = np.uint64(secret[place])
            for index in range(len(plain)):
                letter = column[index]
                inside = np.int64((present >> letter) & one)
                values[index] = values[index] * 3 + inside + np.int64(letter == here)  # in place: 2
        row = out[s]
        for index in range(len(plain)):
            row[plain[index]] = values[index]
        for g in counted:
            row[g] = _counted(guesses[g], secret, left, green)
