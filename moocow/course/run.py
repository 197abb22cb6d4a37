"""The run every platform shares: a submission's practice and graded rounds, by the course.

A platform lays out its folders, finds the submission, the course and the seed, and calls
``play_submission``: the submission closed to writers, copied where players read and cannot write,
its files checked, then the course's marks, the practice rounds and the graded rounds of every
deck, all within the course's time budget. What comes back (``Played``) each platform writes as its
own results (``report`` gives the parts).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from moocow.course.budget import OutOfTime, time_budget
from moocow.course.course_file import Course
from moocow.course.folders import Uncopied, copy_folder, unreachable_part
from moocow.course.points import Mark, course_marks
from moocow.engine.errors import MoocowError
from moocow.runner.grading import Grade, grade
from moocow.sandbox.cleanup import remove_tree
from moocow.sandbox.sandbox import SandboxPolicy

PLAYED = "raised once the player had played graded rounds: counts toward the submission limit"
"""The note on an error raised during or after the graded rounds: the player may have caused it on
purpose, a bit of what it learnt in each submission, so such a failure is not a free try."""


@dataclass(frozen=True)
class Played:
    """A submission's rounds, as played."""

    practice: list[Grade]
    """Each deck's practice rounds, on the course's public seed (none if it plays none)."""
    graded: list[Grade]
    """Each deck's graded rounds, on the graded seed."""
    marks: tuple[Mark, Mark] | None
    """The course's points marks on the graded deck, or ``None`` for a point per round solved."""
    folder: Path | None = None
    """Where the player ran (removed since: a path to know the student's files by in a traceback),
    so that practice rounds it crashed show where, in the student's files."""

    @property
    def referee(self) -> dict[str, Any]:
        """How the players were refereed (the sandbox's level and limits), as the results record it."""
        return self.graded[0].referee


def play_decks(course: Course, seed: int, sandbox: SandboxPolicy, practice: bool = True) -> Played:
    """The course's marks first (out of time there is the course's doing, not the player's), then
    the practice rounds (if ``practice``) and the graded rounds of every deck, in this folder. An
    error raised once graded rounds were played carries the ``PLAYED`` note."""

    def play(player: str, deck: str, on_seed: int, rounds: int) -> Grade:
        return grade(player, deck, seed=on_seed, rounds=rounds, mercy=course.mercy,
                     limits=course.limits, sandbox=sandbox)  # fmt: skip

    try:
        marks = course_marks(course, seed, play)
    except OutOfTime:
        raise MoocowError(
            f"the course's points marks ({course.points.full_at}, {course.points.zero_at}) took "
            f"longer than its time budget, seconds = {course.seconds}, before any player played: "
            "raise seconds, or mark with a total or a faster strategy"
        ) from None
    practiced = [
        play(course.player, deck, course.practice_seed, course.practice_rounds)
        for deck in course.decks
        if practice and course.practice_rounds
    ]
    try:
        graded = [play(course.player, deck, seed, course.rounds) for deck in course.decks]
    except Exception as error:
        error.add_note(PLAYED)
        raise
    return Played(practiced, graded, marks)


def play_submission(course: Course, submission: Path, seed: int, hidden: Sequence[Path]) -> Played:
    """Play the course on a copy of ``submission`` its player cannot write, within the course's
    time budget (``OutOfTime`` past it), every path in ``hidden`` out of the sandbox's sight.
    ``Uncopied``: the submission cannot be copied whole, and no round was played."""
    closed_to_writers(submission)
    sandbox = SandboxPolicy().hiding(*hidden)
    with player_folder(submission) as folder, contextlib.chdir(folder), time_budget(course.seconds):
        played = play_decks(course, seed, sandbox)
    return Played(played.practice, played.graded, played.marks, folder)


def missing_files(course: Course, folder: Path) -> list[str]:
    """The course's files the submission lacks, or has only as links (the player's copy leaves them out)."""
    return [name for name in course.files if not _plain_file(folder / name)]


def missing_message(course: Course, folder: Path, missing: Sequence[str]) -> str:
    """Why a submission is not graded: what it lacks, what it has, what to submit."""
    found = sorted(path.name for path in folder.iterdir()) if folder.is_dir() else []
    return (
        f"Not graded: the submission has no {', '.join(missing)} "
        f"(it has: {', '.join(found) or 'no file'}); submit {', '.join(course.files)}."
    )


def out_of_time_message(course: Course) -> str:
    """Why a submission whose rounds outlived the course's time budget is not graded."""
    return (
        f"Not graded: the rounds took longer than this assignment's time budget, {course.seconds} s "
        "for all of them together (past the platform's timeout there would be no results at all). "
        f"A guess may take up to {course.limits.guess_seconds:g} s, but every guess of every round "
        "must fit the budget: make your player faster."
    )


@contextlib.contextmanager
def player_folder(submission: Path) -> Iterator[Path]:
    """A copy of the submission that players can read and not write, removed afterwards.

    Only its regular files and folders are copied, by a walk whatever the depth (``folders``): a
    link is left out, since root copying it (or opening it up) would hand the player what it points
    to (the seed)."""
    scratch = Path(tempfile.mkdtemp(prefix="moocow-submission-"))
    try:
        scratch.chmod(0o755)
        folder = scratch / "submission"
        copy_folder(submission, folder, links=False, mode=0o755)
        yield folder
    finally:
        remove_tree(scratch)


def closed_to_writers(folder: Path) -> None:
    """Take the write bits of group and others off everything in ``folder`` (links left alone): a
    student's zip may carry a folder of mode 0777, where a player at the ``user`` level, finding it
    by the root on the grader's command line, left a note that outlived its session (and the run,
    in the folders ``try --out`` keeps)."""
    if folder.is_symlink() or not folder.is_dir():
        return
    _close(folder, folder.lstat())
    folders = [str(folder)]
    while folders:  # a walk, not recursion: a submission may be thousands of folders deep
        path = folders.pop()
        try:
            with os.scandir(path) as entries:
                for entry in entries:
                    found = entry.stat(follow_symlinks=False)
                    _close(Path(entry.path), found)
                    if stat.S_ISDIR(found.st_mode):
                        folders.append(entry.path)
        except OSError as error:  # past the longest path, say: no player may start on what is left open
            raise Uncopied(unreachable_part(Path(path).relative_to(folder), error)) from None


def _close(path: Path, found: os.stat_result) -> None:
    if not stat.S_ISLNK(found.st_mode) and found.st_mode & 0o022:
        path.chmod(stat.S_IMODE(found.st_mode) & ~0o022)


def _plain_file(path: Path) -> bool:
    """A regular file, not a link (the player's copy leaves links out)."""
    return path.is_file() and not path.is_symlink()
