"""The compiled search's cache: every set solved (exact value and guess) or refuted (a bound).

An open-addressing hash table in plain numpy arrays, keyed by two 64-bit hashes of the set and
its depth, with the sets themselves kept in one pool and compared on every hit, so a hash
collision can never give a wrong value. numba's typed ``Dict`` and ``List`` did this before,
and cost more than the whole Mastermind search: their helpers compile in every process (0.4 s)
and a call from Python with them as arguments went through Python's ``typeof`` (0.3 ms); a
tuple of arrays is typed by numba's C dispatcher in under a microsecond.

The compiled code cannot enlarge the arrays it is handed. When the table is three-quarters full
or the pool has no room, a store raises the ``FULL`` flag instead and refuses every store after
it; the search then unwinds at once and the call from Python is made again on arrays twice the
size (``SetStore.call``), everything stored before the flag kept. Between calls,
``SetStore.call`` doubles what is half full, so that a call seldom has to be made twice.

It is a cache, so it has a budget of memory: a store that would grow past it between calls
forgets everything and starts small again. Without one, a worker of the seven-bottle proof grew
to 13 GB in an hour and was killed for memory. What was forgotten is searched again when needed;
the trees a search reads back after a call are kept outside (``search.Search.subtree``).
"""

from __future__ import annotations

from collections.abc import Callable

import numba as nb
import numpy as np

from moocow.optimal.kernel.loading import Entry
from moocow.optimal.machine import usable_cores, usable_memory

START, LENGTH, DEPTH, VALUE, GUESS = range(5)
"""Columns of ``meta``: the set's place and length in the pool (0: empty slot), its depth, its
value and its best guess (-1 when the value is only a lower bound)."""
ENTRIES, POOLED, FULL = 0, 1, 2
"""Places in ``used``: slots filled, secrets pooled, and 1 once a store found no room."""


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


@nb.njit(cache=True)
def _hashes(candidates: np.ndarray, depth: int) -> tuple[np.uint64, np.uint64]:
    """Two independent 64-bit hashes of a set and its depth (FNV-1a and a multiplicative mix)."""
    first = np.uint64(14695981039346656037)
    second = np.uint64(depth + 1) * np.uint64(0x9E3779B97F4A7C15)
    for secret in candidates:
        value = np.uint64(secret)
        first = (first ^ value) * np.uint64(1099511628211)
        second = (second + value + np.uint64(1)) * np.uint64(0xC2B2AE3D27D4EB4F)
        second ^= second >> np.uint64(29)
    return first, second


@nb.njit(cache=True)
def _slot(store: tuple, candidates: np.ndarray, depth: int) -> int:
    """The slot holding this set at this depth, or the empty slot where it would go."""
    hashes, meta, pool, _ = store
    first, second = _hashes(candidates, depth)
    mask = np.uint64(len(meta) - 1)
    slot = np.int64(first & mask)
    count = len(candidates)
    while meta[slot, LENGTH]:
        if (
            hashes[slot, 0] == first
            and hashes[slot, 1] == second
            and meta[slot, DEPTH] == depth
            and meta[slot, LENGTH] == count
        ):
            start = meta[slot, START]
            same = True
            for place in range(count):
                if pool[start + place] != candidates[place]:
                    same = False
                    break
            if same:
                return slot
        slot = (slot + 1) & np.int64(mask)
    return slot


@nb.njit(cache=True)
def find(store: tuple, candidates: np.ndarray, depth: int) -> int:
    """The slot of this set at this depth, or -1."""
    slot = _slot(store, candidates, depth)
    return slot if store[1][slot, LENGTH] else -1


@nb.njit(cache=True)
def save(store: tuple, candidates: np.ndarray, depth: int, value: int, guess: int) -> None:
    """Record a set's value (and best guess, or -1 for a lower bound), over its old entry if any."""
    hashes, meta, pool, used = store
    if used[FULL]:
        return  # the search is unwinding: what it finds now is not to be kept
    slot = _slot(store, candidates, depth)
    if meta[slot, LENGTH] == 0:
        count = len(candidates)
        start = used[POOLED]
        if 4 * (used[ENTRIES] + 1) > 3 * len(meta) or start + count > len(pool):
            used[FULL] = 1  # no room: the caller unwinds, and the call is made again on more
            return
        pool[start : start + count] = candidates
        first, second = _hashes(candidates, depth)
        hashes[slot, 0], hashes[slot, 1] = first, second
        meta[slot, START], meta[slot, LENGTH], meta[slot, DEPTH] = start, count, depth
        used[ENTRIES] += 1
        used[POOLED] += count
    meta[slot, VALUE] = value
    meta[slot, GUESS] = guess


@nb.njit(cache=True)
def lookup(store: tuple, candidates: np.ndarray, depth: int) -> tuple[int, int]:
    """``(value, guess)`` stored for a set, or ``(-1, -1)``."""
    slot = find(store, candidates, depth)
    if slot < 0:
        return -1, -1
    return store[1][slot, VALUE], store[1][slot, GUESS]


@nb.njit(cache=True)
def _rehash(hashes: np.ndarray, meta: np.ndarray, new_hashes: np.ndarray, new_meta: np.ndarray) -> None:
    """Move every entry into larger (zeroed) arrays; the pool keeps its places."""
    mask = np.uint64(len(new_meta) - 1)
    for old in range(len(meta)):
        if meta[old, LENGTH]:
            slot = np.int64(hashes[old, 0] & mask)
            while new_meta[slot, LENGTH]:
                slot = (slot + 1) & np.int64(mask)
            new_hashes[slot] = hashes[old]
            new_meta[slot] = meta[old]


LOOKUP = Entry(lookup)
REHASH = Entry(_rehash)
"""``lookup`` and ``_rehash`` as Python calls them (``loading.Entry``)."""
