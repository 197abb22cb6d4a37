"""``gradescope build``: one zip holding everything Gradescope needs to grade a course.

The zip holds ``setup.sh`` and ``run_autograder`` (``scripts``) and what every platform ships of the
course (``moocow.course.package``): the course, each file a deck reads (under its own name), a wheel
of this very moocow, and a seed drawn now, stored with mode 0600 (the zip itself is written 0600:
it holds the seed).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from moocow.course.course_file import Course
from moocow.course.package import check_course, course_entries
from moocow.course.wheel import moocow_wheel, write_zip
from moocow.platforms.gradescope.scripts import RUN_AUTOGRADER, SETUP
from moocow.runner.files import check_output

SCRIPTS = {"setup.sh": SETUP, "run_autograder": RUN_AUTOGRADER}
"""Gradescope's two scripts, by their names in the zip."""


@dataclass(frozen=True)
class Built:
    """What went into the zip."""

    path: Path
    """The zip."""
    names: tuple[str, ...]
    """Its files, in order."""
    wheel: str
    """The wheel's file name."""


def build_zip(course: Course, output: str | os.PathLike[str]) -> Built:
    """Check the course (every deck loads, every mark is a strategy), then write the zip to ``output``."""
    target = check_output(output, "autograder zip")
    beside = check_course(course, reserved=SCRIPTS)
    with tempfile.TemporaryDirectory(prefix="moocow-wheel-") as scratch:
        wheel = moocow_wheel(Path(scratch))
        entries = [
            *((name, script.encode(), 0o755) for name, script in SCRIPTS.items()),
            *course_entries(course, beside, wheel),
        ]
    write_zip(target, entries)
    return Built(target, tuple(name for name, _, _ in entries), wheel.name)
