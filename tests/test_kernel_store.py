"""The compiled search's store and loading: a full store changes no result, the cache is never stale."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from moocow.engine.game import Game
from moocow.engine.kernel import loading, stamp
from moocow.optimal import kernel_search, machine, search
from moocow.optimal.kernel import branch, entries, set_store, store
from moocow.optimal.prove import prove_optimal
from moocow.optimal.readback import TreeReader
from moocow.plugins.bottles import Bottles
from moocow.plugins.mastermind import Mastermind
from moocow.trees.files import tree_stats


@pytest.mark.parametrize("game", [Mastermind(pegs=3, colors=4), Bottles(n=5)], ids=str)
def test_a_store_that_fills_up_changes_no_result(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """A store of 4 slots fills at once, over and over: every call is made again on larger arrays,
    and the optimum, its tree and its proof are those of a roomy store."""
    roomy = prove_optimal(game)
    made: list[set_store.SetStore] = []

    def tiny() -> set_store.SetStore:
        made.append(set_store.SetStore(slots=4, pool=8))
        return made[-1]

    monkeypatch.setattr(kernel_search, "SetStore", tiny)
    cramped = prove_optimal(game)
    assert cramped.proven and cramped.total == roomy.total
    assert cramped.root is not None and tree_stats(cramped.root).total == roomy.total
    assert len(made[0].meta) > 4 and cramped.stats.cached == roomy.stats.cached


@pytest.mark.parametrize("kept", [True, False], ids=["trees-kept", "searched-again"])
@pytest.mark.parametrize("game", [Mastermind(pegs=3, colors=4), Bottles(n=6)], ids=str)
def test_a_store_that_forgets_everything_changes_no_result(
    game: Game, kept: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store with no memory to spare forgets everything before every call. The optimum, its
    tree and its proof stand: the best guesses' part trees are kept as they are found, and a
    tree that was not kept is searched again (each alone suffices here; neither does nothing)."""
    roomy = prove_optimal(game)
    if not kept:
        monkeypatch.setattr(TreeReader, "keep_part_trees", lambda *_: None)
    made: list[set_store.SetStore] = []

    def forgetful() -> set_store.SetStore:
        made.append(set_store.SetStore(budget=0))
        return made[-1]

    monkeypatch.setattr(kernel_search, "SetStore", forgetful)
    cramped = prove_optimal(game)
    assert cramped.proven and cramped.total == roomy.total
    assert cramped.root is not None and tree_stats(cramped.root).total == roomy.total
    assert made[0].cleared > 10


def test_workers_whose_stores_forget_everything_find_the_same_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two forked workers, each store forgetting everything before every call: the trees they
    send back are read right after their guess, or searched again, and the tree is the same."""
    game = Bottles(n=6)
    roomy = prove_optimal(game)
    monkeypatch.setattr(kernel_search, "SetStore", lambda: set_store.SetStore(budget=0))
    monkeypatch.setattr(search, "PARALLEL_SECONDS", 0.0)
    shared = prove_optimal(game, workers=2)
    assert shared.proven and shared.total == roomy.total
    assert shared.root is not None and tree_stats(shared.root).total == roomy.total


def test_a_store_keeps_within_its_budget() -> None:
    """Sets are saved until growing would pass the budget; then the store starts small again."""
    budget = 1 << 20
    kept = set_store.SetStore(slots=4, pool=4, budget=budget)
    largest = 0
    for index in range(20_000):
        candidates = np.array([index, index + 1, index + 2], dtype=np.int32)
        kept.call(lambda parts, c=candidates, i=index: store.save(parts, c, 1, i, i) or 0)
        largest = max(largest, kept.nbytes)
    assert kept.cleared >= 1 and budget // 2 < largest <= budget
    assert entries.LOOKUP(kept.parts(), candidates, 1) == (index, index)


def test_a_cgroup_memory_limit_narrows_the_machines(tmp_path: Path) -> None:
    """A batch job's cgroup limit (v2 or v1) bounds the memory budgeted; "max", a limit above the
    machine's memory and a missing file leave the machine's."""
    machine_memory = machine.usable_memory(())
    limited, unlimited, huge = tmp_path / "limited", tmp_path / "unlimited", tmp_path / "huge"
    limited.write_text("1073741824\n")
    unlimited.write_text("max\n")
    huge.write_text("9223372036854771712\n")
    assert machine.usable_memory((unlimited, limited)) == min(machine_memory, 1 << 30)
    assert machine.usable_memory((unlimited, huge, tmp_path / "absent")) == machine_memory
    assert machine_memory > 0 and 1 <= machine.usable_cores() <= (os.cpu_count() or 1)


def test_stored_sets_are_found_again_and_only_they() -> None:
    """``lookup`` finds what was saved, at its depth only, and nothing else, through regrowth."""
    kept = set_store.SetStore(slots=4, pool=4)
    rng = np.random.default_rng(0)
    sets = [
        np.sort(rng.choice(50, int(rng.integers(3, 9)), replace=False)).astype(np.int32) for _ in range(40)
    ]
    for index, candidates in enumerate(sets):
        kept.call(lambda parts, c=candidates, i=index: store.save(parts, c, 1, 100 + i, i) or 0)
    for index, candidates in enumerate(sets):
        assert entries.LOOKUP(kept.parts(), candidates, 1) == (100 + index, index)
        assert entries.LOOKUP(kept.parts(), candidates, 2) == (-1, -1)
    absent = np.array([50, 51, 52], dtype=np.int32)
    assert entries.LOOKUP(kept.parts(), absent, 1) == (-1, -1)
    assert len(kept) == len(sets)


def test_every_module_of_the_kernel_stamps_its_cache() -> None:
    """A kernel function's cache is checked against all the compiled sources, not its own file alone."""
    from moocow.engine.kernel import greedy

    for kernel in (branch.search, greedy._few_scores):  # the exact search's and the greedy engine's
        locator = kernel._cache._impl.locator
        assert isinstance(locator, loading.LOCATORS)
        assert locator.get_source_stamp() == stamp.package_stamp()
    names = {path.name for path in stamp.compiled_sources()}
    assert {"branch.py", "scores.py", "relabel.py", "store.py", "layout.py", "greedy.py", "bits.py"} <= names
    assert not names & {"entries.py", "ahead.py", "masks.py"}


@pytest.mark.parametrize("ahead_of_time", [True, False], ids=["ahead of time", "numba"])
def test_the_search_compiles_once_for_every_job(
    ahead_of_time: bool, serve_anew: Callable[[bool], None]
) -> None:
    """Every job of ``search`` (a set, a guess's parts, a bound) and its recursion share one
    kind of arguments, built ahead of time once; and one signature for numba, whose cache cannot
    load a recursion across signatures."""
    serve_anew(ahead_of_time)
    prove_optimal(Mastermind(pegs=3, colors=3), max_depth=4)
    prove_optimal(Mastermind(pegs=3, colors=3))
    assert len(entries.SEARCH.kinds) == 1
    if not ahead_of_time:
        assert len(branch.search.signatures) == 1
