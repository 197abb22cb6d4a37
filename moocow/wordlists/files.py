"""Words from a text file, one per line, in file order."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from moocow.engine.errors import MoocowError
from moocow.engine.inputs import open_regular


def file_words(path: str | os.PathLike[str]) -> tuple[str, ...]:
    """The non-blank lines of a word file, stripped, in file order, duplicates and case kept.

    File order matters (a runner may draw secrets in it), so nothing is sorted here. Line ends
    may be LF, CRLF or CR. The result is cached until the file's modification time or size changes.
    """
    resolved = Path(path).expanduser().resolve()
    try:
        status = resolved.stat()
    except OSError as error:
        raise MoocowError(f"cannot read word file {str(path)!r}: {error.strerror or error}") from None
    return _read(resolved, status.st_mtime_ns, status.st_size)


@lru_cache(maxsize=16)
def _read(path: Path, mtime_ns: int, size: int) -> tuple[str, ...]:
    """Read once per version of the file; ``mtime_ns`` and ``size`` only key the cache."""
    try:
        with open_regular(path, "word file") as file:
            text = file.read().decode("utf-8-sig", errors="replace")
    except OSError as error:
        raise MoocowError(f"cannot read word file {str(path)!r}: {error.strerror or error}") from None
    return tuple(word for word in map(str.strip, text.splitlines()) if word)
