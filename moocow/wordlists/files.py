"""Word files, one word a line: the one reader of every word file moocow is given.

The words game's ``file=``, Wordle's ``answers=`` and ``guesses=``, the course's deck
(``moocow grade --words``, a tournament's ``bacrunner:file=``), the copy a sandboxed player is
shown and the copy a Gradescope zip carries all read a word file here, so each refuses the same
files in the same line: one that is not a regular file, one holding a NUL byte anywhere (a binary
file; once only its first 64 KiB were searched, and only by the course's reader), one that is not
UTF-8. What each reader leaves out of a file, and why, is said once per process in one line
(``NOTES``), through the engine's notices, which the command line sends to stderr.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

from moocow.engine.errors import MoocowError, quoted
from moocow.engine.inputs import open_regular
from moocow.engine.progress import notify
from moocow.engine.wording import plural, printable


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


class WordTally:
    """What a reader did to a word file's words: how many it left out for each reason (``not of
    5 letters``) and how many it changed (``lower-cased``), with the first word of each to show."""

    def __init__(self, read: int) -> None:
        self.read = read
        """Words (non-blank lines) read."""
        self.left_out: dict[str, int] = {}
        """Words left out, by reason, in the order first met."""
        self.changed: dict[str, int] = {}
        """Words kept but changed, by change."""
        self.examples: dict[str, str] = {}
        """The first word of each reason and change, as the file has it."""

    def leave_out(self, reason: str, word: str) -> None:
        """One more word left out for ``reason``."""
        self._count(self.left_out, reason, word)

    def change(self, change: str, word: str) -> None:
        """One more word read with ``change``."""
        self._count(self.changed, change, word)

    def _count(self, counts: dict[str, int], what: str, word: str) -> None:
        counts[what] = counts.get(what, 0) + 1
        self.examples.setdefault(what, word)

    def line(self, named: str, kept: int) -> str | None:
        """One line saying what was left out and changed, and how often (``None``: nothing was)."""
        if not self.left_out and not self.changed:
            return None
        said = [f"{kept:,} of its {self.read:,} {plural(self.read, 'word')} kept"]
        if self.left_out:
            said.append(f"left out: {self._shown(self.left_out)}")
        if self.changed:
            said.append(self._shown(self.changed))
        return f"note: word file {printable(named)!r}: {'; '.join(said)}"

    def _shown(self, counts: dict[str, int]) -> str:
        return ", ".join(
            f"{count:,} {what} (e.g. {quoted(self.examples[what])})" for what, count in counts.items()
        )


class FileNotes:
    """The notes on word files this process has said, each said once: a web server makes a game
    per request and a tournament reads its deck for every session, and a note a line per read
    would bury what it says. ``reset`` lets them be said again (for tests)."""

    def __init__(self) -> None:
        self._said: set[str] = set()
        self._lock = threading.Lock()
        self._quiet: ContextVar[bool] = ContextVar("moocow_word_file_notes_quiet", default=False)

    def say(self, line: str | None) -> None:
        """Say ``line`` through the engine's notices (the command line sends them to stderr),
        unless this process has said it, or the reader is ``quiet``."""
        if line is None or self._quiet.get():
            return
        with self._lock:
            if line in self._said:
                return
            self._said.add(line)
        notify(line)

    @contextlib.contextmanager
    def quiet(self) -> Iterator[None]:
        """Say nothing inside the block: for a reader of a file another reader has spoken for (the
        course's deck plays its words in a word game of each length, whose notes would be its own)."""
        token = self._quiet.set(True)
        try:
            yield
        finally:
            self._quiet.reset(token)

    def reset(self) -> None:
        """Forget what was said."""
        with self._lock:
            self._said.clear()


NOTES = FileNotes()
"""This process's notes on word files."""


def game_file_words(path: str | os.PathLike[str], length: int, distinct: bool) -> tuple[str, ...]:
    """The words of a word file a word game can play, sorted and each once: ``length`` letters
    a-z, lower-cased first, with ``distinct`` no letter twice (Bulls and Cows). What was lower-cased
    or left out, and why, is said once, in one line (a five-line file once gave "1 secret" and
    nothing more)."""
    named = str(path)
    kept, line = _game_words(file_words(path), named, length, distinct)
    NOTES.say(line)
    return kept


@lru_cache(maxsize=16)
def _game_words(
    words: tuple[str, ...], named: str, length: int, distinct: bool
) -> tuple[tuple[str, ...], str | None]:
    """The words kept from one version of a file, and the note on the rest."""
    tally = WordTally(len(words))
    kept: set[str] = set()
    for word in words:
        lower = word.lower()
        if not (lower.isascii() and lower.isalpha()):
            tally.leave_out("with characters other than a-z", word)
        elif len(lower) != length:
            tally.leave_out(f"not of {length} letters", word)
        elif distinct and len(set(lower)) != length:
            tally.leave_out("with a letter twice", word)
        else:
            if lower != word:
                tally.change("lower-cased", word)
            if lower in kept:
                tally.leave_out("repeated", word)
            kept.add(lower)
    return tuple(sorted(kept)), tally.line(named, len(kept))
