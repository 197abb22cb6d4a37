"""The exact search for the strategy with the fewest guesses in total: branch and bound.

``least_total(S, d, beta)`` returns the least total of candidate set ``S`` within ``d`` more guesses
when it is below ``beta``, and otherwise a lower bound that is at least ``beta`` (fail-soft).
A set's total is ``|S|`` (everyone pays the guess made now) plus the totals of the parts the
guess leaves, the winning answer excluded. Pruning, in the order it happens at a node:

- counting bounds (``bounds.level_bounds``) per set and, one level deeper, per guess;
- guesses that a relabelling fixing the history maps onto each other: one per class (``symmetry``);
- guesses with identical partitions of ``S``: tried once; guesses that split nothing: never;
- guesses in order of their bound, candidates first, then Irving's expected size, so a guess
  that splits into singletons (its bound is exact) ends the node at once;
- the parts a guess leaves bounded one level deeper (their best guess's counting bound, cached)
  before any is searched: counting alone is far below the truth for large sets, and refuting a
  guess on it meant solving most of its parts exactly (``bench/bounds.py`` measures the gain);
- parts largest first, each with the budget the others' bounds leave, so a bad guess fails early;
- a cache of every set solved (exact value and guess) or refuted (a lower bound) (``settled``);
- with ``workers > 1``, the second guesses of each set tried side by side (``parallel``);
- below the second guess, the compiled kernel (``kernel``), which runs the same search.

A set's value does not depend on how it was reached, so the cache is keyed by the set (and the
guesses left, under a depth limit); the tree of the best strategy is read back from the cache.

``Search`` is the search itself, and the object callers use; its other jobs are each a class of
their own, so that the search reads as the algorithm above. It extends the game's arrays as the
search reads them (``arrays.SearchArrays``: the table, answers, guess classes, counting bounds,
which the kernel reads too) and holds the rest: what was settled, in memory and in a
proof store (``settled.Settled``), reading the best tree back from it (``readback.TreeReader``),
and the root's bookkeeping: progress, the best strategy so far and the proven bound
(``root.RootBook``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.engine.tree import Node
from moocow.optimal.arrays import SearchArrays
from moocow.optimal.bounds import INFEASIBLE
from moocow.optimal.kernel_search import KernelSearch
from moocow.optimal.partition import ordered_guesses
from moocow.optimal.readback import TreeReader
from moocow.optimal.root import RootBook
from moocow.optimal.settled import Settled
from moocow.optimal.stats import ProgressHook, RootState, SearchStats
from moocow.optimal.stopping import listening, stop_if_asked

if TYPE_CHECKING:  # the workers and the store load only when a search uses them
    from moocow.optimal.parallel import GuessPool, GuessTask
    from moocow.optimal.proof_store import ProofStore

KERNEL_LEVEL = 2
"""From this level down (0: the first guess's set), sets go to the compiled kernel."""
CHECKPOINT_SIZE = 200
"""With a store, a set this large stays in Python at any level, so that it and its guesses are
kept: below the second guess, the kernel would hold a search of seven bottles' large parts in
one call, and an interrupted proof would lose all of it."""
PROBE_LEVEL = 1
"""From this level down, a guess's parts are bounded one level deeper before any is searched."""
PARALLEL_LEVEL = 1
"""At this level the guesses of each set are tried side by side by the workers (``parallel``),
unless told another (``Search.shared_level``)."""

History = tuple[int, ...] | None
"""The guesses played to reach a set (``None`` once no relabelling fixes them)."""
Plan = tuple[list[int], list[int], int, History]
"""The guesses tried on a set, best first, their bounds, the least bound of those left out, and
the history as the levels below take it (``Search.plan``)."""

PARALLEL_SECONDS = 1.0
"""The workers start once the search has run this long: a small game's whole proof (Mastermind's
among them) takes less than starting them."""


class Search(SearchArrays):
    """One exact search over one game (its arrays: ``arrays.SearchArrays``); ``run`` may be called
    again with a different bound."""

    def __init__(
        self,
        game: Game,
        max_depth: int | None = None,
        candidates_only: bool = False,
        progress: ProgressHook | None = None,
        workers: int = 1,
        scheduler: str | None = None,
        shared_level: int = PARALLEL_LEVEL,
        first: int | None = None,
        parts_bounded_deeper: bool = True,
    ) -> None:
        if shared_level not in (1, 2):
            raise MoocowError(f"the workers share out the guesses of level 1 or 2, not {shared_level}")
        super().__init__(game, max_depth, candidates_only)
        self.stats = SearchStats()
        self.settled = Settled(self)
        """The sets settled, and the proof store they are kept in, if any (``use_store``)."""
        self.reader = TreeReader(self, self.settled.sets, lambda: self.kernel, self.stats)
        """The best strategy's tree, read back from the settled sets and the kernel."""
        self.book = RootBook(progress, self.reader, self.settled)
        """The root's bookkeeping: progress, the best strategy so far, the proven bound (``root``)."""
        self.workers = workers
        """Processes searching the parts of each first guess side by side (1: this one alone)."""
        self.scheduler = scheduler
        """A Dask scheduler's address: its workers search them instead (``cluster``)."""
        self.shared_level = shared_level
        """The level whose sets' guesses are shared out: 1, or 2 for far more, smaller tasks (seven
        bottles: 28 second guesses, but 32,662 third guesses)."""
        self._kernel_level = KERNEL_LEVEL + shared_level - PARALLEL_LEVEL
        """Sets go to the kernel from this level down: the sets whose guesses are shared stay here."""
        self._pool: GuessPool | None = None
        self._started = time.monotonic()
        self._kernel: KernelSearch | None = None
        self._ahead: list[tuple[np.ndarray, int, int | None, History]] = []
        """The parts after the one being searched of the guess above the shared level (the first
        guess's, by default): each with a budget at least the one it will have, its depth and
        history (``guesses_ahead``)."""
        self._plans: dict[tuple[bytes, int], Plan] = {}
        self.first = first
        """The opening every strategy must start with, if one is fixed (``--first``)."""
        self.parts_bounded_deeper = parts_bounded_deeper
        """Whether the kernel bounds a guess's parts one level deeper than counting before it
        searches any (``KernelSearch``); off only to measure what that pays (``bench.bounds``)."""

    # ------------------------------------------------------------------ the search
    def run(self, beta: int = INFEASIBLE) -> int:
        """Search the whole game for a total below ``beta``: the exact optimum if below, else a bound."""
        everything = np.arange(len(self.rows), dtype=np.int32)
        self.root.lower = max(self.root.lower, int(self.bounds(self.max_depth)[len(everything)]))
        self.root.best = min(self.root.best, beta)
        self._started = time.monotonic()
        try:
            value = self.least_total(everything, self.max_depth, beta, (), 0)
        finally:
            if self._pool is not None:
                self._pool.close()
                self._pool = None
        if value < self.root.best:  # the whole game read back solved from a store kept no best
            self.book.record_best(value, self.subtree(everything, self.max_depth))
        self.root.lower = max(self.root.lower, min(value, self.root.best))
        self.stats.cached = len(self.settled.sets) + (len(self._kernel.store) if self._kernel else 0)
        return value

    def least_total(
        self, candidates: np.ndarray, depth: int | None, beta: int, played: History, level: int
    ) -> int:
        """The least total of ``candidates`` if below ``beta``; else a lower bound ``>= beta``."""
        count = len(candidates)
        static = int(self.bounds(depth)[count])
        if count <= 2 or static >= beta:
            return static  # one or two candidates: guessing one of them attains the bound
        if not self.searched_here(level, count):
            return self.kernel.least_total(candidates, played, depth, beta, self.stats)
        key = (candidates.tobytes(), depth)
        known = self.settled.sets.get(key)
        if known is not None:
            value, guess = known
            if guess >= 0 or value >= beta:
                self.stats.cache_hits += 1
                return value
        self.stats.nodes += 1
        guess_order, bound_order, floor, played = self.plan(candidates, depth, beta, played)
        child_depth = None if depth is None else depth - 1
        if level == self.shared_level and self._pool is None and self._parallel_now():
            self._pool = self._start_pool()
        if level == self.shared_level and self._pool is not None:
            best, best_guess = self._pool.best_guess(
                candidates, guess_order, bound_order, floor, beta, child_depth, played, level
            )
        else:
            best, best_guess = self._best_guess(
                candidates, guess_order, bound_order, floor, beta, child_depth, played, level
            )
        value = best if best_guess >= 0 else max(best, beta)
        self.settled.put_set(key, value, best_guess, lambda: self.subtree(candidates, depth))
        return value

    def plan(self, candidates: np.ndarray, depth: int | None, beta: int, played: History) -> Plan:
        """How ``least_total`` goes about a set (``Plan``): the guesses it tries, best first, when it must
        stay below ``beta``. Public for measuring what a proof has left (``proofs/bottles-7``)."""
        guesses = self._allowed(candidates)
        canonical = None if played is None else self.classes.canonical(played)
        if played == () and self.first is not None:
            guesses = np.array([self.first], dtype=np.int32)  # canonical or not; played stays ()
        elif canonical is None:
            played = None  # the history is fixed by no relabelling: nor will any longer one be
        else:
            # Guesses of one class split the set alike, so one of each class gives every bound
            # there is, the least left out included: only those are scored (5 of Mastermind's
            # 1,296 first guesses), and only their columns of the table are kept.
            guesses = guesses[canonical[guesses]]
        rows = self.rows[candidates]  # whole rows, then columns: faster than np.ix_
        if guesses is not self._all_guesses:
            rows = rows[:, guesses]
        child_bounds = self.bounds(None if depth is None else depth - 1)
        order, bounds, floor = ordered_guesses(rows, self.answers, child_bounds, beta)
        return [int(guesses[column]) for column in order], [int(bound) for bound in bounds], floor, played

    def guesses_ahead(self) -> Iterator[GuessTask]:
        """The guesses of the parts still to come (``_ahead``), in the order they will be tried,
        with budgets at least those they will have, for workers with nothing else to do.

        A part's budget only shrinks as the parts before it settle, and a guess's outcome at a
        larger budget holds at a smaller one (an exact total, or a bound above both).
        """
        settled = self.settled.sets
        for part, beta, depth, played in self._ahead:
            key = (part.tobytes(), beta)
            if len(part) <= 2 or self.bounds(depth)[len(part)] >= beta or (key[0], depth) in settled:
                continue  # settled without a guess tried, or already
            if key not in self._plans:
                self._plans[key] = self.plan(part, depth, beta, played)
            guesses, bounds, _, below = self._plans[key]
            child_depth = None if depth is None else depth - 1
            for guess, bound in zip(guesses, bounds, strict=True):
                if bound >= beta:
                    break
                yield part, guess, child_depth, beta - len(part), below, self.shared_level

    def _parallel_now(self) -> bool:
        """Whether to start the workers: more are allowed and the search has taken ``PARALLEL_SECONDS``,
        counting the earlier runs on its store (a resumed proof reaches its long sets at once).

        A proof kept in a store, or one a signal may stop (the command's), forks even its one
        worker: this process then only waits, so a stop does not wait for the compiled search
        under way, which cannot be interrupted.
        """
        store = self.settled.store
        stoppable = store is not None or listening()
        wanted = self.workers > 1 or self.scheduler is not None or stoppable
        searched = time.monotonic() - self._started if store is None else store.seconds()
        return wanted and searched >= PARALLEL_SECONDS

    def _start_pool(self) -> GuessPool:
        """The workers: a Dask cluster's when given its scheduler, else processes forked from this one."""
        if self.scheduler is not None:
            from moocow.optimal.cluster import DaskGuessPool

            spec = (self.game.spec, self.max_depth, self.candidates_only)
            return DaskGuessPool(self, spec, self.scheduler)
        from moocow.optimal.parallel import ForkedGuessPool

        self.kernel.warm_up()  # compile (or load) it once, not in every worker
        return ForkedGuessPool(self, self.workers)

    def _best_guess(
        self,
        candidates: np.ndarray,
        guesses: list[int],
        guess_bounds: list[int],
        floor: int,
        beta: int,
        child_depth: int | None,
        played: History,
        level: int,
    ) -> tuple[int, int]:
        """Try the guesses in order: ``(value, guess)`` of the best below ``beta``, else ``(bound, -1)``."""
        count = len(candidates)
        best, best_guess, bound = floor, -1, beta
        for position, guess in enumerate(guesses):
            if guess_bounds[position] >= bound:
                best = min(best, guess_bounds[position])
                break
            if level == 0:
                following = guess_bounds[position + 1] if position + 1 < len(guesses) else INFEASIBLE
                self.book.first_guess(count, bound, following, guess_bounds[position])
            if level <= 1:
                self.book.mark_guess(level, position, len(guesses))
            alone = level == 0 and len(guesses) == 1
            budget = bound - count
            parts_total = self.guess_value(candidates, guess, child_depth, budget, played, level, alone)
            value = count + parts_total
            if value < bound:
                best, best_guess, bound = value, guess, value
                self.reader.keep_part_trees(candidates, guess, child_depth)
                if level == 0:
                    self.settled.sets[(candidates.tobytes(), self.max_depth)] = (value, guess)
                    self.book.record_best(value)
            else:
                best = min(best, value)
        return best, best_guess

    def guess_value(
        self,
        candidates: np.ndarray,
        guess: int,
        depth: int | None,
        budget: int,
        played: History,
        level: int,
        smallest_first: bool = False,
    ) -> int:
        """The total of the parts ``guess`` leaves if below ``budget``; else a bound ``>= budget``.

        Parts go largest first, so that a guess that cannot win fails early. A first guess with
        no rival (every opening of the bottle game is alike) has nothing to fail against early:
        its parts go ``smallest_first``, each one solved tightening the budgets of the large
        ones, and an interrupted search keeps every part quick to settle (7 bottles: the parts of
        21, 70 and 315 settle long before those of 1,854 and 1,855). With a store, a guess it
        settled is taken from it, and a guess searched is kept there.
        """
        known = self.settled.known_guess(candidates, guess, depth, budget, level)
        if known is not None:  # settled by an earlier run
            total, trees = known
            for part, tree in zip(self.parts(candidates, guess), trees or [], strict=False):
                self.reader.keep(part, depth, tree)
            return total
        if level > 0 and not self._a_part_searched_here(candidates, guess, level + 1):
            set_depth = None if depth is None else depth + 1  # the parts go to the kernel: it takes the guess
            total = self.kernel.guess_total(candidates, guess, played, set_depth, budget, self.stats)
        else:
            parts = self.parts(candidates, guess)
            if smallest_first:
                parts.reverse()
            total = self._parts_total(parts, guess, depth, budget, _extend(played, guess), level)
        if self.settled.store is not None and level > 0:
            exact = total < budget
            trees = [self.subtree(part, depth) for part in self.parts(candidates, guess)] if exact else None
            self.settled.remember_guess(candidates, guess, depth, budget, total, trees, level)
        return total

    def _a_part_searched_here(self, candidates: np.ndarray, guess: int, level: int) -> bool:
        """Whether a part ``guess`` leaves is searched by this class (``searched_here``)."""
        if self.settled.store is None:
            return level < self._kernel_level
        sizes = np.bincount(self.rows[candidates, guess], minlength=self.answer_limit)
        sizes[self.win] = 0
        return self.searched_here(level, int(sizes.max()))

    def searched_here(self, level: int, size: int) -> bool:
        """Whether a set is searched by this class (and kept in the store) rather than by the kernel."""
        return level < self._kernel_level or (self.settled.store is not None and size >= CHECKPOINT_SIZE)

    @property
    def kernel(self) -> KernelSearch:
        """The compiled search, set up on first use (it copies the table guess-major)."""
        if self._kernel is None:
            self._kernel = KernelSearch(self)
        return self._kernel

    def _parts_total(
        self,
        parts: list[np.ndarray],
        guess: int,
        depth: int | None,
        budget: int,
        played: History,
        level: int,
    ) -> int:
        """Total of a guess's parts if below ``budget``; else a lower bound ``>= budget``."""
        part_bounds = [self.part_bound(part, depth, level + 1) for part in parts]
        remaining = sum(part_bounds)
        total = 0
        try:
            for index, (part, part_bound) in enumerate(zip(parts, part_bounds, strict=True)):
                if level == 0:
                    self.book.mark_part(index, len(parts))
                if level == self.shared_level - 1:  # the parts whose guesses are shared out
                    pending = budget - total - remaining  # the parts from this one on, bounded
                    later = zip(parts[index + 1 :], part_bounds[index + 1 :], strict=True)
                    self._ahead = [(ahead, pending + bound, depth, played) for ahead, bound in later]
                    self._plans = {}
                remaining -= part_bound
                part_budget = budget - total - remaining
                value = self.least_total(part, depth, part_budget, played, level + 1)
                total += value
                if level == 0:
                    self.book.raise_lower(total + remaining)
                    if value < part_budget:
                        self.book.improve_best(guess, part, value, depth)
                if total + remaining >= budget:
                    return total + remaining
            return total
        finally:
            if level == self.shared_level - 1:
                self._ahead, self._plans = [], {}

    def part_bound(self, part: np.ndarray, depth: int | None, level: int) -> int:
        """A lower bound on a part's total: one level deeper than counting (the compiled
        ``kernel.set_bound``) from ``PROBE_LEVEL`` down, the counting bound above it."""
        if level >= PROBE_LEVEL:
            return self.kernel.set_bound(part, depth, self.stats)
        return int(self.bounds(depth)[len(part)])

    # ------------------------------------------------------------------ for callers and workers
    @property
    def root(self) -> RootState:
        """What the root has established: the best strategy so far, its total, the proven bound."""
        return self.book.state

    @property
    def progress(self) -> ProgressHook | None:
        """Called with the fraction done, the best total so far and the bound (``None``: no one watches)."""
        return self.book.progress

    @progress.setter
    def progress(self, hook: ProgressHook | None) -> None:
        self.book.progress = hook  # a worker's search reports nothing (``parallel``)

    @property
    def store(self) -> ProofStore | None:
        """Where every set and guess settled at the Python levels is kept, if anywhere (``use_store``)."""
        return self.settled.store

    def use_store(self, store: ProofStore) -> None:
        """Resume from the results ``store`` holds, and keep each new one there."""
        self.reader.kept.update(self.settled.use(store))

    def keep_time(self) -> None:
        """Keep the time searched in the store, if any (while workers are waited for), and stop if
        a signal asked to."""
        stop_if_asked()
        self.settled.count_seconds()

    def subtree(self, candidates: np.ndarray, depth: int | None) -> Node:
        """The best tree of a set solved exactly, by this search or a worker's (``TreeReader.subtree``)."""
        return self.reader.subtree(candidates, depth)


def _extend(played: History, guess: int) -> tuple[int, ...] | None:
    """The played guesses one level down; ``None`` stays ``None`` (no symmetry left to use)."""
    return None if played is None else (*played, guess)
