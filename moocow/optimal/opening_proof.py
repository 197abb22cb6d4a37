"""One proof over the openings as it goes: the best so far, the bound proven, and how each opening
settled is folded in, the same in this process (``openings``), in forked workers
(``opening_workers``, ``opening_parts``) and on a Dask cluster (``opening_tasks``). Below all of
them, so that none imports another that imports it back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from moocow.engine.tree import Node
from moocow.optimal import incumbent
from moocow.optimal.bounds import INFEASIBLE
from moocow.optimal.stats import ProgressHook
from moocow.optimal.wide import Steer, WideSearch

if TYPE_CHECKING:
    from moocow.optimal.proof_store import ProofStore


NO_POSITION = (1 << incumbent.POSITION_BITS) - 1
"""``Sweep.position`` before any opening is settled exactly: after every real one."""


@dataclass
class Sweep:
    """Where a proof over the openings stands."""

    best: int = INFEASIBLE
    tree: Node | None = None
    position: int = NO_POSITION
    """The best opening's place in the order: a tie goes to the earlier (``incumbent``)."""
    refuted: int = INFEASIBLE
    """The least bound of an opening refuted so far."""
    settled: int = 0
    """Openings settled in this run (their rate is shown)."""


def searched(
    search: WideSearch, guess: int, depth: int | None, budget: int, steer: Steer | None = None
) -> tuple[int, Node | None]:
    """An opening's total and tree if below ``budget`` more than the secrets (a budget ``steer``
    may lower meanwhile), else a bound at least that (no tree): what one process does for each
    opening, and a worker for each task."""
    count = len(search.rows)
    everything = np.arange(count, dtype=np.int32)
    total = count + search.guess_total(everything, search.every_guess, guess, depth, budget, steer)
    if steer is not None:  # the budget it ended with (``WideSearch._call`` lowers it as it goes)
        budget = min(budget, steer.budget())
    if total >= count + budget:
        return total, None
    tree = Node(guess, count)
    search.graft(tree, everything, search.every_guess, depth)
    return total, tree


@dataclass
class Proof:
    """A proof over the openings under way: what it searches and how it folds each one settled,
    the same in this process (``_one_by_one``) and on a cluster (``opening_tasks``)."""

    search: WideSearch
    store: ProofStore | None
    order: np.ndarray
    bounds: np.ndarray
    depth: int | None
    """The guesses left after the opening (``None``: no limit)."""
    progress: ProgressHook | None
    every: bool
    """Over every opening (not one fixed by ``--first``)."""
    sweep: Sweep = field(default_factory=Sweep)
    lower: int = 0
    """The proven bound after the openings folded so far."""

    @property
    def count(self) -> int:
        return len(self.search.rows)

    @property
    def everything(self) -> np.ndarray:
        return np.arange(self.count, dtype=np.int32)

    @property
    def packed_best(self) -> int:
        """The best so far as ``incumbent`` packs it."""
        return incumbent.pack(self.sweep.best, self.sweep.position)

    def beyond(self, position: int) -> bool:
        """Whether the openings from ``position`` on can matter no more (their bounds, in order,
        reach the best): a proof over every opening ends there."""
        guess = self.order[position]
        return self.every and self.bounds[guess] >= incumbent.threshold(self.packed_best, position)

    def position_of(self, guess: int) -> int:
        """Where an opening stands in the order."""
        return int(np.flatnonzero(self.order == guess)[0])

    def kept(self, position: int) -> tuple[int, Node | None] | None:
        """The opening's total (and tree), or a bound that settles it against the best, if the
        store holds one."""
        if self.store is None:
            return None
        kept = self.store.guess_settled(self.everything, self.depth, int(self.order[position]))
        limit = incumbent.threshold(self.packed_best, position)
        if kept is not None and (kept.exact or self.count + kept.value >= limit):
            return self.count + kept.value, kept.tree
        return None

    def record(self, guess: int, total: int, tree: Node | None) -> tuple[int, Node | None]:
        """Count an opening searched and keep it in the store."""
        self.sweep.settled += 1
        if self.store is not None:
            self.store.put_guess(self.everything, self.depth, guess, total - self.count, tree)
        return total, tree

    def fold(
        self,
        value: int,
        tree: Node | None,
        position: int,
        following: int,
        sent: int | None = None,
        flying: int = 0,
    ) -> bool:
        """Take the outcome of the opening at ``position``: a better best (kept in the store), or
        a refuted bound; then the proven bound, ``following`` being the first position not
        settled yet, and progress (with workers: ``sent`` openings so far, ``flying`` of them not
        back yet). Whether the best changed."""
        sweep = self.sweep
        exact_better = tree is not None and incumbent.pack(value, position) < self.packed_best
        better = tree if exact_better else None
        if better is not None:
            sweep.best, sweep.tree, sweep.position = value, better, position
        elif tree is None:
            sweep.refuted = min(sweep.refuted, value)
        self.lower = self.lower_from(following)
        if better is not None and self.store is not None and self.every:
            self.store.put_best(value, better, self.lower)
        if self.progress is not None:
            left = flying + _left(self.bounds, self.order, following if sent is None else sent, sweep.best)
            _count(self.progress, sweep.settled, left)
            self.progress(following / len(self.order), _shown(sweep.best), self.lower)
        return better is not None

    def lower_from(self, following: int) -> int:
        return _lower(self.sweep, self.bounds, self.order, following)


def _lower(sweep: Sweep, bounds: np.ndarray, order: np.ndarray, following: int) -> int:
    """The proven bound: no strategy beats the best, the openings refuted, or the next's bound."""
    untried = int(bounds[order[following]]) if following < len(order) else INFEASIBLE
    return min(sweep.best, sweep.refuted, untried)


def _left(bounds: np.ndarray, order: np.ndarray, following: int, best: int) -> int:
    """The openings still to settle: those after ``following`` whose bound is below the best."""
    return int(np.count_nonzero(bounds[order[following:]] < best))


def _shown(best: int) -> int | None:
    return None if best >= INFEASIBLE else best


def _count(progress: ProgressHook, settled: int, left: int) -> None:
    """Tell a progress display that counts openings (``SearchProgress.openings``) how many are done."""
    openings = getattr(progress, "openings", None)
    if openings is not None:
        openings(settled, left)
