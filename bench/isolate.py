"""Running one workload in a child process and reading back its rows and its peak memory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from bench.rows import Row

ROOT = Path(__file__).resolve().parent.parent
"""The checkout, so the child imports this ``bench`` whatever the current directory."""


def run_isolated(name: str) -> list[Row]:
    """The workload's rows, each with the child's whole-process peak RSS in ``details``.

    The peak is read with ``os.wait4``, which reports the rusage of that one child (unlike
    ``RUSAGE_CHILDREN``, the largest of all children so far). A failed child gives one row
    saying so; its traceback is on stderr, which the child shares with this process.
    """
    paths = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    with tempfile.TemporaryDirectory(prefix="moocow-bench-") as folder:
        output = Path(folder) / "rows.json"
        child = subprocess.Popen([sys.executable, "-m", "bench.worker", name, str(output)], env=environment)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0 or not output.exists():
            return [failed(name, f"worker exited with status {child.returncode}; its traceback is above")]
        rows = [Row.from_dict(data) for data in json.loads(output.read_text())]
    process_peak = usage.ru_maxrss * 1024  # kilobytes on Linux
    return [replace(row, details={**row.details, "process_peak_rss": process_peak}) for row in rows]


def failed(name: str, why: str) -> Row:
    """The row of a workload that could not be measured."""
    return Row(name, "failed", None, None, None, None, why, agree=False)
