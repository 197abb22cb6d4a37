"""The compiled search (``kernel``) as the Python levels of ``search.Search`` call it.

The kernel searches every set below the second guess; this class holds what it reads (the table
guess-major, the counting bounds, the rules) and what it writes (its own store of settled sets,
its counters, its scratch space), and turns each call into the kernel's arguments.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from moocow.optimal.kernel.entries import LOOKUP, SEARCH
from moocow.optimal.kernel.layout import BOUND, HITS, NODES, PROBES
from moocow.optimal.kernel.set_store import SetStore
from moocow.optimal.stats import SearchStats

if TYPE_CHECKING:
    from moocow.optimal.search import Search


def as_kernel_set(candidates: np.ndarray) -> np.ndarray:
    """Candidates as the kernel takes them: int32, contiguous, aligned and writable, copied if
    need be. Sets sent to a Dask worker arrive unaligned: each such kind of array would need
    compiled code of its own (and ``pycc`` cannot build the search for unaligned arrays)."""
    return np.require(candidates, dtype=np.int32, requirements=("C", "A", "W"))


class KernelArgs(NamedTuple):
    """What ``kernel.branch.search`` reads, in the order it reads them: the kernel takes them by
    position, as code built ahead of time types them as a plain tuple."""

    rows: np.ndarray
    """The feedback table, ``[secret, guess]`` (``Search.rows``)."""
    guess_of: np.ndarray
    """Each secret's index among the guesses."""
    all_guesses: np.ndarray
    """Every guess's index."""
    candidates_only: bool
    """Whether only candidates may be guessed."""
    bounds: np.ndarray
    """The counting bounds, one row per depth left."""
    unlimited: bool
    """Whether the depth is unlimited."""
    win: int
    """The winning answer."""
    answer_limit: int
    """Exclusive bound of the answers."""
    branching: int
    """How many answers occur."""
    codes: np.ndarray
    """The guesses' codes, for the relabellings."""
    parts_bounded_deeper: bool
    """Whether the parts of a guess are bounded one level deeper than counting (by their best
    guess's parts, ``kernel.branch.set_bound``) before any is searched (``Search.parts_bounded_deeper``)."""


class KernelSearch:
    """The compiled search (``kernel``) set up for one ``Search``: its arrays and its own store."""

    def __init__(self, search: Search) -> None:
        self.search = search
        most = search.max_depth
        unlimited = most is None
        depths: list[int | None] = [None] if most is None else list(range(most + 1))
        wide = np.uint16 if len(search.rows) < 1 << 16 else np.uint32
        self.args = KernelArgs(
            search.rows,
            search.guess_of,
            search._all_guesses,
            search.candidates_only,
            np.stack([search.bounds(depth) for depth in depths]),
            unlimited,
            search.win,
            search.answer_limit,
            len(search.answers),
            search.classes.codes,
            search.parts_bounded_deeper,
        )
        """What ``kernel.branch.search`` reads (``KernelArgs``)."""
        self.store = SetStore()
        self.counters = np.zeros(3, dtype=np.int64)
        self.counts = np.zeros((search.rows.shape[1], search.answer_limit), dtype=wide)
        """Scratch space left zeroed: a count per guess and answer."""
        self.is_candidate = np.zeros(search.rows.shape[1], dtype=np.uint8)
        """Scratch space left zeroed: a flag per guess."""

    def _work(self, store: tuple) -> tuple:
        """What the kernel writes: its store, counters and scratch space."""
        return store, self.counters, self.counts, self.is_candidate

    def warm_up(self) -> None:
        """Load the kernel (built ahead of time, or numba's): the first call of each entry does, and
        builds or compiles what is not there yet."""
        few = np.arange(min(3, len(self.search.rows)), dtype=np.int32)
        self.least_total(few, None, self.search.max_depth, 0, SearchStats())
        self.set_bound(few, self.search.max_depth, SearchStats())

    def _row(self, depth: int | None) -> int:
        return 0 if depth is None else depth

    def least_total(
        self,
        candidates: np.ndarray,
        played: tuple[int, ...] | None,
        depth: int | None,
        beta: int,
        stats: SearchStats,
    ) -> int:
        """``Search.least_total`` for a set below the Python levels; its counters added to ``stats``."""
        return self.guess_total(candidates, -1, played, depth, beta, stats)

    def guess_total(
        self,
        candidates: np.ndarray,
        guess: int,
        played: tuple[int, ...] | None,
        depth: int | None,
        budget: int,
        stats: SearchStats,
    ) -> int:
        """``Search.guess_value`` of one guess (-1: ``least_total`` of the set), its parts searched by
        the kernel."""
        before = self.counters.tolist()
        candidates = as_kernel_set(candidates)
        symmetry = self.search.classes.stabiliser(played)
        row = self._row(depth)
        value = self.store.call(
            lambda store: SEARCH(self.args, self._work(store), candidates, symmetry, row, budget, guess)
        )
        self._count(before, stats)
        return int(value)

    def set_bound(self, candidates: np.ndarray, depth: int | None, stats: SearchStats) -> int:
        """``kernel.branch.set_bound``: a set's counting bound raised one level deeper (stored)."""
        before = self.counters.tolist()
        candidates = as_kernel_set(candidates)
        row = self._row(depth)
        symmetry = self.search.classes.stabiliser(None)
        value = self.store.call(
            lambda store: SEARCH(self.args, self._work(store), candidates, symmetry, row, 0, BOUND)
        )
        self._count(before, stats)
        return int(value)

    def _count(self, before: list[int], stats: SearchStats) -> None:
        """Add what the kernel counted since ``before`` to ``stats``."""
        nodes, hits, bounded = self.counters.tolist()
        stats.add(nodes - before[NODES], hits - before[HITS], bounded - before[PROBES])

    def guess(self, candidates: np.ndarray, depth: int | None) -> int:
        """The best guess of a set the kernel solved exactly (-1 if it did not)."""
        _, guess = LOOKUP(self.store.parts(), as_kernel_set(candidates), self._row(depth))
        return int(guess)
