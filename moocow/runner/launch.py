"""Start a player under its limits: ``python -I -S launch.py MEMORY OUTPUT CPU PARENT -- COMMAND...``.

This runs in the child between the fork and the player's program, so the limits hold from the
player's first instruction. A separate program rather than ``preexec_fn``, which may deadlock when
the runner has threads (a progress bar has one). Standard library only; ``-I -S`` keeps it fast
and deaf to the environment. Numbers are bytes and seconds; 0 means no limit.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import resource
import signal
import sys

PR_SET_PDEATHSIG = 1


def limit(kind: int, value: int) -> None:
    """Set soft and hard limit, so that the player cannot raise it again (unless it is root)."""
    resource.setrlimit(kind, (value, value))


def die_with_parent(parent: int) -> None:
    """Linux: have the kernel kill this process when ``parent`` dies, so nothing outlives the runner."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(137)


def main(argv: list[str]) -> None:
    """Apply the limits, then become the player."""
    memory, output, cpu, parent = (int(value) for value in argv[1:5])
    command = argv[6:]
    limit(resource.RLIMIT_CORE, 0)
    if memory:
        limit(resource.RLIMIT_AS, memory)
    if output:
        limit(resource.RLIMIT_FSIZE, output)
    if cpu:
        # Soft limit only: the runner raises it by prlimit at the start of every round.
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, resource.getrlimit(resource.RLIMIT_CPU)[1]))
    die_with_parent(parent)
    try:
        os.execvp(command[0], command)
    except OSError as error:
        sys.stderr.write(f"cannot run {command[0]!r}: {error.strerror}\n")
        os._exit(127)


if __name__ == "__main__":
    main(sys.argv)
