"""Whole-process time of a command, against the interpreter starting and loading the same libraries.

What a person waits for is the whole process: interpreter, imports, the work, exit. moocow's
command (the ``moocow`` console script beside this interpreter) alternates with a baseline process
that imports the third-party libraries the command cannot do without and does nothing else (typer
and rich for help; numpy too for an evaluation), so the ratio (below 1) is the share of the wait
that is the libraries', and what is left is moocow's own start-up and work.
"""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from bench.measure import median
from bench.rows import Row, ratio


@dataclass(frozen=True)
class StartupWorkload:
    """One command's whole process, alternated with its libraries' bare import."""

    label: str
    """Short name, for the table."""
    arguments: tuple[str, ...]
    """The command line after ``moocow``."""
    libraries: tuple[str, ...]
    """What the baseline imports."""
    repeats: int = 7
    """Runs of each side, alternated; medians are reported."""
    quick: bool = False
    """Whether ``--quick`` runs it."""

    @property
    def name(self) -> str:
        """The workload's name in the table and for ``--only``."""
        return f"startup {self.label}"

    def run(self) -> list[Row]:
        """Alternate the command and the baseline; one row."""
        command = [str(Path(sys.executable).with_name("moocow")), *self.arguments]
        baseline = [sys.executable, "-c", "import " + ", ".join(self.libraries)]
        moocow_runs, baseline_runs, output = [], [], ""
        for _ in range(self.repeats):
            seconds, output = _timed(command)
            moocow_runs.append(seconds)
            baseline_runs.append(_timed(baseline)[0])
        mine, floor = median(moocow_runs), median(baseline_runs)
        first_line = output.strip().splitlines()[0] if output.strip() else ""
        return [
            Row(
                workload=self.name,
                basis=f"whole process, median of {self.repeats}; baseline: import {','.join(self.libraries)}",
                moocow_seconds=mine,
                baseline_seconds=floor,
                ratio=ratio(floor, mine),
                peak_rss=None,
                result=f"moocow {' '.join(self.arguments)}: {first_line[:60]}",
                agree=None,
                details={"command": command, "moocow_runs": moocow_runs, "baseline_runs": baseline_runs},
            )
        ]


def _timed(command: list[str]) -> tuple[float, str]:
    """Wall-clock seconds of a whole process, and what it printed; a failure is an error, not a time."""
    started = time.perf_counter()
    completed = subprocess.run(command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if completed.returncode != 0:
        failure = f"{' '.join(command)} exited with {completed.returncode}: {completed.stderr[-300:]}"
        raise RuntimeError(failure)
    return seconds, completed.stdout
