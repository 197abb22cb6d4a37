"""Lower bounds on the guesses a candidate set needs, from counting alone.

Every node of a strategy tree wins at most one secret (its guess) and has at most ``k`` children,
one per non-winning answer. So at most ``k**(i-1)`` secrets are won with guess ``i``, and the
cheapest imaginable tree fills the levels in order: n candidates need at least
``1 + 2 min(n-1, k) + 3 min(...) + ...`` guesses in all (``2n - 1`` while ``n <= k + 1``). With a
limit of ``d`` guesses, sets larger than ``1 + k + ... + k**(d-1)`` are impossible (``INFEASIBLE``).
"""

from __future__ import annotations

import numpy as np

INFEASIBLE = 1 << 40
"""The bound of a set that cannot be solved within the depth limit; larger than any real total."""


def level_bounds(size_limit: int, branching: int, depth: int | None) -> np.ndarray:
    """``bound[n]`` for ``n`` in ``0..size_limit``, with at most ``depth`` guesses (``None``: no limit)."""
    sizes = np.arange(size_limit + 1, dtype=np.int64)
    bound = np.zeros(size_limit + 1, dtype=np.int64)
    placed = np.zeros(size_limit + 1, dtype=np.int64)
    level, capacity = 1, 1
    while (placed < sizes).any() and (depth is None or level <= depth):
        here = np.minimum(sizes - placed, capacity)
        bound += level * here
        placed += here
        level += 1
        capacity = capacity * max(branching, 1)
    bound[placed < sizes] = INFEASIBLE
    return bound
