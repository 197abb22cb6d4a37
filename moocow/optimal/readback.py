"""Reading the best strategy's tree back from what the exact search settled.

Apart from the search (``search.Search``) because the search keeps values, not trees: a tree is
built only when asked for (the best found so far, a set kept in the proof store, a worker's
answer), by following the best guess of each set solved exactly. The compiled kernel's store
is a cache with a budget and may have forgotten a set below the Python levels; such a set is
searched again, and the trees of the best guess's parts are kept as soon as they are found so
that this is rare (``keep_part_trees``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from moocow.engine.tree import Node
from moocow.optimal.bounds import INFEASIBLE
from moocow.optimal.settled import SetKey
from moocow.optimal.stats import SearchStats

if TYPE_CHECKING:
    from moocow.optimal.arrays import SearchArrays
    from moocow.optimal.kernel_search import KernelSearch


class TreeReader:
    """The trees of the sets one search solved exactly, read from its settled sets and its kernel."""

    def __init__(
        self,
        arrays: SearchArrays,
        sets: dict[SetKey, tuple[int, int]],
        kernel: Callable[[], KernelSearch],
        stats: SearchStats,
    ) -> None:
        self.arrays = arrays
        """The game's table: the parts a guess leaves, the answer that leaves each, the winning guesses."""
        self.sets = sets
        """The search's settled sets (``settled.Settled.sets``): each solved one's best guess."""
        self.kernel = kernel
        """The search's compiled kernel (set up on first use): the best guesses below the Python levels."""
        self.stats = stats
        self.kept: dict[SetKey, Node] = {}
        """Trees of sets solved elsewhere (a worker, an earlier run) or whose parts the kernel may forget."""

    def tree(self) -> Node:
        """The tree of the best strategy found, read from the settled sets."""
        everything = np.arange(len(self.arrays.rows), dtype=np.int32)
        return self.subtree(everything, self.arrays.max_depth)

    def keep(self, candidates: np.ndarray, depth: int | None, tree: Node) -> None:
        """Remember the tree of a set solved exactly elsewhere (by a worker process)."""
        self.kept[(candidates.tobytes(), depth)] = tree

    def keep_part_trees(self, candidates: np.ndarray, guess: int, depth: int | None) -> None:
        """Keep the trees of the best guess's parts now: the kernel's store may forget them."""
        for part in self.arrays.parts(candidates, guess):
            self.keep(part, depth, self.subtree(part, depth))

    def subtree(self, candidates: np.ndarray, depth: int | None) -> Node:
        """The best tree of a set solved exactly (by this search or a worker's)."""
        if len(candidates) <= 2:
            return self._small_tree(candidates)
        key = (candidates.tobytes(), depth)
        kept = self.kept.get(key)
        if kept is not None:
            return kept
        _, guess = self.sets.get(key, (-1, -1))
        if guess < 0:
            guess = self.kernel().guess(candidates, depth)
        if guess < 0:  # forgotten by the kernel's store, a cache with a budget: search it again
            self.kernel().least_total(candidates, None, depth, INFEASIBLE, self.stats)
            guess = self.kernel().guess(candidates, depth)
        assert guess >= 0, "the tree is read only along exactly solved sets"
        node = Node(guess, len(candidates))
        child_depth = None if depth is None else depth - 1
        rows = self.arrays.rows
        for part in self.arrays.parts(candidates, guess):
            node.children[int(rows[part[0], guess])] = self.subtree(part, child_depth)
        return node

    def _small_tree(self, candidates: np.ndarray) -> Node:
        """The tree of one or two candidates: guess the first, then the other. Built directly:
        these make up most nodes, and the same ones recur under every guess."""
        guess_of = self.arrays.guess_of
        first = int(candidates[0])
        node = Node(int(guess_of[first]), len(candidates))
        if len(candidates) == 2:
            second = int(candidates[1])
            node.children[int(self.arrays.rows[second, node.guess])] = Node(int(guess_of[second]), 1)
        return node
