"""What the sandbox costs: rounds per second of one player sandboxed, against the same player unconfined.

The same seeded tournament of the first-fit player (``players/first_fit.py``, as a module and as
a program) is run alternately in the strongest sandbox the machine allows and with
``--no-sandbox``, in one process. The "baseline" column is the unconfined run, so the ratio is
unconfined time / sandboxed time: below 1, the sandbox's price. Both must play the same guesses.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from bench.measure import Measured, measure, median
from bench.rounds import PLAYER, SEED
from bench.rows import Row, ratio
from moocow.runner import TournamentResult, build_tournament, run_tournament
from moocow.sandbox.sandbox import SandboxPolicy


@dataclass(frozen=True)
class SandboxWorkload:
    """One player, sandboxed and not: rounds per second of each, and the ratio."""

    kind: str
    """``module`` or ``program``."""
    game: str = "mastermind"
    """The game's spec."""
    rounds: int = 200
    """Rounds in each tournament."""
    repeats: int = 3
    """Runs of each side, alternated; medians are reported."""
    quick: bool = False
    """Whether ``--quick`` runs it."""

    @property
    def name(self) -> str:
        """The workload's name in the table and for ``--only``."""
        return f"sandbox {self.kind} player {self.game}"

    @property
    def player(self) -> str:
        """The player as a tournament names it."""
        return str(PLAYER) if self.kind == "module" else f"{sys.executable} {PLAYER}"

    def run(self) -> list[Row]:
        """Alternate sandboxed and unconfined tournaments; one row."""
        sandboxed: list[Measured[TournamentResult]] = []
        unconfined: list[Measured[TournamentResult]] = []
        for _ in range(self.repeats):
            sandboxed.append(measure(self._tournament, SandboxPolicy()))
            unconfined.append(measure(self._tournament, SandboxPolicy(unconfined=True)))
        inside = median([run.seconds for run in sandboxed])
        outside = median([run.seconds for run in unconfined])
        same = [r.without_timing() for r in sandboxed[0].value.results] == [
            r.without_timing() for r in unconfined[0].value.results
        ]
        confinement = SandboxPolicy().describe()
        return [
            Row(
                workload=self.name,
                basis=f"{self.rounds} rounds, seed {SEED}",
                moocow_seconds=inside,
                baseline_seconds=outside,
                ratio=ratio(outside, inside),
                peak_rss=max(run.peak_rss for run in sandboxed),
                result=(
                    f"{self.rounds / inside:,.0f} rounds/s sandboxed ({confinement['confinement']}), "
                    f"{self.rounds / outside:,.0f} unconfined; same results: {same}"
                ),
                agree=same,
                details={
                    "player": self.player,
                    "sandbox": confinement,
                    "sandboxed_runs": [run.seconds for run in sandboxed],
                    "unconfined_runs": [run.seconds for run in unconfined],
                    "rounds_per_second": self.rounds / inside,
                    "unconfined_rounds_per_second": self.rounds / outside,
                },
            )
        ]

    def _tournament(self, sandbox: SandboxPolicy) -> TournamentResult:
        settings = {"players": [self.player], "games": [self.game], "rounds": self.rounds, "seed": SEED}
        return run_tournament(build_tournament({**settings, "sandbox": sandbox}))
