"""The most answers any one guess gets over every secret: the ``patterns`` of the wide search's
per-part bound (``optimal.wide.part_bounds``), counted in one compiled pass over the table."""

from __future__ import annotations

import numpy as np

from moocow.engine.kernel.loading import njit


@njit
def most_answers(by_guess: np.ndarray, answer_limit: int) -> int:
    """The most distinct values in any row of ``by_guess`` (a guess's answer to every secret)."""
    seen = np.zeros(answer_limit, np.int64)  # the last row each answer was seen in, plus one
    most = 0
    for guess in range(by_guess.shape[0]):
        count = 0
        for answer in by_guess[guess]:
            if seen[answer] != guess + 1:
                seen[answer] = guess + 1
                count += 1
        most = max(most, count)
    return most
