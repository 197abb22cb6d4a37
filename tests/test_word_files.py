"""Every reader of a word file refuses a binary one in one line naming it (``wordlists.files``):
the words game's ``file=``, Wordle's ``answers=`` and ``guesses=``, the course's deck, the copy a
sandboxed player is shown and the copy a Gradescope zip carries. Only the course's reader searched
for a NUL, and only in the first 64 KiB."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_cli_input import one_line_error, run

from moocow.engine import progress
from moocow.engine.errors import MoocowError
from moocow.referee.bacrunner import WordSource
from moocow.wordlists.files import NOTES, game_file_words

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
    """The read-only copy a sandboxed player is shown, and the copy every platform ships (read by
    ``word_file_text`` in ``course.package``), were made of whatever bytes the file held."""
    from moocow.referee.players import parse_player
    from moocow.referee.seats import ProgramSeat
    from moocow.sandbox.limits import Limits
    from moocow.sandbox.sandbox import SandboxPolicy, snapshot
    from moocow.wordlists.files import word_file_text

    player = parse_player(str(Path(__file__).parent / "players" / "course_first.py"))
    seat = ProgramSeat(player, "mastermind", Limits(), SandboxPolicy())  # the seat's own reader
    bad = binary_file(tmp_path, place)
    for copy in (lambda: snapshot(str(bad), seat.launch.read_copy), lambda: word_file_text(bad)):
        with pytest.raises(MoocowError, match=f"^word file '{bad}' is binary"):
            copy()


def test_a_word_file_that_is_not_utf8_is_one_line_for_the_games_too(tmp_path: Path) -> None:
    """The games read a Latin-1 file with its letters replaced by U+FFFD, as words no one typed."""
    path = tmp_path / "latin.txt"
    path.write_bytes("crane\nslate\nbr\u00e9ve\n".encode("latin-1"))
    one_line_error(
        run("evaluate", f"words:file={path}"), f"word file '{path}' is not UTF-8 text (a byte 0xe9"
    )


FIVE_LINES = "Crane\ncrane\nab\nhello!\nslate\n"
"""A five-line file of which a five-letter game keeps two words (it once said only "2 secrets")."""
KEPT_OF_FIVE = (
    "2 of its 5 words kept; left out: 1 repeated (e.g. 'crane'), 1 not of 5 letters (e.g. 'ab'), "
    "1 with characters other than a-z (e.g. 'hello!'); 1 lower-cased (e.g. 'Crane')"
)
"""What is said of it."""


@pytest.fixture
def notes() -> Iterator[list[str]]:
    """The engine's notices, in a process that has said no note on a word file yet."""
    heard: list[str] = []
    progress.listen(heard.append)
    NOTES.reset()
    yield heard
    progress.listen(None)
    NOTES.reset()


def test_a_word_game_says_what_it_left_out_and_why(tmp_path: Path, notes: list[str]) -> None:
    """Repeats, upper case, other lengths and other characters were dropped or merged silently."""
    path = tmp_path / "five.txt"
    path.write_text(FIVE_LINES)
    assert game_file_words(path, 5, distinct=True) == ("crane", "slate")
    assert notes == [f"note: word file '{path}': {KEPT_OF_FIVE}"]
    path.write_text("Crane\nboost\n")  # distinct letters: Bulls and Cows only
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1_000_000_000))
    assert game_file_words(path, 5, distinct=False) == ("boost", "crane")
    assert game_file_words(path, 5, distinct=True) == ("crane",)
    assert notes[1:] == [
        f"note: word file '{path}': 2 of its 2 words kept; 1 lower-cased (e.g. 'Crane')",
        f"note: word file '{path}': 1 of its 2 words kept; left out: 1 with a letter twice (e.g. 'boost'); "
        "1 lower-cased (e.g. 'Crane')",
    ]


def test_a_clean_word_file_says_nothing(tmp_path: Path, notes: list[str]) -> None:
    assert game_file_words(good_file(tmp_path), 5, distinct=True) == ("about", "crane", "slate")
    assert notes == []


def test_the_course_deck_says_what_its_filter_left_out(tmp_path: Path, notes: list[str]) -> None:
    """The course keeps repeats and case, and leaves out other lengths and a character twice."""
    path = tmp_path / "course.txt"
    path.write_text("abcde\nabcde\nabc\nHELLO\nJumbled\n")
    assert WordSource(file=str(path)).words() == ["abcde", "abcde", "Jumbled"]
    assert notes == [
        f"note: word file '{path}': 3 of its 5 words kept; left out: 1 not of 5 to 15 characters "
        "(e.g. 'abc'), 1 with a character twice (e.g. 'HELLO')"
    ]


def moocow(*arguments: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """``moocow ARGUMENTS`` as a person runs it, in ``folder``: its notes go to stderr."""
    return subprocess.run(
        [sys.executable, "-m", "moocow", *arguments],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_each_file_is_one_line_on_stderr_once_per_process(tmp_path: Path) -> None:
    """A tournament deals a word file's words for every round and session, and the course's deck
    reads its file in a word game of each length: each file is still said once, in one line."""
    (tmp_path / "five.txt").write_text(FIVE_LINES)
    (tmp_path / "course.txt").write_text("abcde\nabc\nfghij\n")
    (tmp_path / "seed").write_text("7\n")
    games = ("words:file=five.txt", "wordle:answers=five.txt,guesses=five.txt", "bacrunner:file=course.txt")
    done = moocow(
        "tournament",
        *(argument for game in games for argument in ("-g", game)),
        *("-p", "first", "-p", "minmax", "-r", "3", "--seed-file", "seed"),
        folder=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    notes = [line for line in done.stderr.splitlines() if line.startswith("note: word file")]
    assert notes == [
        f"note: word file 'five.txt': {KEPT_OF_FIVE}",
        "note: word file 'course.txt': 2 of its 3 words kept; "
        "left out: 1 not of 5 to 15 characters (e.g. 'abc')",
    ], done.stderr
