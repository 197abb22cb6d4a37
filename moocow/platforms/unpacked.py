"""The Gradescope build, unpacked: every platform ships what ``gradescope build`` checks and packs.

``gradescope build`` checks the course (every deck loads, every mark is a strategy, no two deck
files share a name), draws the seed and builds this moocow's wheel; the other platforms take the
same files from its zip, in a private scratch folder, so the checks and the wheel are the same.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from moocow.engine.errors import MoocowError
from moocow.gradescope.build import build_zip
from moocow.gradescope.course import Course
from moocow.gradescope.grading import COURSE_FILE, SEED_FILE
from moocow.gradescope.tryout import unzip

SCRIPTS = ("setup.sh", "run_autograder")
"""Gradescope's own scripts in the zip, which other platforms do not use."""


@dataclass(frozen=True)
class Unpacked:
    """The checked course's files, in a private folder."""

    folder: Path
    """Where they are."""
    course: Course
    """The course, as read from the command line."""
    wheel: Path
    """This moocow's wheel."""

    @property
    def course_files(self) -> list[Path]:
        """The course file and its deck files (not the seed, not the wheel)."""
        return [
            self.folder / COURSE_FILE,
            *(self.folder / Path(name).name for name in self.course.deck_files()),
        ]

    @property
    def seed(self) -> Path:
        return self.folder / SEED_FILE


@contextlib.contextmanager
def unpacked(course: Course, output: Path) -> Iterator[Unpacked]:
    """The course checked and packed as ``gradescope build`` packs it, then unpacked (removed after);
    ``output``, which must be new or empty, made once all is checked, so a mistake leaves none."""
    if output.exists() and (not output.is_dir() or any(output.iterdir())):
        raise MoocowError(f"--output {str(output)!r} must be a new or empty folder")
    with tempfile.TemporaryDirectory(prefix="moocow-platform-") as scratch:
        built = build_zip(course, Path(scratch) / "autograder.zip")
        folder = Path(scratch) / "files"
        unzip(built.path, folder)
        for name in SCRIPTS:
            (folder / name).unlink()
        output.mkdir(parents=True, exist_ok=True)
        yield Unpacked(folder, course, folder / built.wheel)


def new_folder(output: Path, what: str) -> Path:
    """``output`` made, or taken if an empty folder; anything else is one line."""
    if output.exists() and (not output.is_dir() or any(output.iterdir())):
        raise MoocowError(f"{what} {str(output)!r} must be a new or empty folder")
    output.mkdir(parents=True, exist_ok=True)
    return output
