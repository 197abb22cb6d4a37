"""What a player is, as a digest: a run resumed after the player changed is refused, not mixed.

A player is the files and folders the sandbox shows it as its own (its module's folder, the
scripts and folders its command names), less what is the machine's (the system's folders, the
Python installation, moocow) and the runner's own files (results, tournament file, seed and key
files: the results file grows as the run goes). A module's helper in its folder counts as much as
the module; a Java player's class folder counts, not the JVM. What is hashed is what the player
could tell apart: names below its folder, folders, modes, links' targets and contents; not where
the folder is, nor times, so a run resumed on another machine with the same files is the same
player. Which files the sandbox shows depends on the folder the run starts from (a player in it is
shown its file alone), so a run resumed from elsewhere may be refused too.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from moocow.referee.players import PlayerSpec
from moocow.sandbox.mounts import identity
from moocow.sandbox.sandbox import PACKAGE, SYSTEM_DIRS, python_paths

CONTENT_BUDGET = 256 << 20
"""Bytes of large files read at most, smallest first; past them a large file counts by its size."""
SMALL = 1 << 20
"""Files up to this size (code, surely) are always read whole."""
BLOCK = 1 << 20


def player_digest(player: PlayerSpec, hidden: Iterable[str] = ()) -> str | None:
    """SHA-256 over the player's own files and folders (names, modes, links' targets, contents),
    or ``None`` where it has none (an engine strategy, a program of the machine's alone)."""
    skipped = {identity(path) for path in hidden} - {None}
    roots = sorted({path for path in player.files if not _machines(path)})
    if not roots:
        return None
    digest = hashlib.sha256()
    files: list[tuple[int, str, Path]] = []
    for index, root in enumerate(roots):
        for relative, path, status in _entries(Path(root)):
            if identity(path) in skipped:
                continue
            name = f"{index}/{relative}"
            digest.update(f"{name} {stat.filemode(status.st_mode)}".encode())
            if stat.S_ISLNK(status.st_mode):
                digest.update(f" -> {os.readlink(path)}\0".encode())
            elif stat.S_ISREG(status.st_mode):
                digest.update(f" {status.st_size}\0".encode())
                files.append((status.st_size, name, path))
            else:
                digest.update(b"\0")
    budget = CONTENT_BUDGET
    for size, name, path in sorted(files):  # smallest first: no large file crowds out the code
        if size > SMALL:
            if size > budget:
                break  # this one and the larger count by their sizes alone
            budget -= size
        digest.update(f"{name}\0".encode())
        _hash_content(digest, path)
    return digest.hexdigest()


def _machines(path: str) -> bool:
    """Whether ``path`` is the machine's, not the player's: a system folder, Python, moocow."""
    real = Path(os.path.realpath(path))
    places = (*SYSTEM_DIRS, *python_paths(), str(PACKAGE))
    return any(real == Path(place) or Path(place) in real.parents for place in places)


def _entries(root: Path) -> Iterator[tuple[str, Path, os.stat_result]]:
    """``root`` and everything under it, folders included, in a fixed order, with its name below
    ``root`` and its own status (links are not followed: a link counts by where it points). A
    loop of its own, not ``os.walk``, which recurses: a student's folder 1,500 deep crashed it."""
    yield ".", root, root.stat()
    if not root.is_dir():
        return
    waiting = [root]
    while waiting:
        folder = waiting.pop()
        try:
            with os.scandir(folder) as listing:
                found = sorted(listing, key=lambda entry: entry.name)
        except OSError:  # past the longest path, say: what is below is not seen
            continue
        for entry in found:
            path = Path(entry.path)
            with contextlib.suppress(OSError):
                status = entry.stat(follow_symlinks=False)
                yield str(path.relative_to(root)), path, status
                if stat.S_ISDIR(status.st_mode):
                    waiting.append(path)


def _hash_content(digest: Any, path: Path) -> None:
    """A file's bytes; a file that cannot be read counts by the error."""
    try:
        with path.open("rb") as file:
            for block in iter(lambda: file.read(BLOCK), b""):
                digest.update(block)
    except OSError as error:
        digest.update(f"unreadable: {error.strerror}".encode())
