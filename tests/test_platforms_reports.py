"""`moocow grade --format codegrade|classroom`: the one line each platform reads, on the course's players.

Golden files hold what the platforms document: CodeGrade's points line, and the grading reporter's
results for a course player on a small word file (read back as the reporter reads them).
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from moocow.cli.runner import grade as grade_command
from moocow.engine.errors import MoocowError
from moocow.platforms.classroom.reporter import (
    MOST_BYTES,
    MOST_TESTS,
    classroom_results,
    encoded,
)
from moocow.platforms.codegrade import codegrade_line
from moocow.runner.grading import grade
from tests.gradescope_helpers import PLAYERS, graded_rounds
from tests.platforms_helpers import GOLDEN, check_reporter_results, reporter_points, reporter_runners

WORDS = ["alpha", "bravo", "cider", "dwarf", "fjords", "glyphs", "cobweb", "nymph", "quartz", "wizard",
         "banana", "jumpy", "vexing", " flick ", "blinkers", "tuxedo", "a", "kitchens", "zephyr"]  # fmt: skip


@pytest.fixture
def word_file(tmp_path: Path) -> Path:
    path = tmp_path / "words.txt"
    path.write_bytes("\r\n".join(WORDS).encode() + b"\r\n")
    return path


def graded(player: str, word_file: Path, form: str, *more: str) -> tuple[str, str]:
    """stdout and stderr of ``moocow grade PLAYER`` in ``form``, on 4 rounds of the word file."""
    app = typer.Typer()
    app.command()(grade_command)
    options = ["--words", str(word_file), "--rounds", "4", "--seed", "2", "--format", form, *more]
    outcome = CliRunner().invoke(app, [str(PLAYERS / player), *options])
    assert outcome.exit_code == 0, outcome.output
    return outcome.stdout, outcome.stderr


def test_the_codegrade_line_is_the_documented_one(word_file: Path) -> None:
    """CodeGrade's example line, byte for byte; on a course player, the rounds solved of those played,
    alone on stdout (the log goes to stderr)."""
    assert codegrade_line(3, 5) + "\n" == (GOLDEN / "codegrade.txt").read_text()
    stdout, stderr = graded("course_first.py", word_file, "codegrade", "--mercy", "1")
    assert stdout == '{"tag":"points","points":"1/4"}\n'
    assert stderr.startswith("BACRunner Python with seed=2.\n") and " 123456789 Course, Test\n" in stderr


def test_the_classroom_line_is_what_the_reporter_decodes(word_file: Path) -> None:
    """One line of base64 (what $GITHUB_OUTPUT takes); the reporter decodes it, as in
    ``<ID>_RESULTS``, to the golden results, and its grade is the rounds solved."""
    stdout, _ = graded("course_first.py", word_file, "classroom", "--mercy", "1")
    assert stdout.count("\n") == 1 and stdout.strip().isascii()
    (results,) = reporter_runners({"MOOCOW_RESULTS": stdout.strip()}, "moocow")
    assert results == json.loads((GOLDEN / "classroom.json").read_text())
    check_reporter_results(results)
    assert reporter_points([results]) == (1, 4)
    raw, _ = graded("course_first.py", word_file, "classroom-json", "--mercy", "1")
    assert json.loads(raw) == results


def test_a_crashing_player_gets_failed_tests_with_reasons(word_file: Path) -> None:
    stdout, _ = graded("crash.py", word_file, "classroom")
    results = json.loads(base64.b64decode(stdout))
    check_reporter_results(results)
    assert results["status"] == "fail" and reporter_points([results]) == (0, 4)
    assert all("crash" in test["message"] for test in results["tests"])


def test_the_flood_player_stays_small_and_plain(word_file: Path) -> None:
    """65,535-character guesses and HTML in author(): each message is cut, the whole is a few KB."""
    flood = grade(str(PLAYERS / "hostile" / "flood.py"), words=str(word_file), rounds=4)
    results = classroom_results([flood])
    check_reporter_results(results)
    assert len(json.dumps(results)) < 4_000 < MOST_BYTES
    assert all(len(test["message"]) < 200 for test in results["tests"])


def test_a_bad_format_is_one_line(word_file: Path) -> None:
    app = typer.Typer()
    app.command()(grade_command)
    outcome = CliRunner().invoke(app, ["minmax", "--words", str(word_file), "--format", "xml"])
    assert outcome.exit_code == 2 and outcome.output.count("\n") == 1
    assert "--format must be one of text, codegrade, classroom, classroom-json" in outcome.output
    outcome = CliRunner().invoke(
        app, ["minmax", "--words", str(word_file), "--rounds", "301", "--format", "classroom"]
    )
    assert outcome.exit_code == 2 and outcome.output.count("\n") == 1 and not outcome.stdout.startswith("BAC")
    assert "at most 300 rounds, not 301" in outcome.output


def test_the_reporters_results_fit_an_environment_variable_or_are_refused() -> None:
    """300 lost rounds whose reasons are wide characters keep their names and points, their messages
    shortened to the status, within the 128 KiB of an environment variable; 301 rounds are refused."""
    wide = "\U0001f402" * 500
    secrets = [f"s{number}" for number in range(MOST_TESTS)]
    results = classroom_results([graded_rounds(secrets, [wide], seed=1, solved=False)])
    check_reporter_results(results)
    assert len(encoded(results)) < 128 * 1024 and {test["message"] for test in results["tests"]} == {"fail"}
    with pytest.raises(MoocowError, match="at most 300 rounds, not 301"):
        classroom_results([graded_rounds([*secrets, "one more"], ["x"], seed=1)])
