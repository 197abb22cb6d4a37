"""Every core: the second guesses of each set are tried side by side in worker processes.

The searching process walks the first two levels (the first guess, then each part it leaves) and
hands each second guess worth trying to a worker, with the budget the best guess known so far
leaves; the worker searches the parts that guess leaves to the end (below, the compiled kernel)
and sends back their total and, when it is under the budget, their trees. As soon as a worker is
free it gets the next guess, with the latest budget: most guesses are refuted, and a refutation
needs the tightest budget there is. Sharing out the first guess's parts instead left one core
idle for most of Bulls and Cows, whose largest part alone took longer than all the others. A
worker left with nothing to do while a set's last guesses run starts the guesses of the first
guess's parts still to come, with budgets at least those they will have (``Early``).

Workers are forked from the searching process (they inherit its table and keep their own caches
from one guess to the next) and ignore Ctrl-C, which the searching process handles. With a proof
store (``proof_store``) forked workers write what they settle, Dask's send it back for the
searching process to write, and a guess an earlier run settled is answered from the store
instead of being sent out.
"""

from __future__ import annotations

import contextlib
import queue
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

from moocow.engine.tree import Node
from moocow.optimal.forked import Crew
from moocow.optimal.stats import ProgressHook, SearchStats

if TYPE_CHECKING:
    from moocow.optimal.readback import TreeReader
    from moocow.optimal.root import RootBook
    from moocow.optimal.settled import Settled


class GuessSearch(Protocol):
    """What the pool needs of the search it works for (``search.Search``), which imports this module."""

    stats: SearchStats
    progress: ProgressHook | None
    settled: Settled
    """The guesses an earlier run settled (the store), and where a worker's outcome is kept."""
    reader: TreeReader
    """Where the trees of the parts a worker solved are kept, and read from in a worker."""
    book: RootBook
    """The progress of the guesses shared out."""

    def guess_value(
        self,
        candidates: np.ndarray,
        guess: int,
        depth: int | None,
        budget: int,
        played: tuple[int, ...] | None,
        level: int,
    ) -> int: ...

    def parts(self, candidates: np.ndarray, guess: int) -> list[np.ndarray]: ...

    def guesses_ahead(self) -> Iterator[GuessTask]: ...

    def keep_time(self) -> None: ...


_search: GuessSearch | None = None
"""The search a forked worker works for (set in the parent just before forking)."""

WAIT_SECONDS = 0.1
"""How long the searching process blocks on a result before looking again (Ctrl-C stays prompt)."""


def _start_worker() -> None:
    """A forked worker leaves the progress bar to the searching process."""
    if _search is not None:
        _search.progress = None


GuessTask = tuple[np.ndarray, int, int | None, int, tuple[int, ...] | None, int]
"""A set, a guess, the depth below it, the parts' budget, the guesses played, the set's level."""


GuessOutcome = tuple[int, list[Node] | None, tuple[int, int, int]]
"""The parts' total, their trees when under the budget, and how much the search's counters grew."""


def value_of_guess(search: GuessSearch, task: GuessTask) -> GuessOutcome:
    """In a worker (a forked process, a Dask worker): one guess's parts searched to the end."""
    candidates, guess, depth, budget, played, level = task
    before = search.stats.counters()
    total = search.guess_value(candidates, guess, depth, budget, played, level)
    trees = None
    if total < budget:
        trees = [search.reader.subtree(part, depth) for part in search.parts(candidates, guess)]
    after = search.stats.counters()
    return total, trees, (after[0] - before[0], after[1] - before[1], after[2] - before[2])


def _guess_value(task: GuessTask) -> GuessOutcome:
    """In a forked worker: ``value_of_guess`` for the search it was forked from."""
    assert _search is not None
    return value_of_guess(_search, task)


Results = queue.SimpleQueue
"""Where outcomes arrive, each as ``(position of the guess, outcome or the exception raised)``."""


@dataclass(eq=False)
class Early:
    """A guess of a set still to come (``GuessSearch.guesses_ahead``), given to a worker that had
    nothing else to do: its outcome waits here until the search reaches that set."""

    task: GuessTask
    outcome: GuessOutcome | None = None
    """Its outcome, once back (its work already counted and kept)."""
    position: int | None = None
    """Its place among its set's guesses, once the search took it for one still running."""


class GuessPool(ABC):
    """Workers that try the guesses of one set side by side; subclasses say where they run.

    A worker with nothing to do, while the set's last guesses run, starts the guesses of the
    first guess's parts still to come (``Early``), with budgets at least those they will have:
    on 2 cores one sat idle for as long as a part's last guess took, and on many, a part has
    only 15 classes of second guesses to share out (seven bottles).
    """

    workers_keep_results: bool = False
    """Whether the workers write what they settle to the search's store themselves (else this
    process writes what they send back)."""

    def __init__(self, search: GuessSearch, workers: int) -> None:
        self.search = search
        self.workers = workers
        """How many guesses are out at once."""
        self._results: Results = queue.SimpleQueue()
        self._out: dict[object, GuessTask] = {}
        """What is on the workers, by where its outcome goes: a position or an ``Early``."""
        self._early: dict[tuple[bytes, int], Early] = {}
        """The guesses started early, by set and guess."""

    @abstractmethod
    def submit(self, task: GuessTask, position: object, results: Results) -> None:
        """Start ``value_of_guess`` on a worker; ``next_result`` hands its outcome back under
        ``position`` (this pool's workers may put it on ``results``)."""

    @abstractmethod
    def close(self) -> None:
        """Stop the workers (at once: an interrupted search does not wait for them)."""

    def next_result(self, results: Results) -> tuple[object, object]:
        """The next ``(position, outcome)``, waiting in short steps so that Ctrl-C is seen at once
        and the time is kept (forked workers write what they settle, so the searching process
        may write nothing for hours)."""
        while True:
            with contextlib.suppress(queue.Empty):
                return results.get(timeout=WAIT_SECONDS)
            self.search.keep_time()

    def best_guess(
        self,
        candidates: np.ndarray,
        guesses: list[int],
        guess_bounds: list[int],
        floor: int,
        beta: int,
        depth: int | None,
        played: tuple[int, ...] | None,
        level: int,
    ) -> tuple[int, int]:
        """``Search._best_guess`` with the guesses shared out: the same result, in less time.

        Results come back in any order, so a tie goes to the guess earlier in ``guesses``, as in
        the serial loop: its value is exact, since it was sent out before the later guess won
        and so with a larger budget (one started early, with a larger one still). The tree is
        then the same for any number of workers.

        Every worker may be on a guess started early for another set: the set then waits for one
        to come back. (It returned its floor at once, a refutation never searched: seen with the
        third guesses shared, where a set's early starts are often for sets never reached.)
        """
        search, count = self.search, len(candidates)
        best, best_guess, bound = floor, -1, beta
        running, position, best_position = 0, 0, len(guesses)
        while True:
            while position < len(guesses):
                if guess_bounds[position] >= bound:
                    best = min(best, guess_bounds[position])
                    position = len(guesses)
                    break
                task = (candidates, guesses[position], depth, bound - count, played, level)
                if not self._hand_out(task, position):
                    break
                running, position = running + 1, position + 1
            if running == 0 and position == len(guesses):
                return best, best_guess
            if len(self._out) < self.workers:
                self._start_early()
            at, outcome = self._next_outcome()
            if at is None:
                continue  # a guess started early, kept for its set
            running -= 1
            total, trees, _ = outcome
            search.book.mark_guess(level, position - running, len(guesses))
            value = count + total
            if value < bound or (best_guess >= 0 and value == bound and at < best_position):
                guess = guesses[at]
                best, best_guess, bound, best_position = value, guess, value, at
                assert trees is not None
                for part, tree in zip(search.parts(candidates, guess), trees, strict=True):
                    search.reader.keep(part, depth, tree)
            else:
                best = min(best, value)

    def _hand_out(self, task: GuessTask, position: int) -> bool:
        """Start a guess of the set searched: from the store, from its early start if that had at
        least this budget, or on a free worker; ``False`` when no worker is free."""
        candidates, guess, depth, budget, _, level = task
        key = (candidates.tobytes(), guess)
        known = self.search.settled.known_guess(candidates, guess, depth, budget, level)
        early = self._early.get(key)
        if known is not None:  # settled by an earlier run (the store): no worker needed
            self._results.put((position, (*known, (0, 0, 0))))
        elif early is not None and early.task[3] >= budget:
            del self._early[key]
            if early.outcome is None:
                early.position = position  # its outcome, still to come, is this guess's
            else:
                self._results.put((position, early.outcome))
        elif len(self._out) < self.workers:
            self._out[position] = task
            self.submit(task, position, self._results)
        else:
            return False
        return True

    def _start_early(self) -> None:
        """Give each free worker a guess of a set still to come, in the order the search will
        reach them (``GuessSearch.guesses_ahead``)."""
        for task in self.search.guesses_ahead():
            if len(self._out) >= self.workers:
                return
            candidates, guess, depth, budget, _, level = task
            key = (candidates.tobytes(), guess)
            if key in self._early or self.search.settled.known_guess(candidates, guess, depth, budget, level):
                continue
            early = self._early[key] = Early(task)
            self._out[early] = task
            self.submit(task, early, self._results)

    def _next_outcome(self) -> tuple[int | None, GuessOutcome]:
        """The next outcome and the position of its guess (``None``: one started early, whose set
        is still to come). A worker's is counted and kept (in the store) as it arrives."""
        at, outcome = self.next_result(self._results)
        if isinstance(outcome, BaseException):
            raise outcome
        assert isinstance(outcome, tuple)
        task = self._out.pop(at, None)
        if task is not None:  # from a worker, not the store
            total, trees, counted = outcome
            self.search.stats.add(*counted)
            if not self.workers_keep_results:
                candidates, guess, depth, budget, _, level = task
                self.search.settled.remember_guess(candidates, guess, depth, budget, total, trees, level)
        if isinstance(at, Early):
            if at.position is None:
                at.outcome = outcome
                return None, outcome
            at = at.position
        assert isinstance(at, int)
        return at, outcome


class ForkedGuessPool(GuessPool):
    """Worker processes forked from the searching one (``forked.Crew``): they inherit its table
    and its caches, and its store, which each writes through a connection of its own."""

    workers_keep_results = True

    def __init__(self, search: GuessSearch, workers: int) -> None:
        global _search
        _search = search
        super().__init__(search, workers)
        self._crew = Crew(workers, _guess_value, on_start=_start_worker)

    def submit(self, task: GuessTask, position: object, results: Results) -> None:
        self._crew.submit(task, position)

    def next_result(self, results: Results) -> tuple[object, object]:
        with contextlib.suppress(queue.Empty):
            return results.get_nowait()
        return self._crew.next(self.search.keep_time)

    def close(self) -> None:
        self._crew.close()
