"""The root's bookkeeping during an exact search: progress, the best strategy so far, the bound.

Apart from the search (``search.Search``) because none of it changes what the search finds: it
is what an interrupted or watched search can answer with at any moment (``stats.RootState``):
how far the first guesses have got, the best complete strategy found (kept in the proof store,
if any, as it improves) and the lower bound proven so far.
"""

from __future__ import annotations

import time

import numpy as np

from moocow.engine.tree import Node
from moocow.optimal.bounds import INFEASIBLE
from moocow.optimal.readback import TreeReader
from moocow.optimal.settled import Settled
from moocow.optimal.stats import ProgressHook, RootState
from moocow.optimal.stopping import stop_if_asked
from moocow.trees.files import tree_stats

PROGRESS_SECONDS = 0.2
"""Least time between two calls of the progress hook."""


class RootBook:
    """What the root of one search has established (``state``), reported to ``progress``."""

    def __init__(self, progress: ProgressHook | None, reader: TreeReader, settled: Settled) -> None:
        self.progress = progress
        """Called with the fraction done, the best total and the bound (``None``: no one watches)."""
        self.state = RootState()
        self.reader = reader
        """Where the best strategy's tree is read from (``readback``)."""
        self.settled = settled
        """Where the best strategy is kept, with the rest (``settled``)."""
        self._marks: list[tuple[int, int]] = []
        self._guess = (0, 0, 0)
        """The first guess being searched: candidates, the bound it must beat, the next guess's bound."""
        self._shown = 0.0

    def first_guess(self, count: int, bound: int, following: int, guess_bound: int) -> None:
        """A first guess is tried on the ``count`` secrets, below ``bound``, with its counting bound
        ``guess_bound`` and the next guess's ``following``: every strategy is at least as costly."""
        self._guess = (count, bound, following)
        self.raise_lower(guess_bound - count)

    def raise_lower(self, parts_lower: int) -> None:
        """Raise the proven bound while a first guess is searched, its parts known to need ``parts_lower``.

        Every strategy starts with this guess (at least its guesses plus ``parts_lower``), with one
        tried before (at least the bound it was refuted against) or with one after (at least the
        next guess's counting bound).
        """
        count, bound, following = self._guess
        self.state.lower = max(self.state.lower, min(bound, following, count + parts_lower))

    def mark_guess(self, level: int, index: int, count: int) -> None:
        """Progress: ``index`` of the ``count`` guesses tried at a set of ``level`` 0 or 1."""
        self._mark(2 * level, index, count)

    def mark_part(self, index: int, count: int) -> None:
        """Progress: ``index`` of the ``count`` parts of the first guess being searched."""
        self._mark(1, index, count)

    def _mark(self, step: int, index: int, count: int) -> None:
        """Progress: ``index`` of ``count`` at one of three steps (root guesses, their parts, guesses).

        The hook is called at most every ``PROGRESS_SECONDS``. A stop a signal asked for is seen here.
        """
        stop_if_asked()
        del self._marks[step:]
        self._marks.append((index, count))
        done = 0.0
        for index_here, count_here in reversed(self._marks):
            done = (index_here + done) / max(count_here, 1)
        self.state.done = done
        now = time.monotonic()
        if self.progress is not None and now - self._shown >= PROGRESS_SECONDS:
            self._shown = now
            self.progress(done, self._best_or_none(), self.state.lower)

    def improve_best(self, guess: int, part: np.ndarray, value: int, depth: int | None) -> None:
        """A part of a first guess solved exactly: graft its tree onto the best strategy so far
        when that strategy opens with the same guess and does worse there.

        So an interrupted search hands back every part it finished, not only the heuristic it
        started from, even when the first guess itself was never finished.
        """
        best = self.state.tree
        if best is None or best.guess != guess:
            return
        answer = int(self.reader.arrays.rows[part[0], guess])
        gain = tree_stats(best.children[answer]).total - value
        if gain > 0:
            best.children[answer] = self.reader.subtree(part, depth)
            self.record_best(self.state.best - gain, best)

    def record_best(self, value: int, tree: Node | None = None) -> None:
        """A better strategy, of total ``value``: its ``tree``, or the one read from the settled sets."""
        self.state.best = value
        self.state.tree = self.reader.tree() if tree is None else tree
        if self.settled.store is not None:
            self.settled.store.put_best(value, self.state.tree, self.state.lower)
        if self.progress is not None:
            self.progress(self.state.done, value, self.state.lower)

    def _best_or_none(self) -> int | None:
        return None if self.state.best >= INFEASIBLE else self.state.best
