"""Every reader of a word file refuses a binary one in one line naming it (``wordlists.files``):
the words game's ``file=``, Wordle's ``answers=`` and ``guesses=``, the course's deck, the copy a
sandboxed player is shown and the copy a Gradescope zip carries. Only the course's reader searched
for a NUL, and only in the first 64 KiB."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_cli_input import one_line_error, run

from moocow.engine.errors import MoocowError

PLACES = {"early": 12, "past 64 KiB": 12 + 6 * 20_000}
"""Where the NUL byte is, by offset: in the first 64 KiB, and past them."""


def binary_file(folder: Path, place: str) -> Path:
    """A word file of five-letter words with one NUL byte at ``PLACES[place]``."""
    words = b"crane\nslate\n" + b"about\n" * 20_000
    at = PLACES[place]
    path = folder / "words.txt"
    path.write_bytes(words[:at] + b"\0\n" + words[at:])
    return path


def good_file(folder: Path) -> Path:
    path = folder / "good.txt"
    path.write_text("crane\nslate\nabout\n")
    return path


COMMANDS = {
    "words file=": lambda bad, good: ("evaluate", f"words:file={bad}"),
    "wordle answers=": lambda bad, good: ("evaluate", f"wordle:answers={bad}"),
    "wordle guesses=": lambda bad, good: ("evaluate", f"wordle:answers={good},guesses={bad}"),
    "grade --words": lambda bad, good: (
        "grade",
        "tests/players/course_first.py",
        "--words",
        str(bad),
        "--seed",
        "1",
    ),
    "tournament deck": lambda bad, good: (
        "tournament",
        "-p",
        "minmax",
        "-g",
        f"words:file={bad}",
        "-r",
        "2",
        "--seed",
        "1",
    ),
}
"""Each reader, as the command line reaches it."""


@pytest.mark.parametrize("place", list(PLACES))
@pytest.mark.parametrize("reader", list(COMMANDS))
def test_a_binary_word_file_is_one_line_at_every_reader(tmp_path: Path, reader: str, place: str) -> None:
    """``words:file=`` and Wordle's files took a NUL as part of a word (exit 0); the course's deck
    looked for one only in the first 64 KiB."""
    bad = binary_file(tmp_path, place)
    command = COMMANDS[reader](bad, good_file(tmp_path))
    line = one_line_error(run(*command), f"word file '{bad}' is binary")
    assert f"(a NUL byte at offset {PLACES[place]})" in line


@pytest.mark.parametrize("place", list(PLACES))
def test_the_copies_of_a_word_file_refuse_a_binary_one(tmp_path: Path, place: str) -> None:
    """The read-only copy a sandboxed player is shown, and the copy a Gradescope zip carries, were
    made of whatever bytes the file held."""
    from moocow.gradescope.build import _read
    from moocow.runner.sandbox import snapshot

    bad = binary_file(tmp_path, place)
    for copy in (lambda: snapshot(str(bad)), lambda: _read(bad)):
        with pytest.raises(MoocowError, match=f"^word file '{bad}' is binary"):
            copy()


def test_a_word_file_that_is_not_utf8_is_one_line_for_the_games_too(tmp_path: Path) -> None:
    """The games read a Latin-1 file with its letters replaced by U+FFFD, as words no one typed."""
    path = tmp_path / "latin.txt"
    path.write_bytes("crane\nslate\nbr\u00e9ve\n".encode("latin-1"))
    one_line_error(
        run("evaluate", f"words:file={path}"), f"word file '{path}' is not UTF-8 text (a byte 0xe9"
    )
