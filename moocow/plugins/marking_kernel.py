"""The compiled loop of ``marking.marks_table`` (numba: imported only when a table is computed)."""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True)
def marks_into(  # pragma: no cover - compiled
    guesses: np.ndarray, secrets: np.ndarray, symbols: int, out: np.ndarray
) -> None:
    """``out[s, g]``: the packed marks of guess ``g`` against secret ``s`` (``marking``'s rule)."""
    length = guesses.shape[1]
    left = np.zeros(symbols, np.int32)
    green = np.zeros(length, np.bool_)
    for s in range(secrets.shape[0]):
        secret = secrets[s]
        for g in range(guesses.shape[0]):
            guess = guesses[g]
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
            out[s, g] = value
