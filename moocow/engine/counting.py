"""Partition sizes of games with many feedback values, counted in compiled code (numba).

Comparing every value with every cell (``partitions._count``) suits the few counts of bulls and
cows; Wordle's marks would do the work once per value, and a ``bincount`` over every cell zeroes
a histogram of guesses x values (millions of counts on the official lists) at every position, most
of which hold a handful of candidates. Here each cell adds one to its value's count, a band of
guesses at a time so that the band's counts stay in cache. Imported only for such games:
``import numba`` is a noticeable part of a short command.
"""

from __future__ import annotations

from collections.abc import Callable

import numba as nb
import numpy as np

AddSizes = Callable[[np.ndarray, np.ndarray, int, np.ndarray], None]
BAND = 256
"""Guesses counted together: their counts (256 x 243 x 4 bytes for Wordle) stay in the L2 cache."""


_compiled: Callable[[AddSizes], AddSizes] = nb.njit(cache=True, nogil=True)
"""numba's ``njit``, read as untyped, typed as the function it compiles."""


@_compiled
def add_sizes(
    rows: np.ndarray, counted: np.ndarray, bound: int, sizes: np.ndarray
) -> None:  # pragma: no cover
    """Add to ``sizes[v, g]`` how many of ``rows`` hold ``counted[v]`` in column ``g``."""
    width = rows.shape[1]
    counts = np.zeros((BAND, bound), np.int32)
    for left in range(0, width, BAND):
        right = min(width, left + BAND)
        counts[:] = 0
        for i in range(rows.shape[0]):
            for j in range(left, right):
                counts[j - left, rows[i, j]] += 1
        for j in range(left, right):
            for v in range(len(counted)):
                sizes[v, j] += counts[j - left, counted[v]]
