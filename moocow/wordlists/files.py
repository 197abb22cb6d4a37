"""Word files, one word a line: the one reader of every word file moocow is given.

The words game's ``file=``, Wordle's ``answers=`` and ``guesses=``, the course's deck
(``moocow grade --words``, a tournament's ``bacrunner:file=``), the copy a sandboxed player is
shown and the copy a Gradescope zip carries all read a word file here, so each refuses the same
files in the same line: one that is not a regular file, one holding a NUL byte anywhere (a binary
file; once only its first 64 KiB were searched, and only by the course's reader), one that is not
UTF-8.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from moocow.engine.errors import MoocowError
from moocow.engine.inputs import open_regular


def word_file_text(path: str | os.PathLike[str], shown: str | None = None) -> str:
    """The whole text of a word file as it is on disk (a byte order mark kept), or one line naming
    it (``shown``: the path as the person wrote it) saying why it is no file of words. Read once
    per version of the file: the result is kept until its modification time or size changes."""
    named = str(path) if shown is None else shown
    resolved = Path(path).expanduser().resolve()
    try:
        status = resolved.stat()
    except OSError as error:
        raise MoocowError(f"cannot read word file {named!r}: {error.strerror or error}") from None
    return _text(resolved, named, status.st_mtime_ns, status.st_size)


@lru_cache(maxsize=8)
def _text(path: Path, named: str, mtime_ns: int, size: int) -> str:
    """Read and checked once per version of the file; ``mtime_ns`` and ``size`` only key the cache."""
    try:
        with open_regular(path, "word file", named) as file:
            data = file.read()
    except OSError as error:
        raise MoocowError(f"cannot read word file {named!r}: {error.strerror or error}") from None
    nul = data.find(b"\0")
    if nul >= 0:
        raise MoocowError(f"word file {named!r} is binary (a NUL byte at offset {nul}), not a file of words")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise MoocowError(
            f"word file {named!r} is not UTF-8 text (a byte {error.object[error.start]:#04x})"
        ) from None


def file_words(path: str | os.PathLike[str]) -> tuple[str, ...]:
    """The non-blank lines of a word file, stripped, in file order, duplicates and case kept.

    File order matters (a runner may draw secrets in it), so nothing is sorted here. Line ends
    may be LF, CRLF or CR, and a byte order mark is dropped.
    """
    return _words(word_file_text(path))


@lru_cache(maxsize=16)
def _words(text: str) -> tuple[str, ...]:
    """The words of one version of a file's text (the same text object while the file is unchanged)."""
    return tuple(word for word in map(str.strip, text.removeprefix("\ufeff").splitlines()) if word)
