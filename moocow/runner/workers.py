"""Sessions played one after another, or by worker processes, with every round reported at once.

Parallel play gives the same results as serial play because a session is the unit of work: its
rounds are played in order in one seat whatever the number of workers, and each round's secret
is fixed by the seed. Workers are spawned (not forked, so no lock held by a thread of the runner
is copied) and load the same ``--plugin`` files the runner loaded.

The pool is the runner's own, so that no player can stop it. Each worker plays one session at a
time, so the runner knows whose session a worker was playing: a worker that dies, or is stopped,
is killed and replaced, and every other session goes on. A sandboxed player cannot reach its
worker (an out-of-memory kill or an operator can), so the rest of its session is played anew,
once; a second loss, or the loss of an unconfined player's worker, which that player can kill,
loses the rest of the session as that player's foul. Rounds come back as JSON lines on the
worker's own pipe and are read as data, never unpickled, so bytes written into a pipe cannot run
code in the runner.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from moocow.plugins import load_plugin_file, local_plugin_files
from moocow.referee.decks import load_deck
from moocow.runner.results import RoundResult
from moocow.runner.session import Emit, SessionPlan, play_session, round_from_row, round_row
from moocow.sandbox.cleanup import remove_tree
from moocow.sandbox.fouls import Failure
from moocow.sandbox.launch import die_with_parent
from moocow.sandbox.orphans import adopt_orphans
from moocow.sandbox.usage import process_stat, remove_cgroups_of

RUN_FOLDER = "moocow-run-"
"""The start of a run folder's name, followed by the runner's pid."""
WAIT_SECONDS = 0.5
"""How often the runner looks at its workers while no round arrives."""
DONE = "done"
"""What a worker sends when its session is over."""


def run_sessions(plans: Sequence[SessionPlan], workers: int, emit: Emit) -> None:
    """Play every plan, serially when ``workers`` is 1, emitting each round as it finishes.

    Players' private homes go in a folder of the run's, removed here when the run ends however it
    ends, so that a worker killed under a session leaves nothing behind either; the folders of
    runners that were killed themselves are removed by the next run.
    """
    sweep_stale_runs()
    scratch = Path(tempfile.mkdtemp(prefix=f"{RUN_FOLDER}{os.getpid()}-"))
    scratch.chmod(0o711)  # another user's home inside it is reachable, none is listed
    plans = [replace(plan, sandbox=replace(plan.sandbox, scratch=str(scratch))) for plan in plans]
    try:
        if workers <= 1 or len(plans) <= 1:
            adopt_orphans(one_session_at_a_time=True)
            for plan in plans:
                play_session(plan, emit)
        else:
            with WorkerPool(min(workers, len(plans))) as pool:
                pool.play(plans, emit)
    finally:
        remove_tree(scratch)


@dataclass
class Worker:
    """A worker process, its end of its pipe, and the session it is playing."""

    process: BaseProcess
    """The spawned process."""
    pipe: Connection
    """Plans go out, JSON lines come back."""
    plan: SessionPlan | None = None
    """The session it is playing (``None``: idle)."""
    played: int = 0
    """Rounds of that session it has sent back."""


class WorkerPool:
    """Spawned workers, each playing one session at a time; a lost worker is replaced (a context manager)."""

    def __init__(self, size: int) -> None:
        self._context = multiprocessing.get_context("spawn")
        self._plugins = local_plugin_files()
        self._workers = [self._start() for _ in range(size)]
        self._waiting: list[SessionPlan] = []
        """Plans not yet handed out, the next one last."""
        self._replayed: set[tuple[str, str]] = set()
        """Sessions (player, deck) whose worker was lost once already."""

    def _start(self) -> Worker:
        mine, theirs = self._context.Pipe()
        process = self._context.Process(
            target=serve, args=(theirs, self._plugins, os.getpid()), daemon=True, name="moocow-worker"
        )
        process.start()
        theirs.close()
        return Worker(process, mine)

    def play(self, plans: list[SessionPlan], emit: Emit) -> None:
        """Hand out every plan, report each round, replace a worker that dies or is stopped."""
        self._waiting = list(reversed(plans))
        while self._waiting or any(worker.plan is not None for worker in self._workers):
            for index, worker in enumerate(self._workers):
                if worker.plan is None and self._waiting:
                    if not healthy(worker.process):  # tampered with during its last session
                        worker = self._workers[index] = self._replace(worker)
                    worker.plan, worker.played = self._waiting.pop(), 0
                    worker.pipe.send(worker.plan)
            busy = [worker for worker in self._workers if worker.plan is not None]
            ready = wait([w.pipe for w in busy] + [w.process.sentinel for w in busy], WAIT_SECONDS)
            for worker in busy:
                received = worker.pipe in ready and self._receive(worker, emit)
                if (worker.pipe in ready and not received) or worker.process.sentinel in ready:
                    code = exit_code(worker.process)
                    how = "sent what is not its next round" if code is None else f"ended with status {code}"
                    self._lose(worker, emit, how)
                elif stopped(worker.process.pid):
                    self._lose(worker, emit, "was stopped")

    def _receive(self, worker: Worker, emit: Emit) -> bool:
        """Read what the worker sent; ``False`` if its pipe broke (it died) or carried anything but
        the next round of its session, which only a process tampering with the pipe could send."""
        try:
            data = json.loads(worker.pipe.recv_bytes())
            if data == DONE:
                worker.plan = None
                return True
            if isinstance(data, dict) and set(data) == {"error"}:
                raise RuntimeError(f"a worker failed: {data['error']}")
            result = round_from_row(data)
        except (EOFError, OSError, ValueError, TypeError, KeyError, AttributeError):
            return False
        plan = worker.plan
        assert plan is not None
        expected = plan.to_play[worker.played] if worker.played < len(plan.to_play) else None
        if result.key != (plan.player.name, plan.deck, expected):
            return False
        worker.played += 1
        emit(result)
        return True

    def _lose(self, worker: Worker, emit: Emit, how: str) -> None:
        """The worker died, was stopped or tampered with: the rest of its session is played anew
        once if its player was sandboxed, else it is that player's foul."""
        plan = worker.plan
        if plan is not None:
            rest, session = plan.to_play[worker.played :], (plan.player.name, plan.deck)
            if rest and not plan.sandbox.unconfined and session not in self._replayed:
                self._replayed.add(session)
                self._waiting.append(replace(plan, to_play=rest))
            else:
                again = ", again" if session in self._replayed else ""
                reason = f"the worker process playing this session {how}{again}"
                reason += " (a player may not touch the runner)"
                for number in rest:
                    emit(lost_round(plan, number, reason))
        self._workers[self._workers.index(worker)] = self._replace(worker)

    def _replace(self, worker: Worker) -> Worker:
        """Kill a worker, and what it left, and start another in its place."""
        with contextlib.suppress(OSError):
            worker.process.kill()
        worker.process.join()
        worker.pipe.close()
        if worker.process.pid is not None:
            remove_cgroups_of(worker.process.pid)
        return self._start()

    def close(self) -> None:
        """Tell idle workers to stop; kill any that do not."""
        for worker in self._workers:
            with contextlib.suppress(OSError):
                worker.pipe.send(None)
        for worker in self._workers:
            worker.process.join(timeout=5)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.pipe.close()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def sweep_stale_runs(prefix: str = RUN_FOLDER) -> None:
    """Remove the run folders (``prefix``, a pid, ``-``) of processes that are gone: a runner, or a
    Dask worker, killed under a session could not remove its own."""
    for folder in Path(tempfile.gettempdir()).glob(f"{prefix}*-*"):
        owner = folder.name.removeprefix(prefix).split("-")[0]
        if owner.isdigit() and not Path(f"/proc/{owner}").exists() and Path("/proc/self").exists():
            remove_tree(folder)


def exit_code(process: BaseProcess, wait_seconds: float = 1.0) -> int | None:
    """The exit code of a worker whose pipe broke, once it is dead, or ``None`` if it lives on.

    Polled, never a blocking ``join``: a process that can write into the worker's descriptors can
    make its sentinel readable while it still runs, and ``join`` would then wait for ever.
    """
    deadline = time.monotonic() + wait_seconds
    while process.is_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    return process.exitcode


def healthy(process: BaseProcess) -> bool:
    """Whether an idle worker is alive with nothing written into its sentinel (which only its end holds)."""
    return process.is_alive() and not wait([process.sentinel], 0)


def stopped(pid: int | None) -> bool:
    """Whether a process is stopped (``SIGSTOP``) or traced, and so would keep the run waiting forever."""
    fields = process_stat(pid) if pid is not None else None
    return fields is not None and len(fields) > 0 and fields[0] in (b"T", b"t")


def lost_round(plan: SessionPlan, number: int, reason: str) -> RoundResult:
    """A round of a lost session, unplayed and scored at the mercy limit."""
    secret = plan_secret(plan, number)
    return RoundResult(
        plan.player.name, plan.deck, number, secret, (), False, plan.mercy, str(Failure.CRASH), reason, 0.0
    )


def plan_secret(plan: SessionPlan, number: int) -> str:
    """The secret the seed deals for round ``number`` of the plan's entry."""
    return load_deck(plan.deck).deal(plan.seed, plan.rounds)[number].secret_text


def serve(pipe: Connection, plugins: list[str], runner: int) -> None:
    """A worker: play each plan the runner sends, one JSON line per round, until it sends ``None``."""
    die_with_parent(runner)  # a killed runner takes its workers, and so their players, with it
    adopt_orphans(one_session_at_a_time=True)
    silence = os.open(os.devnull, os.O_RDWR)  # its terminal is the runner's, and a player could write there
    for descriptor in (0, 1, 2):
        os.dup2(silence, descriptor)
    for path in plugins:
        load_plugin_file(path)
    while True:
        plan = pipe.recv()
        if plan is None:
            return
        try:
            play_session(plan, lambda result: pipe.send_bytes(encode(round_row(result))))
        except Exception as error:  # a bug, not a player: reported to the runner, which stops
            pipe.send_bytes(encode({"error": f"{type(error).__name__}: {error}"}))
            return
        pipe.send_bytes(encode(DONE))


def encode(data: Any) -> bytes:
    """One message on a worker's pipe."""
    return json.dumps(data, ensure_ascii=False).encode("utf-8")
