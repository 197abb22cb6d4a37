"""The compiled search's cache: every set solved (exact value and guess) or refuted (a bound).

An open-addressing hash table in plain numpy arrays, keyed by two 64-bit hashes of the set and
its depth, with the sets themselves kept in one pool and compared on every hit, so a hash
collision can never give a wrong value. numba's typed ``Dict`` and ``List`` did this before,
and cost more than the whole Mastermind search: their helpers compile in every process and a
call from Python with them as arguments went through Python's ``typeof``; a tuple of arrays is
typed by numba's C dispatcher, far faster.

The compiled code cannot enlarge the arrays it is handed (``set_store.SetStore`` does, from
Python). When the table is three-quarters full or the pool has no room, a store raises the
``FULL`` flag instead and refuses every store after it; the search then unwinds at once and the
call from Python is made again on arrays twice the size, everything stored before the flag kept.
"""

from __future__ import annotations

import numpy as np

from moocow.engine.kernel.loading import Index, njit
from moocow.optimal.kernel.layout import DEPTH, ENTRIES, FULL, GUESS, LENGTH, POOLED, START, VALUE


@njit
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


@njit
def _slot(store: tuple, candidates: np.ndarray, depth: int) -> Index:
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


@njit
def find(store: tuple, candidates: np.ndarray, depth: int) -> Index:
    """The slot of this set at this depth, or -1."""
    slot = _slot(store, candidates, depth)
    return slot if store[1][slot, LENGTH] else -1


@njit
def save(store: tuple, candidates: np.ndarray, depth: int, value: int, guess: Index) -> None:
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


@njit
def decided(store: tuple, candidates: np.ndarray, depth: int, beta: int) -> int:
    """The stored value of a set if it decides a search below ``beta`` (exact, or a bound at least
    ``beta``); else -1."""
    slot = find(store, candidates, depth)
    if slot >= 0 and (store[1][slot, GUESS] >= 0 or store[1][slot, VALUE] >= beta):
        return store[1][slot, VALUE]
    return -1


@njit
def settle(store: tuple, candidates: np.ndarray, depth: int, best: int, guess: Index, beta: int) -> int:
    """End a fail-soft search of a set: its exact value with the guess found below ``beta``, or
    (``guess`` -1) the least bound met, at least ``beta``; recorded and returned."""
    if guess < 0:
        best = max(best, beta)
    save(store, candidates, depth, best, guess)
    return best


@njit
def lookup(store: tuple, candidates: np.ndarray, depth: int) -> tuple[int, int]:
    """``(value, guess)`` stored for a set, or ``(-1, -1)``."""
    slot = find(store, candidates, depth)
    if slot < 0:
        return -1, -1
    return store[1][slot, VALUE], store[1][slot, GUESS]


@njit
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
