"""How each guess would split a candidate set, and the heuristics that score those splits.

This is the hot path of every strategy. Counting per feedback value with a comparison and a
reduction along the candidate axis is vectorised end to end (measured 18x faster than a
``bincount`` over flattened indices on bottles n=7); the last value's count is derived.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from moocow.engine.table import FeedbackTable


def partition_sizes(
    table: FeedbackTable, candidates: np.ndarray, guesses: np.ndarray | None = None
) -> np.ndarray:
    """``sizes[v, g]``: how many candidates answer guess ``g`` with ``table.values[v]``.

    ``guesses`` restricts the columns (e.g. to candidates only); by default every guess.
    """
    values = table.values
    width = table.guess_count if guesses is None else len(guesses)
    sizes = np.zeros((len(values), width), dtype=np.int32)
    for rows in table.blocks(candidates):
        block = rows if guesses is None else rows[:, guesses]
        for index, value in enumerate(values[:-1]):
            sizes[index] += np.add.reduce(block == value, axis=0, dtype=np.int32)
    sizes[-1] = len(candidates) - sizes[:-1].sum(axis=0)
    return sizes


def worst_case(sizes: np.ndarray) -> np.ndarray:
    """Knuth's minimax: the size of the largest part."""
    return sizes.max(axis=0)


def expected_size(sizes: np.ndarray) -> np.ndarray:
    """Irving: the expected size of the remaining set, times the constant n."""
    wide = sizes.astype(np.int64)
    return (wide * wide).sum(axis=0)


@cache
def _n_log_n(limit: int) -> np.ndarray:
    """``n * log2(n)`` for ``n`` in ``0..limit``, from ``math.log2`` so every machine agrees."""
    return np.array([0.0] + [n * math.log2(n) for n in range(1, limit + 1)])


def entropy_cost(sizes: np.ndarray) -> np.ndarray:
    """Neuwirth: ``sum n log n`` (less is more information); sorted first so equal splits tie exactly."""
    ordered = np.sort(sizes, axis=0)
    largest = int(ordered[-1].max())
    return _n_log_n(1 << largest.bit_length())[ordered].sum(axis=0)


def parts_cost(sizes: np.ndarray) -> np.ndarray:
    """Kooi: the number of distinct answers, negated so that less is better."""
    return -np.count_nonzero(sizes, axis=0)
