"""GitHub Classroom: a template repository whose workflow grades each push through the grading reporter.

``classroom build`` writes ``.github/workflows/classroom.yml`` and ``.moocow/`` (the course, its deck
files and this moocow's wheel). The workflow installs the wheel, runs ``moocow classroom grade``
(``grade``), which plays the course's graded rounds and prints the reporter's base64 results
(``reporter``) as the step's ``result`` output, and hands it to
``classroom-resources/autograding-grading-reporter`` as ``MOOCOW_RESULTS``: partial credit, a point
per round solved (or the course's scale).

Everything there runs where the student can read it, the workflow and its seed included: no deck is
secret. The deck is either fixed (a seed drawn at build, written in the workflow) or drawn from the
pushed commit's hash (``--commit``), so a new commit plays a new deck.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from moocow.course.course_file import Course
from moocow.course.package import unpacked
from moocow.engine.errors import MoocowError
from moocow.engine.seeds import checked_seed
from moocow.platforms.classroom.reporter import check_rounds
from moocow.runner.seeds import read_seed_file

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
