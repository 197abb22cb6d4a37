"""The exact search's second guesses as Dask tasks: ``moocow optimal GAME --scheduler ADDRESS``.

The searching process walks the first two levels as it does alone, and hands each second guess
worth trying to the cluster, as ``parallel`` hands it to local worker processes: a task searches
the parts one guess leaves to the end, on a worker, and sends back their total (and their trees,
when under the budget). Each task leaves with the tightest budget known when it starts, so the
cluster shares the best total found so far: as guesses finish and a better one is found, the
guesses sent after it are refuted sooner. As many guesses are out at once as the cluster has
threads, counted again as workers come and go.

A worker builds the game's search once (the feedback table, the compiled kernel, whose store it
keeps from one task to the next) and keeps one per thread: the kernel's scratch space is its own.
A worker lost under a task is Dask's to replay (``allowed-failures``); a guess lost more often
than that stops the search in one line, and ``--store`` keeps what was settled before it.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any

from moocow.cluster.connection import connected, load_plugins, threads, where
from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.engine.progress import notify
from moocow.optimal.parallel import GuessOutcome, GuessPool, GuessSearch, GuessTask, Results, value_of_guess
from moocow.plugins import load_game, local_plugin_files

THREADS_SECONDS = 5.0
"""How often the cluster's thread count is asked again (workers may join or leave)."""

LOST = "lost the Dask scheduler during the search; with --store, run it again to resume"
"""What a search says when the scheduler is lost (``--store`` keeps what was settled)."""

SearchSpec = tuple[str, int | None, bool]
"""What a worker needs to build the same search: the game spec, the depth limit, candidates only."""

_searches: dict[tuple[SearchSpec, int], Any] = {}
"""On a worker: the search of each spec, one per thread (a ``WideSearch`` for Wordle's openings,
``opening_tasks``)."""


def guess_on_worker(
    searcher: Callable[[Game, int | None, bool], Any], spec: SearchSpec, plugins: list[str], task: GuessTask
) -> GuessOutcome:
    """On a Dask worker: ``value_of_guess`` on this worker's own search of the game, made by
    ``searcher`` (the searching process's own class, sent by name: this module imports none)."""
    key = (spec, threading.get_ident())
    search = _searches.get(key)
    if search is None:
        load_plugins(plugins)
        game, max_depth, candidates_only = spec
        search = _searches[key] = searcher(load_game(game), max_depth, candidates_only)
    return value_of_guess(search, task)


class DaskGuessPool(GuessPool):
    """The guesses of a set tried side by side on a Dask cluster's workers."""

    def __init__(self, search: GuessSearch, spec: SearchSpec, scheduler: str) -> None:
        self._stack = contextlib.ExitStack()
        self.client = self._stack.enter_context(connected(scheduler))
        notify(where(self.client))  # a search's errors from here on come mid-search, after its progress
        self.spec = spec
        self.plugins = local_plugin_files()
        self._asked = 0.0
        super().__init__(search, self._threads())

    def best_guess(self, *arguments: Any) -> tuple[int, int]:
        if time.monotonic() - self._asked >= THREADS_SECONDS:
            self.workers = self._threads()
        return super().best_guess(*arguments)

    def _threads(self) -> int:
        self._asked = time.monotonic()
        return threads(self.client)

    def submit(self, task: GuessTask, position: object, results: Results) -> None:
        searcher = type(self.search)
        future = self.client.submit(guess_on_worker, searcher, self.spec, self.plugins, task, pure=False)
        future.add_done_callback(lambda done: results.put((position, task_outcome(done))))

    def close(self) -> None:
        self._stack.close()


def task_outcome(future: Any, what: str = "a guess") -> Any:
    """A finished task's outcome, or what stops the search, in one line when it is the cluster's
    (``what``: the task, as the line names it)."""
    from distributed import KilledWorker

    if future.status == "cancelled":
        return MoocowError(LOST)
    if future.status == "error":
        error = future.exception()
        if isinstance(error, KilledWorker):
            return MoocowError(
                f"{what}'s Dask worker was lost more often than the scheduler's allowed-failures; "
                "with --store, run it again to resume"
            )
        return error
    return future.result()
