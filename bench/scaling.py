"""Wordle's proof over every opening on more than one core: one process, forked workers, a Dask cluster.

The game is a sub-game of the original one, large enough to take half a minute on one core:
the answers ``official_lists()[0][::2][:1000]`` (every other answer, in the list's order) and
the further guesses ``official_lists()[1][::3][:4000]`` (every third), at most six guesses.
Each side proves it in this process (``prove_optimal``), alternated: ``--workers 1`` (the
baseline), ``--workers 2``, and a Dask cluster of two single-thread workers that this workload
starts (``dask scheduler``, ``dask worker ADDRESS --nworkers 2 --nthreads 1``, from this
interpreter's environment) and stops. Before the timed runs every side has proved another small
game, so its compiled code is loaded and no side has the game's memo; the cluster is started
afresh for each Dask run, so its workers' memos (kept from task to task, and from proof to proof
of the same game) start empty too. The ratio is one process's time over each side's; all three
must prove the same total and tree.
"""

from __future__ import annotations

import contextlib
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bench.measure import median
from bench.rows import Row, ratio
from moocow.engine.errors import MoocowError
from moocow.optimal.prove import OptimalResult, prove_optimal
from moocow.plugins import load_game
from moocow.trees.files import tree_to_dict

MAX_DEPTH = 6
CLUSTER_SECONDS = 60.0
"""How long a cluster may take to start before the workload gives up on it."""


def sub_game(folder: Path, answers: int = 1000, guesses: int = 4000) -> str:
    """The spec of the sub-game, its word files written to ``folder``."""
    from moocow.wordlists.official import official_lists

    hidden, more = official_lists()
    (folder / "answers.txt").write_text("\n".join(list(hidden)[::2][:answers]) + "\n")
    (folder / "guesses.txt").write_text("\n".join(list(more)[::3][:guesses]) + "\n")
    return f"wordle:answers={folder / 'answers.txt'},guesses={folder / 'guesses.txt'}"


@contextlib.contextmanager
def dask_cluster(workers: int = 2) -> Iterator[str]:
    """A scheduler and ``workers`` single-thread worker processes on this machine, stopped on leaving."""
    binary = Path(sys.executable).with_name("dask")
    with tempfile.TemporaryDirectory() as scratch:
        address_file = Path(scratch) / "scheduler.json"
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        scheduler = subprocess.Popen(
            [str(binary), "scheduler", "--host", "127.0.0.1", "--port", "0", "--dashboard-address", ":0",
             "--scheduler-file", str(address_file)],
            **quiet,
        )  # fmt: skip
        worker = None
        try:
            address = _address(address_file, scheduler)
            worker = subprocess.Popen(
                [str(binary), "worker", address, "--nworkers", str(workers), "--nthreads", "1",
                 "--no-dashboard", "--local-directory", scratch],
                **quiet,
            )  # fmt: skip
            _wait_for_workers(address, workers)
            yield address
        finally:
            for process in (worker, scheduler):
                if process is not None:
                    process.terminate()
            for process in (worker, scheduler):
                if process is not None:
                    try:
                        process.wait(timeout=30)
                    except subprocess.TimeoutExpired:
                        process.kill()


def _address(address_file: Path, scheduler: subprocess.Popen[bytes]) -> str:
    import json

    deadline = time.monotonic() + CLUSTER_SECONDS
    while time.monotonic() < deadline:
        if scheduler.poll() is not None:
            raise RuntimeError("the Dask scheduler exited at start")
        with contextlib.suppress(OSError, ValueError):
            return str(json.loads(address_file.read_text())["address"])
        time.sleep(0.1)
    raise RuntimeError("the Dask scheduler did not start")


def _wait_for_workers(address: str, workers: int) -> None:
    from distributed import Client

    with Client(address, timeout=CLUSTER_SECONDS) as client:
        client.wait_for_workers(workers, timeout=CLUSTER_SECONDS)


@dataclass(frozen=True)
class ScalingWorkload:
    """The sub-game's proof over every opening, on one core, two forked workers and two Dask workers."""

    answers: int = 1000
    guesses: int = 4000
    repeats: int = 2
    dask: bool = True
    """Whether to start a cluster and time it too (the quick suite does not)."""
    quick: bool = False

    @property
    def name(self) -> str:
        return f"optimal wordle sub-game scaling {self.answers}x{self.guesses}"

    def run(self) -> list[Row]:
        basis = (
            f"proof over every opening of {self.answers:,} answers and {self.guesses:,} more guesses, "
            f"at most {MAX_DEPTH} guesses; baseline: --workers 1"
        )
        with tempfile.TemporaryDirectory() as scratch:
            try:
                spec = sub_game(Path(scratch), self.answers, self.guesses)
                (Path(scratch) / "warm").mkdir()
                warm = sub_game(Path(scratch) / "warm", 120, 300)
            except MoocowError as error:
                return [Row(self.name, basis, None, None, None, None, f"skipped: {error}", None)]
            return self._measure(spec, warm, basis)

    def _measure(self, spec: str, warm: str, basis: str) -> list[Row]:
        times: dict[str, list[float]] = {"one": [], "forked": [], **({"dask": []} if self.dask else {})}
        results: dict[str, OptimalResult] = {}
        _prove(warm, workers=1)
        _prove(warm, workers=2)
        for _ in range(self.repeats):
            for side in times:
                seconds, result = self._side(side, spec, warm)
                times[side].append(seconds)
                results[side] = result
        game = load_game(spec)
        trees = {side: tree_to_dict(game, r.root, "optimal") for side, r in results.items() if r.root}
        same = len(trees) == len(times) and all(tree == trees["one"] for tree in trees.values())
        totals = {result.total for result in results.values()}
        one = median(times["one"])
        rows = []
        for side, label in (("forked", "--workers 2"), ("dask", "Dask, 2 workers of 1 thread")):
            if side not in times:
                continue
            mine = median(times[side])
            rows.append(
                Row(
                    workload=f"{self.name} {side}",
                    basis=f"{basis}; moocow: {label}",
                    moocow_seconds=mine,
                    baseline_seconds=one,
                    ratio=ratio(one, mine),
                    peak_rss=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
                    result=f"total {results[side].total:,}, proven {results[side].proven}; same tree: {same}",
                    agree=same and len(totals) == 1,
                    details={"seconds": times, "load_average": os.getloadavg()},
                )
            )
        return rows

    def _side(self, side: str, spec: str, warm: str) -> tuple[float, OptimalResult]:
        if side == "dask":
            with dask_cluster() as address:
                _prove(warm, scheduler=address)  # the workers' code loaded; the game's memo not
                return _timed(spec, scheduler=address)
        return _timed(spec, workers=1 if side == "one" else 2)


def _prove(spec: str, **how: object) -> OptimalResult:
    return prove_optimal(load_game(spec), max_depth=MAX_DEPTH, **how)  # type: ignore[arg-type]


def _timed(spec: str, **how: object) -> tuple[float, OptimalResult]:
    started = time.perf_counter()
    result = _prove(spec, **how)
    return time.perf_counter() - started, result
