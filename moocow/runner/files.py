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
    """The path of a file to write, once its folder exists and it is not itself a folder."""
    target = Path(path)
    shown = str(path)
    if target.is_dir():
        raise MoocowError(f"{what} {shown!r} is a folder: name a file in it")
    folder = target.parent
    if not folder.is_dir():
        raise MoocowError(f"{what} {shown!r}: the folder {str(folder)!r} does not exist")
    return target


def create_private(path: str | os.PathLike[str]) -> int:
    """Create (or empty) a file readable and writable by its owner only; its descriptor, for writing."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE)
    with contextlib.suppress(OSError):
        os.fchmod(descriptor, PRIVATE)  # an empty file that already existed keeps its mode otherwise
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
