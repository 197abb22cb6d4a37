"""What was played, as the parts every platform shows: practice logs, the score, the graded details.

Every resubmission plays the same graded deck, so a graded round's secret or guess in any part a
student sees before the due date would let the next submission play it in one guess. Only the
``details`` parts hold graded rounds; the score holds totals and counts; the header names who was
graded and how. A practice round the player crashed shows where, in the student's own files
(``crashes``), and each practice round the last lines the player wrote to stderr (students debug
with ``print``). A graded round shows neither, nor the player's own line that ends a crash's
reason: what a player prints there could carry a graded secret. Each platform decides which parts
it shows, and when, from the course's visibility.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from moocow.course.course_file import deck_label
from moocow.course.crashes import crash_lines, named_in_submission
from moocow.course.points import graded_score
from moocow.runner.shown import cut
from moocow.sandbox.stderr_tail import ROUND_LINES

if TYPE_CHECKING:
    from moocow.course.course_file import Course
    from moocow.course.run import Played
    from moocow.runner.grading import Grade

PRINTED = (
    f"What your player wrote to stderr in these practice rounds (the last {ROUND_LINES} lines of each; "
    "graded rounds never show it):"
)
"""The line that starts a practice part's lines the player wrote to stderr, after its log."""


@dataclass(frozen=True)
class Part:
    """One part of a graded submission's report, shown by a platform as a test."""

    kind: str
    """``practice``, ``score`` or ``details``: the course's ``Visibility`` field that says when."""
    name: str
    score: float
    max_score: float
    log: str
    """The part's text, but for what the player printed."""
    printed: tuple[str, ...] = ()
    """A practice part's lines the player wrote to stderr (none in any other part)."""

    @property
    def output(self) -> str:
        """The whole text: the log, then what the player printed, under ``PRINTED``."""
        return "\n".join([self.log, *(["", PRINTED, *self.printed] if self.printed else [])])


def log(graded: Grade, secret_seed: bool = False) -> str:
    """A session's log as written: the seed in its header unless ``secret_seed`` (never shown then,
    nor any line of the player's stderr: a crash's reason is shown without the line that ends it)."""
    if secret_seed:
        return graded.written_log("Graded rounds, on the secret seed.", said=False)
    return graded.written_log()


def practice_part(practice: Grade, folder: Path | None = None) -> Part:
    """A practice session's log; with the player's ``folder``, where its lost rounds crashed in the
    student's own files (``crashes``); and the last lines the player wrote to stderr in each round.
    Practice only: a graded round's stderr is never read."""
    lost = [(result.round, result.stderr.lines) for result in practice.rounds if not result.solved]
    crashed = crash_lines(lost, folder) if folder is not None else []
    printed = practice.printed() if folder is None else named_in_submission(practice.printed(), folder)
    rounds = len(practice.rounds)
    name = f"Practice: {deck_label(practice.game)}, {rounds} rounds on the public seed {practice.seed}"
    text = "\n".join([log(practice), *(["", *crashed] if crashed else [])])
    return Part("practice", name, 0, 0, text, tuple(printed))


def parts(course: Course, played: Played) -> list[Part]:
    """The practice parts, the score, and each deck's graded details, in that order."""
    shown = [practice_part(one, played.folder) for one in played.practice]
    scored = graded_score(course, played.graded, played.marks)
    shown.append(Part("score", scored.name, scored.earned, scored.most, scored.text))
    shown += [
        Part("details", f"Graded rounds in detail: {deck_label(one.game)}", 0, 0, log(one, True))
        for one in played.graded
    ]
    return shown


def header(course: Course, played: Played, version: str) -> list[str]:
    """Who was graded, by which moocow, and how: practice in full, the graded rounds as the course's
    visibility says."""
    visibility = course.visibility
    who = (played.practice or played.graded)[0].identity
    return [
        f"moocow {version} graded {cut(course.player, 100)} "
        f"(student id {cut(who.student_id, 100)}, author {cut(who.author, 100)}).",
        f"Practice: {course.practice_rounds} rounds per deck on the public seed {course.practice_seed}, "
        f"shown in full ({visibility.practice}).",
        f"Graded: {course.rounds} rounds per deck on a secret seed; the total and points are shown "
        f"{_when(visibility.score)}, each graded round {_when(visibility.details)}.",
        "Every resubmission plays the same graded deck.",
    ]


def _when(visibility: str) -> str:
    return {
        "visible": "at once",
        "after_due_date": "after the due date",
        "after_published": "once grades are published",
        "hidden": "to instructors only",
    }[visibility]
