"""A warm cache's first evaluation: the compiled engine's kernels loaded as used, against all of
them loaded up front.

With numba's cache warm, a process loads each kernel at its first call (``engine.warmup``);
until issue 33 every process loaded them all at the engine's first use, whatever it then called.
Both sides are the same ``moocow`` command
in a fresh process, alternated: moocow as it is, and the baseline loading every kernel first
(``warmup.warm_up``, as before). The ratio (above 1) is how much faster a warm process starts
its work for loading only what it uses. ``python -m bench --only "warm cache"``.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass

from bench.measure import median
from bench.process import Timed, alternate, moocow_command, run_process
from bench.rows import Row, ratio

EAGER = (
    "import sys; from moocow.engine import warmup; warmup.warm_up(); "
    "from moocow.cli import main; sys.argv[0] = 'moocow'; main()"
)
"""The command line of the baseline: every kernel loaded, then the CLI as ``moocow`` runs it."""


@dataclass(frozen=True)
class WarmStartWorkload:
    """``moocow ARGUMENTS`` with numba's cache warm, kernels loaded as used against all up front."""

    arguments: tuple[str, ...]
    """The command line after ``moocow``."""
    engine: str | None = None
    """``MOOCOW_ENGINE`` for both sides (``compiled``: a small game on the compiled engine too)."""
    repeats: int = 5
    """Runs of each side, alternating; medians are reported."""
    quick: bool = False
    """Whether ``--quick`` runs it."""

    @property
    def name(self) -> str:
        """The workload's name in the table and for ``--only``."""
        forced = f" (MOOCOW_ENGINE={self.engine})" if self.engine else ""
        return f"warm cache moocow {' '.join(self.arguments)}{forced}"

    def run(self) -> list[Row]:
        """Warm the caches with one untimed run of each side, then alternate them."""
        lazy = (*moocow_command(), *self.arguments)
        eager = (sys.executable, "-c", EAGER, *self.arguments)
        saved = os.environ.get("MOOCOW_ENGINE")
        if self.engine:
            os.environ["MOOCOW_ENGINE"] = self.engine
        try:
            run_process(eager)
            run_process(lazy)
            lazies, eagers = alternate(lazy, eager, self.repeats)
        finally:
            if saved is None:
                os.environ.pop("MOOCOW_ENGINE", None)
            else:
                os.environ["MOOCOW_ENGINE"] = saved
        seconds = median([run.seconds for run in lazies])
        eager_seconds = median([run.seconds for run in eagers])
        cpu, eager_cpu = median([run.cpu for run in lazies]), median([run.cpu for run in eagers])
        same = _results(lazies[0]) == _results(eagers[0])
        first_line = lazies[0].output.splitlines()[0] if lazies[0].output else ""
        return [
            Row(
                workload=self.name,
                basis="whole process, numba's cache warm; baseline: all kernels loaded first (warm_up)",
                moocow_seconds=seconds,
                baseline_seconds=eager_seconds,
                ratio=ratio(eager_seconds, seconds),
                peak_rss=max(run.peak_rss for run in lazies),
                result=f"{first_line[:60]}; CPU {cpu:.2f} s, up front {eager_cpu:.2f} s",
                agree=same,
                details={
                    "command": list(lazy),
                    "runs": [run.seconds for run in lazies],
                    "cpu": [run.cpu for run in lazies],
                    "eager_runs": [run.seconds for run in eagers],
                    "eager_cpu": [run.cpu for run in eagers],
                },
            )
        ]


def _results(run: Timed) -> str:
    """What a run printed, its time taken out."""
    return re.sub(r", [0-9.]+ s$", "", run.output, flags=re.MULTILINE)
