"""What the PrairieLearn grader's entrypoint runs: grade ``/grade/student``, write ``results.json``.

The grading is Gradescope's (``moocow.gradescope.grading.run_autograder``), on a scratch root laid
out as Gradescope's: the server files as ``source`` (the seed moved there, so the only copy is the
one the sandbox hides and root alone reads), the submission, a results folder. Its
results become PrairieLearn's: the score from 0 to 1, the message, and the tests a student may see
at once, since PrairieLearn shows everything at once: the practice rounds and the graded totals,
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
from pathlib import Path
from typing import Any

from moocow.gradescope.course import read_course
from moocow.gradescope.grading import COURSE_FILE, PLAYED, SEED_FILE, Layout, run_autograder
from moocow.gradescope.results import PRINTED
from moocow.platforms.prairielearn import NAME
from moocow.runner.files import PRIVATE, check_output, write_atomically
from moocow.runner.shown import bounded, cut

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
    missing = [name for name in course.files if not _plain_file(student / name)]
    if missing:
        found = sorted(path.name for path in student.iterdir()) if student.is_dir() else []
        message = (
            f"Not graded: the submission has no {', '.join(missing)} "
            f"(it has: {', '.join(found) or 'no file'}); submit {', '.join(course.files)}. "
            "This attempt does not count."
        )
        return {"gradable": False, "score": 0, "message": cut(message, 2000)}
    with gradescope_root(root) as scratch:
        graded = run_autograder(scratch)
    return prairielearn_results(graded)


def _plain_file(path: Path) -> bool:
    return path.is_file() and not path.is_symlink()


@contextlib.contextmanager
def gradescope_root(root: Path) -> Iterator[Path]:
    """A scratch root laid out as Gradescope's for the grading; the seed moved into it (mode 0600)."""
    scratch = Path(tempfile.mkdtemp(prefix="moocow-prairielearn-"))
    scratch.chmod(0o755)  # players read the deck's files, as in /autograder/source; the seed is 0600
    try:
        layout = Layout(scratch)
        shutil.copytree(server_files(root), layout.source, ignore=shutil.ignore_patterns(SEED_FILE))
        for path in (layout.source, *layout.source.rglob("*")):  # players read the deck's files
            path.chmod(0o755 if path.is_dir() else 0o644)
        with open(server_files(root) / SEED_FILE, "rb") as file:
            data = file.read()
        descriptor = os.open(layout.seed, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE)
        with os.fdopen(descriptor, "wb") as copy:
            copy.write(data)
        (server_files(root) / SEED_FILE).unlink()
        shutil.copytree(root / "student", layout.submission, symlinks=True)
        layout.results.parent.mkdir()
        yield scratch
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def prairielearn_results(graded: dict[str, Any]) -> dict[str, Any]:
    """Gradescope's results as PrairieLearn's: score = points / most, the tests shown at once, and
    what the player wrote to stderr in the practice rounds moved from their tests into the message,
    under each practice test's name (graded rounds have none to move: ``gradescope.results``)."""
    tests = graded.get("tests", [])
    most = sum(test.get("max_score", 0) for test in tests)
    earned = sum(test.get("score", 0) for test in tests if test.get("max_score", 0))
    shown, printed = [], []
    for test in tests:
        if test.get("visibility", graded.get("visibility", "visible")) != "visible":
            continue
        output, found, part = str(test["output"]).partition(f"\n\n{PRINTED}")
        if found:
            printed += ["", f"{test['name']}:", f"{PRINTED}{part}"]
        shown.append(
            {"name": test["name"], "points": test["score"], "max_points": test["max_score"], "output": output}
        )
    results = {
        "gradable": True,
        "score": round(min(1.0, max(0.0, earned / most)), 4) if most else 0.0,
        "message": "\n".join([str(graded.get("output", "")), *printed]),
        "tests": shown,
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
