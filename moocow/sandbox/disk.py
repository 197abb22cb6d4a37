"""What a player's user id holds on disk outside bubblewrap: ``disk_mb`` and ``files`` at the ``user`` level.

Inside bubblewrap a player can write only to tmpfs of its own, whose size is ``disk_mb``. At the
``user`` level it runs on the host's file systems under a user id of its own and can write in its
private home and wherever anyone may write (``/tmp``, ``/var/tmp``, ``/dev/shm``, ``/run/lock``...):
a player wrote 180 MB into its home, and nothing stopped it. So the meter's scan adds up the blocks
of the files that user id can have made: everything in its home and below any folder it owns, the
entries it owns in the folders anyone may write to, and in the folders within those that anyone
may write to as well. Links are never followed and nothing is opened; a file with several names
counts once. Elsewhere a player's files cannot be told from the runner's: ``enforcement`` says so.

Each walk also counts the player's entries (files and folders, its home included) and stops past
``most_entries`` (the ``files`` limit): 150,000 empty files once made every look list them all, and
the pause after each (nine times its cost) let 600 MB bursts come and go unseen. Bounded, a look's
cost, and so its pause, no longer grows with what the player makes; others' entries in the folders
anyone may write to are still listed, at a cost the player does not choose.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

SHARED_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/var/lock", "/dev/mqueue")
"""Where anyone may write: a player under a user id of its own, outside bubblewrap, can leave notes
there for the next player (who plays the same secrets), or fill the disk file by file."""

BY_TMPFS = "a tmpfs of that size for its home and temp"
BY_SCAN = "the files of its user id, in its home and wherever anyone may write, added up by the meter's scan"
NOT_ENFORCED = "not enforced: the player's files cannot be told from the runner's"
"""How ``disk_mb`` holds at each level, for the referee's record."""


class Held(NamedTuple):
    """What a walk found of the player's."""

    bytes: int
    """Blocks of its files and folders, each file once (of those walked, when ``entries`` is over)."""
    entries: int
    """Its files and folders walked; the walk stops once this passes the bound."""


def shared_folders() -> tuple[str, ...]:
    """The folders anyone may write to, this machine's temp folder included."""
    return tuple(dict.fromkeys((*SHARED_FOLDERS, tempfile.gettempdir())))


def enforcement(level: str) -> str:
    """How ``disk_mb`` is held at a confinement level (``namespaces``, ``user``, ``none``)."""
    return {"namespaces": BY_TMPFS, "user": BY_SCAN}.get(level, NOT_ENFORCED)


class DiskScan:
    """The bytes a user id's files hold in its home and in the folders anyone may write to."""

    def __init__(
        self,
        uid: int,
        homes: Iterable[str],
        shared: Iterable[str] | None = None,
        most_entries: int | None = None,
    ) -> None:
        self.uid = uid
        self.homes = tuple(homes)
        self.shared = shared_folders() if shared is None else tuple(shared)
        self.most_entries = most_entries
        """The player's files and folders a walk counts before it stops (``None``: no bound)."""

    def over(self, entries: int) -> bool:
        """Whether ``entries`` files and folders are more than the player may hold."""
        return self.most_entries is not None and entries > self.most_entries

    def held(self) -> Held:
        """What the player's files hold, in its home and in the folders anyone may write to (a
        walk: no recursion, whatever the depth)."""
        owned = self.shared_entries()
        return self.within([*self.homes, *owned])

    def shared_entries(
        self, met: Callable[[str], None] | None = None, roots: Iterable[str] | None = None
    ) -> list[str]:
        """The user id's entries in the folders anyone may write to (``roots``, else all of them),
        and in the folders within them that anyone may write to (each such folder is passed to
        ``met`` before it is listed). Past the bound the walk stops: the list is then one longer
        than the bound."""
        owned: list[str] = []
        searched = list(self.shared if roots is None else roots)
        while searched and not self.over(len(owned)):
            folder = searched.pop()
            if met is not None:
                met(folder)
            for path, found in _entries(folder):
                if found.st_uid == self.uid:
                    owned.append(path)
                    if self.over(len(owned)):
                        break
                elif stat.S_ISDIR(found.st_mode) and found.st_mode & stat.S_IWOTH:
                    searched.append(path)
        return owned

    def within(self, roots: Iterable[str], met: Callable[[str], bool | None] | None = None) -> Held:
        """Blocks of ``roots`` and of everything below the folders among them, in bytes, each file
        once; roots that are gone count nothing. Each folder is passed to ``met`` before it is
        listed (the watch watches it there: what is made in it before is listed, what after is an
        event), and one it answers ``False`` is not listed. Stops once the entries walked pass the
        bound."""
        counted: set[tuple[int, int]] = set()
        total = entries = 0
        folders: list[str] = []
        for root in roots:
            try:
                found = os.lstat(root)
            except OSError:
                continue
            entries += 1
            total += _once(found, counted)
            if stat.S_ISDIR(found.st_mode):
                folders.append(root)
        while folders and not self.over(entries):
            folder = folders.pop()
            if met is not None and met(folder) is False:
                continue
            for path, found in _entries(folder):
                entries += 1
                total += _once(found, counted)
                if stat.S_ISDIR(found.st_mode):
                    folders.append(path)
                if self.over(entries):
                    break
        return Held(total, entries)


def _entries(folder: str) -> Iterator[tuple[str, os.stat_result]]:
    """A folder's entries with their own status (a link's, not its target's); gone ones left out.
    Read as they are listed, so that a walk that stops there lists no further."""
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                try:
                    found = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                yield entry.path, found
    except OSError:
        return


def _once(found: os.stat_result, counted: set[tuple[int, int]]) -> int:
    """The bytes a file's blocks hold, the first time it is met under any of its names."""
    key = (found.st_dev, found.st_ino)
    if key in counted:
        return 0
    counted.add(key)
    return found.st_blocks * 512
