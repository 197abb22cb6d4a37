"""``moocow grade --format``: the course log, or the one line a platform reads (CodeGrade, Classroom)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from moocow.engine.errors import MoocowError
from moocow.platforms.classroom.reporter import check_rounds, classroom_results, encoded
from moocow.platforms.codegrade import codegrade_report

if TYPE_CHECKING:
    from moocow.runner.grading import Grade

FORMATS = ("text", "codegrade", "classroom", "classroom-json")
"""``grade --format``: the course log, or one line for a platform to read."""


def check_format(form: str, rounds: int) -> None:
    """``--format``, and the rounds it can report: one line before any round is played, not after."""
    if form not in FORMATS:
        raise MoocowError(f"--format must be one of {', '.join(FORMATS)}, not {form!r}")
    if form.startswith("classroom"):
        check_rounds(rounds)


def report(form: str, grades: Sequence[Grade]) -> str:
    """The one line ``grade --format`` prints for ``form`` (not ``text``)."""
    if form == "codegrade":
        return codegrade_report(grades)
    results = classroom_results(grades)
    return encoded(results) if form == "classroom" else json.dumps(results, ensure_ascii=False)
