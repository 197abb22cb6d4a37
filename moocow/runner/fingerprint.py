"""What a player is, as a digest: a run resumed after the player changed is refused, not mixed.

A player is the files and folders the sandbox shows it as its own (its module's folder, the
scripts and folders its command names), less what is the machine's (the system's folders, the
Python installation, moocow) and the runner's own files (results, tournament file, seed and key
files: the results file grows as the run goes). A module's helper in its folder counts as much as
the module; a Java player's class folder counts, not the JVM. Contents are hashed, not names of
places or times, so a run resumed on another machine with the same files is the same player.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from moocow.runner.files import identity
from moocow.runner.players import PlayerSpec
from moocow.runner.sandbox import PACKAGE, SYSTEM_DIRS, python_paths

CONTENT_BUDGET = 256 << 20
"""Bytes read at most; past them a file counts by its name and size (a folder of big data)."""
BLOCK = 1 << 20


def player_digest(player: PlayerSpec, hidden: Iterable[str] = ()) -> str | None:
    """SHA-256 over the player's own files, or ``None`` where it has none (an engine strategy, a
    program of the machine's alone)."""
    skipped = {identity(path) for path in hidden} - {None}
    roots = sorted({path for path in player.files if not _machines(path)})
    if not roots:
        return None
    digest, budget = hashlib.sha256(), [CONTENT_BUDGET]
    for index, root in enumerate(roots):
        for relative, path in _files(Path(root)):
            if identity(path) in skipped:
                continue
            digest.update(f"{index}/{relative}\0".encode())
            _hash_file(digest, path, budget)
    return digest.hexdigest()


def _machines(path: str) -> bool:
    """Whether ``path`` is the machine's, not the player's: a system folder, Python, moocow."""
    real = Path(os.path.realpath(path))
    return any(
        real == Path(place) or Path(place) in real.parents
        for place in (*SYSTEM_DIRS, *python_paths(), PACKAGE)
    )


def _files(root: Path) -> Iterator[tuple[str, Path]]:
    """Every file under ``root`` (or ``root`` itself), in a fixed order, with its name below it; links
    are not followed (a link counts by where it points)."""
    if not root.is_dir():
        yield root.name, root
        return
    for folder, folders, names in os.walk(root):
        folders.sort()
        for name in sorted(names):
            path = Path(folder) / name
            yield str(path.relative_to(root)), path


def _hash_file(digest: hashlib._Hash, path: Path, budget: list[int]) -> None:
    """A file's content while the budget lasts, else its size; a link by its target."""
    if path.is_symlink():
        digest.update(f"-> {os.readlink(path)}".encode())
        return
    try:
        size = path.stat().st_size
        if size > budget[0] or not path.is_file():
            digest.update(f"{size} bytes".encode())
            return
        budget[0] -= size
        with path.open("rb") as file:
            for block in iter(lambda: file.read(BLOCK), b""):
                digest.update(block)
    except OSError as error:  # unreadable: what it is then is the error
        digest.update(f"unreadable: {error.strerror}".encode())
