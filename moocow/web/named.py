"""The files named on ``moocow serve``'s command line, the only ones the pages open: found by
their place on the command line, never by a path from a URL, and read again only when changed
(a results file grows while its tournament plays)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from moocow.engine.errors import MoocowError

T = TypeVar("T")

_read: dict[tuple[str, str], tuple[tuple[int, int], Any]] = {}
"""Each file's last reading, by what it is and its path, with the size and time it had."""


def named_file(files: list[Path], number: int, what: str, read: Callable[[Path], T]) -> tuple[Path, T]:
    """The ``number``-th file of the command line and ``read`` of it, reused while unchanged."""
    if not 0 <= number < len(files):
        raise MoocowError(f"no {what} {number}: the server was started with {len(files)}")
    path = files[number]
    try:
        status = os.stat(path)
    except OSError as error:
        raise MoocowError(f"cannot read {what} {str(path)!r}: {error.strerror}") from None
    stamp = (status.st_size, status.st_mtime_ns)
    key = (what, str(path))
    cached = _read.get(key)
    if cached is None or cached[0] != stamp:
        cached = (stamp, read(path))
        _read[key] = cached
    return path, cached[1]
