"""The exact search (``prove_optimal``): the least total over every secret, and its proof.

Where the plain pure-Python search (``bench.exhaustive``) finishes within a minute it is the
baseline, run alternately with moocow in the same process, and both totals must agree. Beyond
that the baseline is moocow's own search with the compiled kernel switched off (every set
searched by the numpy code, as before the kernel), where that finishes within minutes; else the
row says there is none and reports moocow's time only.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Literal

from bench.baseline import NotesPlayer
from bench.exhaustive import ExhaustiveSearch
from bench.fresh import fresh_game
from bench.measure import Measured, measure, median
from bench.rows import Row, ratio
from moocow.optimal import search
from moocow.optimal.prove import OptimalResult, prove_optimal

Baseline = Literal["exhaustive", "numpy", "none"]

BASES: dict[Baseline, str] = {
    "exhaustive": "every secret",
    "numpy": "every secret; baseline: moocow's numpy search, no compiled kernel",
    "none": "every secret; no baseline finishes in minutes, time only",
}
MODES: dict[Baseline, str | None] = {
    "exhaustive": "plain exhaustive search in pure Python, memoised by candidate set",
    "numpy": "moocow's search with every level in numpy (kernel off)",
    "none": None,
}


WARM_UP = "mastermind:pegs=2,colors=3"
"""A game small enough to search in milliseconds, large enough to reach the kernel."""


@contextmanager
def kernel_off() -> Iterator[None]:
    """Search every set with the numpy code and counting bounds: the search before the compiled kernel."""
    levels = search.KERNEL_LEVEL, search.PROBE_LEVEL
    search.KERNEL_LEVEL = search.PROBE_LEVEL = 1 << 30
    try:
        yield
    finally:
        search.KERNEL_LEVEL, search.PROBE_LEVEL = levels


@dataclass(frozen=True)
class OptimalWorkload:
    """moocow's exact search on one game, against the exhaustive search where that is feasible."""

    game: str
    """The game's spec."""
    baseline: Baseline = "exhaustive"
    """What to measure against: the exhaustive search, moocow's numpy search, or nothing."""
    workers: int = 1
    """Processes each search uses."""
    repeats: int = 3
    """Runs of each side; medians are reported."""
    quick: bool = False
    """Whether ``--quick`` runs it."""

    @property
    def name(self) -> str:
        """The workload's name in the table and for ``--only``."""
        return f"optimal {self.game}"

    def run(self) -> list[Row]:
        """Alternate moocow and baseline runs (fresh game and cache each time); one row."""
        searches: list[Measured[OptimalResult]] = []
        baselines: list[Measured[int]] = []
        prove_optimal(fresh_game(WARM_UP))  # load the compiled kernel (numba's cache) untimed
        for _ in range(self.repeats):
            searches.append(measure(self._moocow))
            if self.baseline == "exhaustive":
                baselines.append(measure(self._exhaustive))
            elif self.baseline == "numpy":
                baselines.append(measure(self._numpy))
        result = searches[0].value
        moocow_seconds = median([run.seconds for run in searches])
        baseline_seconds = median([run.seconds for run in baselines]) if baselines else None
        proof = "proven optimal" if result.proven else f"lower bound {result.lower_bound}"
        return [
            Row(
                workload=self.name,
                basis=BASES[self.baseline],
                moocow_seconds=moocow_seconds,
                baseline_seconds=baseline_seconds,
                ratio=ratio(baseline_seconds, moocow_seconds),
                peak_rss=max(run.peak_rss for run in searches),
                result=(
                    f"total {result.total:,}, {proof}; {result.stats.nodes:,} sets searched, "
                    f"{result.stats.bounded:,} bounded"
                ),
                agree=baselines[0].value == result.total if baselines else None,
                details={
                    "moocow_runs": [run.seconds for run in searches],
                    "baseline_runs": [run.seconds for run in baselines],
                    "baseline_total": baselines[0].value if baselines else None,
                    "baseline_mode": MODES[self.baseline],
                    "workers": self.workers,
                    "stats": vars(result.stats),
                },
            )
        ]

    def _moocow(self) -> OptimalResult:
        return prove_optimal(fresh_game(self.game), workers=self.workers)

    def _numpy(self) -> int:
        with kernel_off():
            result = prove_optimal(fresh_game(self.game), workers=self.workers)
        assert result.total is not None
        return result.total

    def _exhaustive(self) -> int:
        player = NotesPlayer.for_game(fresh_game(self.game), "minmax")
        return ExhaustiveSearch(player.guesses, player.score).total(tuple(player.secrets))
