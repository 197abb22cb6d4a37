"""What a player's user id holds on disk outside bubblewrap: ``disk_mb`` at the ``user`` level.

Inside bubblewrap a player can write only to tmpfs of its own, whose size is ``disk_mb``. At the
``user`` level it runs on the host's file systems under a user id of its own and can write in its
private home and wherever anyone may write (``/tmp``, ``/var/tmp``, ``/dev/shm``, ``/run/lock``...):
a player wrote 180 MB into its home, and nothing stopped it. So the meter's scan adds up the blocks
of the files that user id can have made: everything in its home and below any folder it owns, the
entries it owns in the folders anyone may write to, and in the folders within those that anyone
may write to as well. Links are never followed and nothing is opened; a file with several names
counts once. Elsewhere a player's files cannot be told from the runner's: ``enforcement`` says so.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterable

SHARED_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/var/lock", "/dev/mqueue")
"""Where anyone may write: a player under a user id of its own, outside bubblewrap, can leave notes
there for the next player (who plays the same secrets), or fill the disk file by file."""

BY_TMPFS = "a tmpfs of that size for its home and temp"
BY_SCAN = "the files of its user id, in its home and wherever anyone may write, added up by the meter's scan"
NOT_ENFORCED = "not enforced: the player's files cannot be told from the runner's"
"""How ``disk_mb`` holds at each level, for the referee's record."""


def shared_folders() -> tuple[str, ...]:
    """The folders anyone may write to, this machine's temp folder included."""
    return tuple(dict.fromkeys((*SHARED_FOLDERS, tempfile.gettempdir())))


def enforcement(level: str) -> str:
    """How ``disk_mb`` is held at a confinement level (``namespaces``, ``user``, ``none``)."""
    return {"namespaces": BY_TMPFS, "user": BY_SCAN}.get(level, NOT_ENFORCED)


class DiskScan:
    """The bytes a user id's files hold in its home and in the folders anyone may write to."""

    def __init__(self, uid: int, homes: Iterable[str], shared: Iterable[str] | None = None) -> None:
        self.uid = uid
        self.homes = tuple(homes)
        self.shared = shared_folders() if shared is None else tuple(shared)

    def held_bytes(self) -> int:
        """Blocks of every file and folder found, in bytes (a walk: no recursion, whatever the depth)."""
        owned: list[str] = []
        searched = list(self.shared)
        while searched:
            for path, found in _entries(searched.pop()):
                if found.st_uid == self.uid:
                    owned.append(path)
                elif stat.S_ISDIR(found.st_mode) and found.st_mode & stat.S_IWOTH:
                    searched.append(path)
        return self.bytes_within([*self.homes, *owned])

    @staticmethod
    def bytes_within(roots: Iterable[str]) -> int:
        """Blocks of ``roots`` and of everything below the folders among them, in bytes, each file
        once; roots that are gone count nothing. The homes alone are the cheapest part of
        ``held_bytes``: no folder others write to is looked at."""
        counted: set[tuple[int, int]] = set()
        total = 0
        folders: list[str] = []
        for root in roots:
            try:
                found = os.lstat(root)
            except OSError:
                continue
            total += _once(found, counted)
            if stat.S_ISDIR(found.st_mode):
                folders.append(root)
        while folders:
            for path, found in _entries(folders.pop()):
                total += _once(found, counted)
                if stat.S_ISDIR(found.st_mode):
                    folders.append(path)
        return total


def _entries(folder: str) -> list[tuple[str, os.stat_result]]:
    """A folder's entries with their own status (a link's, not its target's); gone ones left out."""
    found = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                try:
                    found.append((entry.path, entry.stat(follow_symlinks=False)))
                except OSError:
                    continue
    except OSError:
        return []
    return found


def _once(found: os.stat_result, counted: set[tuple[int, int]]) -> int:
    """The bytes a file's blocks hold, the first time it is met under any of its names."""
    key = (found.st_dev, found.st_ino)
    if key in counted:
        return 0
    counted.add(key)
    return found.st_blocks * 512
