"""The exact search on a Dask cluster: a real ``distributed.LocalCluster``, the same optimum and tree;
and Wordle's proof over every opening with its openings as tasks (``optimal.opening_tasks``)."""

from __future__ import annotations

import itertools
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from moocow.cluster import connection as dask_cluster
from moocow.engine.errors import MoocowError
from moocow.optimal import opening_tasks, search
from moocow.optimal.cluster import DaskGuessPool
from moocow.optimal.prove import prove_optimal
from moocow.plugins.bottles import Bottles
from moocow.plugins.mastermind import Mastermind
from moocow.trees.files import tree_stats, tree_to_dict
from tests.test_optimal_wide import exhaustive, needs_lists, small_game

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of two worker processes (with nannies, which restart a killed worker)."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as local:
        yield local.scheduler_address


@pytest.fixture(autouse=True)
def pool_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cluster from the first second guess (Mastermind is over before the usual second)."""
    monkeypatch.setattr(search, "PARALLEL_SECONDS", 0.0)


@pytest.mark.parametrize("shared_level", [1, 2])
def test_the_cluster_proves_the_same_optimum_with_the_same_tree(scheduler: str, shared_level: int) -> None:
    """Mastermind's 5625 on the cluster, with the very tree one process finds, whether the
    cluster gets the second guesses or the third."""
    game = Mastermind()
    there = prove_optimal(game, scheduler=scheduler, shared_level=shared_level)
    here = prove_optimal(game, shared_level=shared_level)
    assert there.proven and there.total == 5625 and there.root is not None and here.root is not None
    assert tree_to_dict(game, there.root, "optimal") == tree_to_dict(game, here.root, "optimal")


def test_a_worker_killed_mid_search_costs_nothing(scheduler: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both workers killed while guesses are out: Dask replays them, and the proof stands."""
    client = distributed.Client(scheduler, set_as_default=False)
    pids = client.run(os.getpid)
    submitted, submit = [0], DaskGuessPool.submit

    def killing_on_the_tenth(pool: DaskGuessPool, *arguments: Any) -> None:
        submit(pool, *arguments)
        submitted[0] += 1
        if submitted[0] == 10:
            for pid in pids.values():
                os.kill(pid, signal.SIGKILL)

    monkeypatch.setattr(DaskGuessPool, "submit", killing_on_the_tenth)
    try:
        result = prove_optimal(Bottles(n=6), scheduler=scheduler)
        client.wait_for_workers(2, timeout=60)
        after = client.run(os.getpid)
    finally:
        client.close()
    assert submitted[0] > 10 and not set(pids.values()) & set(after.values())
    assert result.proven and result.total == 3924
    assert result.root is not None and tree_stats(result.root).total == 3924


def test_the_cluster_keeps_the_proof_in_the_store(scheduler: str, tmp_path: Path) -> None:
    """The searching process writes what the workers settle: a second run searches nothing."""
    store = tmp_path / "proof.db"
    first = prove_optimal(Mastermind(), scheduler=scheduler, store=store)
    again = prove_optimal(Mastermind(), store=store)
    assert first.total == again.total == 5625 and again.proven and again.stats.nodes == 0


@pytest.mark.parametrize("game", [Mastermind(), Bottles(n=3)], ids=["mastermind", "three bottles"])
def test_a_scheduler_that_is_not_there_is_one_line(
    game: Mastermind | Bottles, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asked before the search: a proof over before it would use the cluster once took any address."""
    monkeypatch.setattr(dask_cluster, "CONNECT_SECONDS", 1.0)
    with pytest.raises(MoocowError, match=r"cannot reach the Dask scheduler at 'tcp://127\.0\.0\.1:9'"):
        prove_optimal(game, scheduler="tcp://127.0.0.1:9")
    with pytest.raises(MoocowError, match=r"cannot reach the Dask scheduler at 'garbage'"):
        prove_optimal(game, scheduler="garbage")


@needs_lists
@pytest.mark.parametrize(("hard", "seed", "max_depth"), [(False, 1, None), (True, 2, 4), (False, 3, 5)])
def test_wordles_openings_as_tasks_prove_what_one_process_proves(
    scheduler: str, hard: bool, seed: int, max_depth: int | None, tmp_path: Path
) -> None:
    """The same total, proven bound and tree as one process, the exhaustive search's total; the
    store holds the whole proof."""
    game = small_game(hard, seed, tmp_path)
    here = prove_optimal(game, max_depth=max_depth, workers=1)
    there = prove_optimal(game, max_depth=max_depth, scheduler=scheduler, store=tmp_path / "proof.db")
    assert there.proven and here.proven
    assert there.total == here.total == exhaustive(game, max_depth)
    assert there.lower_bound == here.lower_bound
    assert there.root is not None and tree_stats(there.root).total == there.total
    assert here.root is not None
    assert tree_to_dict(game, there.root, "optimal") == tree_to_dict(game, here.root, "optimal")
    again = prove_optimal(game, max_depth=max_depth, store=tmp_path / "proof.db")
    assert again.proven and again.total == here.total and again.stats.nodes == 0


@needs_lists
def test_a_stop_cancels_the_openings_out(
    scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stop while openings are out (after the first batch is back) ends the proof with what
    was settled, its bound still true, and nothing left running on the workers."""
    game = small_game(False, 2, tmp_path)
    optimum = prove_optimal(game, max_depth=4).total
    calls = itertools.count()
    real_next = opening_tasks.DaskWorkers.next

    def stopped_on_the_second(workers: opening_tasks.DaskWorkers) -> Any:
        _stop_after(calls, 1)
        return real_next(workers)

    monkeypatch.setattr(opening_tasks.DaskWorkers, "next", stopped_on_the_second)
    stopped = prove_optimal(game, max_depth=4, scheduler=scheduler)
    assert stopped.interrupted and optimum is not None
    assert (stopped.lower_bound or 0) <= optimum <= (stopped.total or optimum)


def _stop_after(calls: itertools.count[int], times: int) -> None:
    if next(calls) >= times:
        raise KeyboardInterrupt


@needs_lists
def test_an_opening_fixed_is_not_shared_out(scheduler: str, tmp_path: Path) -> None:
    game = small_game(False, 1, tmp_path)
    with pytest.raises(MoocowError, match="without --first"):
        prove_optimal(game, scheduler=scheduler, first=game.format_code(game.guesses[0]))


def test_the_manual_says_wordle_runs_on_the_cluster() -> None:
    text = " ".join((Path(__file__).resolve().parents[1] / "docs" / "optimal.md").read_text().split())
    assert "`--scheduler` is refused" not in text
    assert "each opening of Wordle a Dask task" in text
