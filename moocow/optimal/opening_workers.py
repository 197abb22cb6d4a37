"""Every core for a proof over the openings: forked workers settle batches of them (``flight``).

Each worker is forked once the game's search is built, so it inherits the table and keeps its own
memo from one batch to the next. The best found so far is one number in memory the workers share
(``incumbent.SharedIncumbent``): this process writes it as outcomes come back, and a worker's
search under way reads it every tenth of a second and goes on with the lower budget it gives.
"""

from __future__ import annotations

from moocow.optimal.flight import Batch, Flight, OpeningOutcome, Workers, settle_batch
from moocow.optimal.forked import Crew
from moocow.optimal.incumbent import SharedIncumbent
from moocow.optimal.opening_proof import Proof

BATCH_SECONDS = 0.05
"""How long a batch should take on a forked worker: a pipe's round trip is a tenth of a
millisecond, so only the cheapest openings are batched."""


class ForkedWorkers(Workers):
    """``count`` processes forked from this one, settling batches of ``proof``'s openings."""

    batch_seconds = BATCH_SECONDS

    def __init__(self, proof: Proof, count: int) -> None:
        self.best = SharedIncumbent()
        self.best.lower(proof.packed_best)
        search, depth, best = proof.search, proof.depth, self.best

        def work(batch: Batch) -> list[OpeningOutcome]:
            return settle_batch(search, depth, batch, best.read)

        self.crew = Crew(count, work)
        self.count = count
        self.dropped: set[int] = set()
        """The batches dropped whose workers are not back yet (they are not free)."""

    def slots(self) -> int:
        return self.count - len(self.dropped)

    def submit(self, batch: Batch) -> None:
        self.crew.submit(batch, batch)

    def next(self) -> tuple[Batch, list[OpeningOutcome] | BaseException]:
        batch, outcome = self.crew.next()
        assert isinstance(batch, Batch)
        self.dropped.discard(batch.number)
        assert isinstance(outcome, (list, BaseException))
        return batch, outcome

    def publish(self, packed: int) -> None:
        self.best.lower(packed)

    def drop(self, batch: Batch) -> None:
        """Its budget is now below its bound, so its worker ends it within a tenth of a second."""
        self.dropped.add(batch.number)

    def close(self) -> None:
        self.crew.close()


def on_forked_workers(proof: Proof, count: int) -> int:
    """Settle ``proof``'s openings on ``count`` forked workers; the position of the first left untried."""
    return Flight(proof, ForkedWorkers(proof, count)).run()
