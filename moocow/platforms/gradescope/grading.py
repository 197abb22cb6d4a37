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
import traceback
from dataclasses import dataclass
from datetime import datetime, timedelta
from importlib.metadata import version as installed_version
from pathlib import Path
from typing import Any

from moocow.course.budget import OutOfTime
from moocow.course.course_file import SubmissionLimit, read_course
from moocow.course.folders import Uncopied
from moocow.course.package import Shipped
from moocow.course.run import (
    PLAYED,
    missing_files,
    missing_message,
    out_of_time_message,
    play_submission,
)
from moocow.engine.errors import MoocowError
from moocow.platforms.gradescope.results import GRADED_MARK, course_results, ungraded
from moocow.runner.files import PRIVATE, check_output, write_atomically
from moocow.runner.seeds import read_seed_file
from moocow.runner.shown import bounded, cut

ROOT_VARIABLE = "AUTOGRADER_ROOT"
"""The environment variable naming the autograder's root; Gradescope's is ``/autograder``."""
DEFAULT_ROOT = "/autograder"
"""Gradescope's root."""


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
        return Shipped(self.source).course

    @property
    def seed(self) -> Path:
        return Shipped(self.source).seed


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


def _results(layout: Layout, version: str) -> dict[str, Any]:
    """``results.json`` for the submission: not graded (a file missing, over the limit, a folder
    that cannot be copied for its player, out of time), or graded."""
    course = read_course(layout.course)
    try:
        missing = missing_files(course, layout.submission)
        if missing:
            return ungraded(missing_message(course, layout.submission, missing), version)
        kept = _limited(course.submissions, layout.metadata)
        if kept is not None:
            return kept
        seed = read_seed_file(layout.seed)
        hidden = (layout.seed, layout.metadata, layout.results, layout.course)
        played = play_submission(course, layout.submission, seed, hidden)
    except Uncopied as error:  # before any player started: the submission itself is the trouble
        return ungraded(f"Not graded: {error}. No round was played.", version)
    except OutOfTime:  # its player played graded rounds and chose when to stop: not a free try
        return ungraded(out_of_time_message(course), version, counted=True)
    return course_results(course, played, version)


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
