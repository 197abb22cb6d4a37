"""How Wordle's whole-game proof would scale past this machine: a model from measured task times.

What is measured: on one core, the time each opening of the proof takes once the best total is
known (7,920 in normal mode, SALET's), which is what every opening after the first few sees,
since the best is found at once and shared with every worker while it searches (``flight``).
The openings a proof must settle are those whose counting bound is below the best, in the
proof's order; the first ``HEAD`` are timed one by one (the best openings, which take longest),
and after them every ``STRIDE``-th, each standing for the ``STRIDE`` around it. Each is timed on
a fresh memo of its own worker's, as a worker with many others would mostly have.

The model: the openings go to ``W`` workers in order, each to the first worker free, in batches
of about ``BATCH_SECONDS`` (``opening_tasks``), each batch paying one round trip (a Dask task's,
measured here on a cluster of two workers this workload starts, ``scaling.dask_cluster``; a
scheduler serving hundreds of workers would be slower, which the model leaves out); the first worker
also proves the best opening exactly first. The wall time is when the last worker is done. It
stops scaling where the longest single opening, which no worker can share, is as long as an even
share of the rest: past that, more workers wait for it.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass

import numpy as np

from bench.rows import Row
from moocow.engine.errors import MoocowError
from moocow.optimal.bounds import INFEASIBLE
from moocow.optimal.opening_proof import searched
from moocow.optimal.openings import opening_order
from moocow.plugins import load_game

GAME = "wordle:list=official"
HEAD = 60
"""The first openings in the order, each timed (they are the slowest)."""
STRIDE = 40
"""After the head, one opening timed in this many."""
BATCH_SECONDS = 0.5
ROUND_TRIPS = 200
"""No-op tasks timed one after another for a Dask task's round trip."""
WORKERS = (1, 2, 16, 64, 256, 1024)


def round_trip() -> float:
    """A Dask task's round trip, in seconds, on a cluster of this machine's."""
    from distributed import Client

    from bench.scaling import dask_cluster

    with dask_cluster() as address, Client(address) as client:
        for index in range(20):
            client.submit(abs, index, pure=False).result()
        started = time.perf_counter()
        for index in range(ROUND_TRIPS):
            client.submit(abs, index, pure=False).result()
        return (time.perf_counter() - started) / ROUND_TRIPS


def simulate(durations: list[float], workers: int, first: float, trip: float) -> float:
    """The wall time of ``durations`` (in order) on ``workers`` workers, batched, each batch
    costing a round trip of ``trip`` seconds, the first worker starting with the exact proof of
    the best opening (``first`` seconds)."""
    free = [0.0] * workers
    free[0] = first
    heapq.heapify(free)
    index = 0
    while index < len(durations):
        start = heapq.heappop(free)
        batch = 0.0
        while index < len(durations) and (batch == 0.0 or batch + durations[index] <= BATCH_SECONDS):
            batch += durations[index]
            index += 1
        heapq.heappush(free, start + batch + trip)
    return max(free)


@dataclass(frozen=True)
class ScalingModel:
    """Wordle's whole normal game, a sample of its openings timed, the wall time modelled."""

    best: int = 7920
    max_depth: int = 6
    quick: bool = False

    @property
    def name(self) -> str:
        return "optimal wordle scaling model"

    def run(self) -> list[Row]:
        from moocow.optimal.wide import WideSearch

        basis = f"whole game, at most {self.max_depth} guesses; {HEAD} openings timed, then 1 in {STRIDE}"
        try:
            game = load_game(GAME)
        except MoocowError as error:
            return [Row(self.name, basis, None, None, None, None, f"skipped: {error}", None)]
        search = WideSearch(game, self.max_depth)
        depth = self.max_depth - 1
        order, bounds = opening_order(search, depth)
        needed = [int(guess) for guess in order if bounds[guess] < self.best]
        secrets = len(search.rows)
        sampled = list(range(min(HEAD, len(needed)))) + list(range(HEAD, len(needed), STRIDE))
        durations: list[float] = []
        best_guess = game.guess_index("salet")
        started = time.perf_counter()
        searched(WideSearch(game, self.max_depth), best_guess, depth, INFEASIBLE)
        first = time.perf_counter() - started
        for place in sampled:
            fresh = WideSearch(game, self.max_depth) if place < HEAD else search
            started = time.perf_counter()
            searched(fresh, needed[place], depth, self.best - secrets)
            seconds = time.perf_counter() - started
            durations += [seconds] * (1 if place < HEAD else min(STRIDE, len(needed) - place))
        total, longest = sum(durations) + first, max([*durations, first])
        trip = round_trip()
        rows = []
        for workers in WORKERS:
            wall = simulate(durations, workers, first, trip)
            rows.append(
                Row(
                    workload=f"{self.name} {workers} workers",
                    basis=basis,
                    moocow_seconds=wall,
                    baseline_seconds=None,
                    ratio=None,
                    peak_rss=None,
                    result=(
                        f"{len(needed):,} openings, {total / 60:,.1f} core-minutes in all, the longest "
                        f"{longest:.1f} s, a round trip {trip * 1000:.1f} ms; speed-up "
                        f"{total / wall:,.1f}x on {workers:,}"
                    ),
                    agree=None,
                    details={
                        "sampled": len(sampled),
                        "percentiles": np.percentile(durations, [50, 90, 99, 100]).tolist(),
                        "stops_scaling_at": round(total / longest),
                    },
                )
            )
        return rows
