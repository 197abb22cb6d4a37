"""A command as a user runs it: the whole process (start-up, imports, work, exit), caches warm.

The baseline is the floor under it, in the same run: an interpreter that imports the libraries
the command cannot do without (typer and rich for help, numpy for an evaluation, numba for the
exact search) and does nothing else. The ratio (below 1) is how close the whole command comes
to that floor; CPU time (user + sys, from ``os.wait4``) is reported next to wall-clock time,
which a busy machine inflates.
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


Command = tuple[str, ...]


def alternate(command: Command, other: Command, repeats: int) -> tuple[list[Timed], list[Timed]]:
    """``repeats`` runs of each command, alternating, so that both meet the same load."""
    runs: list[Timed] = []
    others: list[Timed] = []
    for _ in range(repeats):
        runs.append(run_process(command))
        others.append(run_process(other))
    return runs, others


@dataclass(frozen=True)
class ProcessWorkload:
    """``moocow ARGUMENTS`` in a fresh process, against the interpreter importing its libraries alone."""

    arguments: tuple[str, ...]
    """The command line after ``moocow``."""
    libraries: tuple[str, ...]
    """What the floor imports."""
    repeats: int = 5
    """Runs of each side, alternating; medians are reported."""
    quick: bool = False
    """Whether ``--quick`` runs it."""

    @property
    def name(self) -> str:
        """The workload's name in the table and for ``--only``."""
        return f"process moocow {' '.join(self.arguments)}"

    def run(self) -> list[Row]:
        """Warm the caches (numba's, the disk's) with one untimed run, then alternate command and floor."""
        command = (*moocow_command(), *self.arguments)
        floor_command = (sys.executable, "-c", "import " + ", ".join(self.libraries))
        run_process(command)
        runs, floors = alternate(command, floor_command, self.repeats)
        seconds = median([run.seconds for run in runs])
        floor = median([run.seconds for run in floors])
        cpu, floor_cpu = median([run.cpu for run in runs]), median([run.cpu for run in floors])
        first_line = runs[0].output.splitlines()[0] if runs[0].output else ""
        return [
            Row(
                workload=self.name,
                basis=f"whole process, caches warm; baseline: python -c 'import {', '.join(self.libraries)}'",
                moocow_seconds=seconds,
                baseline_seconds=floor,
                ratio=ratio(floor, seconds),
                peak_rss=max(run.peak_rss for run in runs),
                result=f"{first_line[:70]}; CPU {cpu:.2f} s, floor's {floor_cpu:.2f} s",
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
