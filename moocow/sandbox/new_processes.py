"""Whether a player may make processes: only where each one's CPU time is sure to be counted.

A process's CPU time reaches a count when it is reaped: its reaper's count of its children, or, in
a cgroup, the cgroup's ``cpu.stat``, whoever reaps it. A parent that ignores ``SIGCHLD`` or sets
``SA_NOCLDWAIT`` has the kernel reap its children at once, and without a cgroup their time goes
nowhere: at the ``user`` level (Gradescope's, where no cgroup can be made) a player burnt 8.44
CPU-seconds in one guess so, against ``guess_cpu=1``. The flag is in no ``/proc`` file, the seccomp
filter cannot read the action ``rt_sigaction`` is given, and refusing every new ``SIGCHLD`` action
broke ``sh`` and Go. So where no cgroup counts, the filter refuses making a process (threads stay),
unless the limits allow it (``forks``), and the record says what that costs.
"""

from __future__ import annotations

import functools

from moocow.sandbox.limits import Limits
from moocow.sandbox.usage import CgroupGroup

COUNTED = "allowed: a cgroup counts their CPU time"
ALLOWED_UNCOUNTED = (
    "allowed (forks=yes): a child the kernel reaps at once takes its CPU time with it, up to a core for "
    "each process the player runs for the time it is given"
)
REFUSED = (
    "refused: no cgroup counts the CPU time of a child the kernel reaps at once "
    "(--limit forks=yes allows them, uncounted)"
)


@functools.cache
def cgroup_counts_cpu() -> bool:
    """Whether the runner can give a player a cgroup of its own here (tried once: made and removed)."""
    group = CgroupGroup.make(0, 1)
    if group is None:
        return False
    group.close()
    return True


def allowed(limits: Limits, counted: bool) -> bool:
    """Whether a player under ``limits`` may make processes, its CPU time ``counted`` by a cgroup or not."""
    return counted or limits.forks


def described(limits: Limits, counted: bool) -> str:
    """What the record says of the player's new processes."""
    if counted:
        return COUNTED
    return ALLOWED_UNCOUNTED if limits.forks else REFUSED
