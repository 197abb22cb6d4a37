"""What GitHub Classroom's grading reporter reads of a graded player: one line.

GitHub Classroom's ``autograding-grading-reporter`` reads, for each runner id, an environment
variable ``<ID>_RESULTS`` holding base64 JSON: ``{"version": 1, "status", "max_score", "tests":
[{"name", "status": "pass"|"fail"|"error", "score", "message", ...}]}``; it adds up the tests'
``score`` against ``max_score`` for the grade. A workflow step passes it through ``$GITHUB_OUTPUT``,
which takes one line, hence base64 (``classroom-json`` prints the same JSON undecoded, to read).

Each graded round is a test (a point if solved), so the reporter's table and its grade agree. An
environment variable holds at most 128 KiB (Linux's ``MAX_ARG_STRLEN``): player text is cut, and
more rounds than ``MOST_TESTS`` are refused in one line rather than lost.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from moocow.course.course_file import deck_label
from moocow.course.points import solved
from moocow.engine.errors import MoocowError
from moocow.engine.wording import plural
from moocow.runner.shown import cut

if TYPE_CHECKING:
    from moocow.runner.grading import Grade

MOST_TESTS = 300
"""Rounds reported to the grading reporter: each is a test of at most about 300 bytes, and the
base64 of them all must fit an environment variable (128 KiB)."""
MOST_BYTES = 96_000
"""The reporter's JSON at most, before base64 (4/3 of it: 128,000 bytes, under 131,072)."""
SECRET_SHOWN = 40
"""Characters of a secret in a test's name (a word file's words may be long)."""
REASON_SHOWN = 120
"""Characters of a lost round's reason (the player's own text, often)."""


def classroom_results(grades: Sequence[Grade]) -> dict[str, Any]:
    """The grading reporter's results: a test per graded round, a point if solved."""
    rounds = [(one, result) for one in grades for result in one.rounds]
    check_rounds(len(rounds))
    many = len(grades) > 1
    tests = []
    for one, result in rounds:
        deck = f"{cut(deck_label(one.game), SECRET_SHOWN)} " if many else ""
        status = "pass" if result.solved else "fail"
        count = len(result.guesses)
        message = (
            f"solved in {count} {plural(count, 'guess')}"
            if result.solved
            else f"lost ({result.failure}, scored {result.score}): {cut(result.reason or '', REASON_SHOWN)}"
        )
        tests.append({
            "name": f"{deck}round {result.round + 1}: {cut(result.secret, SECRET_SHOWN)}",
            "status": status, "score": int(result.solved), "message": message,
        })  # fmt: skip
    earned, most = solved(grades)
    results = {
        "version": 1,
        "status": "pass" if earned == most else "fail",
        "max_score": most,
        "tests": tests,
    }
    if _size(results) > MOST_BYTES:  # wide characters in every message: the names and points stay
        for test in tests:
            test["message"] = test["status"]
    if _size(results) > MOST_BYTES:
        raise MoocowError("the reporter's results would not fit an environment variable: fewer rounds")
    return results


def _size(results: dict[str, Any]) -> int:
    return len(json.dumps(results, ensure_ascii=False).encode("utf-8"))


def encoded(results: dict[str, Any]) -> str:
    """The results as the reporter reads them: base64 of the JSON, one line."""
    return base64.b64encode(json.dumps(results, ensure_ascii=False).encode("utf-8")).decode("ascii")


def check_rounds(rounds: int) -> None:
    """The grading reporter's environment variable holds at most ``MOST_TESTS`` rounds."""
    if rounds > MOST_TESTS:
        raise MoocowError(
            f"GitHub Classroom's reporter reads its results from an environment variable of at most "
            f"128 KiB: at most {MOST_TESTS} rounds, not {rounds}"
        )
