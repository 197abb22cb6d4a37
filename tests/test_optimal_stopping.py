"""How an exact search stops: a signal's stop is never lost, and the workers end at once."""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from moocow.engine.errors import MoocowError
from moocow.optimal import forked, parallel, root, search
from moocow.optimal.prove import prove_optimal
from moocow.optimal.search import Search
from moocow.optimal.stopping import stopped_by_signals
from moocow.plugins.mastermind import Mastermind
from tests.signal_helpers import hears_ctrl_c


def give_up(signum: int, frame: Any) -> None:
    raise TimeoutError("stopping the workers hung")


@pytest.mark.parametrize("workers", [1, 2])
def test_a_sigterm_whose_interrupt_is_lost_still_stops_the_search(
    monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    """Python can lose the ``KeyboardInterrupt`` a signal handler raises (inside a ``__del__``,
    say); the search still stops, at its next wait or progress mark."""
    monkeypatch.setattr(search, "PARALLEL_SECONDS", 0.0)
    monkeypatch.setattr(root, "PROGRESS_SECONDS", 0.0)
    signalled: list[bool] = []

    def sigterm_then_lose_its_interrupt(done: float, best: int | None, lower: int) -> None:
        if not signalled:
            signalled.append(True)
            try:
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(1.0)  # the handler runs here
            except KeyboardInterrupt:
                pass  # lost, as Python loses one raised inside a __del__

    with stopped_by_signals():
        stopped = prove_optimal(Mastermind(), workers=workers, progress=sigterm_then_lose_its_interrupt)
    assert signalled and stopped.interrupted and not stopped.proven


def test_a_stop_asked_for_does_not_outlive_its_search() -> None:
    """The flag is cleared when the command's search ends: a later search in the process runs."""
    before = signal.getsignal(signal.SIGTERM)
    with stopped_by_signals(), pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(1.0)
    assert signal.getsignal(signal.SIGTERM) is before
    assert prove_optimal(Mastermind(pegs=2, colors=3)).proven


FORKED_WORKER = parallel._guess_value


def huge_outcome(task: parallel.GuessTask) -> parallel.GuessOutcome:
    """A worker whose outcome is far larger than a pipe holds: it is still sending when stopped."""
    total, trees, counted = FORKED_WORKER(task)
    return total, trees, counted, b"x" * 64_000_000  # type: ignore[return-value]


def test_closing_the_pool_ends_workers_in_the_middle_of_sending(monkeypatch: pytest.MonkeyPatch) -> None:
    """``multiprocessing.Pool.terminate`` could hang for good when it killed a worker holding its
    shared result queue's lock; each forked worker has its own pipe, so nothing is left locked."""
    game = Mastermind(pegs=3, colors=4)
    searching = Search(game)
    searching.kernel.warm_up()
    previous = signal.signal(signal.SIGALRM, give_up)
    signal.alarm(60)
    try:
        monkeypatch.setattr(parallel, "_guess_value", huge_outcome)  # in the workers forked now
        pool = parallel.ForkedGuessPool(searching, 2)
        everything = np.arange(len(searching.rows), dtype=np.int32)
        for position in range(2):
            pool.submit((everything, position, None, 10**9, (), 1), position, queue.SimpleQueue())
        time.sleep(1.0)  # both workers are now blocked sending
        pool.close()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert all(not worker.process.is_alive() for worker in [*pool._crew.idle, *pool._crew.busy])


SEARCH_WITH_SLOW_WORKERS = """
import time
from moocow.engine.errors import MoocowError
from moocow.optimal import parallel, search
from moocow.optimal.prove import prove_optimal
from moocow.plugins.mastermind import Mastermind

def a_guess_of_minutes(task):
    time.sleep(300)

parallel._guess_value = a_guess_of_minutes
search.PARALLEL_SECONDS = 0.0
prove_optimal(Mastermind(), workers=2)
"""


def children(pid: int) -> list[int]:
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie no one has reaped yet is not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="Linux: the kernel kills the workers")
def test_workers_die_with_a_search_killed_alone() -> None:
    """A batch system may SIGKILL the searching process alone: its workers die with it instead of
    searching on for hours (and writing to a store that a resumed run is using)."""
    process = subprocess.Popen(
        [sys.executable, "-c", SEARCH_WITH_SLOW_WORKERS], start_new_session=True, preexec_fn=hears_ctrl_c
    )
    try:
        deadline = time.monotonic() + 120
        while len(children(process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = children(process.pid)
        assert len(workers) == 2, "the search never started its workers"
        process.kill()
        process.wait()
        deadline = time.monotonic() + 10
        while any(running(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(running(pid) for pid in workers)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)


ONE_WORKER_WITH_A_STORE = """
import sys, time
from pathlib import Path
from moocow.engine.errors import MoocowError
from moocow.optimal import parallel, search
from moocow.optimal.prove import prove_optimal
from moocow.optimal.stopping import stopped_by_signals
from moocow.plugins.mastermind import Mastermind

def a_guess_of_minutes(task):
    time.sleep(300)

parallel._guess_value = a_guess_of_minutes
search.PARALLEL_SECONDS = 0.0
with stopped_by_signals():
    result = prove_optimal(Mastermind(), workers=1, store=Path(sys.argv[1]))
print("interrupted" if result.interrupted else "finished")
"""


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="Linux: reads the workers from /proc")
def test_with_a_store_one_worker_stops_in_seconds(tmp_path: Path) -> None:
    """A proof on one core with a store forks its one worker, so SIGTERM does not wait for the
    guess under way (a compiled search of minutes, here a sleep)."""
    command = [sys.executable, "-c", ONE_WORKER_WITH_A_STORE, str(tmp_path / "proof.db")]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, start_new_session=True, preexec_fn=hears_ctrl_c
    )
    try:
        deadline = time.monotonic() + 120
        while not children(process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(children(process.pid)) == 1, "the search never forked its worker"
        process.terminate()
        out, _ = process.communicate(timeout=30)
        assert process.returncode == 0 and out.strip() == b"interrupted"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)


ONE_WORKER_STOPPABLE = """
import time
from moocow.engine.errors import MoocowError
from moocow.optimal import parallel, search
from moocow.optimal.prove import prove_optimal
from moocow.optimal.stopping import stopped_by_signals
from moocow.plugins.mastermind import Mastermind

def a_guess_of_minutes(task):
    time.sleep(300)

parallel._guess_value = a_guess_of_minutes
search.PARALLEL_SECONDS = 0.0
with stopped_by_signals():
    result = prove_optimal(Mastermind(), workers=1)
print("interrupted" if result.interrupted else "finished")
"""


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="Linux: reads the workers from /proc")
@pytest.mark.parametrize("sent", [signal.SIGTERM, signal.SIGINT])
def test_a_stoppable_search_on_one_core_without_a_store_stops_in_seconds(sent: signal.Signals) -> None:
    """``moocow optimal --workers 1`` with no store searched in its own process, where a signal
    waits for the compiled search under way (up to a minute): a search that a signal may stop
    forks its one worker, store or not."""
    process = subprocess.Popen(
        [sys.executable, "-c", ONE_WORKER_STOPPABLE],
        stdout=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=hears_ctrl_c,
    )
    try:
        deadline = time.monotonic() + 120
        while not children(process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(children(process.pid)) == 1, "the search never forked its worker"
        process.send_signal(sent)
        out, _ = process.communicate(timeout=30)
        assert process.returncode == 0 and out.strip() == b"interrupted"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)


def test_a_worker_the_machine_cannot_fork_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """fork's EAGAIN on a crowded machine (``BlockingIOError``) was a traceback; it is the search's
    one-line error, and the worker already started is stopped."""
    started: list[forked.ForkedWorker] = []
    real_init = forked.ForkedWorker.__init__

    def second_fork_fails(self: forked.ForkedWorker, *args: Any) -> None:
        if started:
            raise BlockingIOError(11, "Resource temporarily unavailable")
        real_init(self, *args)
        started.append(self)

    monkeypatch.setattr(forked.ForkedWorker, "__init__", second_fork_fails)
    with pytest.raises(MoocowError, match="cannot start a worker of the exact search: Resource"):
        parallel.ForkedGuessPool(Search(Mastermind(pegs=2, colors=2)), 2)
    assert len(started) == 1 and not started[0].process.is_alive()
