"""Gradescope's ``results.json`` for a course: what students see, when, and nothing they should not.

Every resubmission plays the same graded deck (Gradescope grades each with the same zip, so the
same seed), so a graded round's secret or guess in any field a student sees before the due date
would let the next submission play it in one guess. Here the graded rounds appear only in the
details tests, whose visibility the course must set to ``after_due_date`` or ``hidden``; the
top-level output, the test names, the score test and the leaderboard hold totals and counts only.

Everything is plain text (``output_format`` and the name formats ``text``: Gradescope renders no
HTML or Markdown a player sent), player text has its control characters escaped and is cut short,
and the whole file is kept under 1 MB (``runner/shown.py``). A practice round the player crashed
shows where, in the student's own files (``crashes``), and each practice round the last lines the
player wrote to stderr in it (students debug with ``print``). A graded round shows neither, nor the
player's own line that ends a crash's reason: what a player prints there could carry a graded secret.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from moocow.gradescope.course import Course
from moocow.gradescope.crashes import crash_lines, named_in_submission
from moocow.referee.specfiles import renamed_files
from moocow.runner.shown import PLAIN, TEXT, bounded, cut
from moocow.sandbox.stderr_tail import ROUND_LINES

if TYPE_CHECKING:
    from moocow.runner.grading import Grade
    from moocow.runner.results import RoundResult

LEADERBOARD = {
    "total": ("Graded total of guesses", "asc"),
    "failed": ("Failed graded rounds", "asc"),
    "points": ("Points", "desc"),
    "worst": ("Most guesses in a graded round", "asc"),
}
"""Each leaderboard column a course may ask for: its name on Gradescope and its order."""
PRINTED = (
    f"What your player wrote to stderr in these practice rounds (the last {ROUND_LINES} lines of each; "
    "graded rounds never show it):"
)
"""The line that starts a practice test's part holding what the player wrote to stderr, after the
log (PrairieLearn moves that part into its message)."""
SCORE_NAMES = {
    "solved": "Graded rounds: points, one per round solved",
    "scale": "Graded rounds: points for the total of guesses",
}
"""The score test's title by points scheme: it shows points (Gradescope writes them beside it, as
``5.0 / 5.0``), and the total of guesses only in its output."""
GRADED_MARK = "graded"
"""``extra_data.moocow.graded``: this submission counts toward the submission limit: it was graded, or
its player played graded rounds (one stopped by the time budget); a rate-limited one does not."""


def deck_label(deck: str) -> str:
    """A deck as students read it: its file by name, not by the container's path."""
    return renamed_files(deck, lambda path: Path(path).name)


def log(graded: Grade, secret_seed: bool = False) -> str:
    """A session's log as written: the seed in its header unless ``secret_seed`` (never shown then,
    nor any line of the player's stderr: a crash's reason is shown without the line that ends it)."""
    if secret_seed:
        return graded.written_log("Graded rounds, on the secret seed.", said=False)
    return graded.written_log()


@dataclass(frozen=True)
class Mark:
    """A total that earns full marks or none, and where it came from."""

    total: int
    """The golf total."""
    source: str
    """What gave it: ``minmax's total on this deck``, ``the course``, ``every round lost``."""


def points(total: int, full: Mark, zero: Mark, most: float) -> float:
    """``most`` at ``full`` or better, 0 at ``zero`` or worse, a straight line between (2 decimals)."""
    if total <= full.total:
        return most
    if total >= zero.total or zero.total <= full.total:
        return 0.0
    return round(most * (zero.total - total) / (zero.total - full.total), 2)


def practice_log(practice: Grade, folder: Path | None = None) -> str:
    """A practice session's log; with the player's ``folder``, where its lost rounds crashed in the
    student's own files (``crashes``); then, under ``PRINTED``, the last lines the player wrote to
    stderr in each round. Practice only: a graded round's stderr is never read."""
    lost = [(result.round, result.stderr.lines) for result in practice.rounds if not result.solved]
    crashed = crash_lines(lost, folder) if folder is not None else []
    printed = practice.printed() if folder is None else named_in_submission(practice.printed(), folder)
    return "\n".join(
        [log(practice), *(["", *crashed] if crashed else []), *(["", PRINTED, *printed] if printed else [])]
    )


def _test(name: str, score: float, max_score: float, output: str, visibility: str) -> dict[str, Any]:
    return {
        "name": name, "name_format": TEXT, "score": score, "max_score": max_score,
        "output": output, "output_format": TEXT, "visibility": visibility,
    }  # fmt: skip


def _rounds(grades: Sequence[Grade]) -> list[RoundResult]:
    return [result for graded in grades for result in graded.rounds]


def score_test(course: Course, graded: Sequence[Grade], marks: tuple[Mark, Mark] | None) -> dict[str, Any]:
    """The graded total as points, with totals and counts only: no secret, no guess, no reason."""
    rounds = _rounds(graded)
    total = sum(result.score for result in rounds)
    lost = Counter(result.failure for result in rounds if not result.solved)
    lines = [
        f"{len(rounds)} graded rounds on a secret deck, the same for every submission: "
        f"total {total} guesses, {sum(lost.values())} lost (mercy {course.mercy})."
    ]
    if len(graded) > 1:
        lines += [
            f"  {deck_label(one.game)}: total {one.total}, {one.standing.failed} lost" for one in graded
        ]
    if lost:
        lines.append(
            "Lost rounds by cause: " + ", ".join(f"{count} {kind}" for kind, count in sorted(lost.items()))
        )
    if marks is None:
        earned, most = float(len(rounds) - sum(lost.values())), float(len(rounds))
        lines.append(f"Points: {earned:g} of {most:g}, a point per round solved.")
    else:
        full, zero = marks
        most = course.points.max
        earned = points(total, full, zero, most)
        lines.append(
            f"Points: {earned:g} of {most:g}: full marks at a total of {full.total} ({full.source}) "
            f"or less, none at {zero.total} ({zero.source}) or more, a straight line between."
        )
    name = SCORE_NAMES["solved" if marks is None else "scale"]
    return _test(name, earned, most, "\n".join(lines), course.visibility.score)


def course_results(
    course: Course,
    practice: Sequence[Grade],
    graded: Sequence[Grade],
    marks: tuple[Mark, Mark] | None,
    referee: dict[str, Any],
    version: str,
    folder: Path | None = None,
) -> dict[str, Any]:
    """``results.json`` for one graded submission, bounded; see the module's docstring. ``folder``:
    where the player ran, so that practice rounds it crashed show where, in the student's files."""
    visibility = course.visibility
    tests = [
        _test(f"Practice: {deck_label(one.game)}, {len(one.rounds)} rounds on the public seed {one.seed}",
              0, 0, practice_log(one, folder), visibility.practice)
        for one in practice
    ]  # fmt: skip
    scored = score_test(course, graded, marks)
    tests.append(scored)
    tests += [
        _test(f"Graded rounds in detail: {deck_label(one.game)}", 0, 0, log(one, True), visibility.details)
        for one in graded
    ]
    who = (practice or graded)[0].identity
    lines = [
        f"moocow {version} graded {cut(course.player, 100)} "
        f"(student id {cut(who.student_id, 100)}, author {cut(who.author, 100)}).",
        f"Practice: {course.practice_rounds} rounds per deck on the public seed {course.practice_seed}, "
        f"shown in full ({visibility.practice}).",
        f"Graded: {course.rounds} rounds per deck on a secret seed; the total and points are shown "
        f"{_when(visibility.score)}, each graded round {_when(visibility.details)}.",
        "Every resubmission plays the same graded deck.",
    ]
    results: dict[str, Any] = {
        "output": "\n".join(lines),
        **PLAIN,
        "stdout_visibility": "hidden",
        "execution_time": round(sum(result.seconds for result in _rounds([*practice, *graded]))),
        "tests": tests,
        "extra_data": {"referee": referee, "moocow": {"version": version, GRADED_MARK: True}},
    }
    if course.leaderboard:
        values = {
            "total": sum(one.total for one in graded),
            "failed": sum(one.standing.failed for one in graded),
            "points": scored["score"],
            "worst": max(one.standing.worst for one in graded),
        }
        results["leaderboard"] = [
            {"name": LEADERBOARD[column][0], "value": values[column], "order": LEADERBOARD[column][1]}
            for column in course.leaderboard
        ]
    return bounded(results)


def _when(visibility: str) -> str:
    return {
        "visible": "at once",
        "after_due_date": "after the due date",
        "after_published": "once grades are published",
        "hidden": "to instructors only",
    }[visibility]


def ungraded(message: str, version: str, error: str | None = None, counted: bool = False) -> dict[str, Any]:
    """A submission that was not graded (a file missing, out of time, the autograder failed): one
    line saying why, score 0; the autograder's ``error``, if any, in a test only instructors see.
    ``counted``: it counts toward the submission limit as a graded one does (its player played)."""
    shown = None if error is None else "\n".join(cut(line, 500) for line in error.splitlines()[-24:])
    tests = [] if shown is None else [_test("The autograder's error", 0, 0, shown, "hidden")]
    return {
        "score": 0,
        "output": cut(message, 2000),
        **PLAIN,
        "stdout_visibility": "hidden",
        "tests": tests,
        "extra_data": {"moocow": {"version": version, GRADED_MARK: counted}},
    }
