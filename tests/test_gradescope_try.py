"""``gradescope try`` as an instructor meets it, and what a student reads of a crashed practice round.

``try`` once advised ``chmod 600 /etc/passwd`` when given it for a zip, refused an ``--out`` folder
it had laid out itself, and failed until the instructor built by hand a venv that players could
reach (this machine's Python lives in /root); a submission 1,100 folders deep ended in a
RecursionError traceback; a practice round the player crashed showed one line, with no file or line.
Each try here runs for real, at Gradescope's level where this machine allows it.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moocow.cli import app
from moocow.course import interpreter
from moocow.course.crashes import own_frames
from moocow.course.dry_run import can_drop
from moocow.engine.errors import MoocowError
from tests.gradescope_helpers import check_specification, moocow

COURSE = '[gradescope]\ngames = ["bottles:n=3"]\nrounds = 1\npractice_rounds = 1\nmercy = 3\n'
CRASHER = """\
def initialize_wordlist(words):
    pass


def helper(n):
    raise RuntimeError("oops")


def guess(n, guesses_so_far):
    if guesses_so_far:
        return helper(n)
    return "ABC"
"""
DEEP = 1100
DEEP_READER = f"""\
from collections.abc import Iterator
from pathlib import Path


def initialize_wordlist(words):
    pass


def guess(n, guesses_so_far):
    return "ABC"


def author():
    deep = Path(__file__).parent / ("d/" * {DEEP}) / "note.txt"
    return "deep note read" if deep.read_text() == "hello" else "no note"
"""


@pytest.fixture(scope="module")
def course_zip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("course")
    (folder / "course.toml").write_text(COURSE)
    done = moocow(sys.executable, "gradescope", "build", "course.toml", "-o", "autograder.zip", cwd=folder)
    assert done.returncode == 0, done.stderr
    return folder / "autograder.zip"


def try_it(archive: Path, submission: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """``gradescope try`` with this very interpreter: where players cannot reach it, try builds a
    venv they can (once for the tests' run)."""
    return moocow(sys.executable, "gradescope", "try", str(archive), str(submission), *options)


def submitted(folder: Path, player: str) -> Path:
    (folder / "submission").mkdir()
    (folder / "submission" / "bacplayer.py").write_text(player)
    return folder / "submission"


# --- what is not an autograder zip ---


@pytest.mark.parametrize("kind", ["text", "zip", "folder"])
def test_try_refuses_what_is_no_autograder_zip_with_no_chmod_advice(tmp_path: Path, kind: str) -> None:
    """Given /etc/passwd for the zip, try advised ``chmod 600 /etc/passwd``: a file it should never
    have looked at that way. Anything but the zip ``build`` writes is now one line saying so."""
    named = tmp_path / "autograder.zip"
    if kind == "text":
        named.write_text("root:x:0:0:root:/root:/bin/bash\n")
    elif kind == "zip":
        with zipfile.ZipFile(named, "w") as other:
            other.writestr("notes.txt", "a zip, not an autograder's")
    else:
        named.mkdir()
    named.chmod(0o755 if kind == "folder" else 0o644)
    (tmp_path / "bacplayer.py").write_text(CRASHER)
    done = CliRunner().invoke(app, ["gradescope", "try", str(named), str(tmp_path / "bacplayer.py")])
    assert done.exit_code == 2 and done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith("error: ") and "chmod" not in line
    expected = "is a folder" if kind == "folder" else "is not an autograder zip"
    assert expected in line and str(named) in line


def test_try_refuses_a_submission_that_is_neither_file_nor_folder(course_zip: Path, tmp_path: Path) -> None:
    """A named pipe given as the submission ended in a traceback (shutil's SpecialFileError)."""
    os.mkfifo(tmp_path / "bacplayer.py")
    done = CliRunner().invoke(app, ["gradescope", "try", str(course_zip), str(tmp_path / "bacplayer.py")])
    assert done.exit_code == 2 and done.stderr.splitlines() == [
        f"error: submission '{tmp_path / 'bacplayer.py'}' is neither a file nor a folder"
    ]


# --- --force ---


def test_try_force_lays_out_again_a_folder_an_earlier_try_laid_out(course_zip: Path, tmp_path: Path) -> None:
    """``--out`` used before was refused with no way to reuse it. With ``--force`` it is laid out
    again, what the earlier try left removed; a folder holding anything else is refused, untouched."""
    out = tmp_path / "out"
    for name in ("source", "submission", "results"):
        (out / name).mkdir(parents=True)
    (out / "results" / "results.json").write_text('{"output": "an earlier try"}\n')
    (out / "submission" / "old_player.py").write_text("")
    (out / "submission_metadata.json").write_text("{}")
    submission = submitted(tmp_path, CRASHER)
    again = try_it(course_zip, submission, "--out", str(out))
    assert again.returncode == 2 and again.stderr.splitlines() == [
        f"error: --out '{out}' is not empty: give --force to lay it out again"
    ]
    (out / "notes.txt").write_text("the instructor's")
    refused = try_it(course_zip, submission, "--out", str(out), "--force")
    assert refused.returncode == 2 and "holds what try does not lay out (notes.txt)" in refused.stderr
    assert (out / "notes.txt").read_text() == "the instructor's"
    (out / "notes.txt").unlink()
    done = try_it(course_zip, submission, "--out", str(out), "--force")
    assert done.returncode == 0, done.stdout + done.stderr
    results = json.loads((out / "results" / "results.json").read_text())
    check_specification(results)
    assert results["output"].startswith("moocow ")
    assert sorted(path.name for path in (out / "submission").iterdir()) == ["bacplayer.py"]


# --- where a practice round crashed ---


def test_the_student_sees_where_a_practice_round_crashed(course_zip: Path, tmp_path: Path) -> None:
    """A practice round lost to a crash showed the student ``RuntimeError: oops`` alone. The practice
    log now ends with the traceback's last frames in the student's own file: name, line, code."""
    out = tmp_path / "out"
    done = try_it(course_zip, submitted(tmp_path, CRASHER), "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    seen = done.stdout.split("What the student sees:")[1].split("\nresults.json:")[0]
    assert "Where round 1 crashed, in your files" in seen
    assert "bacplayer.py, line 11, in guess: return helper(n)" in seen
    assert 'bacplayer.py, line 6, in helper: raise RuntimeError("oops")' in seen
    results = json.loads((out / "results" / "results.json").read_text())
    graded = [test["output"] for test in results["tests"] if test["name"].startswith("Graded rounds in")]
    assert graded and "crashed" not in graded[0]  # practice only: never a graded round's stderr
    assert "moocow-submission-" not in json.dumps(results)  # the file by its name, not the container's


def test_only_frames_in_the_students_files_are_named() -> None:
    """The runner's own frames (the adapter), the interpreter's, or a file elsewhere are not the
    student's; a SyntaxError's frame has no function; at most the last three are named."""
    stderr = [
        '  File "/usr/lib/python3.11/site-packages/moocow/referee/adapter.py", line 90, in play',
        "    return self.module.guess(self.length, self.history)",
        '  File "/sub/lib/helpers.py", line 3, in first',
        "    return second()",
        "           ^^^^^^^^",
        '  File "/sub/bacplayer.py", line 8',
        "    def f(:",
        "          ^",
        '  File "/elsewhere/bacplayer.py", line 1, in <module>',
        '  File "/sub/bacplayer.py", line 2, in <module>',
        "SyntaxError: invalid syntax",
    ]
    assert own_frames(stderr, [Path("/sub")]) == [
        "lib/helpers.py, line 3, in first: return second()",
        "bacplayer.py, line 8: def f(:",
        "bacplayer.py, line 2, in <module>",
    ]


# --- deep submissions ---


def test_a_submission_1100_folders_deep_is_graded_without_a_traceback(
    course_zip: Path, tmp_path: Path
) -> None:
    """``try`` ended in RecursionError (shutil.copytree) and run_autograder in another with no
    grade. Both now copy by a walk: the player reads the file at the bottom, results are written."""
    submission = submitted(tmp_path, DEEP_READER)
    bottom = submission / "/".join(["d"] * DEEP)
    subprocess.run(["mkdir", "-p", bottom], check=True)  # pathlib's mkdir recurses too
    out = tmp_path / "out"
    try:
        (bottom / "note.txt").write_text("hello")
        done = try_it(course_zip, submission, "--out", str(out))
    finally:  # rm, not pytest's recursive removal of old temporary folders, which these trees would break
        subprocess.run(["rm", "-rf", submission, out / "submission"], check=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    results = json.loads((out / "results" / "results.json").read_text())
    check_specification(results)
    assert "author deep note read" in results["output"]


def test_a_submission_that_cannot_be_copied_is_refused_in_one_line_with_results(tmp_path: Path) -> None:
    """A folder past the system's longest path cannot be copied for the player: the results say so
    in one line, no round is played, and run ends with status 0, not a traceback."""
    root = tmp_path / "root"
    for name in ("source", "submission", "results"):
        (root / name).mkdir(parents=True)
    (root / "source" / "course.toml").write_text(COURSE)
    (root / "source" / "seed").write_text("123456789012345\n")
    (root / "submission" / "bacplayer.py").write_text(CRASHER)
    long = "/".join(["abcdefghij"] * 500)  # 5,500 characters: past PATH_MAX, 4,096
    subprocess.run(["mkdir", "-p", long], cwd=root / "submission", check=True)
    try:
        done = moocow(sys.executable, "gradescope", "run", str(root))
        results = json.loads((root / "results" / "results.json").read_text())
    finally:
        subprocess.run(["rm", "-rf", root / "submission"], check=True)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "" and done.stdout.count("\n") == 1
    check_specification(results)
    assert results["score"] == 0 and results["extra_data"]["moocow"]["graded"] is False
    assert results["output"].startswith("Not graded: the submission's folder 'abcdefghij/")
    assert "cannot be copied: File name too long. No round was played." in results["output"]


# --- an interpreter players can reach ---


@pytest.fixture
def fresh_venvs(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="moocow-test-venvs-"))
    folder.chmod(0o755)
    monkeypatch.setenv(interpreter.VENVS_VARIABLE, str(folder))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.skipif(not can_drop(), reason="needs root, where players run as other users")
def test_where_players_cannot_reach_this_python_a_venv_they_can_is_built_once(fresh_venvs: Path) -> None:
    """Players run as other users: with this Python where they cannot reach it (pyenv's in /root),
    try failed until the instructor built a venv by hand. It is built once, and players run it."""
    if interpreter.unreachable(sys.executable) is None:
        pytest.skip("other users reach this Python: no venv is needed")
    first = interpreter.players_python()
    assert first.note is not None and f"built {fresh_venvs}/python3." in first.note
    again = interpreter.players_python()
    assert again.python == first.python and again.note and "built by an earlier try" in again.note
    as_nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", first.python, "-I", "-c"]
    played = subprocess.run([*as_nobody, "import moocow.referee.protocol"], capture_output=True, check=False)
    assert played.returncode == 0, played.stderr
    built = Path(first.python).parents[1]
    assert not stat.S_IMODE(built.stat().st_mode) & 0o022 and built.stat().st_uid == os.geteuid()


def test_with_no_python_others_can_reach_try_says_what_to_install(
    fresh_venvs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(interpreter, "unreachable", lambda python: "'/root' is closed to other users")
    monkeypatch.setattr(interpreter, "SYSTEM_BINS", ())
    monkeypatch.setenv("PATH", "")
    with pytest.raises(MoocowError) as refused:
        interpreter.players_python()
    message = str(refused.value)
    assert "\n" not in message and "'/root' is closed to other users" in message
    assert "no Python 3.11 or newer open to them: install one (apt-get install python3.11-venv" in message


def test_a_venv_folder_others_could_write_is_refused(fresh_venvs: Path) -> None:
    """Root runs the venv: one in a folder another user could write would hand that user root."""
    fresh_venvs.chmod(0o777)
    with pytest.raises(MoocowError, match="other users can write in"):
        interpreter.venv_root()
