"""Gradescope's ``results.json`` for a course: what students see, when, and nothing they should not.

Each part of the course's report (``moocow.course.report``) is a test, shown when the course's
visibility says: the graded rounds only in the details tests, whose visibility the course must set
to ``after_due_date`` or ``hidden``; the top-level output, the test names, the score test and the
leaderboard hold totals and counts only.

Everything is plain text (``output_format`` and the name formats ``text``: Gradescope renders no
HTML or Markdown a player sent), player text has its control characters escaped and is cut short,
and the whole file is kept under 1 MB (``runner/shown.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from moocow.course.report import header, parts
from moocow.runner.shown import PLAIN, TEXT, bounded, cut

if TYPE_CHECKING:
    from moocow.course.course_file import Course
    from moocow.course.run import Played

LEADERBOARD = {
    "total": ("Graded total of guesses", "asc"),
    "failed": ("Failed graded rounds", "asc"),
    "points": ("Points", "desc"),
    "worst": ("Most guesses in a graded round", "asc"),
}
"""Each leaderboard column a course may ask for: its name on Gradescope and its order."""
GRADED_MARK = "graded"
"""``extra_data.moocow.graded``: this submission counts toward the submission limit: it was graded, or
its player played graded rounds (one stopped by the time budget); a rate-limited one does not."""


def _test(name: str, score: float, max_score: float, output: str, visibility: str) -> dict[str, Any]:
    return {
        "name": name, "name_format": TEXT, "score": score, "max_score": max_score,
        "output": output, "output_format": TEXT, "visibility": visibility,
    }  # fmt: skip


def course_results(course: Course, played: Played, version: str) -> dict[str, Any]:
    """``results.json`` for one graded submission, bounded; see the module's docstring."""
    shown = parts(course, played)
    tests = [
        _test(part.name, part.score, part.max_score, part.output, getattr(course.visibility, part.kind))
        for part in shown
    ]
    rounds = [result for one in [*played.practice, *played.graded] for result in one.rounds]
    results: dict[str, Any] = {
        "output": "\n".join(header(course, played, version)),
        **PLAIN,
        "stdout_visibility": "hidden",
        "execution_time": round(sum(result.seconds for result in rounds)),
        "tests": tests,
        "extra_data": {"referee": played.referee, "moocow": {"version": version, GRADED_MARK: True}},
    }
    if course.leaderboard:
        graded = played.graded
        values = {
            "total": sum(one.total for one in graded),
            "failed": sum(one.standing.failed for one in graded),
            "points": next(part.score for part in shown if part.kind == "score"),
            "worst": max(one.standing.worst for one in graded),
        }
        results["leaderboard"] = [
            {"name": LEADERBOARD[column][0], "value": values[column], "order": LEADERBOARD[column][1]}
            for column in course.leaderboard
        ]
    return bounded(results)


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
