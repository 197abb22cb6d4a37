"""``prairielearn try``: run a built question's grader on a submission here, as PrairieLearn would.

``/grade`` is laid out under a scratch root (the server files with their modes, ``student``,
``data/data.json``) and the grader's ``run`` entrypoint runs there as root with CAP_SYS_ADMIN
dropped from the bounding set, as Docker's default leaves a container (``course.dry_run``):
moocow picks the level it picks in PrairieLearn's container. No Docker is needed; the entrypoint
runs the moocow installed here (``MOOCOW_PYTHON``): this interpreter, or, where
players (other users) cannot reach it, the venv both ``try`` commands build once for them
(``moocow.course.interpreter``).
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from moocow.course.dry_run import DROP, DryRun, can_drop
from moocow.course.interpreter import try_python
from moocow.course.package import SEED_FILE, new_folder, write_new
from moocow.engine.errors import MoocowError
from moocow.platforms.prairielearn.grader import results_file, server_files
from moocow.platforms.prairielearn.question import NAME, PYTHON_VARIABLE, ROOT_VARIABLE
from moocow.runner.secrecy import refuse_readable

DATA = {"params": {}, "correct_answers": {}, "submitted_answers": {}, "format_errors": {},
        "partial_scores": {}, "score": 0, "feedback": {}, "variant_seed": 1, "options": {},
        "raw_submitted_answers": {}, "editable": False, "panel": "question", "extensions": {},
        "num_valid_submissions": 0}  # fmt: skip
"""A data.json as PrairieLearn writes one for a first attempt (the grader does not read it)."""


def try_question(built: Path, submission: Path, out: Path | None = None) -> DryRun:
    """Lay out ``/grade`` for ``submission`` (a file or a folder) and run ``built``'s entrypoint."""
    built = built.absolute()  # the entrypoint runs in the scratch root
    entrypoint = built / "graders" / NAME / "run"
    if not entrypoint.is_file() or not server_files(built).is_dir():
        raise MoocowError(
            f"{str(built)!r} is not a folder 'moocow prairielearn build' wrote (no {entrypoint})"
        )
    if not submission.exists():
        raise MoocowError(f"submission {str(submission)!r} does not exist")
    dropped = can_drop()
    if dropped:  # players run as other users, and find the built folder on try's command line
        refuse_readable([(server_files(built) / SEED_FILE, "the graded deck's seed")])
    python = try_python(dropped, "the entrypoint")
    root = new_folder(out.absolute(), "--out") if out else Path(tempfile.mkdtemp(prefix="moocow-grade-"))
    root.chmod(0o755)
    server_files(root).parent.mkdir()
    server_files(root).mkdir()
    for path in server_files(built).iterdir():
        write_new(server_files(root) / path.name, path.read_bytes(), stat.S_IMODE(path.stat().st_mode))
    if submission.is_dir():
        shutil.copytree(submission, root / "student", symlinks=True)
    else:
        (root / "student").mkdir()
        shutil.copy2(submission, root / "student" / submission.name)
    (root / "data").mkdir()
    (root / "data" / "data.json").write_text(json.dumps(DATA) + "\n")
    command = [*(DROP if dropped else ()), "bash", str(entrypoint)]
    environment = {**os.environ, ROOT_VARIABLE: str(root), PYTHON_VARIABLE: python.python}
    done = subprocess.run(command, cwd=root, env=environment, capture_output=True, text=True, check=False)
    written = results_file(root)
    results = json.loads(written.read_text()) if written.is_file() else None
    return DryRun(root, dropped, done.returncode, done.stdout + done.stderr, results, python.note)


def student_view(results: dict[str, Any]) -> list[str]:
    """What PrairieLearn shows the student, all at once: the score, the message, each test."""
    if not results.get("gradable", True):
        lines = ["Not gradable (the attempt does not count):"]
    else:
        lines = [f"Score: {100 * results.get('score', 0):g}%"]
    lines += [f"    {line}" for line in str(results.get("message", "")).splitlines()]
    for test in results.get("tests", []):
        lines.append(f"{test.get('name', 'test')}: {test.get('points', 0):g} / {test.get('max_points', 0):g}")
        lines += [f"    {line}" for line in str(test.get("output", "")).splitlines()]
    return lines
