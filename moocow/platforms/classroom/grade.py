"""``classroom grade``: the course's graded rounds on each push, as the grading reporter reads them.

It plays in the checkout (the workflow's folder) on the seed the workflow gives, and prints the
reporter's results (``reporter``). The step's log shows each lost round and what the player wrote
to stderr in each round (``say_printed``): the deck is public, so every round is practice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from moocow.course.course_file import Course, deck_label, read_course
from moocow.course.points import graded_score
from moocow.course.run import Played, play_decks
from moocow.engine.errors import MoocowError
from moocow.platforms.classroom.reporter import classroom_results
from moocow.runner.grading import Grade
from moocow.sandbox.sandbox import SandboxPolicy


def grade_course(course_file: Path, seed: int, say: Callable[[str], None] = print) -> dict[str, Any]:
    """The reporter's results for the player in this folder (the checkout) on the course's graded rounds."""
    course = read_course(course_file)
    missing = [name for name in course.files if not Path(name).is_file()]
    if missing:
        return _missing(course, missing)
    played = play_decks(course, seed, runner_sandbox(say), practice=False)
    say_printed(played.graded, say)
    if course.points.scheme == "solved":
        return classroom_results(played.graded)
    return _scaled(course, played)


def say_printed(grades: Sequence[Grade], say: Callable[[str], None]) -> None:
    """Each lost round, and each round the player wrote to stderr in with its last lines, in the
    workflow's log as ``moocow grade`` shows them: the deck is public, so every round is practice."""
    for one in grades:
        told = one.failures(stderr=True)
        if told and len(grades) > 1:
            say(f"{deck_label(one.game)}:")
        for line in told:
            say(line)


def runner_sandbox(say: Callable[[str], None]) -> SandboxPolicy:
    """The strongest sandbox the Actions runner allows, else none, said in a line: the runner, the
    workflow and the deck are the student's own, so a sandbox there keeps nothing from them, and a
    runner without namespaces (Ubuntu 24.04's AppArmor refuses them to bubblewrap) must still grade."""
    try:
        SandboxPolicy().confinement()
    except MoocowError as error:
        say(f"note: the player runs unconfined, as the runner's user: {error}")
        return SandboxPolicy(unconfined=True)
    return SandboxPolicy()


def _scaled(course: Course, played: Played) -> dict[str, Any]:
    """One test: the course's scale between its two marks, played on the same deck where a strategy."""
    scored = graded_score(course, played.graded, played.marks)
    status = "pass" if scored.earned >= scored.most else "fail"
    test = {"name": scored.name, "status": status, "score": scored.earned, "message": scored.text}
    return {"version": 1, "status": status, "max_score": scored.most, "tests": [test]}


def _missing(course: Course, missing: list[str]) -> dict[str, Any]:
    """No player to play: an error the reporter shows, no points of the course's most."""
    most = course.points.max if course.points.scheme == "scale" else course.rounds * len(course.decks)
    message = f"the repository has no {', '.join(missing)}: commit {', '.join(course.files)}"
    test = {"name": "The player's files", "status": "error", "score": 0, "message": message}
    return {"version": 1, "status": "error", "max_score": most, "tests": [test]}
