"""The straightforward exact search in pure Python: every guess at every candidate set, memoised.

The notes' loops (every guess, every candidate, a Python scorer, a dict of answers) carried to
the end: a set's least total is its size plus the least totals of the parts some guess leaves,
over every guess that splits it. No bounds, symmetry or ordering; a cache keyed by the set.
This is the baseline of moocow's exact search where it finishes within a minute.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bench.baseline import Code, Scorer


class ExhaustiveSearch:
    """The least total number of guesses over a game's secrets, each equally likely."""

    def __init__(self, guesses: Sequence[Code], score: Scorer) -> None:
        self.guesses = guesses
        self.score = score
        self.cache: dict[tuple[Code, ...], int] = {}
        """Candidate set to its least total."""

    def total(self, candidates: tuple[Code, ...]) -> int:
        """The least total of ``candidates``: every one of them pays for each guess it sees."""
        if len(candidates) == 1:
            return 1
        known = self.cache.get(candidates)
        if known is not None:
            return known
        best = math.inf
        for guess in self.guesses:
            parts: dict[int, list[Code]] = {}
            for candidate in candidates:
                if candidate != guess:
                    parts.setdefault(self.score(guess, candidate), []).append(candidate)
            if any(len(part) == len(candidates) for part in parts.values()):
                continue  # splits nothing
            best = min(best, len(candidates) + sum(self.total(tuple(part)) for part in parts.values()))
        self.cache[candidates] = int(best)
        return int(best)
