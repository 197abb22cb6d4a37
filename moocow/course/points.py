"""The graded total as points: a point per round solved, or a scale between two marks.

A mark is a total (the course's), every round lost (``mercy``), or a built-in strategy's total on
the same graded deck, played by the same rules as the student's player. The score holds totals and
counts only: no secret, no guess, no reason, so every platform may show it at once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from moocow.course.course_file import deck_label
from moocow.engine.errors import MoocowError
from moocow.referee.players import PlayerKind, parse_player
from moocow.runner.tournament import build_tournament

if TYPE_CHECKING:
    from moocow.course.course_file import Course
    from moocow.runner.grading import Grade

SCORE_NAMES = {
    "solved": "Graded rounds: points, one per round solved",
    "scale": "Graded rounds: points for the total of guesses",
}
"""The score's title by points scheme: it shows points, and the total of guesses only in its text."""

Play = Callable[[str, str, int, int], "Grade"]
"""Plays a player (a file, a command or a strategy) on a deck, a seed and a number of rounds."""


@dataclass(frozen=True)
class Mark:
    """A total that earns full marks or none, and where it came from."""

    total: int
    """The golf total."""
    source: str
    """What gave it: ``minmax's total on the same graded deck``, ``the course's mark``, or
    ``every round lost``."""


@dataclass(frozen=True)
class Score:
    """The graded rounds as points, with the lines that say how they were earned."""

    name: str
    """Its title (``SCORE_NAMES``)."""
    earned: float
    most: float
    text: str
    """Totals and counts only."""


def points(total: int, full: Mark, zero: Mark, most: float) -> float:
    """``most`` at ``full`` or better, 0 at ``zero`` or worse, a straight line between (2 decimals)."""
    if total <= full.total:
        return most
    if total >= zero.total or zero.total <= full.total:
        return 0.0
    return round(most * (zero.total - total) / (zero.total - full.total), 2)


def course_marks(course: Course, seed: int, play: Play) -> tuple[Mark, Mark] | None:
    """The course's two marks on the graded deck (``None`` for a point per round solved)."""
    if course.points.scheme != "scale":
        return None
    return mark(course.points.full_at, course, seed, play), mark(course.points.zero_at, course, seed, play)


def mark(given: str | int, course: Course, seed: int, play: Play) -> Mark:
    """A points mark: a total as given, every round lost, or a strategy's total on the graded decks."""
    if isinstance(given, int):
        return Mark(given, "the course's mark")
    if given == "mercy":
        return Mark(course.rounds * course.mercy * len(course.decks), "every round lost")
    total = sum(play(given, deck, seed, course.rounds).total for deck in course.decks)
    return Mark(total, f"{given}'s total on the same graded deck")


def check_strategy(given: str | int) -> None:
    """A points mark that names a strategy must name a built-in one (checked when a course is built)."""
    if isinstance(given, str) and given != "mercy":
        try:
            kind = parse_player(given).kind
        except MoocowError:
            kind = None
        if kind is not PlayerKind.STRATEGY:
            raise MoocowError(f"points mark {given!r} is not a built-in strategy, a total or 'mercy'")
        build_tournament({"players": [given], "games": ["bottles:n=3"]})  # its parameters are checked


def solved(grades: Sequence[Grade]) -> tuple[int, int]:
    """Rounds solved and rounds played, over every deck: a point per round solved, of so many."""
    rounds = [result for one in grades for result in one.rounds]
    return sum(result.solved for result in rounds), len(rounds)


def graded_score(course: Course, graded: Sequence[Grade], marks: tuple[Mark, Mark] | None) -> Score:
    """The graded total as points, with totals and counts only: no secret, no guess, no reason."""
    rounds = [result for one in graded for result in one.rounds]
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
    return Score(SCORE_NAMES["solved" if marks is None else "scale"], earned, most, "\n".join(lines))
