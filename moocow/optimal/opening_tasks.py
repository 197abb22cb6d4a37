"""The proof over every opening of a wide game (Wordle) on a Dask cluster: ``--scheduler ADDRESS``.

Each opening is a task. This process keeps as many out as the cluster has threads, in
``openings.opening_order``'s order, each with the tightest budget known when it leaves (the
best total so far), so a better total found by one worker refutes the openings sent after it
sooner. It stops sending once the next opening's bound reaches the best, drops the openings out
whose bound the best has reached since (they can change neither the best nor the bound), and
folds each outcome as the search in one process does (``openings.Proof.fold``): the same total and
proven bound; the tree is one of that total, which need not be the one a single process keeps.

A worker builds the game's ``WideSearch`` once per thread (its memo kept from one opening to the
next, in ``cluster._searches``) and sends back the opening's total and, below its budget, its tree.
A stop (Ctrl-C, SIGTERM) cancels the tasks out and keeps what was settled; a lost scheduler or a
worker lost too often is one line (``cluster.task_outcome``).
"""

from __future__ import annotations

import queue
import threading
import time
from typing import Any

from moocow.cluster.connection import connected, load_plugins, scheduler_kept, threads, where
from moocow.engine.progress import notify
from moocow.engine.tree import Node
from moocow.optimal.cluster import LOST, THREADS_SECONDS, _searches, task_outcome
from moocow.optimal.openings import Proof, searched
from moocow.optimal.stopping import stop_if_asked
from moocow.optimal.wide import STOP_POLL_SECONDS, WideSearch
from moocow.plugins import local_plugin_files


def opening_on_worker(
    spec: str, max_depth: int | None, plugins: list[str], guess: int, budget: int
) -> tuple[int, Node | None]:
    """On a Dask worker: the opening's total if below ``budget`` more than the secrets, with its
    tree, else a bound at least that (no tree), on this thread's own search of the game."""
    key = ((spec, max_depth, False), threading.get_ident())  # a wide game is never a ``Search``'s
    search = _searches.get(key)
    if search is None:
        from moocow.plugins import load_game

        load_plugins(plugins)
        search = _searches[key] = WideSearch(load_game(spec), max_depth)
    return searched(search, guess, search.child_depth(max_depth), budget)


def on_cluster(proof: Proof, scheduler: str) -> int:
    """Settle the openings on the cluster; the position of the first left untried."""
    with scheduler_kept(LOST), connected(scheduler) as client:
        notify(where(client))  # a proof's errors from here on come mid-search, after its progress
        return _Flight(proof, client).run()


class _Flight:
    """The openings out on the cluster, by their position in the order."""

    def __init__(self, proof: Proof, client: Any) -> None:
        self.proof = proof
        self.client = client
        self.plugins = local_plugin_files()
        self.out: dict[int, Any] = {}
        self.results: queue.Queue[tuple[int, Any]] = queue.Queue()
        self.sent = 0
        """Positions sent (or settled from the store) so far: the next one to send."""
        self.threads = threads(client)
        self._asked = time.monotonic()

    def run(self) -> int:
        try:
            self._send()
            while self.out:
                self._take(*self._next())
                self._send()
            return self.sent
        finally:  # a stop or an error: nothing left out runs for nobody
            for future in self.out.values():
                future.cancel()

    def _following(self) -> int:
        """The first position not settled yet."""
        return min(self.out, default=self.sent)

    def _send(self) -> None:
        """Send openings until as many are out as the cluster has threads, or the next one's bound
        reaches the best."""
        proof, sweep = self.proof, self.proof.sweep
        search = proof.search
        while len(self.out) < self.threads and self.sent < len(proof.order):
            guess = int(proof.order[self.sent])
            if proof.bounds[guess] >= sweep.best:
                return
            kept = proof.kept(guess)
            self.sent += 1
            if kept is not None:
                proof.fold(*kept, following=self._following(), sent=self.sent, flying=len(self.out))
                continue
            position, budget = self.sent - 1, sweep.best - proof.count
            future = self.client.submit(
                opening_on_worker, search.game.spec, search.max_depth, self.plugins, guess, budget, pure=False
            )
            self.out[position] = future
            future.add_done_callback(lambda done, at=position: self.results.put((at, done)))

    def _next(self) -> tuple[int, Any]:
        """The next task back, looking for a stop meanwhile and for threads that joined."""
        while True:
            stop_if_asked()
            try:
                return self.results.get(timeout=STOP_POLL_SECONDS)
            except queue.Empty:
                if time.monotonic() - self._asked >= THREADS_SECONDS:
                    self.threads, self._asked = threads(self.client), time.monotonic()
                    self._send()

    def _take(self, position: int, future: Any) -> None:
        """Fold a task's outcome, then drop the tasks out that can no longer matter."""
        if self.out.get(position) is not future:
            return  # dropped already
        del self.out[position]
        outcome = task_outcome(future, "an opening")
        if isinstance(outcome, BaseException):
            raise outcome
        proof = self.proof
        total, tree = outcome
        proof.record(int(proof.order[position]), total, tree)
        proof.fold(total, tree, following=self._following(), sent=self.sent, flying=len(self.out))
        for at in [at for at in self.out if proof.bounds[proof.order[at]] >= proof.sweep.best]:
            self.out.pop(at).cancel()
