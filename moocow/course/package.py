"""What every platform ships of a course: the course, its deck files, a fresh secret seed, this moocow.

``check_course`` refuses, before anything is written, a course that could not be graded: a deck
that does not load, a mark that is not a built-in strategy, two deck files of one name (they are
shipped side by side, under their own names). ``course_entries`` is what is shipped, as files with
modes: the seed is drawn now with ``secrets`` and is root's alone (0600). Gradescope zips them with
its scripts; PrairieLearn and Classroom take them as a folder (``unpacked``).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path

from moocow.course.course_file import Course
from moocow.course.points import check_strategy
from moocow.course.wheel import moocow_wheel
from moocow.engine.errors import MoocowError
from moocow.referee.bacrunner import WordSource, is_course_deck
from moocow.referee.decks import load_deck
from moocow.runner.files import PRIVATE
from moocow.runner.seeds import FRESH_BELOW
from moocow.wordlists.files import word_file_text

COURSE_FILE = "course.toml"
"""The course, as shipped (its deck files beside it, under their own names)."""
SEED_FILE = "seed"
"""The graded deck's secret seed, as shipped (mode 0600)."""

ShippedFile = tuple[str, bytes, int]
"""A shipped file: its name, its bytes, its mode."""


def check_course(course: Course, reserved: Collection[str] = ()) -> dict[str, Path]:
    """Every deck loads (its word file read now: a missing or binary file is one line here, not at
    grading), every mark is a built-in strategy, and no two deck files (nor a deck file and a name
    the platform ships, ``reserved``) share a name. The deck files by the name they are shipped as."""
    for deck in course.decks:
        load_deck(deck)
        if is_course_deck(deck):
            WordSource.from_spec(deck).words()
    check_strategy(course.points.full_at)
    check_strategy(course.points.zero_at)
    beside: dict[str, Path] = {}
    for path in map(Path, course.deck_files()):
        if beside.setdefault(path.name, path) != path:
            raise MoocowError(
                f"two deck files are named {path.name!r}: rename one (they are shipped side by side)"
            )
        if path.name in (COURSE_FILE, SEED_FILE, *reserved):
            raise MoocowError(f"deck file {str(path)!r}: {path.name!r} is a name the course ships itself")
    return beside


def course_entries(course: Course, beside: dict[str, Path], wheel: Path) -> list[ShippedFile]:
    """What is shipped of a checked course (``beside``: its deck files, from ``check_course``): the
    course file naming its deck files as they sit beside it, the deck files, the wheel, and a fresh
    seed (0600)."""
    shipped = course.with_files(lambda name: Path(name).name)
    return [
        (COURSE_FILE, shipped.to_toml().encode("utf-8"), 0o644),
        *((name, word_file_text(path).encode("utf-8"), 0o644) for name, path in beside.items()),
        (wheel.name, wheel.read_bytes(), 0o644),
        (SEED_FILE, f"{secrets.randbelow(FRESH_BELOW)}\n".encode(), PRIVATE),
    ]


@dataclass(frozen=True)
class Shipped:
    """A folder holding what was shipped of a course, where a platform's grader finds it."""

    folder: Path

    @property
    def course(self) -> Path:
        return self.folder / COURSE_FILE

    @property
    def seed(self) -> Path:
        return self.folder / SEED_FILE


@dataclass(frozen=True)
class Unpacked(Shipped):
    """The checked course's files, in a private folder."""

    checked: Course
    """The course, as read from the command line."""
    wheel: Path
    """This moocow's wheel."""

    @property
    def course_files(self) -> list[Path]:
        """The course file and its deck files (not the seed, not the wheel)."""
        return [self.course, *(self.folder / Path(name).name for name in self.checked.deck_files())]


@contextlib.contextmanager
def unpacked(course: Course, output: Path) -> Iterator[Unpacked]:
    """The course checked and its files written in a private scratch folder (removed after);
    ``output``, which must be new or empty, made once all is checked, so a mistake leaves none."""
    if output.exists() and (not output.is_dir() or any(output.iterdir())):
        raise MoocowError(f"--output {str(output)!r} must be a new or empty folder")
    with tempfile.TemporaryDirectory(prefix="moocow-platform-") as scratch:
        beside = check_course(course)
        folder = Path(scratch) / "files"
        folder.mkdir(mode=0o700)
        wheel = moocow_wheel(Path(scratch))
        for name, data, mode in course_entries(course, beside, wheel):
            write_new(folder / name, data, mode)
        output.mkdir(parents=True, exist_ok=True)
        yield Unpacked(folder, course, folder / wheel.name)


def new_folder(output: Path, what: str) -> Path:
    """``output`` made, or taken if an empty folder; anything else is one line."""
    if output.exists() and (not output.is_dir() or any(output.iterdir())):
        raise MoocowError(f"{what} {str(output)!r} must be a new or empty folder")
    output.mkdir(parents=True, exist_ok=True)
    return output


def write_new(path: Path, data: bytes, mode: int) -> None:
    """A new file of ``data`` that other users can read only once it is whole and only if ``mode``
    says so. Written first and made 0600 after, the seed was open to all for a moment, and a
    player of another dry run on this machine (the same course: the same deck) could hold it open."""
    with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode & 0o700), "wb") as file:
        file.write(data)
    path.chmod(mode)
