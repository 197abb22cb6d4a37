"""Opening a file a person named for moocow to read: a regular file, or one line saying why not.

A named pipe would wait for a writer forever and a device may never end, with nothing printed
(a FIFO given as a word file, a tree, a tournament file or a seed file hung the run). So the file
is opened without waiting and refused unless it is a regular file.
"""

from __future__ import annotations

import os
import stat
from typing import BinaryIO

from moocow.engine.errors import MoocowError


def open_regular(path: str | os.PathLike[str], what: str, shown: str | None = None) -> BinaryIO:
    """``path`` opened for reading in binary; ``what`` (``"word file"``) and ``shown`` (the path as
    the person wrote it) name it in the error."""
    named = f"{what} {shown if shown is not None else str(path)!r}"
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a pipe opens at once, to be refused
    except OSError as error:
        raise MoocowError(f"cannot read {named}: {error.strerror or error}") from None
    mode = os.fstat(descriptor).st_mode
    if not stat.S_ISREG(mode):
        os.close(descriptor)
        kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file (a device, pipe or socket)"
        raise MoocowError(f"{named} is {kind}")
    os.set_blocking(descriptor, True)
    return os.fdopen(descriptor, "rb")
