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


def create_private(path: str | os.PathLike[str]) -> int:
    """Create a file readable and writable by its owner only, or open one to append to; its
    descriptor, for appending (nothing is cut before the caller holds the file)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, PRIVATE)
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


def identity(path: str | os.PathLike[str]) -> tuple[int, int] | None:
    """What a file or folder is, whatever it is called: its device and inode, after links (a
    folder bound under a second name has the same); ``None`` if it cannot be read."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino
