"""Where the compiled search and its Python callers read and write in the arrays they share.

Plain numbers, without numba, so that the callers import them without loading the compiler.
"""

START, LENGTH, DEPTH, VALUE, GUESS = range(5)
"""Columns of the store's ``meta``: the set's place and length in the pool (0: empty slot), its
depth, its value and its best guess (-1 when the value is only a lower bound)."""
ENTRIES, POOLED, FULL = 0, 1, 2
"""Places in the store's ``used``: slots filled, secrets pooled, and 1 once a store found no room."""
NODES, HITS, PROBES = 0, 1, 2
"""Indices of the counters in the ``stats`` array."""
HALT = 3
"""Where ``wide``'s ``stats`` array holds the flag that stops its search (set from another thread)."""
BOUND = -2
"""``branch.search``'s job for a set's bound one level deeper: one entry point loads faster than two."""
INDEX_BITS = 24
"""Low bits of ``wide``'s order keys that hold a guess's place: it searches at most 2^24 guesses."""
