"""``python -m bench``: run the workloads, each in its own process, and print the table."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from bench.isolate import run_isolated
from bench.report import seconds, table, times, write_json
from bench.rows import Row
from bench.workloads import select


def parse(argv: list[str]) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description="Time moocow's hot paths against the pure-Python baseline, side by side in one process.",
    )
    parser.add_argument("--only", metavar="TEXT", help="run the workloads whose name contains TEXT")
    parser.add_argument("--quick", action="store_true", help="a fast subset, for smoke tests (seconds)")
    parser.add_argument("--json", metavar="PATH", type=Path, help="also write the rows as JSON to PATH")
    parser.add_argument("--list", action="store_true", help="list the selected workloads and exit")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Exit status 1 when a workload failed or the baseline disagreed with moocow."""
    argv = sys.argv[1:] if argv is None else argv
    options = parse(argv)
    workloads = select(options.only, options.quick)
    if options.list or not workloads:
        print("\n".join(w.name for w in workloads) or f"no workload matches {options.only!r}")
        return 0 if workloads else 2
    rows: list[Row] = []
    for number, workload in enumerate(workloads, 1):
        print(f"[{number}/{len(workloads)}] {workload.name}", file=sys.stderr, flush=True)
        started = time.perf_counter()
        measured = run_isolated(workload.name)
        for row in measured:
            summary = f"moocow {seconds(row.moocow_seconds)}, ratio {times(row.ratio)}"
            print(f"    {row.basis}: {summary}", file=sys.stderr)
        print(f"    ({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)
        rows += measured
    print(table(rows))
    if options.json is not None:
        write_json(options.json, rows, argv)
    return 1 if any(row.agree is False for row in rows) else 0
