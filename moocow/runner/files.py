"""Files the runner writes: checked before the first round, written whole or not at all, private.

A grading run that fails at the end because its output folder is missing wastes every round it
played, so output paths are checked first. A whole-file output (Gradescope's ``results.json``) is
written to a temporary file in the same folder and then renamed over the target, so a reader (or
a killed runner) never sees half a file. The results file is append-only by design; it is created
readable by its owner only.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from moocow.engine.errors import MoocowError

PRIVATE = 0o600
"""Mode of a file the runner creates: its secrets and results are no one else's business."""


def check_output(path: str | os.PathLike[str], what: str) -> Path:
    """The file to write for ``path``, refused in one line unless it can be: its folder exists and
    takes a new file, and it is a regular file or nothing yet. A device, pipe or socket is refused
    (``/dev/null`` was once made private, and a FIFO hung the run); a link is written through, so
    it stays a link."""
    shown = str(path)
    target = _through_links(path, what)
    if target.is_dir():
        raise MoocowError(f"{what} {shown!r} is a folder: name a file in it")
    folder = target.parent
    if not folder.is_dir():
        raise MoocowError(f"{what} {shown!r}: the folder {str(folder)!r} does not exist")
    if target.exists() and not target.is_file():
        raise MoocowError(f"{what} {shown!r} is not a regular file (a device, pipe or socket): name a file")
    try:  # a folder that exists may still take no file (/proc, a read-only mount)
        descriptor, probe = tempfile.mkstemp(dir=folder, prefix=".moocow-probe-")
    except OSError as error:
        reason = error.strerror or error
        raise MoocowError(f"{what} {shown!r}: cannot write in {str(folder)!r}: {reason}") from None
    os.close(descriptor)
    os.unlink(probe)
    return target


def _through_links(path: str | os.PathLike[str], what: str) -> Path:
    """The file ``path`` names once links are followed (a link's target, to be written through);
    a loop of links is refused now, not once the work is done."""
    if not Path(path).is_symlink():
        return Path(path)
    try:
        return Path(os.path.realpath(path, strict=True))
    except FileNotFoundError:  # a dangling link: its target is made
        return Path(os.path.realpath(path))
    except OSError as error:
        raise MoocowError(f"{what} {str(path)!r}: {error.strerror or error}") from None


def one_name(path: str | os.PathLike[str], what: str) -> os.stat_result | None:
    """The file at ``path`` itself (``None``: nothing there yet), refused in one line if the path
    can be led to another file: a symbolic link, or a file with another name (a hard link). A
    results file's chain record names its path, so a path led elsewhere (a link to an empty file)
    found no record and its tournament was played again under a new chain."""
    try:
        found = os.lstat(path)
    except OSError:  # nothing there yet, or unreadable: opening it says so
        return None
    if stat.S_ISLNK(found.st_mode):
        raise MoocowError(
            f"{what} {str(path)!r} is a symbolic link: name the file itself (a link can be pointed "
            "at another file, and the record of the file's chain does not follow it)"
        )
    _single(found, path, what)
    return found


def same_file(descriptor: int, found: os.stat_result | None, path: str | os.PathLike[str], what: str) -> None:
    """The file open as ``descriptor`` is the one ``one_name`` found at ``path``, with one name
    still: a link put there in between is refused too."""
    now = os.fstat(descriptor)
    if found is not None and (now.st_dev, now.st_ino) != (found.st_dev, found.st_ino):
        raise MoocowError(f"{what} {str(path)!r} was replaced while it was being opened: run again")
    _single(now, path, what)


def _single(found: os.stat_result, path: str | os.PathLike[str], what: str) -> None:
    if stat.S_ISREG(found.st_mode) and found.st_nlink > 1:
        raise MoocowError(
            f"{what} {str(path)!r} has another name (a hard link): remove the other name, or copy "
            "the file (the record of its chain follows one name)"
        )


def create_private(path: str | os.PathLike[str]) -> int:
    """Create a file readable and writable by its owner only, or open one to append to, never
    through a link; its descriptor, for appending (nothing is cut before the caller holds the file)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW, PRIVATE)
    with contextlib.suppress(OSError):
        if os.fstat(descriptor).st_size == 0:  # an empty file that already existed keeps its mode otherwise
            os.fchmod(descriptor, PRIVATE)
    return descriptor


def write_atomically(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) as the whole file: a private temporary file beside it, then ``os.replace``."""
    target = Path(path)
    try:
        descriptor, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as error:
        raise MoocowError(f"cannot write {str(path)!r}: {error.strerror or error}") from None
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise MoocowError(f"cannot write {str(path)!r}: {error.strerror or error}") from None
        raise
