"""A student's own prints (stderr) reach them: in ``moocow grade``'s log, in the practice rounds on
Gradescope and PrairieLearn, in the Classroom log; bounded, escaped, and never from a graded round.

A player printing three lines on every guess showed none of them on Gradescope, and in ``grade``'s
log one line of three or none: solved rounds kept nothing, a lost one its last 8 lines of a 4 KiB
tail, and a plain ``print`` (stdout, which the adapter sends to stderr) sat in an 8 KiB buffer until
the player was killed.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moocow.cli import app
from moocow.course.package import COURSE_FILE, SEED_FILE
from moocow.course.points import SCORE_NAMES
from moocow.course.report import PRINTED
from moocow.platforms.classroom.grade import grade_course
from moocow.platforms.gradescope.grading import Layout, run_autograder
from moocow.platforms.gradescope.tryout import default_metadata
from moocow.platforms.prairielearn.grader import run_grader, server_files
from moocow.sandbox.stderr_tail import LINE_BYTES, LINE_SHOWN, ROUND_LINES, LineTail, RoundStderr
from tests.gradescope_helpers import PLAYERS, assert_graded_deck_unseen, plain_text_everywhere, visible_text

GAME = "mastermind:pegs=3,colors=3"
PRINTING = """

import sys

rounds = 0


def next_guess(game, history):
    global rounds
    rounds += not history
    where = f"my round #{rounds}, guess {len(history) + 1}"
    print(f"{where}: line 1 of 3", file=sys.stderr)
    print(f"{where}: line 2 of 3 <b>not bold</b> \\x1b[31mnot red", file=sys.stderr)
    print(f"{where}: line 3 of 3", file=sys.stderr)
    if rounds > 1 and history:
        raise RuntimeError(f"{where}: crashed")
    return first_candidate(game, history)
"""
THREE_LINES = (PLAYERS / "first_candidate.py").read_text().replace(
    "def next_guess(", "def first_candidate("
) + PRINTING
"""Three lines of stderr on every guess, numbered by the rounds this process has played: a course's
practice process plays one round, so ``my round #2`` is written only in graded rounds, where the
player also crashes on its second guess, its last line of stderr ending the crash's reason. One
file (a player in the runner's folder is shown its own file alone)."""


def player_folder(tmp_path: Path, source: str) -> Path:
    folder = tmp_path / "player"
    folder.mkdir()
    (folder / "bacplayer.py").write_text(source)
    return folder


def grade_log(tmp_path: Path, source: str, *options: str) -> tuple[str, str]:
    player = player_folder(tmp_path, source) / "bacplayer.py"
    done = CliRunner().invoke(app, ["grade", str(player), "--game", GAME, "--seed", "7", *options])
    assert done.exit_code == 0, done.output
    return done.stdout, done.stderr


# --- moocow grade ---


def test_grade_shows_every_line_a_solved_round_printed(tmp_path: Path) -> None:
    """Three lines on each guess, in rounds the player solves: all of them, under each round, escaped;
    the course log on stdout is as it was."""
    once = THREE_LINES.replace("rounds > 1 and history", "False")
    stdout, stderr = grade_log(tmp_path, once, "--rounds", "2")
    told = stderr.splitlines()
    for number in (1, 2):
        at = next(at for at, line in enumerate(told) if line.startswith(f"round {number} ["))
        assert " solved in " in told[at]
        guesses = int(told[at].split(" solved in ")[1].split()[0])
        printed = told[at + 1 : at + 1 + 3 * guesses]
        assert printed == [
            f"  stderr: my round #{number}, guess {guess}: {line}"
            for guess in range(1, guesses + 1)
            for line in ("line 1 of 3", "line 2 of 3 <b>not bold</b> \\x1b[31mnot red", "line 3 of 3")
        ]
    assert "\x1b" not in stderr and "my round" not in stdout and len(stdout.splitlines()) == 4


def test_a_plain_print_reaches_the_log_at_once(tmp_path: Path) -> None:
    """``print`` without ``file=``: the adapter sends it to stderr, line by line (it sat in a block
    buffer, lost when the player was killed at the session's end)."""
    plain = THREE_LINES.replace(", file=sys.stderr", "").replace("rounds > 1 and history", "False")
    _, stderr = grade_log(tmp_path, plain, "--rounds", "1")
    assert "  stderr: my round #1, guess 1: line 1 of 3" in stderr.splitlines()
    assert "  stderr: my round #1, guess 2: line 3 of 3" in stderr.splitlines()


def test_a_long_round_shows_its_last_lines_and_how_many_came_before(tmp_path: Path) -> None:
    """Bounded: the last ``ROUND_LINES`` lines of a round, a line saying how many were left out, and
    a long line cut, saying its length. Lines a player writes at import belong to its first round."""
    flood = "\n".join(
        [
            "    for n in range(30):",
            "        print(f'line {n}', file=sys.stderr)",
            "    print('x' * 5000, file=sys.stderr)",
            "    return first_candidate(game, history)",
        ]
    )
    chatty = THREE_LINES.replace("rounds = 0", "rounds = 0\nprint('imported', file=sys.stderr)").replace(
        '    print(f"{where}: line 1 of 3", file=sys.stderr)', flood
    )
    _, stderr = grade_log(tmp_path, chatty, "--rounds", "2")
    told = stderr.splitlines()
    first = next(at for at, line in enumerate(told) if line.startswith("round 1 ["))
    guesses = int(told[first].split(" solved in ")[1].split()[0])
    assert told[first + 1] == f"  ... {1 + 31 * guesses - ROUND_LINES:,} earlier lines left out"
    assert told[first + 2 : first + 1 + ROUND_LINES] == [f"  stderr: line {n}" for n in range(11, 30)]
    assert told[first + 1 + ROUND_LINES] == f"  stderr: {'x' * LINE_SHOWN}... (a line of 5,000 bytes)"
    second = next(at for at, line in enumerate(told) if line.startswith("round 2 ["))
    assert "imported" not in "\n".join(told[second:])


def test_a_crash_shows_the_students_prints_and_frames_not_the_adapters(tmp_path: Path) -> None:
    """The adapter's seven frames took most of a crashed round's lines: the traceback now starts at
    the player's own frame, so the three lines printed before it are shown too."""
    _, stderr = grade_log(tmp_path, THREE_LINES, "--rounds", "2")
    raised = 1 + next(at for at, line in enumerate(THREE_LINES.splitlines()) if "raise RuntimeError" in line)
    told = stderr.splitlines()
    lost = next(at for at, line in enumerate(told) if line.startswith("round 2 [") and ": crash: " in line)
    assert told[lost + 1 : lost + 7] == [
        f"  stderr: my round #2, guess {guess}: {line}"
        for guess in (1, 2)
        for line in ("line 1 of 3", "line 2 of 3 <b>not bold</b> \\x1b[31mnot red", "line 3 of 3")
    ]
    assert told[lost + 7 : lost + 9] == [
        "  stderr: Traceback (most recent call last):",
        f'  stderr:   File "{tmp_path / "player" / "bacplayer.py"}", line {raised}, in next_guess',
    ]
    assert "adapter.py" not in stderr and "frozen" not in stderr


def test_the_tail_keeps_whole_lines_of_any_flood_at_a_bounded_cost() -> None:
    """A chunk's lines are counted, not walked: a megabyte of empty lines is quick; a line is kept to
    ``LINE_BYTES``; a line not ended yet is shown; the last line said is found past blank ones."""
    tail = LineTail()
    tail.feed(b"first\nsecond half")
    mark = tail.count
    started = time.perf_counter()
    for _ in range(16):
        tail.feed(b"\n" * 65536)
    assert time.perf_counter() - started < 1.0
    tail.feed(b"y" * (3 * LINE_BYTES) + b"\n\n  \nnot ended \x07")
    kept = tail.since(mark)
    assert kept.left_out == 16 * 65536 + 3 - (ROUND_LINES - 1)
    assert kept.lines[-2:] == ("", "not ended \\x07")
    assert tail.last_line() == "not ended \x07" and len(tail._kept[-3][0]) == LINE_BYTES
    tail.feed(b"\n\n")
    assert tail.last_line() == "not ended \x07"
    assert RoundStderr.from_dict(kept.to_dict()) == kept


# --- Gradescope and PrairieLearn ---


COURSE = f'[gradescope]\ngames = ["{GAME}"]\nrounds = 2\npractice_rounds = 1\n'
"""One practice round, two graded."""


@pytest.fixture(scope="module")
def gradescope_results(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """A submission of ``THREE_LINES`` graded as on Gradescope: one practice round, two graded."""
    root = tmp_path_factory.mktemp("autograder")
    layout = Layout(root)
    for folder in (layout.source, layout.results.parent):
        folder.mkdir(parents=True)
    shutil.copytree(player_folder(root, THREE_LINES), layout.submission)
    layout.course.write_text(COURSE)
    layout.seed.write_text("123456789012345\n")
    layout.metadata.write_text(json.dumps(default_metadata()))
    return run_autograder(root)


def test_a_practice_rounds_prints_are_in_the_students_gradescope_view(gradescope_results: dict) -> None:
    """The acceptance: the three lines of each guess of the practice round, in the practice test's
    output that the student sees, escaped, as plain text."""
    results = gradescope_results
    (practice,) = [test for test in results["tests"] if test["name"].startswith("Practice")]
    assert practice["visibility"] == "visible" and PRINTED in practice["output"]
    for line in ("line 1 of 3", "line 2 of 3 <b>not bold</b> \\x1b[31mnot red", "line 3 of 3"):
        assert f"  stderr: my round #1, guess 1: {line}" in practice["output"].splitlines()
        assert f"  stderr: my round #1, guess 2: {line}" in visible_text(results).splitlines()
    plain_text_everywhere(results)
    assert "\x1b" not in json.dumps(results, ensure_ascii=False)


def test_a_graded_rounds_prints_are_nowhere_a_student_looks(gradescope_results: dict) -> None:
    """Graded rounds print ``my round #2`` and crash with it as their last line of stderr: it is in
    no part of results.json, the graded details shown after the due date included (the crash's
    reason is shown without it), nor in PrairieLearn's results."""
    results = gradescope_results
    assert "my round #2" not in json.dumps(results)
    (details,) = [test for test in results["tests"] if test["name"].startswith("Graded rounds in detail")]
    assert "]: crash: " in details["output"] and "crashed" not in details["output"]
    assert_graded_deck_unseen(results, "123456789012345")


@pytest.fixture(scope="module")
def prairielearn_shown(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The same submission graded as on PrairieLearn."""
    root = tmp_path_factory.mktemp("grade")
    server_files(root).mkdir(parents=True)
    shutil.copytree(player_folder(root, THREE_LINES), root / "student")
    (server_files(root) / COURSE_FILE).write_text(COURSE)
    (server_files(root) / SEED_FILE).write_text("123456789012345\n")
    return run_grader(root)


def test_prairielearn_shows_a_practice_rounds_prints_in_its_message(
    gradescope_results: dict, prairielearn_shown: dict
) -> None:
    """PrairieLearn's message holds them, under the practice test's name; its test no longer does. A
    graded round's are nowhere."""
    shown = prairielearn_shown
    assert "my round #2" not in json.dumps(shown)
    assert "  stderr: my round #1, guess 1: line 1 of 3" in shown["message"].splitlines()
    assert shown["message"].startswith(gradescope_results["output"] + "\n\nPractice: ")
    assert not any("my round" in test["output"] for test in shown["tests"])


def test_the_score_tests_title_says_it_shows_points(gradescope_results: dict) -> None:
    """ "Graded rounds: total of guesses: 5 / 5" showed points beside a title naming the total."""
    scored = next(test for test in gradescope_results["tests"] if test["max_score"])
    assert scored["name"] == SCORE_NAMES["solved"] == "Graded rounds: points, one per round solved"
    assert "total of guesses" not in scored["name"] and "total " in scored["output"]


# --- GitHub Classroom ---


def test_the_classroom_log_shows_what_each_round_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every Classroom round is public, practice in all but name: its prints go to the workflow's log,
    each after ``stderr:``, so no line a player prints can be a ``::command::`` of GitHub Actions."""
    folder = player_folder(tmp_path, THREE_LINES.replace("guess {len", "guess ::error::{len"))
    (folder / "course.toml").write_text(f'[gradescope]\ngames = ["{GAME}"]\nrounds = 1\n')
    monkeypatch.chdir(folder)
    said: list[str] = []
    grade_course(folder / "course.toml", 5, said.append)
    assert "  stderr: my round #1, guess ::error::1: line 1 of 3" in said
    assert not any(line.lstrip().startswith("::") for line in said)
