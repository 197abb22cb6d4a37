"""The compiled search's cache as Python owns it: its arrays, enlarged between calls.

The compiled functions (``store``) cannot enlarge the arrays they are handed: when they find no
room they raise the ``FULL`` flag and the search unwinds; ``SetStore.call`` then makes the call
again on arrays twice the size, everything stored before the flag kept.

It is a cache, so it has a budget of memory: a store that would grow past it between calls
forgets everything and starts small again. Without one, a worker of the seven-bottle proof grew
until it was killed for memory. What was forgotten is searched again when needed;
the trees a search reads back after a call are kept outside (``search.Search.subtree``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from moocow.optimal.kernel.entries import REHASH
from moocow.optimal.kernel.layout import ENTRIES, FULL, POOLED
from moocow.optimal.machine import usable_cores, usable_memory


def memory_budget() -> int:
    """A store's share of memory: half of what this process may use over its cores, as every
    core may run a search with its own store (``machine``), and at least 256 MiB."""
    return max(1 << 28, usable_memory() // (2 * usable_cores()))


class SetStore:
    """The arrays of the table, enlarged from Python when they fill up, within ``budget`` bytes."""

    def __init__(self, slots: int = 1 << 12, pool: int = 1 << 16, budget: int | None = None) -> None:
        self.budget = memory_budget() if budget is None else budget
        self._first_sizes = (slots, pool)
        self.cleared = 0
        """How many times the store forgot everything to keep within its budget."""
        self._allocate(slots, pool)

    def _allocate(self, slots: int, pool: int) -> None:
        self.hashes = np.zeros((slots, 2), dtype=np.uint64)
        self.meta = np.zeros((slots, 5), dtype=np.int64)
        self.pool = np.zeros(pool, dtype=np.int32)
        self.used = np.zeros(3, dtype=np.int64)

    def __len__(self) -> int:
        return int(self.used[ENTRIES])

    @property
    def nbytes(self) -> int:
        return self.hashes.nbytes + self.meta.nbytes + self.pool.nbytes

    def parts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The table as the compiled functions take it."""
        return self.hashes, self.meta, self.pool, self.used

    def call(self, compiled: Callable[[tuple], int]) -> int:
        """``compiled(self.parts())``, made again on larger arrays until no store found them full.

        What was stored before the flag stays: the second call finds it and goes on from there.
        A store over its budget is cleared before the call, never during one: a call's own sets
        are all there when it returns.
        """
        self._within_budget()
        while True:
            value = compiled(self.parts())
            if not self.used[FULL]:
                return value
            self._grow(slots=True, pool=True)

    def _within_budget(self) -> None:
        """Double what is half full, or forget everything if that would pass the budget."""
        entries, pooled, _ = self.used.tolist()
        grow_slots, grow_pool = 2 * entries > len(self.meta), 2 * pooled > len(self.pool)
        slot_bytes = self.hashes.nbytes + self.meta.nbytes
        if self.nbytes + grow_slots * slot_bytes + grow_pool * self.pool.nbytes > self.budget:
            self._allocate(*self._first_sizes)
            self.cleared += 1
        else:
            self._grow(grow_slots, grow_pool)

    def _grow(self, slots: bool, pool: bool) -> None:
        """Double the slots and the pool as asked, everything stored kept; lower the flag."""
        pooled = int(self.used[POOLED])
        self.used[FULL] = 0
        if pool:
            grown = np.zeros(2 * len(self.pool), dtype=np.int32)
            grown[:pooled] = self.pool[:pooled]
            self.pool = grown
        if slots:
            hashes = np.zeros((2 * len(self.meta), 2), dtype=np.uint64)
            meta = np.zeros((2 * len(self.meta), 5), dtype=np.int64)
            REHASH(self.hashes, self.meta, hashes, meta)
            self.hashes, self.meta = hashes, meta
