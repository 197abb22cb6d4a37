"""A session whose run has stopped ends at once: its player killed, nothing more played or recorded.

A run stopped on this machine takes its workers, and so their players, with it. A Dask worker
outlives the runner: a stopped run's sessions played on there for minutes (128 processes of one
player still alive). So a session is given a check, ``Stopped``, asked between rounds and while
it waits for its player; on a Dask worker it asks whether the scheduler still wants the task.
"""

from __future__ import annotations

from collections.abc import Callable

Stopped = Callable[[], bool]
"""Whether the run that wanted a session has stopped."""


class SessionStopped(Exception):
    """The run stopped: the session ends where it is, and is no one's failure."""


def never() -> bool:
    """The check of a session that the run's own process plays: the run stops its process."""
    return False
