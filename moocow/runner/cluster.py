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
from collections.abc import Iterator, Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from moocow.engine.errors import MoocowError
from moocow.plugins import load_plugin_file, local_plugin_files
from moocow.runner.launch import become_subreaper
from moocow.runner.process import remove_tree
from moocow.runner.protocol import Identity
from moocow.runner.results import RoundResult
from moocow.runner.session import Emit, SessionPlan, play_session
from moocow.runner.workers import lost_round

CONNECT_SECONDS = 10.0
"""How long to wait for the scheduler, and for its first worker, before saying so in one line."""
WAIT_SECONDS = 0.1
"""How often the runner collects the rounds workers have finished."""
RUN_FOLDER = "moocow-dask-"
"""Prefix of the private folder a worker gives each session's players."""


def run_sessions_on(scheduler: str, plans: Sequence[SessionPlan], emit: Emit) -> None:
    """Play every plan on the cluster behind ``scheduler``, emitting each round as a worker finishes it.

    Workers put each round on a Dask queue of the run's; a session played again after its worker
    was lost sends its rounds again, which are emitted once. The queue lives on the scheduler
    until the runner and every task have closed it (a worker killed under its task leaves one
    empty queue there).
    """
    from distributed import Queue, wait

    with connected(scheduler) as client:
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
                    emit_once(RoundResult.from_dict(row))
                for future in done:
                    for result in _outcome(future, futures[future])[1]:
                        emit_once(result)
        finally:
            rounds.close()  # a scheduler that outlives the run does not keep its queue


def play_session_on(scheduler: str, plan: SessionPlan) -> tuple[Identity, list[RoundResult]]:
    """One session on the cluster (``moocow grade --scheduler``): who the player said it was, its rounds."""
    from distributed import wait

    with connected(scheduler) as client:
        future = client.submit(play_on_worker, plan, local_plugin_files(), pure=False)
        wait([future])
        return _outcome(future, plan)


def _outcome(future: Any, plan: SessionPlan) -> tuple[Identity, list[RoundResult]]:
    """A finished task's identity and rounds; a session whose worker was lost every time loses its rounds."""
    from distributed import KilledWorker

    if future.status == "cancelled":  # the client lost the scheduler: what was emitted is saved
        raise MoocowError("lost the Dask scheduler during the run; --resume finishes it")
    if future.status == "error" and isinstance(future.exception(), KilledWorker):
        reason = "its Dask worker was lost more often than the scheduler's allowed-failures"
        return Identity(), [lost_round(plan, number, reason) for number in plan.to_play]
    played = future.result()  # a bug on the worker is raised here, and stops the run
    return Identity(**played["identity"]), [RoundResult.from_dict(row) for row in played["rounds"]]


@contextlib.contextmanager
def connected(scheduler: str) -> Iterator[Any]:
    """A client of the scheduler with a worker to play on, or one line saying why there is none."""
    try:
        from distributed import Client
    except ImportError:
        raise MoocowError("--scheduler needs Dask: pip install distributed") from None
    check_scheduler(scheduler)
    try:
        client = Client(scheduler, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        raise MoocowError(f"cannot reach the Dask scheduler at {scheduler!r}: {error}") from None
    with client, client.as_current():
        try:
            client.wait_for_workers(1, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError) as error:
            raise MoocowError(f"the Dask scheduler at {scheduler!r} has no worker: {error}") from None
        yield client


def check_scheduler(scheduler: str) -> None:
    """One line unless a Dask scheduler answers at the address, asked once before a client is made.

    A ``Client`` at a wrong address does not fail in one line: a web server there (the dashboard's
    port, a proxy) answers bytes Dask reads as a frame of exabytes, a worker's address half works,
    and a client that never started waits twenty seconds on its way out with a traceback.
    """
    import asyncio

    from distributed.comm import connect
    from distributed.core import send_recv
    from distributed.security import Security

    async def identity() -> Any:
        comm = await connect(scheduler, CONNECT_SECONDS, **Security().get_connection_args("client"))
        try:
            return await send_recv(comm, op="identity")
        finally:
            comm.abort()

    try:
        answer = asyncio.run(asyncio.wait_for(identity(), CONNECT_SECONDS))
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        reason = str(error) or f"no answer within {CONNECT_SECONDS:g} s"
        raise MoocowError(f"cannot reach the Dask scheduler at {scheduler!r}: {reason}") from None
    except Exception:  # whatever answered does not speak Dask (an HTTP 400 read as a frame's length)
        answer = None
    kind = answer.get("type") if isinstance(answer, dict) else None
    if kind != "Scheduler":
        what = f"a Dask {kind.lower()}" if isinstance(kind, str) else "not Dask"
        raise MoocowError(f"{scheduler!r} is not a Dask scheduler (what answers there is {what})")


def play_on_worker(plan: SessionPlan, plugins: list[str], queue: str | None = None) -> dict[str, Any]:
    """On a Dask worker: play one session in a private folder; the player's identity and its rounds,
    each round also put on the run's ``queue`` as soon as it is played."""
    loaded = set(local_plugin_files())
    for path in plugins:
        if path not in loaded:  # a worker plays many sessions; it loads each plugin once
            load_plugin_file(path)
    become_subreaper()
    scratch = Path(tempfile.mkdtemp(prefix=f"{RUN_FOLDER}{os.getpid()}-"))
    scratch.chmod(0o711)
    rows: list[dict[str, Any]] = []
    if queue is not None:
        from distributed import Queue

        sent = Queue(queue)

    def keep(result: RoundResult) -> None:
        rows.append(result.to_dict())
        if queue is not None:
            sent.put(rows[-1])

    try:
        placed = replace(plan, sandbox=replace(plan.sandbox, scratch=str(scratch)))
        identity = play_session(placed, keep)
    finally:
        remove_tree(scratch)
        if queue is not None:
            sent.close()  # the scheduler drops the run's queue once the runner and every task closed it
    return {"identity": asdict(identity), "rounds": rows}
