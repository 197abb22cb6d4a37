"""What the PrairieLearn grader's entrypoint runs: grade ``/grade/student``, write ``results.json``.

The server files are copied to a scratch folder players may read (the course's deck files), with
the seed moved there, so the only copy is the one the sandbox hides and root alone reads; the
submission is played there by the course (``moocow.course.run``). The report's parts become
PrairieLearn's results: the score from 0 to 1, the message, and the tests a student may see at
once, since PrairieLearn shows everything at once: the practice rounds and the graded totals,
never a graded round (its secret, its guesses), whatever the course's visibility says. What the
player wrote to stderr in the practice rounds is in the message.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from importlib.metadata import version as installed_version
from pathlib import Path
from typing import TYPE_CHECKING, Any

from moocow.course.budget import OutOfTime
from moocow.course.course_file import Course, read_course
from moocow.course.folders import Uncopied
from moocow.course.package import COURSE_FILE, SEED_FILE, Shipped, write_new
from moocow.course.report import PRINTED, header, parts
from moocow.course.run import PLAYED, missing_files, missing_message, out_of_time_message, play_submission
from moocow.platforms.prairielearn.question import NAME
from moocow.runner.files import PRIVATE, check_output, write_atomically
from moocow.runner.seeds import read_seed_file
from moocow.runner.shown import bounded, cut

if TYPE_CHECKING:
    from moocow.course.run import Played

FAILED = (
    "Not graded: the grader stopped with an error before your submission was graded; this attempt "
    "does not count. Your instructor sees the error in the grading job's log."
)
SHOWN = 0o644
"""results.json's mode: it holds nothing a student may not see (PrairieLearn shows it all)."""
PLAYED_FAILED = (
    "Scored 0: the grader stopped with an error once your player had played graded rounds (a player "
    "could cause that on purpose, so the attempt counts). Your instructor sees the error in the log."
)


def server_files(root: Path) -> Path:
    return root / "serverFilesCourse" / NAME


def results_file(root: Path) -> Path:
    return root / "results" / "results.json"


def run_grader(root: Path) -> dict[str, Any]:
    """Grade the submission under ``root`` (PrairieLearn's ``/grade``); write and return results.json.
    An error is written as an attempt that does not count (``gradable: false``), then raised again."""
    (root / "results").mkdir(exist_ok=True)
    (root / "results").chmod(0o755)  # closed to players (other users) whatever mode it came with
    written = check_output(results_file(root), "PrairieLearn results")
    seed = server_files(root) / SEED_FILE
    with contextlib.suppress(FileNotFoundError):
        os.chmod(seed, PRIVATE)
    try:
        results = _results(root)
    except Exception as error:
        played = PLAYED in getattr(error, "__notes__", ())  # it may be the player's doing: not a free try
        failed = {"gradable": played, "score": 0, "message": PLAYED_FAILED if played else FAILED}
        write_atomically(written, json.dumps(failed) + "\n")
        written.chmod(SHOWN)
        raise
    write_atomically(written, json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    written.chmod(SHOWN)
    return results


def _results(root: Path) -> dict[str, Any]:
    course = read_course(server_files(root) / COURSE_FILE)
    student = root / "student"
    missing = missing_files(course, student)
    if missing:
        message = missing_message(course, student, missing) + " This attempt does not count."
        return {"gradable": False, "score": 0, "message": cut(message, 2000)}
    with scratch_source(root) as source:
        copied = course.with_files(lambda name: str(source.folder / Path(name).name))  # players read these
        try:
            seed = read_seed_file(source.seed)
            hidden = (source.seed, source.course, results_file(root))
            played = play_submission(copied, student, seed, hidden)
        except Uncopied as error:  # before any player started: the submission itself is the trouble
            return _scored_zero(f"Not graded: {error}. No round was played.")
        except OutOfTime:  # its player played graded rounds and chose when to stop: not a free try
            return _scored_zero(out_of_time_message(course))
    return prairielearn_results(course, played, installed_version("moocow"))


def _scored_zero(message: str) -> dict[str, Any]:
    return {"gradable": True, "score": 0.0, "message": cut(message, 2000), "tests": []}


@contextlib.contextmanager
def scratch_source(root: Path) -> Iterator[Shipped]:
    """The server files in a scratch folder players may read; the seed moved into it (mode 0600)."""
    scratch = Path(tempfile.mkdtemp(prefix="moocow-prairielearn-"))
    scratch.chmod(0o755)  # players read the deck's files; the seed is 0600
    try:
        source = Shipped(scratch / "source")
        shutil.copytree(server_files(root), source.folder, ignore=shutil.ignore_patterns(SEED_FILE))
        for path in (source.folder, *source.folder.rglob("*")):  # players read the deck's files
            path.chmod(0o755 if path.is_dir() else 0o644)
        write_new(source.seed, (server_files(root) / SEED_FILE).read_bytes(), PRIVATE)
        (server_files(root) / SEED_FILE).unlink()
        yield source
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def prairielearn_results(course: Course, played: Played, version: str) -> dict[str, Any]:
    """The report as PrairieLearn's results: score = points / most, the parts the course shows at
    once as tests (never a graded round's details, whatever the course says: PrairieLearn shows all
    at once), and what the player wrote to stderr in the practice rounds in the message, under each
    practice test's name."""
    shown = [
        part
        for part in parts(course, played)
        if part.kind != "details" and getattr(course.visibility, part.kind) == "visible"
    ]
    most = sum(part.max_score for part in shown)
    earned = sum(part.score for part in shown if part.max_score)
    printed = [
        line for part in shown if part.printed for line in ["", f"{part.name}:", PRINTED, *part.printed]
    ]
    results = {
        "gradable": True,
        "score": round(min(1.0, max(0.0, earned / most)), 4) if most else 0.0,
        "message": "\n".join([*header(course, played, version), *printed]),
        "tests": [
            {"name": part.name, "points": part.score, "max_points": part.max_score, "output": part.log}
            for part in shown
        ],
    }
    return bounded(results)


def main(root: Path) -> int:
    """The entrypoint's work: results written; the message on stdout, an error on stderr (status 2)."""
    try:
        results = run_grader(root)
    except Exception as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(results["message"])
    return 0
