"""Evaluations run away from the server: each in a worker process of the server's one queue
(``workers``), so a long one never holds up a page, reporting its progress through a pipe that a
thread of the server reads.

A job is named by what it computes (game and strategy specs), and evaluations are deterministic:
the same request finds the same job, running, done or failed (a failure is shown, not tried
again at each poll, which once kept a failing job "running" for ever). A full queue refuses a new
job; the finished ones kept are bounded too.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from moocow.web.workers import Place, ProcessQueue

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


class Jobs:
    """The evaluations of one server."""

    def __init__(self, workers: ProcessQueue | None = None) -> None:
        self.workers = ProcessQueue() if workers is None else workers
        self._jobs: dict[tuple[str, str], Job] = {}
        self._lock = threading.Lock()

    def get(self, game: str, strategy: str) -> Job:
        """The job computing ``strategy`` on ``game``: found, or started (``Busy`` when the queue is full)."""
        key = (game, strategy)
        with self._lock:
            job = self._jobs.get(key)
            if job is not None:
                return job
            place = self.workers.reserve()
            job = self._jobs[key] = Job(game, strategy)
            self._forget_old()
        threading.Thread(target=self._run, args=(job, place), daemon=True).start()
        return job

    def _forget_old(self) -> None:
        finished = [key for key, job in self._jobs.items() if job.state in ("done", "failed")]
        for key in finished[: max(0, len(finished) - KEPT)]:
            del self._jobs[key]

    def _run(self, job: Job, place: Place) -> None:
        with place:
            job.state = "running"
            for kind, payload in self.workers.messages(
                "moocow.web.worker_tasks:evaluate", (job.game, job.strategy)
            ):
                if kind == "begin":
                    job.what, job.total = payload
                    job.done = 0.0
                elif kind == "update":
                    job.done = payload[1]
                elif kind == "result":
                    job.result, job.tree = payload["evaluation"], payload["tree"]
                    job.state = "done"
                    return
                elif kind == "error":
                    job.error, job.state = payload[0], "failed"
                    return
            job.error, job.state = "the evaluation's process ended without a result", "failed"
