"""Worker processes forked from the searching one: a crew that takes tasks and sends back outcomes.

A worker inherits everything the searching process held when it forked (the game's table, its
search and caches), so a task carries only what differs: a guess, a batch of openings. Each worker
has a pipe of its own, so nothing is shared that a killed worker could leave locked.
(``multiprocessing.Pool`` shares one result queue: a worker stopped while it held that queue's lock
left ``terminate`` waiting forever, and a stopped search never ended.) Workers ignore Ctrl-C,
which the searching process handles, die with it, and are killed at once when it stops.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import signal
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.context import ForkContext
from typing import Any

from moocow.engine.errors import MoocowError
from moocow.optimal.stopping import stop_if_asked

WAIT_SECONDS = 0.1
"""How long the searching process blocks on an outcome before looking again (Ctrl-C stays prompt)."""

Work = Callable[[Any], object]
"""What a worker does with each task, on what it inherited."""


class Crew:
    """``workers`` forked processes doing ``work``; ``on_start`` runs in each as it starts."""

    def __init__(self, workers: int, work: Work, on_start: Callable[[], None] = lambda: None) -> None:
        context = multiprocessing.get_context("fork")
        self.idle: list[ForkedWorker] = []
        self.busy: dict[ForkedWorker, object] = {}
        """The workers on a task, each with the tag its outcome goes back under."""
        try:
            for _ in range(workers):
                others = [worker.connection for worker in self.idle]
                self.idle.append(ForkedWorker(context, others, work, on_start))
        except OSError as error:  # fork's EAGAIN on a crowded machine was a traceback
            self.close()
            raise MoocowError(
                f"cannot start a worker of the exact search: {error.strerror or error} "
                "(the machine's process or memory limit?); try again, or with fewer --workers"
            ) from None

    def submit(self, task: object, tag: object) -> None:
        """Hand ``task`` to an idle worker (there must be one); its outcome comes back as ``tag``."""
        worker = self.idle.pop()
        worker.connection.send(task)
        self.busy[worker] = tag

    def next(self, waiting: Callable[[], None] = lambda: None) -> tuple[object, object]:
        """The next ``(tag, outcome)``, the outcome an exception if the task raised or its worker
        died; ``waiting`` runs between short waits, and a stop asked for raises at once."""
        while True:
            busy = list(self.busy)
            signs = [worker.connection for worker in busy] + [worker.process.sentinel for worker in busy]
            ready = multiprocessing.connection.wait(signs, timeout=WAIT_SECONDS)
            for worker in busy:
                if worker.connection in ready or worker.process.sentinel in ready:
                    tag = self.busy.pop(worker)
                    self.idle.append(worker)
                    return tag, worker.outcome()
            waiting()
            stop_if_asked()

    def close(self) -> None:
        for worker in [*self.idle, *self.busy]:
            worker.stop()


class ForkedWorker:
    """One forked worker process and the pipe that carries its tasks and their outcomes."""

    def __init__(
        self, context: ForkContext, others: list[Connection], work: Work, on_start: Callable[[], None]
    ) -> None:
        self.connection, theirs = context.Pipe()
        searcher = os.getpid()
        ends = [self.connection, *others]
        self.process = context.Process(
            target=_serve, args=(theirs, ends, searcher, work, on_start), daemon=True
        )
        self.process.start()
        theirs.close()

    def outcome(self) -> object:
        """What the worker sent back, or why it never will (it died: killed out of memory, say)."""
        with contextlib.suppress(EOFError, OSError):
            return self.connection.recv()
        self.process.join()
        code = self.process.exitcode
        cause = f"killed by signal {-code}" if code is not None and code < 0 else f"exit status {code}"
        return MoocowError(
            f"a worker of the exact search died ({cause}; out of memory?); "
            "with --store, the same command goes on from what was settled"
        )

    def stop(self) -> None:
        """At once: an interrupted search does not wait for the task under way."""
        self.process.kill()
        self.process.join()
        self.connection.close()


def _serve(
    connection: Connection,
    searching_ends: list[Connection],
    searcher: int,
    work: Work,
    on_start: Callable[[], None],
) -> None:
    """A forked worker's life: a task in, its outcome (or the error it raised) out, until the
    searching process is gone. It dies with that process (on Linux: a batch system's SIGKILL must
    not leave it searching for hours), and closes the searching side's pipes it inherited, so that
    elsewhere it sees the end of its own pipe once its task is done."""
    from moocow.sandbox.launch import die_with_parent  # ctypes: only the workers pay for it

    die_with_parent(searcher)
    for inherited in searching_ends:
        inherited.close()
    # Ctrl-C and the progress bar are the searching process's; a batch system's SIGTERM, sent to
    # every process of the job, kills a worker whatever the searching process made of it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    on_start()
    while True:
        try:
            task = connection.recv()
        except EOFError:
            return
        outcome: object
        try:
            outcome = work(task)
        except Exception as error:
            outcome = error
        try:
            connection.send(outcome)
        except (BrokenPipeError, ConnectionResetError):  # the searching process is gone
            return
        except Exception as error:  # an error that does not pickle
            connection.send(MoocowError(f"a worker of the exact search failed: {error}"))
