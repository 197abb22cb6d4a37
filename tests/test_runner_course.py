"""Course compatibility: the course runner's secrets, scores and log, and grading through the CLI."""

from __future__ import annotations

import gzip
import importlib.util
import json
import random
import string
from pathlib import Path
from types import ModuleType

import pytest
import typer
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from moocow.cli.runner import grade as grade_command
from moocow.engine.errors import MoocowError
from moocow.plugins import load_game
from moocow.referee import bacrunner
from moocow.runner.grading import grade
from moocow.sandbox.limits import Limits
from moocow.wordlists.alpha import ALPHA_FILE

PLAYERS = Path(__file__).parent / "players"


def course_runner(player: ModuleType, words: list[str], seed: int, rounds: int, mercy: int) -> list[str]:
    """bacrunner.py's play loop (ikokkari/BullsAndCows), printing into a list: the reference to match."""

    def count_bulls_and_cows(guess: str, secret: str) -> tuple[int, int]:
        bulls, cows = 0, 0
        for c1, c2 in zip(guess, secret, strict=False):
            if c1 == c2:
                bulls += 1
            else:
                cows += 1 if c1 in secret else 0
        return (bulls, cows)

    lines = [f"BACRunner Python with seed={seed}."]
    player.initialize_wordlist(words[:])
    total, rng = 0, random.Random(seed)
    for _ in range(rounds):
        secret = rng.choice(words)
        guesses_so_far: list[tuple[str, int, int]] = []
        guess, line = "", f"[{secret}]: "
        while secret != guess and mercy > len(guesses_so_far):
            guess = player.guess(len(secret), guesses_so_far)
            bulls, cows = count_bulls_and_cows(guess, secret)
            line += f"{guess} "
            guesses_so_far.append((guess, bulls, cows))
        lines.append(line)
        total += len(guesses_so_far)
    lines.append(f"{total} {player.student_id()} {player.author()}")
    return lines


def imported(path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """A player module imported into this process as the course runner imports it, its folder importable."""
    monkeypatch.syspath_prepend(str(path.parent))
    spec = importlib.util.spec_from_file_location(f"course_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def word_file(tmp_path: Path) -> Path:
    """A small word file with CRLF line ends, mixed lengths, repeated letters and stray spaces."""
    words = [
        "alpha", "bravo", "cider", "dwarf", "fjords", "glyphs", "cobweb", "nymph", "quartz", "wizard",
        "banana", "jumpy", "vexing", " flick ", "blinkers", "tuxedo", "a", "kitchens", "zephyr",
    ]  # fmt: skip
    path = tmp_path / "words.txt"
    path.write_bytes("\r\n".join(words).encode() + b"\r\n")
    return path


@pytest.fixture(scope="module")
def words_alpha(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The course's own file, as it has it: the shipped list decompressed, nothing else done to it."""
    path = tmp_path_factory.mktemp("course") / "words_alpha.txt"
    path.write_bytes(gzip.decompress(ALPHA_FILE.read_bytes()))
    return path


def test_course_secrets_for_seed_888() -> None:
    """The course's draw over its words_alpha.txt (shipped, the default deck): the first ten for seed 888."""
    words = bacrunner.WordSource().words()
    assert bacrunner.draw_secrets(words, 888, 10) == [
        "blinkers", "larkish", "plastin", "linters", "motives",
        "indra", "rashti", "hunts", "overawful", "kingcraft",
    ]  # fmt: skip


COURSE_PLAYERS = [PLAYERS / "course_first.py", PLAYERS / "course_probe.py"]
"""A player that guesses list words, and one that probes with non-words first."""


@pytest.mark.parametrize("player", COURSE_PLAYERS, ids=lambda path: path.stem)
def test_grade_matches_the_course_runner_on_words_alpha(
    player: Path, words_alpha: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the course's settings and by default its shipped list, moocow's log (so every guess and
    the total) is the course runner's over its own file, read as it reads it."""
    with open(words_alpha, encoding="utf-8") as lines:
        words = [word for word in (line.strip() for line in lines) if bacrunner.acceptable(word, 5, 15)]
    expected = course_runner(
        imported(player, monkeypatch), words, bacrunner.SEED, bacrunner.ROUNDS, bacrunner.MERCY
    )
    graded = grade(str(player))
    assert graded.log_lines() == expected
    assert graded.failures() == []
    assert grade(str(player), words=str(words_alpha), rounds=3).log_lines()[1:4] == expected[1:4]


def test_course_words_are_read_as_the_course_reads_them(word_file: Path) -> None:
    """Stripped, 5 to 15 characters, no character twice, in file order; CRLF line ends are no trouble."""
    assert bacrunner.WordSource(str(word_file)).words() == [
        "bravo", "cider", "dwarf", "fjords", "glyphs", "nymph", "quartz", "wizard",
        "jumpy", "vexing", "flick", "blinkers", "tuxedo", "kitchens", "zephyr",
    ]  # fmt: skip


@pytest.mark.parametrize("player", COURSE_PLAYERS, ids=lambda path: path.stem)
def test_grade_matches_the_course_runner_on_a_small_file(
    player: Path, word_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Any word file: same secrets, same guesses, same total, with mercy cutting rounds short."""
    words = bacrunner.WordSource(str(word_file)).words()
    expected = course_runner(imported(player, monkeypatch), words, seed=5, rounds=12, mercy=3)
    graded = grade(str(player), words=str(word_file), seed=5, rounds=12, mercy=3)
    assert graded.log_lines() == expected
    assert {result.failure for result in graded.rounds} <= {None, "mercy"}
    assert graded.total == int(expected[-1].split()[0])


@pytest.fixture(scope="module")
def every_length(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A word file with a word of each length from 1 to 15, so that every word game loads."""
    path = tmp_path_factory.mktemp("words") / "lengths.txt"
    path.write_text("\n".join(string.ascii_lowercase[:length] for length in range(1, 16)))
    return path


@given(st.data())
def test_the_engine_scores_distinct_letters_as_the_course_does(
    every_length: Path, data: st.DataObject
) -> None:
    """On words of distinct letters (every guess of the word game) the engine scores as the course does."""
    length = data.draw(st.integers(1, 15))
    words = st.permutations(string.ascii_lowercase).map(lambda letters: "".join(letters[:length]))
    guess, secret = data.draw(words), data.draw(words)
    game = load_game(f"words:length={length},file={every_length}")
    feedback = game.feedback(game.parse_code(guess)[None], game.parse_code(secret)[None])[0, 0]
    assert game.feedback_model.parts(feedback) == bacrunner.count_bulls_and_cows(guess, secret)


def test_grade_cli_prints_the_log_and_writes_gradescope_results(word_file: Path, tmp_path: Path) -> None:
    """`moocow grade`: the course log on stdout; results.json with a test per round and a golf leaderboard."""
    app = typer.Typer()
    app.command()(grade_command)
    results = tmp_path / "results.json"
    player = str(PLAYERS / "course_first.py")
    options = ["--words", str(word_file), "--rounds", "4", "--seed", "2", "--gradescope", str(results)]
    outcome = CliRunner().invoke(app, [player, *options])
    assert outcome.exit_code == 0, outcome.output
    lines = outcome.stdout.splitlines()
    assert lines[0] == "BACRunner Python with seed=2."
    assert lines[-1].endswith(" 123456789 Course, Test")
    written = json.loads(results.read_text())
    assert [test["max_score"] for test in written["tests"]] == [1, 1, 1, 1]
    total = int(lines[-1].split()[0])
    assert written["leaderboard"][0] == {"name": "Total guesses", "value": total, "order": "asc"}
    assert written["output"].splitlines()[: len(lines)] == lines


def test_grade_records_forfeited_rounds(word_file: Path) -> None:
    """A player that crashes still gets a log and a total; each lost round scores the mercy limit."""
    graded = grade(str(PLAYERS / "tamper.py"), words=str(word_file), rounds=3, limits=Limits(guess_seconds=5))
    assert graded.total == 3 * bacrunner.MERCY
    assert all("no secret in reach" in line for line in graded.failures())
    assert graded.log_lines()[-1] == f"{3 * bacrunner.MERCY} 0 Tamper, Test"


def test_grade_cli_error_is_one_line() -> None:
    """A missing word file is a one-line error with exit status 2."""
    app = typer.Typer()
    app.command()(grade_command)
    outcome = CliRunner().invoke(app, [str(PLAYERS / "course_first.py"), "--words", "/nonexistent/words.txt"])
    assert outcome.exit_code == 2
    assert outcome.output.strip().splitlines() == [outcome.output.strip()]
    assert "cannot read word file" in outcome.output


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("bacrunner:file=", "file= needs a word file"),
        ("bacrunner:file=w.txt,minlen=9,maxlen=6", "minlen 9 is more than maxlen 6"),
        ("bacrunner:file=w.txt,maxlen=16", "maxlen must be at most 15"),
    ],
)
def test_bad_course_decks_are_one_line_errors(spec: str, message: str) -> None:
    with pytest.raises(MoocowError, match=message):
        bacrunner.WordSource.from_spec(spec)
