"""Sessions played one after another, or by a pool of worker processes, with every round reported at once.

Parallel play gives the same results as serial play because a session is the unit of work: its
rounds are played in order in one seat whatever the number of workers, and each round's secret
is fixed by the seed. Workers are spawned (not forked, so no lock held by a thread of the runner
is copied) and load the same ``--plugin`` files the runner loaded; each finished round comes back
over a queue and is reported by the runner process, the only one writing the results file.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

from moocow.plugins import get_plugin_manager, load_plugin_file
from moocow.runner.launch import die_with_parent
from moocow.runner.session import Emit, SessionPlan, play_session

WAIT_SECONDS = 0.2
"""How often the runner looks at the workers while no result arrives."""

_results: Any = None
"""In a worker: the queue results go back on."""


def run_sessions(plans: Sequence[SessionPlan], workers: int, emit: Emit) -> None:
    """Play every plan, serially when ``workers`` is 1, emitting each round as it finishes."""
    if workers <= 1 or len(plans) <= 1:
        for plan in plans:
            play_session(plan, emit)
        return
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    expected = sum(len(plan.to_play) for plan in plans)
    pool = ProcessPoolExecutor(
        max_workers=min(workers, len(plans)),
        mp_context=context,
        initializer=_start_worker,
        initargs=(results, plugin_files(), os.getpid()),
    )
    try:
        futures = [pool.submit(_play, plan) for plan in plans]
        received = 0
        while received < expected:
            try:
                emit(results.get(timeout=WAIT_SECONDS))
                received += 1
            except queue.Empty:
                _raise_when_stuck(futures)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _raise_when_stuck(futures: list[Future[None]]) -> None:
    """Once every worker is done, a failed session means the missing rounds will never come."""
    if all(future.done() for future in futures):
        for future in futures:
            error = future.exception()
            if error is not None:
                raise error


def plugin_files() -> list[str]:
    """The ``--plugin`` files loaded in this process (registered under their absolute paths)."""
    names = (name for name, _ in get_plugin_manager().list_name_plugin())
    return sorted(name for name in names if name.endswith(".py") and Path(name).is_absolute())


def _start_worker(results: Any, plugins: list[str], runner: int) -> None:
    global _results
    _results = results
    die_with_parent(runner)  # a killed runner takes its workers, and so their players, with it
    for path in plugins:
        load_plugin_file(path)


def _play(plan: SessionPlan) -> None:
    play_session(plan, _results.put)
