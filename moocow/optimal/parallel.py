"""Both cores: the parts of each first guess are searched in worker processes at once.

The parts of a guess are independent searches. Each is given the loosest budget it can have
(the guess's budget less the bounds of the other parts), so they can run side by side; their sum
is then exact when below the guess's budget and a valid lower bound otherwise. Workers are forked
from the searching process (they inherit its feedback table and keep their own caches from one
part to the next) and ignore Ctrl-C, which the searching process handles.
"""

from __future__ import annotations

import multiprocessing
import signal
from multiprocessing.pool import Pool
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from moocow.engine.tree import Node
    from moocow.optimal.search import Search

_search: Search | None = None
"""The search a forked worker works for (set in the parent just before forking)."""


def _start_worker() -> None:
    """A worker leaves Ctrl-C and the progress bar to the searching process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if _search is not None:
        _search.progress = None


def _solve_part(
    task: tuple[np.ndarray, int | None, int, tuple[int, ...] | None],
) -> tuple[int, Node | None, int, int]:
    """In a worker: a part's value, its tree when exact, and the sets searched and found cached."""
    assert _search is not None
    part, depth, budget, played = task
    nodes, hits = _search.stats.nodes, _search.stats.cache_hits
    value = _search.solve(part, depth, budget, played, 1)
    tree = _search.subtree(part, depth) if value < budget else None
    return value, tree, _search.stats.nodes - nodes, _search.stats.cache_hits - hits


class PartPool:
    """A pool of forked workers that search the parts of one guess side by side."""

    def __init__(self, search: Search, workers: int) -> None:
        global _search
        _search = search
        self.search = search
        self.pool: Pool = multiprocessing.get_context("fork").Pool(workers, initializer=_start_worker)

    def close(self) -> None:
        """Stop the workers (at once: an interrupted search does not wait for them)."""
        self.pool.terminate()
        self.pool.join()

    def parts_total(
        self,
        parts: list[np.ndarray],
        part_bounds: list[int],
        depth: int | None,
        budget: int,
        played: tuple[int, ...] | None,
    ) -> int:
        """Total of the parts if below ``budget`` (their trees kept), else a lower bound ``>= budget``."""
        bounds_sum = sum(part_bounds)
        tasks = [
            (part, depth, budget - (bounds_sum - bound), played)
            for part, bound in zip(parts, part_bounds, strict=True)
        ]
        pending = {index: self.pool.apply_async(_solve_part, (task,)) for index, task in enumerate(tasks)}
        values = list(part_bounds)
        for index, result in pending.items():
            value, tree, nodes, hits = result.get()
            values[index] = value
            self.search.stats.nodes += nodes
            self.search.stats.cache_hits += hits
            if tree is not None:
                self.search.keep_subtree(parts[index], depth, tree)
            self.search.mark_part(index + 1, len(parts))
            self.search.raise_lower(sum(values))
            if sum(values) >= budget:
                return sum(values)  # later parts are still searched by the workers; their results are dropped
        return sum(values)
