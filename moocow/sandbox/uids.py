"""User ids for player processes: each held by one player process on the whole machine while it runs.

As root the runner runs every player process under a user id no account has, so that players
playing at the same time share no process budget (``RLIMIT_NPROC`` counts per user), files,
System V objects or signals. An id is leased: a lock file of its own (``flock``), in a folder only
root may write to, held from the player's start until its sandbox has been cleaned up. Every
runner on the machine leases from the same folder, so the threads of a Dask worker, other workers
and other runners never share an id (ids were once a block of 128 per runner process, handed out in
turn: a thread could get the id of a player still running in another). The kernel drops a lock
with the last descriptor on it, so a runner killed mid-session leaves no id taken; processes it
left under that id are killed by the next lease of it (the lock file says the lease was not
released), which then takes another id.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import stat
import tempfile
from pathlib import Path

from moocow.engine.errors import MoocowError
from moocow.sandbox.usage import runs_as

LEASE_FOLDER = "moocow-player-uids"
"""The folder of lock files, one per id, in the first of ``PLACES`` that is root's alone."""
PLACES = ("/run", tempfile.gettempdir())
"""Where the lock folder may be: ``/run`` (root's alone), else the temp folder (anyone may make a
name there, so a folder found there is used only if it is the runner's own and closed to others)."""
FIRST_OFFSET = 1 << 27
"""Leased ids start this far above the players' base: below it are the ids runners took before
leases (their pid times 128), which a runner of an older moocow on the machine may still use."""
LEASES = 1 << 20
"""How many ids may be leased at once on one machine."""


class PlayerUid:
    """A user id leased for one player process; ``release`` gives it back (once)."""

    def __init__(self, uid: int, lock: int) -> None:
        self.uid = uid
        """The id the player runs under."""
        self._lock: int | None = lock

    @classmethod
    def lease(cls, base: int, folder: Path | None = None) -> PlayerUid:
        """The lowest id from ``base + FIRST_OFFSET`` whose lock no one holds. A lock file that still says
        ``leased`` was held by a runner killed before it could release it: processes found under its
        id are killed, and the id is skipped while they go."""
        where = folder if folder is not None else lease_folder()
        for uid in range(base + FIRST_OFFSET, base + FIRST_OFFSET + LEASES):
            lock = os.open(where / str(uid), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(lock)
                continue
            if os.fstat(lock).st_size and kill_processes_of(uid):
                os.close(lock)  # they may take a moment to go: a later lease finds them gone
                continue
            os.pwrite(lock, b"leased\n", 0)  # emptied by a release: still there, the holder was killed
            return cls(uid, lock)
        raise MoocowError(f"every one of the {LEASES} player user ids is in use on this machine")

    @property
    def held(self) -> bool:
        """Whether the id is still this lease's."""
        return self._lock is not None

    def release(self) -> None:
        """Give the id back, once every process of the player is gone; a second call does nothing."""
        if self._lock is not None:
            lock, self._lock = self._lock, None
            os.ftruncate(lock, 0)
            os.close(lock)


def lease_folder() -> Path:
    """The folder of lock files, made if need be: root's own and closed to every other user, or one
    line saying there is none (a folder another user made in ``/tmp`` is never used: it could
    remove the locks)."""
    refused = []
    for place in PLACES:
        folder = Path(place) / LEASE_FOLDER
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            pass
        except OSError as error:
            refused.append(f"{folder}: {error.strerror or error}")
            continue
        found = os.lstat(folder)
        if stat.S_ISDIR(found.st_mode) and found.st_uid == os.geteuid() and not found.st_mode & 0o077:
            return folder
        refused.append(f"{folder} is not the runner's own, closed to other users")
    raise MoocowError(f"no folder to lease player user ids in: {'; '.join(refused)}")


def kill_processes_of(uid: int) -> bool:
    """Kill every process running as ``uid``; whether there was any."""
    found = False
    for pid in processes_of(uid):
        found = True
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return found


def processes_of(uid: int) -> list[int]:
    """The processes that run as ``uid`` (``usage.runs_as``: by their user ids, not by the owner of
    their ``/proc`` entry)."""
    found = []
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc"):
            if name.isdigit() and runs_as(int(name), uid):
                found.append(int(name))
    return found
