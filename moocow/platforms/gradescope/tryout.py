"""``gradescope try``: run an autograder zip on a submission here, as Gradescope would run it.

Gradescope's folders are laid out under a scratch root (``source`` unzipped with the zip's modes,
``submission``, ``results``, ``submission_metadata.json``), and ``run_autograder`` runs as root
with ``CAP_SYS_ADMIN`` dropped from the bounding set (``setpriv``), as Docker's default profile
leaves Gradescope's containers, so moocow picks the same level as there. ``setup.sh`` is not run:
run_autograder uses the moocow installed here (``MOOCOW_PYTHON`` names this interpreter, or a venv
that players can reach, built once: ``interpreter``).
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import tempfile
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path, PurePosixPath
from typing import Any

from moocow.course.dry_run import DROP, DryRun, can_drop
from moocow.course.folders import copy_folder
from moocow.course.interpreter import try_python
from moocow.course.package import COURSE_FILE, SEED_FILE, write_new
from moocow.engine.errors import MoocowError
from moocow.platforms.gradescope.grading import ROOT_VARIABLE, Layout
from moocow.platforms.gradescope.scripts import PYTHON_VARIABLE
from moocow.runner.secrecy import refuse_readable
from moocow.sandbox.cleanup import remove_tree


def try_zip(
    archive: str | os.PathLike[str],
    submission: str | os.PathLike[str],
    out: str | os.PathLike[str] | None = None,
    metadata: str | os.PathLike[str] | None = None,
    force: bool = False,
) -> DryRun:
    """Lay out Gradescope's folders for ``submission`` (a file or a folder); run the zip's
    run_autograder. With ``force``, an ``out`` folder an earlier try laid out is laid out again."""
    check_autograder_zip(archive)
    if not Path(submission).exists():
        raise MoocowError(f"submission {str(submission)!r} does not exist")
    if not (Path(submission).is_file() or Path(submission).is_dir()):  # a pipe: a traceback from shutil
        raise MoocowError(f"submission {str(submission)!r} is neither a file nor a folder")
    if metadata is not None:
        check_metadata(metadata)
    dropped = can_drop()
    if dropped:  # players run as other users, and find the zip and the metadata on try's command line
        refuse_readable([(archive, "autograder zip"), (metadata, "--metadata")])
    python = try_python(dropped, "run_autograder")
    root = _fresh_root(out, force)
    layout = Layout(root)
    try:
        _lay_out(layout, archive, Path(submission), metadata)
    except BaseException:
        if out is None:  # a scratch root no one will see
            remove_tree(root)
        raise
    command = [*(DROP if dropped else ()), str(root / "run_autograder")]
    environment = {**os.environ, ROOT_VARIABLE: str(root), PYTHON_VARIABLE: python.python}
    done = subprocess.run(command, cwd=root, env=environment, capture_output=True, text=True, check=False)
    stdout = done.stdout + done.stderr
    (layout.results.parent / "stdout").write_text(stdout)
    results = json.loads(layout.results.read_text()) if layout.results.is_file() else None
    return DryRun(root, dropped, done.returncode, stdout, results, python.note)


def _lay_out(
    layout: Layout,
    archive: str | os.PathLike[str],
    submission: Path,
    metadata: str | os.PathLike[str] | None,
) -> None:
    """Gradescope's folders under the root: the zip, the submission, results, the metadata."""
    unzip(archive, layout.source)
    shutil.copy2(layout.source / "run_autograder", layout.root / "run_autograder")
    if submission.is_dir():  # by a walk: a submission may be thousands of folders deep
        copy_folder(submission, layout.submission, links=True)
    else:
        layout.submission.mkdir()
        shutil.copy2(submission, layout.submission / submission.name)
    layout.results.parent.mkdir()
    earlier = (json.dumps(default_metadata(), indent=2) + "\n").encode() if metadata is None else None
    write_new(layout.metadata, earlier or Path(metadata or "").read_bytes(), 0o600)


LAID_OUT = frozenset({"run_autograder", "source", "submission", "results", "submission_metadata.json"})
"""What ``try`` lays out in its root: all that ``--force`` removes from an ``--out`` folder."""


BUILT = "give the zip 'moocow gradescope build' wrote"


def check_autograder_zip(archive: str | os.PathLike[str]) -> None:
    """Refuse, in one line, anything but a zip with the files ``gradescope build`` writes, before any
    advice about it (``try /etc/passwd`` once advised ``chmod 600 /etc/passwd``)."""
    name = str(archive)
    if not Path(archive).is_file():
        kind = "is a folder" if Path(archive).is_dir() else "does not exist"
        raise MoocowError(f"autograder zip {name!r} {kind}: {BUILT}")
    try:
        with zipfile.ZipFile(archive) as opened:
            names = set(opened.namelist())
    except zipfile.BadZipFile:
        raise MoocowError(f"{name!r} is not an autograder zip (not a zip file): {BUILT}") from None
    except OSError as error:
        raise MoocowError(f"cannot read autograder zip {name!r}: {error.strerror or error}") from None
    missing = [wanted for wanted in ("run_autograder", COURSE_FILE, SEED_FILE) if wanted not in names]
    if missing:
        raise MoocowError(f"{name!r} is not an autograder zip: it has no {', '.join(missing)} ({BUILT})")


def check_metadata(metadata: str | os.PathLike[str]) -> None:
    """Refuse, in one line, a ``--metadata`` that is not a JSON object (before any advice about it)."""
    try:
        data = json.loads(Path(metadata).read_bytes())
    except (OSError, ValueError) as error:
        why = error.strerror if isinstance(error, OSError) else "not JSON"
        raise MoocowError(f"--metadata {str(metadata)!r} is not a submission_metadata.json: {why}") from None
    if not isinstance(data, dict):
        raise MoocowError(
            f"--metadata {str(metadata)!r} is not a submission_metadata.json: not a JSON object"
        )


def _fresh_root(out: str | os.PathLike[str] | None, force: bool = False) -> Path:
    """The root to lay out: a new scratch folder, or ``out``, which must be new or empty; with
    ``force``, one that holds only what an earlier try laid out there, which is removed first."""
    if out is None:
        root = Path(tempfile.mkdtemp(prefix="moocow-gradescope-"))
    else:
        root = Path(out).absolute()
        if root.exists() and not root.is_dir():
            raise MoocowError(f"--out {str(out)!r} is not a folder")
        found = sorted(entry.name for entry in root.iterdir()) if root.exists() else []
        others = [name for name in found if name not in LAID_OUT]
        if found and not force:
            raise MoocowError(f"--out {str(out)!r} is not empty: give --force to lay it out again")
        if others:
            raise MoocowError(
                f"--out {str(out)!r} holds what try does not lay out ({', '.join(others[:5])}): "
                "--force empties only a folder an earlier try laid out"
            )
        for name in found:
            remove_tree(root / name)
            if os.path.lexists(root / name):
                raise MoocowError(f"--force could not remove {str(root / name)!r}")
        root.mkdir(parents=True, exist_ok=True)
    root.chmod(0o755)
    return root


def unzip(archive: str | os.PathLike[str], into: Path) -> None:
    """Extract the zip with each file's Unix mode; a name that would land outside ``into`` is refused."""
    try:
        with zipfile.ZipFile(archive) as opened:
            into.mkdir(mode=0o755)
            for info in opened.infolist():
                name = PurePosixPath(info.filename)
                if name.is_absolute() or ".." in name.parts or info.is_dir():
                    raise MoocowError(f"autograder zip {str(archive)!r}: unexpected entry {info.filename!r}")
                target = into / name
                target.parent.mkdir(parents=True, exist_ok=True)
                mode = stat.S_IMODE(info.external_attr >> 16) or 0o644
                # Made with its mode: written first and then chmod 600, the seed was open to all for a
                # moment, and a player of another dry run on this machine could hold it open.
                with os.fdopen(
                    os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode & 0o700), "wb"
                ) as file:
                    file.write(opened.read(info))
                target.chmod(mode)
    except (OSError, zipfile.BadZipFile) as error:
        raise MoocowError(f"cannot read autograder zip {str(archive)!r}: {error}") from None
    if not (into / "run_autograder").is_file():
        raise MoocowError(f"autograder zip {str(archive)!r} has no run_autograder")


def default_metadata() -> dict[str, Any]:
    """A submission_metadata.json as Gradescope writes one: a first submission, due in a week."""
    now = datetime.now(UTC)
    return {
        "id": 1,
        "created_at": now.isoformat(),
        "assignment": {"due_date": (now + timedelta(days=7)).isoformat(), "title": "moocow dry run"},
        "users": [{"email": "student@example.com", "id": 1, "name": "Student"}],
        "previous_submissions": [],
    }


def student_view(results: dict[str, Any]) -> list[str]:
    """What a student sees of ``results`` before the due date, and what is shown later (by name)."""
    default = results.get("visibility", "visible")
    lines = ["Top-level output:", *_indented(str(results.get("output", "")))]
    later = []
    for test in results.get("tests", []):
        visibility = test.get("visibility", default)
        heading = f"{test.get('name', 'test')}: {test.get('score', 0):g} / {test.get('max_score', 0):g}"
        if visibility == "visible":
            lines += [heading, *_indented(str(test.get("output", "")))]
        else:
            later.append(f"  {test.get('name', 'test')} ({visibility})")
    if "score" in results:
        lines.append(f"Score: {results['score']:g}")
    for column in results.get("leaderboard", []):
        lines.append(f"Leaderboard: {column['name']} = {column['value']} ({column.get('order', 'desc')})")
    if later:
        lines += ["Not shown before the due date:", *later]
    return lines


def _indented(text: str) -> list[str]:
    return [f"    {line}" for line in text.splitlines()]
