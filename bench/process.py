"""``moocow optimal GAME`` as a user runs it: the whole process, numba's cache warm.

The baseline is the floor under it, in the same run: an interpreter that imports numpy and
numba and does nothing else, which every compiled search pays before its first guess. The
ratio (below 1) is how close the whole command comes to that floor; CPU time (user + sys,
from ``os.wait4``) is reported next to wall-clock time, which a busy machine inflates.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from bench.measure import median
from bench.rows import Row, ratio

FLOOR = (sys.executable, "-c", "import numpy, numba")
"""What any compiled search costs before it starts."""


def moocow_command() -> tuple[str, ...]:
    """The console script next to this interpreter, or the CLI's ``main`` run by it."""
    script = Path(sys.executable).with_name("moocow")
    if script.exists():
        return (str(script),)
    return (sys.executable, "-c", "import sys; from moocow.cli import main; sys.argv[0] = 'moocow'; main()")


@dataclass(frozen=True)
class Timed:
    """One process: wall-clock and CPU seconds, peak memory, what it printed."""

    seconds: float
    cpu: float
    peak_rss: int
    output: str


def run_process(command: tuple[str, ...]) -> Timed:
    """Run ``command`` to its end, timing it; a failure raises."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited with {process.returncode}")
    return Timed(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, output.strip())


@dataclass(frozen=True)
class ProcessWorkload:
    """``moocow optimal GAME`` in a fresh process, against the interpreter importing numba alone."""

    game: str
    """The game's spec."""
    repeats: int = 5
    """Runs of each side, alternating; medians are reported."""
    quick: bool = False
    """Whether ``--quick`` runs it."""

    @property
    def name(self) -> str:
        """The workload's name in the table and for ``--only``."""
        return f"process moocow optimal {self.game}"

    def run(self) -> list[Row]:
        """Warm numba's cache with one untimed run, then alternate the command and the floor."""
        command = (*moocow_command(), "optimal", self.game)
        run_process(command)
        runs: list[Timed] = []
        floors: list[Timed] = []
        for _ in range(self.repeats):
            runs.append(run_process(command))
            floors.append(run_process(FLOOR))
        seconds = median([run.seconds for run in runs])
        floor = median([run.seconds for run in floors])
        cpu, floor_cpu = median([run.cpu for run in runs]), median([run.cpu for run in floors])
        return [
            Row(
                workload=self.name,
                basis="whole process, numba's cache warm; baseline: python -c 'import numpy, numba'",
                moocow_seconds=seconds,
                baseline_seconds=floor,
                ratio=ratio(floor, seconds),
                peak_rss=max(run.peak_rss for run in runs),
                result=f"{runs[0].output}; CPU {cpu:.2f} s, floor's {floor_cpu:.2f} s",
                agree=None,
                details={
                    "command": list(command),
                    "runs": [run.seconds for run in runs],
                    "cpu": [run.cpu for run in runs],
                    "floor_runs": [run.seconds for run in floors],
                    "floor_cpu": [run.cpu for run in floors],
                },
            )
        ]
