"""GitHub Classroom: a template repository whose workflow grades each push through the grading reporter.

``classroom build`` writes ``.github/workflows/classroom.yml`` and ``.moocow/`` (the course, its deck
files and this moocow's wheel). The workflow installs the wheel, runs ``moocow classroom grade``, which
plays the course's graded rounds and prints the reporter's base64 results (``reports``) as the step's
``result`` output, and hands it to ``classroom-resources/autograding-grading-reporter`` as
``MOOCOW_RESULTS``: partial credit, a point per round solved (or the course's scale). The step's
log shows each lost round and what the player wrote to stderr in each round (``say_printed``).

Everything there runs where the student can read it, the workflow and its seed included: no deck is
secret. The deck is either fixed (a seed drawn at build, written in the workflow) or drawn from the
pushed commit's hash (``--commit``), so a new commit plays a new deck.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from moocow.engine.errors import MoocowError
from moocow.engine.seeds import checked_seed
from moocow.gradescope.course import Course, read_course
from moocow.gradescope.results import Mark, deck_label, points, score_test
from moocow.platforms.reports import check_rounds, classroom_results
from moocow.platforms.unpacked import unpacked
from moocow.runner.grading import Grade, grade
from moocow.runner.seeds import read_seed_file
from moocow.sandbox.sandbox import SandboxPolicy

FOLDER = ".moocow"
"""The template's folder for the course, its deck files and the wheel."""
RUNNER = "moocow"
"""The workflow step's id, which the reporter names ``MOOCOW_RESULTS``."""
DECKS = ("fixed", "commit")
"""Where the graded deck's seed comes from: drawn at build (in the workflow), or the commit's hash."""

WORKFLOW = """\
# Written by `moocow classroom build`. Everything here is public, the seed included (docs/grading.md).
name: Autograding Tests
'on': [push, repository_dispatch, workflow_dispatch]
permissions:
  checks: write
  actions: read
  contents: read
jobs:
  run-autograding-tests:
    runs-on: ubuntu-latest
    if: github.actor != 'github-classroom[bot]'
    steps:
      - name: Checkout code
        uses: actions/checkout@v4
      - name: Set up Python
        uses: actions/setup-python@v5
        with:
          python-version: '3.12'
      - name: Install moocow
        run: python -m pip install --quiet {folder}/{wheel}
      - name: Play the graded rounds
        id: {runner}
        run: |
          result="$(moocow classroom grade {folder}/course.toml {seed})"
          echo "result=$result" >> "$GITHUB_OUTPUT"
      - name: Autograding Reporter
        uses: classroom-resources/autograding-grading-reporter@v1
        env:
          {variable}: "${{{{steps.{runner}.outputs.result}}}}"
        with:
          runners: {runner}
"""


def build_template(course: Course, output: Path, deck: str) -> list[Path]:
    """Write the workflow and ``.moocow`` under ``output``; the files written."""
    if deck not in DECKS:
        raise MoocowError(f"--deck must be one of {', '.join(DECKS)}, not {deck!r}")
    if course.points.scheme == "solved":  # a test per round: refused now, not on each push
        check_rounds(course.rounds * len(course.decks))
    with unpacked(course, output) as files:
        (output / FOLDER).mkdir()
        (output / ".github" / "workflows").mkdir(parents=True)
        for path in [*files.course_files, files.wheel]:
            shutil.copyfile(path, output / FOLDER / path.name)
        seed = read_seed_file(files.seed)
        wheel = files.wheel.name
    (output / ".github" / "workflows" / "classroom.yml").write_text(workflow_text(wheel, deck, seed))
    return sorted(path for path in output.rglob("*") if path.is_file())


def workflow_text(wheel: str, deck: str, seed: int) -> str:
    """The workflow: install the wheel, grade on the fixed seed or the commit's hash, report."""
    chosen = f"--seed {seed}" if deck == "fixed" else '--commit "$GITHUB_SHA"'
    return WORKFLOW.format(
        folder=FOLDER, wheel=wheel, runner=RUNNER, seed=chosen, variable=f"{RUNNER.upper()}_RESULTS"
    )


def commit_seed(commit: str) -> int:
    """A seed from a commit's hash: its first 15 hex digits (60 bits)."""
    if not re.fullmatch(r"[0-9a-fA-F]{40}|[0-9a-fA-F]{64}", commit):
        raise MoocowError(f"--commit must be a commit's hash (40 or 64 hex digits), not {commit!r}")
    return checked_seed(int(commit[:15], 16), "--commit")


def grade_course(course_file: Path, seed: int, say: Callable[[str], None] = print) -> dict[str, Any]:
    """The reporter's results for the player in this folder (the checkout) on the course's graded rounds."""
    course = read_course(course_file)
    missing = [name for name in course.files if not Path(name).is_file()]
    if missing:
        return _missing(course, missing)
    sandbox = runner_sandbox(say)
    grades = [
        grade(course.player, deck, seed=seed, rounds=course.rounds, mercy=course.mercy, limits=course.limits,
              sandbox=sandbox)
        for deck in course.decks
    ]  # fmt: skip
    say_printed(grades, say)
    if course.points.scheme == "solved":
        return classroom_results(grades)
    return _scaled(course, grades, seed)


def say_printed(grades: Sequence[Grade], say: Callable[[str], None]) -> None:
    """Each lost round, and each round the player wrote to stderr in with its last lines, in the
    workflow's log as ``moocow grade`` shows them: the deck is public, so every round is practice."""
    for one in grades:
        told = one.failures(stderr=True)
        if told and len(grades) > 1:
            say(f"{deck_label(one.game)}:")
        for line in told:
            say(line)


def runner_sandbox(say: Callable[[str], None]) -> SandboxPolicy:
    """The strongest sandbox the Actions runner allows, else none, said in a line: the runner, the
    workflow and the deck are the student's own, so a sandbox there keeps nothing from them, and a
    runner without namespaces (Ubuntu 24.04's AppArmor refuses them to bubblewrap) must still grade."""
    try:
        SandboxPolicy().confinement()
    except MoocowError as error:
        say(f"note: the player runs unconfined, as the runner's user: {error}")
        return SandboxPolicy(unconfined=True)
    return SandboxPolicy()


def _scaled(course: Course, grades: Sequence[Grade], seed: int) -> dict[str, Any]:
    """One test: the course's scale between its two marks, played on the same deck where a strategy."""
    marks = tuple(_mark(course, mark, seed) for mark in (course.points.full_at, course.points.zero_at))
    scored = score_test(course, grades, (marks[0], marks[1]))
    most = course.points.max
    earned = points(sum(one.total for one in grades), marks[0], marks[1], most)
    status = "pass" if earned >= most else "fail"
    test = {"name": scored["name"], "status": status, "score": earned, "message": scored["output"]}
    return {"version": 1, "status": status, "max_score": most, "tests": [test]}


def _mark(course: Course, mark: str | int, seed: int) -> Mark:
    if not isinstance(mark, str):
        return Mark(mark, "the course's mark")
    if mark != "mercy":
        played = [
            grade(mark, deck, seed=seed, rounds=course.rounds, mercy=course.mercy) for deck in course.decks
        ]
        return Mark(sum(one.total for one in played), f"{mark}'s total on the same deck")
    return Mark(course.rounds * course.mercy * len(course.decks), "every round lost")


def _missing(course: Course, missing: list[str]) -> dict[str, Any]:
    """No player to play: an error the reporter shows, no points of the course's most."""
    most = course.points.max if course.points.scheme == "scale" else course.rounds * len(course.decks)
    message = f"the repository has no {', '.join(missing)}: commit {', '.join(course.files)}"
    test = {"name": "The player's files", "status": "error", "score": 0, "message": message}
    return {"version": 1, "status": "error", "max_score": most, "tests": [test]}
