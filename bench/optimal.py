"""The exact search (``prove_optimal``): the least total over every secret, and its proof.

Where the plain pure-Python search (``bench.exhaustive``) finishes within a minute it is the
baseline, run alternately with moocow in the same process, and both totals must agree. Beyond
that there is no pure-Python baseline: the row says so and reports moocow's time only.
"""

from __future__ import annotations

from dataclasses import dataclass

from bench.baseline import NotesPlayer
from bench.exhaustive import ExhaustiveSearch
from bench.fresh import fresh_game
from bench.measure import Measured, measure, median
from bench.rows import Row, ratio
from moocow.optimal.prove import OptimalResult, prove_optimal


@dataclass(frozen=True)
class OptimalWorkload:
    """moocow's exact search on one game, against the exhaustive search where that is feasible."""

    game: str
    """The game's spec."""
    baseline: bool = True
    """Whether the pure-Python exhaustive search finishes within a minute here."""
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
        for _ in range(self.repeats):
            searches.append(measure(lambda: prove_optimal(fresh_game(self.game))))
            if self.baseline:
                baselines.append(measure(self._exhaustive))
        result = searches[0].value
        moocow_seconds = median([run.seconds for run in searches])
        baseline_seconds = median([run.seconds for run in baselines]) if baselines else None
        proof = "proven optimal" if result.proven else f"lower bound {result.lower_bound}"
        return [
            Row(
                workload=self.name,
                basis="every secret" if self.baseline else "every secret; no pure-Python baseline, time only",
                moocow_seconds=moocow_seconds,
                baseline_seconds=baseline_seconds,
                ratio=ratio(baseline_seconds, moocow_seconds),
                peak_rss=max(run.peak_rss for run in searches),
                result=f"total {result.total:,}, {proof}; {result.stats.nodes:,} sets searched",
                agree=baselines[0].value == result.total if baselines else None,
                details={
                    "moocow_runs": [run.seconds for run in searches],
                    "baseline_runs": [run.seconds for run in baselines],
                    "baseline_total": baselines[0].value if baselines else None,
                    "baseline_mode": "plain exhaustive search in pure Python, memoised by candidate set",
                    "stats": vars(result.stats),
                },
            )
        ]

    def _exhaustive(self) -> int:
        player = NotesPlayer.for_game(fresh_game(self.game), "minmax")
        return ExhaustiveSearch(player.guesses, player.score).total(tuple(player.secrets))
