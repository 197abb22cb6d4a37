"""CodeGrade: ``moocow grade --format codegrade`` in an AutoTest v2 custom test, a line of points.

CodeGrade's custom test reads a JSON line ``{"tag": "points", "points": "3/5"}``: a point per graded
round solved, of the rounds played (docs/grading.md shows the test's script).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from moocow.course.points import solved

if TYPE_CHECKING:
    from moocow.runner.grading import Grade


def codegrade_line(earned: float, most: float) -> str:
    """CodeGrade AutoTest v2's points line: ``{"tag":"points","points":"3/5"}``."""
    return json.dumps({"tag": "points", "points": f"{earned:g}/{most:g}"}, separators=(",", ":"))


def codegrade_report(grades: Sequence[Grade]) -> str:
    """The points line for the rounds played: a point per round solved."""
    return codegrade_line(*solved(grades))
