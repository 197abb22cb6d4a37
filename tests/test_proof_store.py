"""The proof store: a stopped, killed or crashed exact search resumes, and a bad store is refused."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from moocow.engine.errors import MoocowError
from moocow.optimal import parallel, proof_store, root, search
from moocow.optimal.proof_store import ProofStore, row_digest
from moocow.optimal.prove import OptimalResult, open_store, prove_optimal
from moocow.optimal.search import Search
from moocow.plugins.bottles import Bottles
from moocow.plugins.mastermind import Mastermind
from moocow.trees.files import tree_stats, tree_to_dict

IRVING_SIX_BOTTLES = 3983
MOOCOW = [sys.executable, "-c", "import sys; from moocow.cli import main; sys.argv[0] = 'moocow'; main()"]
"""The ``moocow`` command, run from this interpreter."""


def stop_at_first_improvement(done: float, best: int | None, lower: int) -> None:
    """Ctrl-C as soon as the search beats Irving's tree: some parts are settled, most are not."""
    if best is not None and best < IRVING_SIX_BOTTLES:
        raise KeyboardInterrupt


def finished(result: OptimalResult, total: int) -> None:
    assert result.proven and result.total == total
    assert result.root is not None and tree_stats(result.root).total == total


@pytest.mark.parametrize("workers", [1, 2])
def test_an_interrupted_search_resumes_from_its_store_doing_less_work(
    workers: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mastermind, interrupted once its store holds 400 guesses (of about 800; the workers write
    them) and resumed: the same optimum, with fewer sets searched than from scratch; a run on the
    finished store searches none.

    Idle workers start no guesses ahead here: those are speculation, as much as the workers
    happen to have time for, and under load they made the second run's count vary from 0.58 to
    0.81 of the first (``test_idle_workers_start_the_parts_still_to_come`` tests them)."""
    monkeypatch.setattr(search, "PARALLEL_SECONDS", 0.0)
    monkeypatch.setattr(root, "PROGRESS_SECONDS", 0.0)
    monkeypatch.setattr(search.Search, "guesses_ahead", lambda self: iter(()))
    game, store = Mastermind(), tmp_path / "proof.db"
    scratch = prove_optimal(game, workers=workers)
    finished(scratch, 5625)

    def interrupted_at_400_kept(done: float, best: int | None, lower: int) -> None:
        if rows(store, "guess_values") >= 400:
            raise KeyboardInterrupt

    stopped = prove_optimal(game, workers=workers, store=store, progress=interrupted_at_400_kept)
    kept = rows(store, "guess_values")
    assert stopped.interrupted and kept >= 400

    resumed = prove_optimal(game, workers=workers, store=store)
    finished(resumed, 5625)
    assert rows(store, "guess_values") > kept
    assert 0 < resumed.stats.nodes < scratch.stats.nodes * 0.8
    assert resumed.seconds_in_all is not None and resumed.seconds_in_all > resumed.seconds
    again = prove_optimal(game, workers=workers, store=store)
    finished(again, 5625)
    assert again.stats.nodes == 0


def test_the_resumed_search_starts_from_the_best_strategy_kept(tmp_path: Path) -> None:
    """An interrupted search's best strategy is the one a resumed search must beat, and it is
    handed back if the resumed search is stopped at once."""
    game, store = Bottles(n=6), tmp_path / "proof.db"
    stopped = prove_optimal(game, progress=stop_at_first_improvement, store=store)

    def stop_at_once(done: float, best: int | None, lower: int) -> None:
        raise KeyboardInterrupt

    again = prove_optimal(game, progress=stop_at_once, store=store)
    assert again.interrupted and again.total is not None and stopped.total is not None
    assert again.total <= stopped.total < IRVING_SIX_BOTTLES
    assert again.root is not None and tree_stats(again.root).total == again.total
    assert again.lower_bound is not None and again.lower_bound >= (stopped.lower_bound or 0)


def rows(store: Path, table: str) -> int:
    with sqlite3.connect(store) as connection:
        try:
            return int(connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
        except sqlite3.OperationalError:  # not created yet
            return 0


def kept_seconds(store: Path) -> float:
    """The seconds searched that the store holds (0 before the first are written)."""
    with sqlite3.connect(store) as connection:
        try:
            row = connection.execute("SELECT value FROM meta WHERE key = 'seconds'").fetchone()
        except sqlite3.OperationalError:  # not created yet
            return 0.0
    return 0.0 if row is None else float(row[0])


def test_a_search_killed_outright_resumes_from_its_store(tmp_path: Path) -> None:
    """SIGKILL (no Ctrl-C, no clean-up) once the store holds settled guesses and a second of
    searching: the next run finishes from them, and says it used the earlier run. Mastermind 4x7
    (about 6 s on one core): 4x6 is proven in 0.3 s, too soon to be killed mid-proof every time."""
    store = tmp_path / "proof.db"
    command = [*MOOCOW, "optimal", "mastermind:colors=7", "--workers", "1", "--store", str(store)]
    quiet = subprocess.DEVNULL
    process = subprocess.Popen(command, stdout=quiet, stderr=quiet, start_new_session=True)
    deadline = time.monotonic() + 120

    def under_way() -> bool:
        return process.poll() is None and time.monotonic() < deadline

    while (rows(store, "guess_values") < 100 or kept_seconds(store) < 1.0) and under_way():
        time.sleep(0.01)
    os.killpg(process.pid, signal.SIGKILL)
    process.communicate()
    assert process.returncode == -signal.SIGKILL, "the search ended before it was killed"
    assert rows(store, "guess_values") >= 100

    again = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert "11228 guesses in total, proven optimal" in again.stdout
    assert "with the earlier runs on its store" in again.stdout


def test_the_best_and_its_digest_are_written_together(small_store: Path, tmp_path: Path) -> None:
    """Meta values are written in one transaction: when the second of them fails to be written
    (as a kill between them would stop it), the first is not kept either, so the best never
    stands without its digest (a killed search once left a store refused as damaged)."""
    copy = tmp_path / "copy.db"
    copy.write_bytes(small_store.read_bytes())
    store = open_store(Search(Mastermind(pegs=3, colors=4)), copy)
    with pytest.raises(sqlite3.Error):
        store._write_meta({"best": "[1, 1, []]", "best_digest": object()})  # type: ignore[dict-item]
    store.close()
    finished(prove_optimal(Mastermind(pegs=3, colors=4), store=copy), 206)


def killed_worker(task: parallel.GuessTask) -> parallel.GuessOutcome:
    """A forked worker that the kernel kills as it starts a guess (out of memory, say)."""
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("not reached")


def give_up(signum: int, frame: Any) -> None:
    raise TimeoutError("the search waited for a dead worker")


def test_a_worker_killed_stops_the_search_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pool replaces a killed worker, but its guess would never be answered: the search
    stops with one line instead of waiting forever, and the store resumes it."""
    monkeypatch.setattr(search, "PARALLEL_SECONDS", 0.0)
    monkeypatch.setattr(parallel, "_guess_value", killed_worker)
    store = tmp_path / "proof.db"
    previous = signal.signal(signal.SIGALRM, give_up)
    signal.alarm(60)
    try:
        with pytest.raises(MoocowError, match=r"a worker of the exact search died \(killed by signal 9"):
            prove_optimal(Mastermind(), workers=2, store=store)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    monkeypatch.undo()
    finished(prove_optimal(Mastermind(), workers=2, store=store), 5625)


FORKED_WORKER = parallel._guess_value


def slow_worker(task: parallel.GuessTask) -> parallel.GuessOutcome:
    """A forked worker on a guess that takes a while, as the guesses of a long proof do."""
    time.sleep(2.0)
    return FORKED_WORKER(task)


def test_the_time_is_kept_while_workers_are_waited_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forked workers write what they settle, so the searching process may write nothing for
    hours: it keeps the seconds while it waits, and a killed proof loses at most one of them."""
    monkeypatch.setattr(search, "PARALLEL_SECONDS", 0.0)
    monkeypatch.setattr(root, "PROGRESS_SECONDS", 0.0)
    monkeypatch.setattr(parallel, "_guess_value", slow_worker)
    store = tmp_path / "proof.db"
    kept: list[float] = []

    def read_the_seconds_at_the_first_result(done: float, best: int | None, lower: int) -> None:
        if rows(store, "guess_values") > 0:
            kept.append(kept_seconds(store))
            raise KeyboardInterrupt

    stopped = prove_optimal(
        Mastermind(), workers=2, store=store, progress=read_the_seconds_at_the_first_result
    )
    assert stopped.interrupted and kept and kept[0] >= 1.0


def test_sigterm_stops_the_search_as_ctrl_c_does(tmp_path: Path) -> None:
    """A batch system's SIGTERM, with the workers busy: a clean stop, the best tree reported and
    kept in the store, and no worker left behind."""
    store = tmp_path / "proof.db"
    command = [*MOOCOW, "optimal", "digits", "--workers", "2", "--store", str(store)]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    deadline = time.monotonic() + 600
    while rows(store, "guess_values") < 20 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert process.poll() is None and rows(store, "guess_values") >= 20, "the search never got going"
    process.terminate()
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 143 and b"digits: interrupted after" in out
    with pytest.raises(ProcessLookupError):  # the workers are gone with it
        os.killpg(process.pid, 0)
    with sqlite3.connect(store) as connection:
        assert connection.execute("SELECT count(*) FROM meta WHERE key = 'best'").fetchone()[0] == 1


@pytest.fixture(scope="module")
def small_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished store of Mastermind 3x4 (quick), to be damaged by the tests below."""
    store = tmp_path_factory.mktemp("store") / "proof.db"
    finished(prove_optimal(Mastermind(pegs=3, colors=4), store=store), 206)
    return store


def damaged(small_store: Path, tmp_path: Path, *statements: str) -> Path:
    copy = tmp_path / "copy.db"
    copy.write_bytes(small_store.read_bytes())
    with sqlite3.connect(copy) as connection:
        for statement in statements:
            connection.execute(statement)
    return copy


def refused(store: Path, match: str, game: Mastermind | Bottles | None = None, **options: object) -> None:
    with pytest.raises(MoocowError, match=match):
        prove_optimal(game or Mastermind(pegs=3, colors=4), store=store, **options)  # type: ignore[arg-type]


def test_a_store_of_another_search_is_refused(small_store: Path) -> None:
    refused(small_store, r"another search \(game mastermind:pegs=3,colors=4, not bottles:n=4\)", Bottles(n=4))
    refused(small_store, r"another search \(max_depth none, not 4\)", max_depth=4)
    refused(small_store, r"another search \(candidates_only false, not true\)", candidates_only=True)


def test_a_store_made_with_another_table_is_refused(small_store: Path, tmp_path: Path) -> None:
    store = damaged(small_store, tmp_path, "UPDATE meta SET value = 'abc' WHERE key = 'table'")
    refused(store, "made with another feedback table")


@pytest.mark.parametrize(
    ("statement", "match"),
    [
        ("UPDATE set_values SET value = value - 1 WHERE rowid = 1", "does not match its digest"),
        ("UPDATE guess_values SET exact = 1 - exact WHERE rowid = 1", "does not match its digest"),
        ("UPDATE sets SET candidates = x'00' WHERE id = 1", "does not match its digest"),
        ("UPDATE meta SET value = replace(value, '206', '205') WHERE key = 'best'", "best does not match"),
        ("DELETE FROM sets WHERE id = 1", "which it does not hold"),
        ("DELETE FROM meta WHERE key = 'best'", "the best's digest is kept without the best"),
        ("UPDATE meta SET value = 'nan' WHERE key = 'seconds'", r"damaged \(its seconds are 'nan'\)"),
        ("UPDATE meta SET value = '-5' WHERE key = 'seconds'", r"damaged \(its seconds are '-5'\)"),
        ("UPDATE meta SET value = '1e308' WHERE key = 'seconds'", r"damaged \(its seconds are '1e308'\)"),
    ],
)
def test_a_damaged_store_is_refused(small_store: Path, tmp_path: Path, statement: str, match: str) -> None:
    refused(damaged(small_store, tmp_path, statement), match)


def test_a_store_solved_to_the_root_without_its_best_still_proves_the_optimum(
    small_store: Path, tmp_path: Path
) -> None:
    """Every result kept but no best (both rows gone): the whole game is read back solved, and
    its tree is the best. Before, every later run ended at the heuristic's total, unproven, and
    said it was interrupted."""
    store = damaged(small_store, tmp_path, "DELETE FROM meta WHERE key LIKE 'best%'")
    finished(prove_optimal(Mastermind(pegs=3, colors=4), store=store), 206)
    finished(prove_optimal(Mastermind(pegs=3, colors=4), store=store), 206)


def test_a_result_rewritten_with_a_fresh_digest_is_still_checked(small_store: Path, tmp_path: Path) -> None:
    """A row edited together with its digest: exact values are replayed, bounds checked by counting."""
    with sqlite3.connect(small_store) as connection:
        set_id, value, guess, tree = connection.execute(
            "SELECT set_id, value, guess, tree FROM set_values WHERE tree IS NOT NULL LIMIT 1"
        ).fetchone()
    lie = value - 1
    store = damaged(
        small_store,
        tmp_path,
        f"UPDATE set_values SET value = {lie}, digest = x'{row_digest(set_id, lie, guess, tree).hex()}' "
        f"WHERE set_id = {set_id}",
    )
    refused(store, f"costs {value}, not the {lie} stored with it")
    store = damaged(
        small_store,
        tmp_path,
        "UPDATE set_values SET value = 1, guess = -1, tree = NULL, "
        f"digest = x'{row_digest(set_id, 1, -1, None).hex()}' WHERE set_id = {set_id}",
    )
    refused(store, "below what counting proves")


def test_a_file_that_is_no_store_is_refused(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not a database at all" * 100)
    refused(garbage, "not a sound moocow proof store: file is not a database")
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE t (a)")
    refused(other, "an SQLite file but not a moocow proof store")
    refused(tmp_path, "no such folder, or a folder itself")
    refused(tmp_path / "missing" / "proof.db", "no such folder")


def test_the_command_refuses_a_bad_store_in_one_line(small_store: Path) -> None:
    command = [*MOOCOW, "optimal", "bottles:n=3", "--store", str(small_store)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "another search" in result.stderr


@pytest.mark.parametrize("workers", [1, 2])
def test_large_sets_below_the_second_guess_are_kept_too(
    workers: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sets of ``CHECKPOINT_SIZE`` or more are kept at any level, by the worker processes too, so a
    second guess that takes hours keeps its parts: the optimum and tree are unchanged, and more
    sets and guesses are kept."""
    monkeypatch.setattr(search, "PARALLEL_SECONDS", 0.0)
    game = Bottles(n=6)
    coarse, fine = tmp_path / "coarse.db", tmp_path / "fine.db"
    alone = prove_optimal(game, workers=workers, store=coarse)
    monkeypatch.setattr(search, "CHECKPOINT_SIZE", 30)
    checkpointed = prove_optimal(game, workers=workers, store=fine)
    finished(checkpointed, 3924)
    assert alone.root is not None and checkpointed.root is not None
    assert tree_to_dict(game, checkpointed.root, "optimal") == tree_to_dict(game, alone.root, "optimal")
    assert rows(fine, "set_values") > rows(coarse, "set_values") + 20
    assert rows(fine, "guess_values") > rows(coarse, "guess_values") + 100


def test_a_search_interrupted_inside_a_second_guess_resumes_from_its_large_sets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Interrupted halfway through the sets kept below the second guess: less work resumed (one
    process, whose work does not depend on timing)."""
    monkeypatch.setattr(search, "CHECKPOINT_SIZE", 30)
    game = Bottles(n=6)
    checkpointed = prove_optimal(game, store=tmp_path / "whole.db")
    keep_set, kept = ProofStore.put_set, [0]

    def interrupted_at_the_800th(self: ProofStore, *arguments: Any) -> None:
        kept[0] += 1  # of about 1,600
        if kept[0] == 800:
            raise KeyboardInterrupt
        keep_set(self, *arguments)

    interrupted = tmp_path / "interrupted.db"
    monkeypatch.setattr(ProofStore, "put_set", interrupted_at_the_800th)
    assert prove_optimal(game, store=interrupted).interrupted
    monkeypatch.setattr(ProofStore, "put_set", keep_set)
    resumed = prove_optimal(game, store=interrupted)
    finished(resumed, 3924)
    assert resumed.stats.nodes < checkpointed.stats.nodes * 0.8


def test_a_store_that_cannot_be_written_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk (SQLite refusing to grow the file) stops the search in one line naming the store."""
    connect = proof_store._connect

    def small(path: Path) -> sqlite3.Connection:
        connection = connect(path)
        connection.execute("PRAGMA max_page_count = 12")
        return connection

    monkeypatch.setattr(proof_store, "_connect", small)
    with pytest.raises(MoocowError, match=r"cannot write the proof store .*: database or disk is full"):
        prove_optimal(Mastermind(), store=tmp_path / "proof.db")


def test_a_guess_kept_is_read_back(small_store: Path, tmp_path: Path) -> None:
    """Every guess row of the store is read back by ``guess_settled`` (a decorator meant for
    writes once sat on it and made it answer ``None`` for every guess, so a resumed proof searched
    each again)."""
    game = Mastermind(pegs=3, colors=4)
    copy = damaged(small_store, tmp_path)
    store = open_store(Search(game), copy)
    try:
        assert store.guesses
        for (key, guess), settled in store.guesses.items():
            candidates = np.frombuffer(key[0], dtype=np.int32)
            parts_depth = None if key[1] is None else key[1] - 1
            assert store.guess_settled(candidates, parts_depth, guess) is settled
    finally:
        store.close()
