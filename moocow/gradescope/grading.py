"""What ``run_autograder`` runs in Gradescope's container: grade one submission, write ``results.json``.

Gradescope lays out ``/autograder`` (``source``: the zip's files; ``submission``; ``results``;
``submission_metadata.json``) and runs ``run_autograder`` as root, each submission in a fresh
container built from the same zip. The root is ``$AUTOGRADER_ROOT`` (``/autograder`` by default),
so ``gradescope try`` can lay out the same folders anywhere.

Before any player starts, the files that hold secrets are made readable by root only: the seed,
and ``submission_metadata.json``, whose previous results carry the graded details of earlier
submissions (the same graded deck). The player gets a copy of the submission it cannot write.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from importlib.metadata import version as installed_version
from pathlib import Path
from typing import Any

from moocow.engine.errors import MoocowError
from moocow.gradescope.budget import OutOfTime, time_budget
from moocow.gradescope.course import Course, SubmissionLimit, read_course
from moocow.gradescope.folders import Uncopied, copy_folder, unreachable_part
from moocow.gradescope.results import GRADED_MARK, Mark, bounded, course_results, cut, ungraded
from moocow.referee.players import PlayerKind, parse_player
from moocow.runner.files import PRIVATE, check_output, write_atomically
from moocow.runner.grading import Grade, grade
from moocow.runner.seeds import read_seed_file
from moocow.runner.tournament import build_tournament
from moocow.sandbox.cleanup import remove_tree
from moocow.sandbox.sandbox import SandboxPolicy

ROOT_VARIABLE = "AUTOGRADER_ROOT"
"""The environment variable naming the autograder's root; Gradescope's is ``/autograder``."""
DEFAULT_ROOT = "/autograder"
"""Gradescope's root."""
COURSE_FILE = "course.toml"
"""The course, in the zip and in ``source``."""
SEED_FILE = "seed"
"""The secret seed, in the zip and in ``source`` (mode 0600)."""


@dataclass(frozen=True)
class Layout:
    """Gradescope's folders under one root."""

    root: Path
    """``/autograder``, or a scratch root."""

    @property
    def source(self) -> Path:
        return self.root / "source"

    @property
    def submission(self) -> Path:
        return self.root / "submission"

    @property
    def results(self) -> Path:
        return self.root / "results" / "results.json"

    @property
    def metadata(self) -> Path:
        return self.root / "submission_metadata.json"

    @property
    def course(self) -> Path:
        return self.source / COURSE_FILE

    @property
    def seed(self) -> Path:
        return self.source / SEED_FILE


def autograder_root() -> Path:
    """``$AUTOGRADER_ROOT``, or Gradescope's ``/autograder``."""
    return Path(os.environ.get(ROOT_VARIABLE) or DEFAULT_ROOT)


def run_autograder(root: Path) -> dict[str, Any]:
    """Grade the submission under ``root`` by the course in its source; write and return ``results.json``.

    Whatever happens after the results file is found writable, it is written: an error (raised
    again, for run_autograder's status and output) leaves results that say the autograder failed,
    with the error in a test only instructors see; a submission whose rounds outlive the course's
    time budget gets results that say so, before Gradescope's timeout would leave none."""
    layout = Layout(root)
    written = check_output(layout.results, "Gradescope results")
    for secret in (layout.seed, layout.metadata):
        with contextlib.suppress(FileNotFoundError):
            os.chmod(secret, PRIVATE)
    version = installed_version("moocow")
    try:
        results = _results(layout, version)
    except Exception as error:
        played = PLAYED in getattr(error, "__notes__", ())
        failed = ungraded(FAILED, version, error=described(error), counted=played)
        write_atomically(written, json.dumps(failed, indent=2, ensure_ascii=False) + "\n")
        raise
    write_atomically(written, json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    return results


def described(error: BaseException) -> str:
    """An error as instructors read it in the hidden test: a ``MoocowError`` (a person's mistake) in
    its own line; anything else, a bug, with the last lines of its traceback."""
    if isinstance(error, MoocowError):
        return str(error)
    lines = "".join(traceback.format_exception(error)).splitlines()
    return "\n".join(lines[-24:])


FAILED = (
    "Not graded: the autograder stopped with an error before your submission was graded. Your "
    "instructor sees the error in these results and can grade it again."
)
"""What a student reads when the autograder failed (the error itself is in a hidden test)."""
PLAYED = "raised once the player had played graded rounds: counts toward the submission limit"
"""The note on an error raised during or after the graded rounds: the player may have caused it on
purpose, a bit of what it learnt in each submission, so such a failure is not a free try."""


def _results(layout: Layout, version: str) -> dict[str, Any]:
    """``results.json`` for the submission: not graded (a file missing, over the limit, a folder
    that cannot be copied for its player), or graded."""
    try:
        return _submission_results(layout, version)
    except Uncopied as error:  # before any player started: the submission itself is the trouble
        return ungraded(f"Not graded: {error}. No round was played.", version)


def _submission_results(layout: Layout, version: str) -> dict[str, Any]:
    closed_to_writers(layout.submission)
    course = read_course(layout.course)
    missing = [name for name in course.files if not _plain_file(layout.submission / name)]
    if missing:
        found = (
            sorted(path.name for path in layout.submission.iterdir()) if layout.submission.is_dir() else []
        )
        message = (
            f"Not graded: the submission has no {', '.join(missing)} "
            f"(it has: {', '.join(found) or 'no file'}); submit {', '.join(course.files)}."
        )
        return ungraded(message, version)
    kept = _limited(course.submissions, layout.metadata)
    if kept is not None:
        return kept
    try:
        return _graded(course, layout, version)
    except OutOfTime:
        return ungraded(
            f"Not graded: the rounds took longer than this assignment's time budget, {course.seconds} s "
            "for all of them together (past Gradescope's timeout there would be no results at all). "
            f"A guess may take up to {course.limits.guess_seconds:g} s, but every guess of every round "
            "must fit the budget: make your player faster.",
            version,
            counted=True,  # its player played graded rounds and chose when to stop: not a free try
        )


def _graded(course: Course, layout: Layout, version: str) -> dict[str, Any]:
    """Play the practice and the graded rounds of every deck, within the course's time budget."""
    seed = read_seed_file(layout.seed)
    hidden = (layout.seed, layout.metadata, layout.results, layout.course)
    sandbox = SandboxPolicy().hiding(*hidden)
    with player_folder(layout.submission) as folder, contextlib.chdir(folder), time_budget(course.seconds):

        def play(player: str, deck: str, on_seed: int, rounds: int) -> Grade:
            return grade(player, deck, seed=on_seed, rounds=rounds, mercy=course.mercy,
                         limits=course.limits, sandbox=sandbox)  # fmt: skip

        marks = None
        if course.points.scheme == "scale":  # first: out of time here is the course's doing, not the player's
            try:
                marks = (
                    _mark(course.points.full_at, course, seed, play),
                    _mark(course.points.zero_at, course, seed, play),
                )
            except OutOfTime:
                raise MoocowError(
                    f"the course's points marks ({course.points.full_at}, {course.points.zero_at}) took "
                    f"longer than its time budget, seconds = {course.seconds}, before any player played: "
                    "raise seconds, or mark with a total or a faster strategy"
                ) from None
        practice = [
            play(course.player, deck, course.practice_seed, course.practice_rounds)
            for deck in course.decks
            if course.practice_rounds
        ]
        try:
            graded = [play(course.player, deck, seed, course.rounds) for deck in course.decks]
        except Exception as error:
            error.add_note(PLAYED)
            raise
    referee = graded[0].referee
    return course_results(course, practice, graded, marks, referee, version, folder)


def _mark(mark: str | int, course: Course, seed: int, play: Any) -> Mark:
    """A points mark: a total as given, every round lost, or a strategy's total on the graded decks."""
    if isinstance(mark, int):
        return Mark(mark, "the course's mark")
    if mark == "mercy":
        return Mark(course.rounds * course.mercy * len(course.decks), "every round lost")
    total = sum(play(mark, deck, seed, course.rounds).total for deck in course.decks)
    return Mark(total, f"{mark}'s total on the same graded deck")


def check_strategy(mark: str | int) -> None:
    """A points mark that names a strategy must name a built-in one (checked when the zip is built)."""
    if isinstance(mark, str) and mark != "mercy":
        try:
            kind = parse_player(mark).kind
        except MoocowError:
            kind = None
        if kind is not PlayerKind.STRATEGY:
            raise MoocowError(f"points mark {mark!r} is not a built-in strategy, a total or 'mercy'")
        build_tournament({"players": [mark], "games": ["bottles:n=3"]})  # its parameters are checked


@contextlib.contextmanager
def player_folder(submission: Path) -> Iterator[Path]:
    """A copy of the submission that players can read and not write, removed afterwards.

    Only its regular files and folders are copied, by a walk whatever the depth (``folders``): a
    link is left out, since root copying it (or opening it up) would hand the player what it points
    to (``/autograder/source/seed``)."""
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
    by the root on ``run``'s command line, left a note that outlived its session (and the run, in
    the folders ``gradescope try --out`` keeps)."""
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


def _limited(limit: SubmissionLimit | None, metadata: Path) -> dict[str, Any] | None:
    """The last graded results, with a line saying why this one is not graded, when over the limit."""
    if limit is None:
        return None
    try:
        data = json.loads(metadata.read_text(encoding="utf-8"))
        now = datetime.fromisoformat(data["created_at"])
        previous = [
            (datetime.fromisoformat(entry["submission_time"]), entry.get("results") or {})
            for entry in data.get("previous_submissions") or []
        ]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise MoocowError(f"cannot read {metadata} for the submission limit: {error}") from None
    graded = sorted(
        ((when, results) for when, results in previous if _was_graded(results)), key=lambda pair: pair[0]
    )
    recent = [when for when, _ in graded if now - timedelta(hours=limit.hours) <= when <= now]
    if len(recent) < limit.most:
        return None
    kept = json.loads(json.dumps(graded[-1][1]))
    kept.setdefault("extra_data", {}).setdefault("moocow", {})[GRADED_MARK] = False
    note = (
        f"Not graded: at most {limit.most} graded submissions in {limit.hours:g} hours, and this is "
        f"submission {len(recent) + 1} in that time. The results of your last graded submission stand."
    )
    kept["output"] = note + "\n\n" + cut(str(kept.get("output", "")), 20_000)
    kept.setdefault("output_format", "text")
    return bounded(kept)


def _was_graded(results: Any) -> bool:
    """Whether earlier results are of a graded submission (not one over the limit, nor ungraded)."""
    marks = results.get("extra_data") if isinstance(results, dict) else None
    moocow = marks.get("moocow") if isinstance(marks, dict) else None
    return isinstance(moocow, dict) and moocow.get(GRADED_MARK) is True
