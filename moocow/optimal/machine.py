"""The cores and memory this process may use: the machine's, narrowed by its CPU affinity and by
a cgroup's memory limit, as a batch system (Slurm, a container) sets them for a job.

``os.cpu_count()`` and the physical memory describe the whole node: on a 64-core node where a
job was given 4 cores and 8 GB, budgeting from them would start 64 workers and let each cache
grow to gigabytes, and the job would be killed for memory.
"""

from __future__ import annotations

import os
from pathlib import Path

CGROUP_LIMITS = (Path("/sys/fs/cgroup/memory.max"), Path("/sys/fs/cgroup/memory/memory.limit_in_bytes"))
"""Where cgroups v2 and v1 give a memory limit (``max``, or a huge number, when there is none)."""
UNKNOWN_MEMORY = 1 << 32
"""The memory assumed where the machine's cannot be read (4 GiB)."""


def usable_cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def usable_memory(limits: tuple[Path, ...] = CGROUP_LIMITS) -> int:
    """Bytes of memory this process may use: the machine's, or its cgroup's limit if lower."""
    try:
        memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        memory = UNKNOWN_MEMORY
    for path in limits:
        try:
            text = path.read_text().strip()
        except OSError:
            continue
        if text.isdigit():
            memory = min(memory, int(text))
    return memory
