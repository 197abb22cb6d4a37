"""The openings of a proof out on workers: which go out, in what batches, and how each comes back.

One flight serves both kinds of workers (``Workers``): processes forked on this machine
(``opening_workers``) and a Dask cluster's (``opening_tasks``). It keeps as many batches out as
there are workers, in ``openings.opening_order``'s order, and stops sending once the next
opening's bound reaches the best. Cheap openings go out many to a batch, so that the round trip of
a task stays a small part of its time: a batch is sized to take about ``Workers.batch_seconds``
at the pace openings have been settling. Each outcome is folded as the search in one process folds
it (``opening_proof.Proof.fold``); a better best is published to every worker at once
(``Workers.publish``), and the workers' searches under way take the lower budget it gives while
they run (``wide.Steer``). Batches out whose bound the best has reached since are dropped.

Every opening is settled against a best that is never better than the final one, and a tie goes
to the opening earlier in the order (``incumbent``), so the total, the proven bound and the tree
are those of one process, on any number of workers.
"""

from __future__ import annotations

import itertools
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field

from moocow.engine.tree import Node
from moocow.optimal import incumbent
from moocow.optimal.bounds import INFEASIBLE
from moocow.optimal.kernel.layout import HITS, NODES
from moocow.optimal.opening_proof import Proof, searched
from moocow.optimal.wide import WideSearch

MAX_BATCH = 256
"""The most openings one task settles."""
PACE_WEIGHT = 0.05
"""How much each opening settled moves the pace batches are sized by (an exponential average)."""

_batch_ids = itertools.count()


@dataclass(frozen=True)
class Batch:
    """Openings for one worker to settle in order: their places in the order and their guesses,
    with the best known when the batch left (``incumbent.pack``)."""

    positions: tuple[int, ...]
    guesses: tuple[int, ...]
    best: int
    number: int = field(default_factory=lambda: next(_batch_ids))


OpeningOutcome = tuple[int, int, Node | None, float, tuple[int, int]]
"""One opening settled by a worker: its place, its total (or a bound, with no tree), its tree, its
seconds, and the kernel's counters it added (sets searched, memo hits)."""


@dataclass
class OpeningSteer:
    """The budget of one opening while a worker searches it: from the best the worker sees now
    (``read``: shared memory, or the copy pushed to a Dask worker) and the best its own batch
    found (``local``)."""

    read: Callable[[], int]
    position: int
    secrets: int
    local: list[int]
    is_cancelled: Callable[[], bool]

    def budget(self) -> int:
        return incumbent.budget(min(self.read(), self.local[0]), self.position, self.secrets)

    def cancelled(self) -> bool:
        return self.is_cancelled()


def settle_batch(
    search: WideSearch,
    depth: int | None,
    batch: Batch,
    read: Callable[[], int],
    cancelled: Callable[[], bool] = lambda: False,
) -> list[OpeningOutcome]:
    """On a worker: each opening of ``batch`` settled in turn against the best it can see."""
    secrets = len(search.rows)
    local = [batch.best]
    outcomes: list[OpeningOutcome] = []
    for position, guess in zip(batch.positions, batch.guesses, strict=True):
        started, before = time.perf_counter(), search.counters.copy()
        steer = OpeningSteer(read, position, secrets, local, cancelled)
        total, tree = searched(search, guess, depth, INFEASIBLE, steer)
        if tree is not None:
            local[0] = min(local[0], incumbent.pack(total, position))
        grown = search.counters - before
        seconds = time.perf_counter() - started
        outcomes.append((position, total, tree, seconds, (int(grown[NODES]), int(grown[HITS]))))
    return outcomes


class Workers(ABC):
    """Where a flight's batches run."""

    batch_seconds: float
    """How long a batch should take: its round trip a small part of that."""

    @abstractmethod
    def slots(self) -> int:
        """How many batches may be out at once (the workers, or the cluster's threads)."""

    @abstractmethod
    def submit(self, batch: Batch) -> None:
        """Start ``batch`` on a worker; ``next`` hands its outcome back."""

    @abstractmethod
    def next(self) -> tuple[Batch, list[OpeningOutcome] | BaseException]:
        """The next batch back and its openings settled (or what its worker raised), waiting in
        short steps so that a stop is seen at once."""

    @abstractmethod
    def publish(self, packed: int) -> None:
        """Tell every worker a better best."""

    @abstractmethod
    def drop(self, batch: Batch) -> None:
        """Stop ``batch``: nothing it could find matters any more."""

    @abstractmethod
    def close(self) -> None:
        """Stop every worker's search under way (a stop, an error, or the end)."""


class Flight:
    """The batches out on ``workers`` for ``proof``, by number."""

    def __init__(self, proof: Proof, workers: Workers) -> None:
        self.proof = proof
        self.workers = workers
        self.out: dict[int, Batch] = {}
        self.sent = 0
        """Positions sent (or settled from the store) so far: the next one to send."""
        self.pace: float | None = None
        """Seconds an opening has been taking, on average of late (``PACE_WEIGHT``)."""

    def run(self) -> int:
        """Settle the openings; the position of the first left untried."""
        try:
            self._send()
            while self.out:
                self._take(*self.workers.next())
                self._send()
            return self.sent
        finally:  # a stop or an error: nothing left out runs for nobody
            self.workers.close()

    def _following(self, *pending: int) -> int:
        """The first position not settled yet (``pending``: some not sent or not folded yet)."""
        return min([batch.positions[0] for batch in self.out.values()] + [self.sent, *pending])

    def _batch_size(self) -> int:
        if self.pace is None:
            return 1
        return max(1, min(MAX_BATCH, int(self.workers.batch_seconds / max(self.pace, 1e-6))))

    def _send(self) -> None:
        """Send batches until as many are out as there are slots, or the next opening's bound
        reaches the best; openings the store settles are folded on the way."""
        proof, order = self.proof, self.proof.order
        while len(self.out) < self.workers.slots() and self.sent < len(order):
            positions: list[int] = []
            size = self._batch_size()
            while len(positions) < size and self.sent < len(order) and not proof.beyond(self.sent):
                position = self.sent
                kept = proof.kept(position)
                self.sent += 1
                if kept is None:
                    positions.append(position)
                    continue
                following = self._following(*positions, position + 1)
                if proof.fold(
                    *kept, position=position, following=following, sent=self.sent, flying=self._flying()
                ):
                    self.workers.publish(proof.packed_best)
            if not positions:
                return
            guesses = tuple(int(order[position]) for position in positions)
            batch = Batch(tuple(positions), guesses, proof.packed_best)
            self.out[batch.number] = batch
            self.workers.submit(batch)

    def _flying(self) -> int:
        return sum(len(batch.positions) for batch in self.out.values())

    def _take(self, batch: Batch, outcome: list[OpeningOutcome] | BaseException) -> None:
        """Fold a batch's openings, then drop the batches out that can no longer matter."""
        if self.out.get(batch.number) is not batch:
            return  # dropped already
        del self.out[batch.number]
        if isinstance(outcome, BaseException):
            raise outcome
        proof = self.proof
        counters = proof.search.counters
        for index, (position, total, tree, seconds, (nodes, hits)) in enumerate(outcome):
            counters[NODES] += nodes
            counters[HITS] += hits
            self.pace = seconds if self.pace is None else self.pace + PACE_WEIGHT * (seconds - self.pace)
            proof.record(int(proof.order[position]), total, tree)
            following = self._following(*batch.positions[index + 1 :])
            if proof.fold(total, tree, position, following, sent=self.sent, flying=self._flying()):
                self.workers.publish(proof.packed_best)
        for number in [number for number, out in self.out.items() if proof.beyond(out.positions[0])]:
            self.workers.drop(self.out.pop(number))
