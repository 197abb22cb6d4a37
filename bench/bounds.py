"""What the exact search's bounds pay, on the parts the seven-bottle proof is made of.

After the first guess of seven bottles the secrets fall into parts by how many bottles stand
right (1,854, 1,855, 924, 315, 70, 21, 1). Each row searches one part alone, as the proof does,
with the parts of every guess bounded one level deeper than counting before any is searched
(``kernel.branch.set_bound``: each part's bound is its best guess's) against the same search
with counting bounds alone (``Search.parts_bounded_deeper`` off), alternated in one process.

A part is either solved exactly or, with a budget, refuted: proving that it needs at least the
budget is most of a proof's work, and where exact search of the part takes too long (the
924-secret part takes about half an hour) a budget below its optimum measures just that.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from bench.fresh import fresh_game
from bench.measure import Measured, measure, median
from bench.rows import Row, ratio
from moocow.engine.game import Game
from moocow.optimal import search
from moocow.optimal.bounds import INFEASIBLE
from moocow.optimal.search import Search
from moocow.optimal.stats import SearchStats
from moocow.plugins import load_game

GAME = "bottles:n=7"
FIRST_GUESS = 0
"""The first guess whose parts are searched (every first guess is alike under relabelling)."""


@contextmanager
def counting_bounds_only() -> Iterator[None]:
    """Parts bounded by counting alone at the Python levels (``search.PROBE_LEVEL``), as before
    ``set_bound``; the search's kernel is told so itself (``Search.parts_bounded_deeper``)."""
    probe_level = search.PROBE_LEVEL
    search.PROBE_LEVEL = 1 << 30
    try:
        yield
    finally:
        search.PROBE_LEVEL = probe_level


PartOutcome = tuple[int, SearchStats]
"""The part's value (or the bound that refutes the budget) and the search's counters."""


@dataclass(frozen=True)
class BoundsWorkload:
    """One part of seven bottles after the first guess, searched with and without the deeper bounds."""

    right: int
    """The part: the secrets with this many bottles right after the first guess."""
    budget: int | None = None
    """Refute this total instead of solving the part exactly (``None``: solve it)."""
    repeats: int = 3
    quick: bool = False

    @property
    def name(self) -> str:
        return f"bounds {GAME} {self.right} right" + ("" if self.budget is None else f" below {self.budget}")

    def run(self) -> list[Row]:
        """Alternate the search with and without the deeper bounds (a fresh search each time); one row."""
        ours: list[Measured[PartOutcome]] = []
        theirs: list[Measured[PartOutcome]] = []
        self._search()  # load the compiled kernel (numba's cache) untimed
        for _ in range(self.repeats):
            ours.append(measure(self._search))
            with counting_bounds_only():
                theirs.append(measure(self._search, False))
        (value, stats), (their_value, their_stats) = ours[0].value, theirs[0].value
        size = len(self._part(load_game(GAME)))
        job = "solved exactly" if self.budget is None else f"refuted below {self.budget:,}"
        outcome = "value" if self.budget is None else "bound"
        moocow_seconds = median([run.seconds for run in ours])
        baseline_seconds = median([run.seconds for run in theirs])
        return [
            Row(
                workload=self.name,
                basis=f"the {size:,} secrets of the part, {job}; baseline: parts bounded by counting alone",
                moocow_seconds=moocow_seconds,
                baseline_seconds=baseline_seconds,
                ratio=ratio(baseline_seconds, moocow_seconds),
                peak_rss=max(run.peak_rss for run in ours),
                result=(
                    f"{outcome} {value:,}; {stats.nodes:,} sets searched, {stats.bounded:,} bounded "
                    f"(counting alone: {outcome} {their_value:,}, {their_stats.nodes:,} sets searched)"
                ),
                agree=value == their_value if self.budget is None else min(value, their_value) >= self.budget,
                details={
                    "moocow_runs": [run.seconds for run in ours],
                    "baseline_runs": [run.seconds for run in theirs],
                    "stats": vars(stats),
                    "baseline_stats": vars(their_stats),
                },
            )
        ]

    def _part(self, game: Game) -> np.ndarray:
        """The secrets with ``right`` bottles where the first guess (also a secret) has them."""
        secrets = np.asarray(game.secrets)
        right = (secrets == secrets[FIRST_GUESS]).sum(axis=1)
        return np.flatnonzero(right == self.right).astype(np.int32)

    def _search(self, deeper: bool = True) -> PartOutcome:
        game = fresh_game(GAME)
        searching = Search(game, parts_bounded_deeper=deeper)
        beta = INFEASIBLE if self.budget is None else self.budget
        value = searching.least_total(self._part(game), None, beta, (FIRST_GUESS,), 1)
        return value, searching.stats
