"""What the exact search has settled: every set solved or refuted, in memory and in a proof store.

Apart from the search (``search.Search``) because it is the one part of it that outlives a run:
a set's value does not depend on how it was reached, so each set settled is kept by the set
(and the guesses left, under a depth limit), and with a store (``proof_store``) also on disk,
with the guesses settled at the Python levels, for a later run to resume from.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import numpy as np

from moocow.engine.tree import Node

if TYPE_CHECKING:  # the store loads only when a search keeps one
    from moocow.optimal.arrays import SearchArrays
    from moocow.optimal.proof_store import ProofStore

SetKey = tuple[bytes, int | None]
"""A set (its candidates' bytes) and the guesses left (``None``: no depth limit)."""


class Settled:
    """The sets one search settled (``sets``) and, if it keeps one, its proof store (``store``)."""

    def __init__(self, arrays: SearchArrays) -> None:
        self.arrays = arrays
        """The game's table: the parts a guess leaves, and the answer that leaves each."""
        self.sets: dict[SetKey, tuple[int, int]] = {}
        """Set (and guesses left) to (value, guess): an exact value with its guess, or (bound, -1)."""
        self.store: ProofStore | None = None
        """Where every set and guess settled at the Python levels is kept, if anywhere (``use``)."""

    def use(self, store: ProofStore) -> Iterator[tuple[SetKey, Node]]:
        """Resume from the sets ``store`` holds and keep each new one there; yields the trees of
        those it solved, for the search to read back (``readback.TreeReader.keep``)."""
        self.store = store
        for key, settled in store.sets.items():
            self.sets[key] = (settled.value, -1 if settled.tree is None else settled.tree.guess)
            if settled.tree is not None:
                yield key, settled.tree

    def put_set(self, key: SetKey, value: int, guess: int, tree: Callable[[], Node]) -> None:
        """Keep a set searched at the Python levels: its value and guess, with its ``tree`` (read
        only if there is a store to keep it in, and only when the set was solved)."""
        self.sets[key] = (value, guess)
        if self.store is not None:
            self.store.put_set(key, value, guess, tree() if guess >= 0 else None)

    def count_seconds(self) -> None:
        """Add the time searched since the last count to the store's, if any."""
        if self.store is not None:
            self.store.count_seconds()

    def known_guess(
        self, candidates: np.ndarray, guess: int, depth: int | None, budget: int, level: int
    ) -> tuple[int, list[Node] | None] | None:
        """What the store settled for the parts ``guess`` leaves, if that decides it at ``budget``:
        their total with their trees (under the budget), or a bound at least the budget."""
        if self.store is None or level == 0:
            return None
        settled = self.store.guess_settled(candidates, depth, guess)
        if settled is None:
            return None
        if settled.value >= budget:  # a bound, or an exact value no better than the budget
            return settled.value, None
        if settled.tree is None:  # a bound below this budget: the guess must be searched again
            return None
        children, rows = settled.tree.children, self.arrays.rows
        parts = self.arrays.parts(candidates, guess)
        return settled.value, [children[int(rows[part[0], guess])] for part in parts]

    def remember_guess(
        self,
        candidates: np.ndarray,
        guess: int,
        depth: int | None,
        budget: int,
        total: int,
        trees: list[Node] | None,
        level: int,
    ) -> None:
        """Keep what a guess was found to cost: ``trees`` of its parts when exact (below ``budget``)."""
        if self.store is None or level == 0:
            return
        tree = None
        if trees is not None and total < budget:
            tree = Node(guess, len(candidates))
            for part, child in zip(self.arrays.parts(candidates, guess), trees, strict=True):
                tree.children[int(self.arrays.rows[part[0], guess])] = child
        self.store.put_guess(candidates, depth, guess, total, tree)
