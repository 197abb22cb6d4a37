"""Wordle's hard mode as the compiled search applies it: the guesses still legal after one answer.

A guess must keep every green letter of an earlier guess in its place, and hold every green or
yellow letter of that guess at least as many times as it was marked. The rule depends on one
(guess, answer) pair at a time, so the legal guesses after a history are those that pass every
pair: the search filters its list of legal guesses once per answer it follows, never scanning the
whole guess space again. Marks are read from the packed value (a mark per place, base 3, the
first place most significant: 0 grey, 1 yellow, 2 green), as ``engine.feedback_model.Marks``
packs them; ``fast.HardRule`` checks this against the game's own rule before a search uses it.
"""

from __future__ import annotations

import numpy as np

from moocow.engine.kernel.loading import Index, njit

GREEN, YELLOW = 2, 1


@njit
def still_legal(codes: np.ndarray, legal: np.ndarray, guess: Index, answer: int) -> np.ndarray:
    """The guesses of ``legal`` that keep to what ``guess`` was told (``answer``), in order."""
    length = codes.shape[1]
    marks = np.empty(length, dtype=np.int64)
    value = answer
    for place in range(length - 1, -1, -1):
        marks[place] = value % 3
        value //= 3
    letters = np.empty(length, dtype=np.int64)  # the letters marked, each once, with how many
    wanted = np.zeros(length, dtype=np.int64)
    distinct = 0
    for place in range(length):
        if marks[place] == 0:
            continue
        letter = codes[guess, place]
        found = -1
        for index in range(distinct):
            if letters[index] == letter:
                found = index
        if found < 0:
            letters[distinct] = letter
            found = distinct
            distinct += 1
        wanted[found] += 1
    kept = np.empty(len(legal), dtype=np.int32)
    count = 0
    for other in legal:
        ok = True
        for place in range(length):
            if marks[place] == GREEN and codes[other, place] != codes[guess, place]:
                ok = False
                break
        if ok:
            for index in range(distinct):
                held = 0
                for place in range(length):
                    held += codes[other, place] == letters[index]
                if held < wanted[index]:
                    ok = False
                    break
        if ok:
            kept[count] = other
            count += 1
    return kept[:count]
