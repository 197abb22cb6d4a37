"""``python -m bench.ab OTHER_CHECKOUT``: moocow's evaluations here against another checkout, alternately.

For a performance change: copy the checkout from before the change (or ``git worktree add``)
and compare. Each run is a fresh process (``moocow evaluate`` as a user runs it) importing
moocow from one checkout or the other, the two alternating so that both meet the same load;
medians of the repeats are reported, with each side's peak RSS and a check that the results
are the same.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from bench.evaluations import EvaluationWorkload
from bench.isolate import ROOT
from bench.measure import median
from bench.report import megabytes, seconds
from bench.workloads import WORKLOADS

CHILD = """
import json, sys
from moocow.engine.evaluation import evaluate
from moocow.plugins.strategy_registry import load_strategy
from moocow.plugins import load_game
result = evaluate(load_game(sys.argv[1]), load_strategy(sys.argv[2]))
print(json.dumps({"seconds": result.seconds, "total": result.total, "histogram": result.histogram}))
"""
"""What a child runs: one evaluation, reported as JSON; its own ``seconds`` include the table."""


@dataclass(frozen=True)
class Run:
    """One evaluation in a fresh process."""

    seconds: float
    peak_rss: int
    result: tuple[int, tuple[int, ...]]


def evaluate_in(checkout: Path, game: str, strategy: str) -> Run:
    """Evaluate in a child process that imports moocow from ``checkout``."""
    environment = {**os.environ, "PYTHONPATH": str(checkout)}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, game, strategy], cwd=checkout, env=environment, stdout=subprocess.PIPE
    )
    assert child.stdout is not None
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise RuntimeError(f"evaluating {game} in {checkout} failed with status {child.returncode}")
    data = json.loads(output)
    return Run(data["seconds"], usage.ru_maxrss * 1024, (data["total"], tuple(data["histogram"])))


def compare(workload: EvaluationWorkload, before: Path, repeats: int) -> tuple[str, ...]:
    """One table line: alternate runs in ``before`` and in this checkout."""
    runs: dict[Path, list[Run]] = {before.resolve(): [], ROOT: []}
    for _ in range(repeats):
        for checkout, done in runs.items():
            done.append(evaluate_in(checkout, workload.game, workload.strategy))
    old_runs, new_runs = runs.values()
    old, new = median([r.seconds for r in old_runs]), median([r.seconds for r in new_runs])
    results = {r.result for r in old_runs + new_runs}
    return (
        workload.name,
        seconds(old),
        seconds(new),
        f"{old / new:.2f}x",
        megabytes(max(r.peak_rss for r in old_runs)),
        megabytes(max(r.peak_rss for r in new_runs)),
        "yes" if len(results) == 1 else "NO",
    )


def main(argv: list[str] | None = None) -> int:
    """Print a Markdown table: before, after, speed-up, peaks, same result."""
    parser = argparse.ArgumentParser(prog="python -m bench.ab", description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path, help="the checkout to compare this one against")
    parser.add_argument("--only", metavar="TEXT", help="evaluation workloads whose name contains TEXT")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each side (default 3)")
    options = parser.parse_args(argv)
    chosen = [w for w in WORKLOADS if isinstance(w, EvaluationWorkload) and (options.only or "") in w.name]
    print("| workload | before | after | speed-up | peak before | peak after | same result |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for workload in chosen:
        print("| " + " | ".join(compare(workload, options.before, options.repeats)) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
