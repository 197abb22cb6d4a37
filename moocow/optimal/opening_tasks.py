"""The proof over every opening of a wide game (Wordle) on a Dask cluster: ``--scheduler ADDRESS``.

Batches of openings are tasks (``flight``): cheap openings go many to a task, so that a round
trip through the scheduler stays a small part of a task's time. A worker builds the game's
``WideSearch`` once per thread and keeps it, with its memo, from one task to the next
(``cluster._searches``: worker-local state keyed by the game).

The best found so far reaches the workers while they search. Choices, and why:

- **pushed**, by ``Client.run`` to every worker process (``incumbent.push``), not read from a
  Dask ``Variable`` or an actor: a better best comes a few dozen times in a whole proof, while a
  task's search looks at the best ten times a second, so one message per worker per improvement
  costs nothing, where a read from the scheduler at every look would cost a round trip each, from
  every thread of every worker. (distributed's pub/sub, which would also push, is gone from it.)
- A task also carries the best when it left, and a worker keeps the least it has seen, so a
  worker that joins late or misses a push is never worse off than a task's own budget.
- A cancelled task is seen by its search within a tenth of a second (``task_cancelled``: the
  worker's own record, no message) and unwinds, its memo kept for the next task.

A stop (Ctrl-C, SIGTERM) cancels the tasks out and keeps what was settled; a lost scheduler or a
worker lost too often is one line (``cluster.task_outcome``).
"""

from __future__ import annotations

import contextlib
import queue
import secrets
import threading
import time
from typing import Any

from moocow.cluster.connection import connected, load_plugins, scheduler_kept, task_cancelled, threads, where
from moocow.engine.progress import notify
from moocow.optimal import incumbent
from moocow.optimal.cluster import LOST, THREADS_SECONDS, _searches, task_outcome
from moocow.optimal.flight import Batch, Flight, OpeningOutcome, Workers, settle_batch
from moocow.optimal.opening_proof import Proof
from moocow.optimal.stopping import stop_if_asked
from moocow.optimal.wide import STOP_POLL_SECONDS, WideSearch
from moocow.plugins import local_plugin_files

BATCH_SECONDS = 0.5
"""How long a task should take: a round trip through the scheduler is a few milliseconds."""


def openings_on_worker(
    spec: str, max_depth: int | None, plugins: list[str], token: str, batch: Batch
) -> list[OpeningOutcome]:
    """On a Dask worker: the batch's openings settled on this thread's own search of the game,
    against the best pushed to this process for proof ``token``."""
    key = ((spec, max_depth, False), threading.get_ident())  # a wide game is never a ``Search``'s
    search = _searches.get(key)
    if search is None:
        from moocow.plugins import load_game

        load_plugins(plugins)
        search = _searches[key] = WideSearch(load_game(spec), max_depth)
    incumbent.push(token, batch.best)
    depth = search.child_depth(max_depth)
    return settle_batch(search, depth, batch, lambda: incumbent.pushed[token], task_cancelled())


def on_cluster(proof: Proof, scheduler: str) -> int:
    """Settle the openings on the cluster; the position of the first left untried."""
    with scheduler_kept(LOST), connected(scheduler) as client:
        notify(where(client))  # a proof's errors from here on come mid-search, after its progress
        return Flight(proof, DaskWorkers(proof, client)).run()


class DaskWorkers(Workers):
    """A Dask cluster's threads, settling batches of ``proof``'s openings as tasks."""

    batch_seconds = BATCH_SECONDS

    def __init__(self, proof: Proof, client: Any) -> None:
        self.client = client
        self.search = proof.search
        self.plugins = local_plugin_files()
        self.token = secrets.token_hex(8)
        """This proof's name on the workers, for the best pushed to them."""
        self.futures: dict[int, Any] = {}
        self.batches: dict[int, Batch] = {}
        self.results: queue.Queue[int] = queue.Queue()
        self._threads = threads(client)
        self._asked = time.monotonic()

    def slots(self) -> int:
        if time.monotonic() - self._asked >= THREADS_SECONDS:
            self._threads, self._asked = threads(self.client), time.monotonic()
        return self._threads

    def submit(self, batch: Batch) -> None:
        spec, depth = self.search.game.spec, self.search.max_depth
        arguments = (spec, depth, self.plugins, self.token, batch)
        future = self.client.submit(openings_on_worker, *arguments, pure=False)
        self.futures[batch.number], self.batches[batch.number] = future, batch
        future.add_done_callback(lambda done, number=batch.number: self.results.put(number))

    def next(self) -> tuple[Batch, list[OpeningOutcome] | BaseException]:
        while True:
            stop_if_asked()
            try:
                number = self.results.get(timeout=STOP_POLL_SECONDS)
            except queue.Empty:
                continue
            future = self.futures.pop(number, None)
            if future is None:
                continue  # dropped
            return self.batches.pop(number), task_outcome(future, "an opening")

    def publish(self, packed: int) -> None:
        with contextlib.suppress(Exception):  # a worker gone meanwhile: its tasks carry the best too
            self.client.run(incumbent.push_to_worker, self.token, packed, wait=False)

    def drop(self, batch: Batch) -> None:
        self.batches.pop(batch.number, None)
        future = self.futures.pop(batch.number, None)
        if future is not None:
            future.cancel()

    def close(self) -> None:
        for future in self.futures.values():
            future.cancel()
        self.futures.clear()
