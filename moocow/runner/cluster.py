"""Sessions on a Dask cluster: the same sessions, played by the same code, on other machines.

A tournament given a scheduler (``--scheduler tcp://HOST:8786``) hands each session to Dask as
one task. The task runs ``play_session`` on a worker exactly as a local worker process does, so
each player is sandboxed and limited there as here, and it sends back the session's rounds as
plain dicts; each round also goes on a Dask queue as soon as it is played, and the runner records
it from there, so rounds reach the results file one by one, as they do locally.

A worker lost under a session (a machine gone, a killed worker) is not the player's doing, whose
sandbox cannot reach the worker: Dask's scheduler plays the session again elsewhere, as often as
its ``distributed.scheduler.allowed-failures`` says (3 by default). A session lost more often than
that loses its rounds with the reason recorded, and the rest of the tournament goes on. What the
cluster must be trusted with is in docs/runner.md: its workers hold the seed's secrets, as local
workers do.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import uuid
from collections.abc import Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from moocow.cluster.connection import connected, load_plugins, scheduler_kept, task_cancelled, where
from moocow.engine.errors import MoocowError
from moocow.plugins import local_plugin_files
from moocow.referee.players import PlayerKind
from moocow.referee.protocol import Identity
from moocow.runner.results import RoundResult
from moocow.runner.session import Emit, SessionPlan, play_session, round_from_row, round_row
from moocow.runner.workers import lost_round, sweep_stale_runs
from moocow.sandbox.cleanup import remove_tree
from moocow.sandbox.orphans import adopt_orphans
from moocow.sandbox.sandbox import check_worker_level

LOST = "lost the Dask scheduler during the run; --resume finishes it"
"""What a run says when the scheduler is lost: what was emitted is saved."""

WAIT_SECONDS = 0.1
"""How often the runner collects the rounds workers have finished."""
RUN_FOLDER = "moocow-dask-"
"""Prefix of the private folder a worker gives each session's players."""


def run_sessions_on(scheduler: str, plans: Sequence[SessionPlan], emit: Emit) -> str:
    """Play every plan on the cluster behind ``scheduler``, emitting each round as a worker finishes
    it; returns where they were played (``dask_cluster.where``).

    Workers put each round on a Dask queue of the run's; a session played again after its worker
    was lost sends its rounds again, which are emitted once. The queue lives on the scheduler
    until the runner and every task have closed it (a worker killed under its task leaves one
    empty queue there).
    """
    from distributed import Queue, wait

    with scheduler_kept(LOST), connected(scheduler) as client:
        rounds = Queue(f"moocow-rounds-{uuid.uuid4().hex}", client=client)
        emitted: set[tuple[str, str, int]] = set()

        def emit_once(result: RoundResult) -> None:
            if result.key not in emitted:
                emitted.add(result.key)
                emit(result)

        # one graph, not a submit per session: Dask then queues them all on its scheduler, so a
        # worker holds no more sessions than its worker-saturation lets it (docs/runner.md)
        played = client.map(
            play_on_worker, plans, plugins=local_plugin_files(), queue=rounds.name, pure=False
        )
        futures = dict(zip(played, plans, strict=True))
        pending = set(futures)
        try:
            while pending:
                try:
                    done, pending = wait(pending, timeout=WAIT_SECONDS, return_when="FIRST_COMPLETED")
                except TimeoutError:
                    done = set()
                for row in rounds.get(batch=True):
                    emit_once(round_from_row(row))
                for future in done:
                    for result in _outcome(future, futures[future])[1]:
                        emit_once(result)
        finally:
            with contextlib.suppress(Exception):  # a scheduler lost, say; what was emitted is saved
                stop_sessions(client, pending)
                rounds.close()  # a scheduler that outlives the run does not keep its queue
        return where(client)


def play_session_on(scheduler: str, plan: SessionPlan) -> tuple[Identity, list[RoundResult], str]:
    """One session on the cluster (``moocow grade --scheduler``): who the player said it was, its
    rounds, and where it was played (``dask_cluster.where``)."""
    from distributed import wait

    with scheduler_kept(LOST), connected(scheduler) as client:
        future = client.submit(play_on_worker, plan, local_plugin_files(), pure=False)
        try:
            wait([future])
        finally:
            with contextlib.suppress(Exception):
                stop_sessions(client, [future])
        identity, results = _outcome(future, plan)
        return identity, results, where(client)


def stop_sessions(client: Any, futures: Any) -> None:
    """Cancel the sessions not finished when the run ends (stopped, or failed): the worker playing
    one sees its task cancelled, and ends it (``task_cancelled``). Dask would leave a running task
    to finish, its players with it, and a stopped run's players played on for minutes."""
    unfinished = [future for future in futures if not future.done()]
    if unfinished and client.status == "running":  # a lost scheduler has dropped them already
        client.cancel(unfinished, force=True)


def _outcome(future: Any, plan: SessionPlan) -> tuple[Identity, list[RoundResult]]:
    """A finished task's identity and rounds; a session whose worker was lost every time loses its rounds."""
    from distributed import KilledWorker

    if future.status == "cancelled":  # the client lost the scheduler: what was emitted is saved
        raise MoocowError(LOST)
    if future.status == "error" and isinstance(future.exception(), KilledWorker):
        reason = "its Dask worker was lost more often than the scheduler's allowed-failures"
        return Identity(), [lost_round(plan, number, reason) for number in plan.to_play]
    played = future.result()  # a bug on the worker is raised here, and stops the run
    return Identity(**played["identity"]), [round_from_row(row) for row in played["rounds"]]


def play_on_worker(plan: SessionPlan, plugins: list[str], queue: str | None = None) -> dict[str, Any]:
    """On a Dask worker: play one session in a private folder; the player's identity and its rounds,
    each round also put on the run's ``queue`` as soon as it is played. The worker's other threads
    play other sessions meanwhile: each session owns its processes (``sandbox/orphans.py``), its players'
    user ids (``sandbox/uids.py``) and its descriptors alone. A session whose run stops ends at once."""
    from distributed import get_worker

    if plan.player.kind is not PlayerKind.STRATEGY:
        check_worker_level(plan.sandbox, get_worker().address)
    load_plugins(plugins)
    adopt_orphans(one_session_at_a_time=False)
    sweep_stale_runs(RUN_FOLDER)  # of workers killed under a session: they could not
    scratch = Path(tempfile.mkdtemp(prefix=f"{RUN_FOLDER}{os.getpid()}-"))
    scratch.chmod(0o711)
    rows: list[dict[str, Any]] = []
    if queue is not None:
        from distributed import Queue

        sent = Queue(queue)

    def keep(result: RoundResult) -> None:
        rows.append(round_row(result))
        if queue is not None:
            sent.put(rows[-1])

    try:
        placed = replace(plan, sandbox=replace(plan.sandbox, scratch=str(scratch)))
        identity = play_session(placed, keep, task_cancelled())
    finally:
        remove_tree(scratch)
        if queue is not None:
            sent.close()  # the scheduler drops the run's queue once the runner and every task closed it
    return {"identity": asdict(identity), "rounds": rows}
