"""Evaluations run away from the server: each in a process of its own, so a long one never holds
up a page, reporting its progress through a pipe that a thread of the server reads.

A job is named by what it computes (game and strategy specs), and evaluations are deterministic:
the same request finds the same job, running or done. At most ``RUNNING`` processes run at once
(the machine has two cores); more waiting than ``WAITING`` is refused, and the finished ones kept
are bounded too.
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from moocow.engine.errors import MoocowError, one_line

RUNNING = 2
"""Evaluations run at once."""
WAITING = 8
"""Evaluations that may wait for a process; more is refused."""
KEPT = 16
"""Finished evaluations kept, trees and all (the oldest go first)."""


@dataclass
class Job:
    """One evaluation: waiting, running (with progress), done (with its result) or failed."""

    game: str
    strategy: str
    state: str = "waiting"
    done: float = 0.0
    total: float = 0.0
    what: str = ""
    result: dict[str, Any] | None = None
    """The evaluation, as ``Evaluation.to_dict`` writes it."""
    tree: dict[str, Any] | None = None
    """The strategy's tree, as a tree file holds it."""
    error: str | None = None
    started: float = field(default_factory=time.monotonic)

    def to_dict(self) -> dict[str, Any]:
        """What a page shows of it."""
        share = 1.0 if self.state == "done" else self.done / self.total if self.total else 0.0
        return {
            "strategy": self.strategy,
            "state": self.state,
            "progress": round(min(1.0, share), 3),
            "what": self.what,
            "result": self.result,
            "error": self.error,
        }


class _Reporter:
    """The engine's progress, sent up the pipe (a task at a time, at most every 0.2 s)."""

    def __init__(self, pipe: Connection) -> None:
        self.pipe = pipe
        self.sent = 0.0

    def begin(self, what: str, total: float, unit: str) -> object:
        self.pipe.send(("begin", what, float(total)))
        return what

    def update(self, handle: object, done: float) -> None:
        now = time.monotonic()
        if now - self.sent >= 0.2:
            self.sent = now
            self.pipe.send(("update", str(handle), float(done)))

    def end(self, handle: object) -> None:
        self.pipe.send(("end", str(handle), 0.0))


def _evaluate(game: str, strategy: str, pipe: Connection) -> None:
    """The child process: evaluate, reporting progress, then send the result and the strategy's
    tree (as a tree file's document), or the error."""
    from moocow import api
    from moocow.engine.evaluation import evaluate_with_tree
    from moocow.engine.progress import reporting
    from moocow.engine.treefile import tree_to_dict

    try:
        loaded, chosen = api.load_game(game), api.load_strategy(strategy)
        with reporting(_Reporter(pipe)):
            result, root = evaluate_with_tree(loaded, chosen)
        pipe.send(
            ("result", {"evaluation": result.to_dict(), "tree": tree_to_dict(loaded, root, chosen.spec)}, 0.0)
        )
    except MoocowError as error:
        pipe.send(("error", str(error), 0.0))
    except Exception as error:  # a bug: one line on the page, like every refusal
        pipe.send(("error", f"internal error: {one_line(error)}", 0.0))
    finally:
        pipe.close()


class Jobs:
    """The evaluations of one server."""

    def __init__(self) -> None:
        self._jobs: dict[tuple[str, str], Job] = {}
        self._lock = threading.Lock()
        self._slots = threading.Semaphore(RUNNING)

    def get(self, game: str, strategy: str) -> Job:
        """The job computing ``strategy`` on ``game``: found, or started (refused when too many wait)."""
        key = (game, strategy)
        with self._lock:
            job = self._jobs.get(key)
            if job is not None and job.state != "failed":
                return job
            waiting = sum(job.state in ("waiting", "running") for job in self._jobs.values())
            if waiting >= RUNNING + WAITING:
                raise MoocowError(f"{waiting} evaluations are running or waiting: try again in a while")
            job = self._jobs[key] = Job(game, strategy)
            self._forget_old()
        threading.Thread(target=self._run, args=(job,), daemon=True).start()
        return job

    def _forget_old(self) -> None:
        finished = [key for key, job in self._jobs.items() if job.state in ("done", "failed")]
        for key in finished[: max(0, len(finished) - KEPT)]:
            del self._jobs[key]

    def _run(self, job: Job) -> None:
        with self._slots:
            job.state = "running"
            context = multiprocessing.get_context("spawn")
            parent, child = context.Pipe(duplex=False)
            process = context.Process(target=_evaluate, args=(job.game, job.strategy, child), daemon=True)
            process.start()
            child.close()
            try:
                while True:
                    kind, text, number = parent.recv()
                    if kind == "begin":
                        job.what, job.total, job.done = text, number, 0.0
                    elif kind == "update":
                        job.done = number
                    elif kind == "result":
                        job.result, job.tree = text["evaluation"], text["tree"]  # type: ignore[index]
                        job.state = "done"
                        break
                    elif kind == "error":
                        job.error, job.state = text, "failed"
                        break
            except (EOFError, OSError):
                job.error, job.state = "the evaluation's process ended without a result", "failed"
            finally:
                parent.close()
                process.join(timeout=5)
