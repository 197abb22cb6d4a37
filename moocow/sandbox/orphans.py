"""A player's orphans, which come to the runner: whose they are, and which session ends them.

A runner process is made a subreaper (``adopt_orphans``): a player's process whose parent exits
(a double fork) becomes the runner's child rather than init's, so that it is found and ended with
its session. Each session ends its own orphans, and only those:

- a process that plays one session at a time (the local runner, a local worker) owns every child
  it did not have when the player started, as no one else starts any meanwhile;
- a Dask worker plays sessions side by side on its threads, and a child that came during one
  session may be another's: its sandbox's first process, which its session waits for, or an
  ``rm`` cleaning up. A session there ends only the children it can tell are its own: those
  running under its player's user id (leased for it alone, ``uids.py``), those in its cgroup,
  those in the process group or session its sandbox's first process leads, and those seen below
  that process just before the kill (bubblewrap's init of the player's namespace starts a session
  of its own). When every new child was ended, a fouler that started a fresh process each round
  killed, each round, the player playing beside it. Not found there: with ``--no-sandbox`` and no
  cgroup, a (trusted) player's process that starts a session of its own and is orphaned before
  the kill.

The first process is reaped last, by its own handle: while it is unreaped its id cannot be given
to another process, so a process group or session of that id is the player's.
"""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

from moocow.sandbox.launch import become_subreaper, is_subreaper
from moocow.sandbox.usage import children_of, process_stat, runs_as

START = 19
"""Where a process's start time is among its ``stat`` fields after the command: with its id, it
names one process for ever (an id alone may be given again once the process is reaped)."""
ROUNDS = 8
"""How many times a session looks for its orphans again: a killed process's own children come to
the runner when it dies, after the look that found it."""

_alone = False
"""Whether this process plays one session at a time (said by whoever made it a subreaper)."""
_adopted = False
"""Whether anyone has made it a subreaper yet."""


def adopt_orphans(one_session_at_a_time: bool) -> None:
    """Make this process the subreaper of its players' orphans, saying whether it plays one session
    at a time (then a session owns every child that comes while it plays): it does only while every
    caller says so."""
    global _alone, _adopted
    become_subreaper()
    _alone = one_session_at_a_time and (_alone or not _adopted)
    _adopted = True


class Orphans:
    """The orphans of one player process, found and ended when its session closes it."""

    def __init__(self) -> None:
        self.adopting = is_subreaper()
        """Whether orphans come to this process at all (else they go to init, or to the sandbox's)."""
        self._before = own_children() if self.adopting and _alone else None
        """This process's children when the player started, where it plays one session at a time."""
        self._known: set[tuple[int, bytes]] = set()
        """The sandbox's processes seen before they were killed, by id and start time."""

    def note(self, leader: int) -> None:
        """Before the kill: the processes below ``leader`` now, which the kill orphans (bubblewrap's
        init of the player's namespace, which starts a session of its own, is one)."""
        if not self.adopting:
            return
        waiting = [leader]
        while waiting:
            for pid in children_of_one(waiting.pop()):
                fields = process_stat(pid)
                if fields is not None:
                    self._known.add((pid, fields[START]))
                    waiting.append(pid)

    def end(self, leader: int, uid: int | None, cgroup: Path | None) -> None:
        """Kill and reap the orphans of the sandbox whose first process is ``leader`` (dead, not yet
        reaped), run as ``uid`` in ``cgroup``; every other child is left to its owner."""
        if not self.adopting:
            return
        for _ in range(ROUNDS):
            mine = [pid for pid in own_children() - {leader} if self._owns(pid, leader, uid, cgroup)]
            living = False
            for pid in mine:
                fields = process_stat(pid)
                living |= fields is not None and fields[0] != b"Z"  # its own children may come next
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, 0)
            if not living:
                return

    def _owns(self, pid: int, leader: int, uid: int | None, cgroup: Path | None) -> bool:
        if self._before is not None and pid not in self._before:
            return True
        fields = process_stat(pid)  # state, parent, process group, session, ...
        if fields is None:
            return False
        if (pid, fields[START]) in self._known or str(leader).encode() in (fields[2], fields[3]):
            return True
        if uid is not None and runs_as(pid, uid):
            return True
        named = cgroup_of(pid) if cgroup is not None else None
        return cgroup is not None and named is not None and cgroup.as_posix().endswith(named)


def own_children() -> set[int]:
    """This process's children (orphans come to any of its threads), read twice: a list read while
    another child leaves may skip one."""
    return children_of_one(os.getpid()) | children_of_one(os.getpid())


def children_of_one(parent: int) -> set[int]:
    """The children of a process, from the kernel's list of each of its threads' (a scan of every
    process where the kernel keeps no such list)."""
    try:
        threads = os.listdir(f"/proc/{parent}/task")
    except OSError:
        return set()
    if not os.path.exists(f"/proc/{parent}/task/{parent}/children"):
        return children_of(parent)
    found: set[int] = set()
    for thread in threads:
        with contextlib.suppress(OSError), open(f"/proc/{parent}/task/{thread}/children", "rb") as listed:
            found.update(int(pid) for pid in listed.read().split())
    return found


def cgroup_of(pid: int) -> str | None:
    """A process's cgroup v2 as ``/proc/PID/cgroup`` names it (``None``: not there, or the root)."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
            if line.startswith("0::") and line[3:].strip() not in ("", "/"):
                return line[3:].strip()
    return None
