"""``gradescope build``: one zip holding everything Gradescope needs to grade a course.

The zip holds ``setup.sh`` and ``run_autograder`` (``scripts``), the course (``course.toml``), each
file a deck reads (under its own name), a wheel of this very moocow, and a seed drawn now with
``secrets`` and stored with mode 0600 (the zip itself is written 0600: it holds the seed). The
wheel is this moocow's (``wheel``).
"""

from __future__ import annotations

import os
import secrets
import tempfile
from dataclasses import dataclass
from pathlib import Path

from moocow.engine.errors import MoocowError
from moocow.gradescope.course import Course
from moocow.gradescope.grading import COURSE_FILE, SEED_FILE, check_strategy
from moocow.gradescope.scripts import RUN_AUTOGRADER, SETUP
from moocow.gradescope.wheel import moocow_wheel, write_zip
from moocow.referee.bacrunner import WordSource, is_course_deck
from moocow.referee.decks import load_deck
from moocow.runner.files import PRIVATE, check_output
from moocow.runner.seeds import FRESH_BELOW
from moocow.wordlists.files import word_file_text


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
    for deck in course.decks:
        load_deck(deck)
        if is_course_deck(deck):
            WordSource.from_spec(deck).words()  # read now: a missing or binary file is one line here
    check_strategy(course.points.full_at)
    check_strategy(course.points.zero_at)
    beside: dict[str, Path] = {}
    for path in map(Path, course.deck_files()):
        if beside.setdefault(path.name, path) != path:
            raise MoocowError(
                f"two deck files are named {path.name!r}: rename one (the zip keeps them side by side)"
            )
        if path.name in (COURSE_FILE, SEED_FILE, "setup.sh", "run_autograder"):
            raise MoocowError(f"deck file {str(path)!r}: {path.name!r} is a name the zip uses itself")
    zipped = course.with_files(lambda name: Path(name).name)
    with tempfile.TemporaryDirectory(prefix="moocow-wheel-") as scratch:
        wheel = moocow_wheel(Path(scratch))
        entries: list[tuple[str, bytes, int]] = [
            ("setup.sh", SETUP.encode(), 0o755),
            ("run_autograder", RUN_AUTOGRADER.encode(), 0o755),
            (COURSE_FILE, zipped.to_toml().encode("utf-8"), 0o644),
            *((name, _read(path), 0o644) for name, path in beside.items()),
            (wheel.name, wheel.read_bytes(), 0o644),
            (SEED_FILE, f"{secrets.randbelow(FRESH_BELOW)}\n".encode(), PRIVATE),
        ]
    write_zip(target, entries)
    return Built(target, tuple(name for name, _, _ in entries), wheel.name)


def _read(path: Path) -> bytes:
    """A deck's file (a word file), whole, by the reader of every word file; one line if it cannot
    be read or is binary."""
    return word_file_text(path).encode("utf-8")
