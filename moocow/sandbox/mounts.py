"""What a player may be shown, and what of the runner it must not be: the sandbox's mounts vetted.

A path a player's command names is bound into its view only if it is no kernel view nor a folder
the sandbox makes (``bindable``); the runner's own files are covered wherever a bind would show
them, by what they are, not by their names (``masks``, ``other_names``), and one with a second name
is refused (``check_one_name``). At the ``user`` level no bind makes a way in: what a player needs
must be readable, and reachable, by any user (``check_readable``).
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import stat
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from moocow.engine.errors import MoocowError

VIRTUAL_DIRS = ("/proc", "/sys", "/dev")
"""The kernel's views, which the sandbox makes afresh (or leaves out): nothing in or above them is
bound from the host, whatever a player's command names (``/proc`` named showed the host's)."""
MADE_DIRS = ("/tmp", "/etc")
"""Folders the sandbox makes its own (a private tmpfs; a few system files): one named, or a folder
above it, is not bound over them; what is inside them may be (a student's folder in ``/tmp``)."""


def bindable(path: str | os.PathLike[str]) -> bool:
    """Whether a path a player's command names may be shown to it: not ``/``, nor a kernel view or
    a folder the sandbox makes, nor anything above them, nor anything in a kernel view."""
    real = Path(os.path.realpath(path))
    for place in (Path(folder) for folder in (*VIRTUAL_DIRS, *MADE_DIRS)):
        if real == place or real in place.parents:
            return False
        if place in real.parents and str(place) in VIRTUAL_DIRS:
            return False
    return True


def masks(hidden: Iterable[str], binds: Iterable[str]) -> list[str]:
    """Cover each of the runner's files that a bind would show: ``/dev/null`` on a file, tmpfs on a
    folder. Folders are compared by what they are, not by name, so a bind of ``link`` or ``../here``
    or of a second name a bind mount gives the runner's folder has the files masked under the name
    it shows them by."""
    shown = [(Path(path), identity(path)) for path in binds]
    points = mount_points()
    options: list[str] = []
    for real in dict.fromkeys(Path(os.path.realpath(text)) for text in hidden):  # a path's spellings once
        if not real.exists():
            continue
        kind = ["--tmpfs"] if real.is_dir() else ["--ro-bind", os.devnull]
        within = {identity(folder): folder for folder in (real, *real.parents)}
        for bound, what in shown:
            if what is not None and what in within:
                options += [*kind, str(bound / real.relative_to(within[what]))]
        for other in other_names(real, [bound for bound, _ in shown], points):
            options += [*kind, str(other)]
    return options


def check_one_name(*paths: str | os.PathLike[str] | None) -> None:
    """Refuse a runner's file read or written in place (seed, key, tournament and results files)
    that has another name, a hard link: a player's folder could hold that name, and finding it
    would mean walking every folder shown. An output replaced whole (Gradescope's) leaves a link
    with the old content, so it is not asked."""
    for path in paths:
        with contextlib.suppress(OSError):
            found = None if path is None else os.stat(path)
            if found is not None and stat.S_ISREG(found.st_mode) and found.st_nlink > 1:
                raise MoocowError(
                    f"{str(path)!r} has another name (a hard link): a player's folder could show it "
                    "by that name; remove the other name, or copy the file"
                )


def other_names(real: Path, binds: Sequence[Path], points: Sequence[Path]) -> Iterator[Path]:
    """Where else in the binds a bind mount put the file ``real`` (an operator's ``mount --bind``
    of the seed file into a student's folder), among the mount ``points``; hard links are refused
    up front (``check_one_name``)."""
    what = identity(real)
    for point in points:
        if point != real and any(point.is_relative_to(bound) for bound in binds) and identity(point) == what:
            yield point


def mount_points() -> list[Path]:
    """This machine's mount points, from ``/proc/self/mountinfo`` (none where it cannot be read)."""
    try:
        with open("/proc/self/mountinfo", "rb") as table:
            lines = table.read().splitlines()
    except OSError:
        return []
    return [Path(os.fsdecode(_OCTAL.sub(lambda m: bytes([int(m[1], 8)]), line.split()[4]))) for line in lines]


_OCTAL = re.compile(rb"\\([0-7]{3})")
"""How ``/proc/self/mountinfo`` writes a space, tab, newline or backslash in a path: ``\\040``."""


def readable_by_others(path: Path, along: bool) -> bool:
    """Whether an unprivileged user id can read ``path`` (list it, for a folder), by the mode bits; with
    ``along``, reaching it too (no bind makes a way in: every folder on the way must be open)."""
    try:
        mode = path.stat().st_mode
        open_folders = closed_folder(path) is None if along else True
    except OSError:
        return False
    return bool(mode & 0o004) and (not path.is_dir() or bool(mode & 0o001)) and open_folders


def closed_folder(path: Path) -> Path | None:
    """The first folder on the way to ``path``, as it is spelled, that other users cannot pass
    through (no ``o+x``), or ``None``. Each is looked at through its links: a venv's
    ``bin/python`` is run by its own name, so a closed folder around the venv stops the player even
    where the interpreter it links to is open."""
    for folder in reversed(path.parents):
        if not folder.stat().st_mode & 0o001:
            return folder
    return None


def check_readable(paths: Iterable[str], what: str, along: bool = False) -> None:
    """As root, a player runs under another uid: say in one line which of its files that uid cannot
    read, and, with ``along``, which folder on the way it cannot pass."""
    for text in paths:
        # A missing one is reported where it is read.
        if Path(text).exists() and not readable_by_others(Path(text), along):
            closed = closed_folder(Path(text)) if along else None
            if closed is not None:
                raise MoocowError(
                    f"{what}: {text!r} is not reachable by other users: the folder {str(closed)!r} is "
                    "closed to them, and the sandbox runs players under an unprivileged user id "
                    f"(chmod o+x {shlex.quote(str(closed))}, or install where every user can reach)"
                )
            raise MoocowError(
                f"{what}: {text!r} is not readable by other users, and the sandbox runs players under "
                "an unprivileged user id (chmod o+rX it)"
            )


def identity(path: str | os.PathLike[str]) -> tuple[int, int] | None:
    """What a file or folder is, whatever it is called: its device and inode, after links (a
    folder bound under a second name has the same); ``None`` if it cannot be read."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino
