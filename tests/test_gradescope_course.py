"""Gradescope: the course file, results.json composed from graded rounds, run_autograder without a
player (a file missing, the submission limit), and the command line's refusals."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import time
import tomllib
import zipfile
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from moocow.cli import app
from moocow.course import run
from moocow.course.course_file import Course, Points, course_from, read_course
from moocow.course.points import Mark, points
from moocow.course.run import Played
from moocow.engine.errors import MoocowError
from moocow.platforms.gradescope import grading
from moocow.platforms.gradescope.grading import Layout, run_autograder
from moocow.platforms.gradescope.results import course_results
from moocow.platforms.gradescope.tryout import default_metadata, student_view
from moocow.runner.grading import grade
from moocow.runner.shown import GUESS_SHOWN, MOST_BYTES, bounded
from moocow.sandbox.limits import Limits
from tests.gradescope_helpers import (
    PLAYERS,
    check_specification,
    graded_rounds,
    moocow,
    plain_text_everywhere,
    visible_text,
)  # fmt: skip

# --- The course file ---


def test_a_course_file_reads_back_as_the_zip_writes_it(tmp_path: Path) -> None:
    """Every key survives to_toml and read_course; deck files become the course folder's."""
    table = {
        "games": ["mastermind:pegs=3,colors=3", "words:length=5,file=w.txt"], "rounds": 7,
        "practice_rounds": 1,
        "practice_seed": 5, "mercy": 9, "files": ["bot.py", "helper.py"], "leaderboard": ["points", "worst"],
        "points": {"scheme": "scale", "max": 50, "full_at": 30, "zero_at": "first"},
        "visibility": {"practice": "after_published", "score": "visible", "details": "hidden"},
        "submissions": {"most": 3, "hours": 12}, "limits": {"guess_seconds": 2},
    }  # fmt: skip
    course = course_from(table)
    assert course.player == "bot.py" and course.submissions is not None and course.submissions.most == 3
    (tmp_path / "course.toml").write_text(course.to_toml())
    again = read_course(tmp_path / "course.toml")
    assert again == course.with_files(lambda name: str(tmp_path / name))
    assert again.decks[1] == f"words:length=5,file={tmp_path / 'w.txt'}"


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"visibility": {"details": "visible"}}, "must be after_due_date or hidden"),
        ({"visibility": {"details": "after_published"}}, "must be after_due_date or hidden"),
        ({"visibility": {"score": "soon"}}, "not one of visible"),
        ({"visibility": {"score": "after_published"}}, "a leaderboard shows the graded totals at once"),
        ({"seed": 4}, "unknown key 'seed'"),
        ({"files": ["../bot.py"]}, "not paths"),
        ({"leaderboard": ["speed"]}, "unknown leaderboard column"),
        ({"points": {"scheme": "scale"}}, "needs max"),
        ({"submissions": {"most": 0}}, "at least 1"),
        ({"rounds": 0}, "at least 1"),
        ({"min_length": 9, "max_length": 6}, "minlen 9 is more than maxlen 6"),
    ],
)
def test_a_bad_course_is_one_line(table: dict[str, Any], message: str) -> None:
    with pytest.raises(MoocowError, match=message):
        course_from(table)


def test_points_scale_between_two_marks() -> None:
    """Full marks at the full mark or better, none at the zero mark or worse, a straight line between."""
    full, zero = Mark(100, "minmax"), Mark(300, "every round lost")
    assert [points(total, full, zero, 10) for total in (90, 100, 200, 250, 300, 400)] == [
        10,
        10,
        5,
        2.5,
        0,
        0,
    ]


# --- results.json, composed directly ---


@pytest.mark.parametrize("scheme", ["solved", "scale"])
def test_no_graded_secret_guess_or_reason_where_a_student_looks(scheme: str) -> None:
    """The graded secrets, guesses and lost rounds' reasons are only in the details test; the practice
    deck is shown in full; the score test, names, output and leaderboard hold totals and counts."""
    course = Course(
        ("words:length=5",),
        rounds=2,
        points=Points(scheme, 10),
        leaderboard=("total", "failed", "points", "worst"),
    )
    practice = [graded_rounds(["pupil"], ["opens"], 888)]
    graded = [graded_rounds(["zebra", "quilt"], ["gauzy", "fjord"], 4242424242424, solved=False)]
    marks = (Mark(10, "minmax"), Mark(40, "every round lost")) if scheme == "scale" else None
    results = course_results(course, Played(practice, graded, marks), "0")
    check_specification(results)
    plain_text_everywhere(results)
    visible = visible_text(results)
    for secret in ("zebra", "quilt", "gauzy", "fjord", "is not a guess", "4242424242424"):
        assert secret not in visible
    assert "pupil" in visible and "opens" in visible and "total 40 guesses" in visible
    details = results["tests"][-1]
    assert details["visibility"] == "after_due_date" and "[zebra]: gauzy fjord" in details["output"]
    assert "4242424242424" not in json.dumps(results)


def test_totals_kept_until_published_show_nowhere_before() -> None:
    """With the score shown once grades are published and no leaderboard, what a student sees before
    holds no graded total: the covert channel of a visible total is closed."""
    table = {"games": ["words:length=5"], "leaderboard": [], "visibility": {"score": "after_published"}}
    graded = [graded_rounds(["zebra", "quilt"], ["gauzy", "fjord"], 4242424242424, solved=False)]
    results = course_results(course_from(table), Played([], graded, None), "0")
    check_specification(results)
    assert "leaderboard" not in results and "40" not in visible_text(results)
    assert (
        results["tests"][0]["visibility"] == "after_published" and "total 40" in results["tests"][0]["output"]
    )


def test_results_are_cut_to_a_megabyte() -> None:
    """However long the outputs, the file is kept under the bound by halving the longest."""
    results = {"output": "x" * 3_000_000, "tests": [{"output": "y" * 2_000_000} for _ in range(3)]}
    assert len(json.dumps(bounded(results)).encode()) <= MOST_BYTES


def test_grade_writes_plain_bounded_results_for_a_flooding_player(tmp_path: Path) -> None:
    """`moocow grade --gradescope` too: 65,535-character guesses and HTML are cut and plain text; the
    file is kilobytes, where the same player once made megabytes."""
    words = tmp_path / "words.txt"
    words.write_text("hunts\nmotes\nplastin\n")
    graded = grade(
        str(PLAYERS / "hostile" / "flood.py"), words=str(words), rounds=2, limits=Limits(guess_seconds=20)
    )
    results = graded.gradescope()
    assert results["output_format"] == "text" and all(
        test["output_format"] == "text" for test in results["tests"]
    )
    assert len(json.dumps(results)) < 60_000 and max(map(len, results["output"].split())) <= GUESS_SHOWN + 40
    assert sum(len(guess) for result in graded.rounds for guess in result.guesses) > 1_000_000


def test_what_the_student_sees_is_the_visible_part() -> None:
    results = {
        "output": "hello",
        "tests": [
            {"name": "shown", "score": 1, "max_score": 2, "output": "public", "visibility": "visible"},
            {"name": "later", "score": 0, "max_score": 0, "output": "SECRET", "visibility": "after_due_date"},
        ],
        "leaderboard": [{"name": "Graded total of guesses", "value": 12, "order": "asc"}],
    }
    view = "\n".join(student_view(results))
    assert "public" in view and "SECRET" not in view and "later (after_due_date)" in view and "= 12" in view


# --- run_autograder without a player: a missing file, the submission limit ---


def laid_out(tmp_path: Path, course: str, files: dict[str, str], metadata: dict[str, Any]) -> Path:
    layout = Layout(tmp_path)
    for folder in (layout.source, layout.submission, layout.results.parent):
        folder.mkdir(parents=True)
    layout.course.write_text(course)
    layout.seed.write_text("123456789012345\n")
    layout.metadata.write_text(json.dumps(metadata))
    for name, text in files.items():
        (layout.submission / name).write_text(text)
    return tmp_path


def test_a_missing_file_is_one_line_and_no_points(tmp_path: Path) -> None:
    root = laid_out(
        tmp_path, '[gradescope]\ngames = ["bottles:n=3"]\n', {"player.py": ""}, default_metadata()
    )
    results = run_autograder(root)
    check_specification(results)
    assert results["score"] == 0 and results["output"].count("\n") == 0
    assert "no bacplayer.py" in results["output"] and "player.py" in results["output"]
    (Layout(root).submission / "bacplayer.py").symlink_to(Layout(root).seed)
    assert "Not graded: the submission has no bacplayer.py" in run_autograder(root)["output"]


def test_over_the_submission_limit_the_last_graded_results_stand(tmp_path: Path) -> None:
    """Two graded submissions in the last 24 hours with at most two allowed: no player runs, the last
    graded results are kept with a line saying why; an ungraded earlier one does not count."""
    metadata = default_metadata()
    scored = {"name": "Graded rounds: points, one per round solved", "score": 3, "max_score": 4}
    earlier = {"output": "old", "tests": [scored],
               "extra_data": {"moocow": {"graded": True}}}  # fmt: skip
    missing = {"output": "Not graded", "score": 0, "extra_data": {"moocow": {"graded": False}}}
    metadata["previous_submissions"] = [
        {"submission_time": "2000-01-01T00:00:00+00:00", "score": 1, "results": earlier},
        {"submission_time": metadata["created_at"], "score": 3, "results": earlier},
        {"submission_time": metadata["created_at"], "score": 0, "results": missing},
    ]
    course = '[gradescope]\ngames = ["bottles:n=3"]\n[gradescope.submissions]\nmost = 1\nhours = 24\n'
    root = laid_out(tmp_path, course, {"bacplayer.py": "raise SystemExit"}, metadata)
    results = run_autograder(root)
    assert results["output"].startswith("Not graded: at most 1 graded submissions in 24 hours")
    assert results["tests"] == earlier["tests"] and results["extra_data"]["moocow"]["graded"] is False
    metadata["previous_submissions"] = metadata["previous_submissions"][:1]
    Layout(root).metadata.write_text(json.dumps(metadata))
    assert "limit" not in run_autograder(root)["output"]


# --- The command line ---


def test_try_takes_earlier_submissions_from_metadata(tmp_path: Path) -> None:
    """`gradescope try --metadata`: a submission over the course's limit keeps the last graded results."""
    course = '[gradescope]\ngames = ["bottles:n=3"]\n[gradescope.submissions]\nmost = 1\n'
    (tmp_path / "course.toml").write_text(course)
    assert moocow(sys.executable, "gradescope", "build", "course.toml", cwd=tmp_path).returncode == 0
    metadata = default_metadata()
    earlier = {"output": "earlier", "tests": [], "score": 7, "extra_data": {"moocow": {"graded": True}}}
    metadata["previous_submissions"] = [{"submission_time": metadata["created_at"], "results": earlier}]
    (tmp_path / "metadata.json").write_text(json.dumps(metadata))
    (tmp_path / "metadata.json").chmod(0o600)  # earlier results: one others can read is refused
    (tmp_path / "bacplayer.py").write_text("")
    arguments = ["autograder.zip", "bacplayer.py", "--metadata", "metadata.json"]
    done = moocow(sys.executable, "gradescope", "try", *arguments, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Not graded: at most 1 graded submissions in 24 hours" in done.stdout and "Score: 7" in done.stdout


def test_build_takes_a_course_file_or_options_not_both(tmp_path: Path) -> None:
    (tmp_path / "course.toml").write_text("[gradescope]\n")
    done = moocow(sys.executable, "gradescope", "build", "course.toml", "--rounds", "3", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.startswith("error: give the course file or the options")
    assert done.stderr.count("\n") == 1 and not (tmp_path / "autograder.zip").exists()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--words", "missing.txt"], "error: cannot read word file '"),
        (["--game", "chess"], "error: unknown game 'chess'"),
        (
            ["--game", "bottles:n=3", "--rounds", "0"],
            "error: the options: rounds must be a whole number of at least 1",
        ),
        (["course.toml"], "error: points mark 'bot.py' is not a built-in strategy"),
    ],
)
def test_build_refuses_a_course_it_could_not_grade_in_one_line(
    tmp_path: Path, arguments: list[str], message: str
) -> None:
    """A deck file missing, a game unknown, a points mark that is no strategy: one line before any zip."""
    course = '[gradescope]\ngames = ["bottles:n=3"]\n[gradescope.points]\nscheme = "scale"\nmax = 5\n'
    course += 'full_at = "bot.py"\n'
    (tmp_path / "course.toml").write_text(course)
    done = moocow(sys.executable, "gradescope", "build", *arguments, cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.startswith(message) and done.stderr.count("\n") == 1
    assert not (tmp_path / "autograder.zip").exists()


def test_with_no_deck_given_the_course_plays_the_shipped_words(tmp_path: Path) -> None:
    """No --words, no --game: the course's words_alpha.txt shipped in moocow's wheel; no file in the zip."""
    done = moocow(sys.executable, "gradescope", "build", "--rounds", "2", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(tmp_path / "autograder.zip") as opened:
        names = opened.namelist()
        course = course_from(tomllib.loads(opened.read("course.toml").decode())["gradescope"])
    assert course.decks == ("bacrunner",) and not [name for name in names if name.endswith(".txt")]


def test_build_from_options_puts_the_games_in_the_zip(tmp_path: Path) -> None:
    done = moocow(sys.executable, "gradescope", "build", "-g", "bottles:n=3", "--rounds", "2", "-o", "a.zip",
                  cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(tmp_path / "a.zip") as opened:
        course = course_from(tomllib.loads(opened.read("course.toml").decode())["gradescope"])
    assert course.decks == ("bottles:n=3",) and course.rounds == 2 and course.player == "bacplayer.py"


def test_marks_out_of_time_are_the_courses_error_not_the_players(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The points marks are played first, in the time budget: when they spend it, the results say the
    autograder failed (the course's doing, the error for instructors), not that the player was slow."""
    played = []

    def slow_grade(player: str, *arguments: Any, **options: Any) -> Any:
        played.append(player)
        time.sleep(3)
        raise AssertionError("the budget of 1 s is spent first")

    monkeypatch.setattr(run, "grade", slow_grade)
    course = (
        '[gradescope]\ngames = ["bottles:n=3"]\nseconds = 1\n[gradescope.points]\nscheme = "scale"\nmax = 5\n'
    )
    root = laid_out(tmp_path, course, {"bacplayer.py": ""}, default_metadata())
    with pytest.raises(MoocowError, match=r"points marks \(minmax, mercy\) took longer than its time budget"):
        run_autograder(root)
    results = json.loads(Layout(root).results.read_text())
    assert played == ["minmax"] and results["output"] == grading.FAILED
    assert (
        results["extra_data"]["moocow"]["graded"] is False and results["tests"][0]["visibility"] == "hidden"
    )


def test_an_error_once_graded_rounds_were_played_counts_toward_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure of the autograder is not counted (not the student's doing) unless it came once the
    player had played graded rounds: a player that could make the runner fail, on a bit of a
    graded secret, would otherwise have a free try with each submission."""
    real = run.grade

    def failing(player: str, deck: str, seed: int, **options: Any) -> Any:
        if seed != 888:
            raise RuntimeError("a runner's bug a player found")
        return real(player, deck, seed=seed, **options)

    monkeypatch.setattr(run, "grade", failing)
    course = '[gradescope]\ngames = ["bottles:n=3"]\npractice_rounds = 1\n'
    root = laid_out(
        tmp_path, course, {"bacplayer.py": "def guess(n, g):\n    return '0'\n"}, default_metadata()
    )
    with pytest.raises(RuntimeError, match="a runner's bug"):
        run_autograder(root)
    results = json.loads(Layout(root).results.read_text())
    assert results["output"] == grading.FAILED and results["extra_data"]["moocow"]["graded"] is True


def test_a_submission_thousands_of_folders_deep_still_ends_with_results(tmp_path: Path) -> None:
    """Made writable by root alone by a recursive walk, a submission 1,100 folders deep raised
    RecursionError before anything was written: no results. It ends with results that say what
    happened, whatever it is."""
    root = laid_out(tmp_path, '[gradescope]\ngames = ["bottles:n=3"]\n', {}, default_metadata())
    deep = Layout(root).submission / "/".join(["d"] * 1100)
    subprocess.run(["mkdir", "-p", deep], check=True)  # pathlib's mkdir recurses too
    try:
        (deep / "bacplayer.py").write_text("")
        with contextlib.suppress(RecursionError):
            run_autograder(root)
    finally:  # rm, not pytest's recursive removal of old temporary folders, which this tree would break
        subprocess.run(["rm", "-rf", Layout(root).submission], check=True)
    results = json.loads(Layout(root).results.read_text())
    check_specification(results)
    assert results["output"].startswith("Not graded")


def test_run_ends_a_bug_in_one_line_and_keeps_its_traceback_for_instructors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug in the autograder (any error but a person's mistake) ended ``run`` in a traceback, with
    status 1. It is one line and status 2; the traceback's last lines are in the hidden test."""

    def buggy(*arguments: Any, **options: Any) -> Any:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(run, "grade", buggy)
    root = laid_out(
        tmp_path, '[gradescope]\ngames = ["bottles:n=3"]\n', {"bacplayer.py": ""}, default_metadata()
    )
    done = CliRunner().invoke(app, ["gradescope", "run", str(root)])
    assert done.exit_code == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "error: the autograder failed: RecursionError: maximum recursion depth exceeded (its traceback is "
        "in results.json, in a test only instructors see)"
    ]
    results = json.loads(Layout(root).results.read_text())
    assert results["output"] == grading.FAILED
    (hidden,) = results["tests"]
    assert hidden["visibility"] == "hidden" and hidden["output"].startswith(
        "Traceback (most recent call last):"
    )
    assert "in buggy" in hidden["output"] and "\\n" not in hidden["output"]
