"""Gradescope: the zip, the dry run, and a results.json that keeps the graded deck secret.

The acceptance tests build a zip from a course file and run it with ``moocow gradescope try`` as
Gradescope would (as root with CAP_SYS_ADMIN dropped, where this machine allows: the ``user``
level), on a course player and on hostile ones, then check results.json against Gradescope's
specification and that no field a student sees before the due date holds a graded secret or guess.
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from moocow.course.dry_run import can_drop
from moocow.course.run import player_folder
from moocow.course.wheel import moocow_wheel
from moocow.platforms.gradescope.grading import Layout
from moocow.runner.shown import GUESS_SHOWN, MOST_BYTES
from moocow.sandbox import sandbox
from tests.gradescope_helpers import (
    PLAYERS,
    WORDS_ALPHA,
    assert_graded_deck_unseen,
    check_specification,
    moocow,
    needs_words_alpha,
    plain_text_everywhere,
)  # fmt: skip

COURSE = """\
[gradescope]
words = "words_alpha.txt"
rounds = 3
practice_rounds = 2
leaderboard = ["total", "failed", "points"]

[gradescope.points]
scheme = "scale"
max = 10
full_at = "first"
zero_at = "mercy"

[gradescope.limits]
guess_seconds = 20
"""


@pytest.fixture(scope="module")
def course_zip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A zip built from a course file on words_alpha.txt: 3 graded and 2 practice rounds."""
    if not WORDS_ALPHA.is_file():
        pytest.skip("no ../shared/data/words_alpha.txt")
    folder = tmp_path_factory.mktemp("course")
    (folder / "course.toml").write_text(COURSE)
    (folder / "words_alpha.txt").symlink_to(WORDS_ALPHA)
    done = moocow(sys.executable, "gradescope", "build", "course.toml", "-o", "autograder.zip", cwd=folder)
    assert done.returncode == 0, done.stderr
    return folder / "autograder.zip"


@needs_words_alpha
def test_the_zip_holds_everything_gradescope_needs_and_the_seed_is_roots_alone(course_zip: Path) -> None:
    """setup.sh and run_autograder executable, the course, the word file, this moocow's wheel, a
    fresh seed of mode 0600; the zip itself is 0600, since it holds the seed."""
    with zipfile.ZipFile(course_zip) as opened:
        modes = {info.filename: stat.S_IMODE(info.external_attr >> 16) for info in opened.infolist()}
        seed = opened.read("seed").decode()
        course = opened.read("course.toml").decode()
    wheel = [name for name in modes if name.endswith(".whl")]
    assert modes["setup.sh"] == modes["run_autograder"] == 0o755 and modes["seed"] == 0o600
    assert {"course.toml", "words_alpha.txt"} <= set(modes) and len(wheel) == 1
    assert wheel[0].startswith("moocow-") and int(seed) >= 10**12
    assert stat.S_IMODE(course_zip.stat().st_mode) == 0o600
    assert '"bacrunner:file=words_alpha.txt"' in course and seed.strip() not in course


@needs_words_alpha
@pytest.mark.parametrize("player", ["course_first.py", "hostile/flood.py"])
def test_gradescope_try_grades_at_gradescopes_level_and_shows_no_graded_secret(
    course_zip: Path, readable_python: str, reachable: Path, player: str
) -> None:
    """The dry run: Gradescope's folders, run_autograder as root without CAP_SYS_ADMIN (the user
    level), results.json as Gradescope specifies it, plain text, under 1 MB, and no graded secret,
    graded guess or seed where a student sees it before the due date."""
    submission = reachable / "submission"
    submission.mkdir()
    (submission / "bacplayer.py").write_bytes((PLAYERS / player).read_bytes())
    out = reachable / "out"
    done = moocow(readable_python, "gradescope", "try", str(course_zip), str(submission), "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "setup.sh is not run" in done.stdout
    written = out / "results" / "results.json"
    results = json.loads(written.read_text())
    check_specification(results)
    plain_text_everywhere(results)
    assert written.stat().st_size < MOST_BYTES
    level = "user" if can_drop() else sandbox.strongest()[0]
    assert results["extra_data"]["referee"]["sandbox"]["confinement"] == level
    layout = Layout(out)
    assert stat.S_IMODE(layout.seed.stat().st_mode) == stat.S_IMODE(layout.metadata.stat().st_mode) == 0o600
    assert_graded_deck_unseen(results, layout.seed.read_text())
    assert "What the student sees:" in done.stdout and done.stdout.rstrip().endswith("}")
    practice = results["tests"][0]["output"]
    assert "disqualified" not in practice
    if player == "hostile/flood.py":
        longest = max(len(word) for test in results["tests"] for word in test["output"].split())
        assert longest <= GUESS_SHOWN + 40 and written.stat().st_size < 100_000
        scored = next(test for test in results["tests"] if test["name"].startswith("Graded rounds:"))
        assert scored["score"] == 0 and "<img" not in scored["output"]
        assert "Lost rounds by cause: 3 mercy" in scored["output"]
    else:
        assert results["leaderboard"][0]["name"] == "Graded total of guesses"
        assert "123456789 Course, Test" in practice and "disqualified" not in json.dumps(results)


def test_a_player_hunting_the_seed_finds_nothing_under_gradescope_try(
    readable_python: str, reachable: Path
) -> None:
    """tests/players/hostile/seed_thief.py hunts the command lines, the runner's memory, environment
    and folders, every seed and results file it can name: at the level Gradescope gives it reads
    none of the runner's, and plays the graded rounds with no secret known (a seed it may find in
    a file another program left open in this machine's /tmp is not the run's: Gradescope's /tmp
    is the container's own)."""
    course = '[gradescope]\ngames = ["mastermind:pegs=3,colors=3"]\nrounds = 6\npractice_rounds = 0\n'
    (reachable / "course.toml").write_text(course)
    built = moocow(sys.executable, "gradescope", "build", "course.toml", "-o", "a.zip", cwd=reachable)
    assert built.returncode == 0, built.stderr
    (reachable / "submission").mkdir()
    thief = (PLAYERS / "hostile" / "seed_thief.py").read_bytes()
    (reachable / "submission" / "bacplayer.py").write_bytes(thief)
    out = reachable / "out"
    try_it = ["gradescope", "try", "a.zip", "submission", "--out", str(out)]
    done = moocow(readable_python, *try_it, cwd=reachable)
    assert done.returncode == 0, done.stdout + done.stderr
    results = json.loads((out / "results" / "results.json").read_text())
    found = re.search(r"student id found:(\S+),", results["output"])
    assert found is not None and set(found.group(1).split(",")) <= {"nothing", "seed"}
    details = results["tests"][-1]["output"]
    first_guesses = re.findall(r"^\[(\w+)\]: (\w+)", details, re.MULTILINE)
    assert len(first_guesses) == 6 and any(secret != guess for secret, guess in first_guesses)


def test_a_link_in_the_submission_is_not_copied_for_the_player(tmp_path: Path) -> None:
    """A submitted link to the seed, copied by root, would hand the player the seed: links are left out,
    and what they point to keeps its mode."""
    seed = tmp_path / "seed"
    seed.write_text("4711471147114711\n")
    seed.chmod(0o600)
    submission = tmp_path / "submission"
    (submission / "lib").mkdir(parents=True)
    (submission / "bacplayer.py").write_text("")
    (submission / "lib" / "seed.txt").symlink_to(seed)
    (submission / "seed").symlink_to(seed)
    with player_folder(submission) as folder:
        copied = sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))
        assert copied == ["bacplayer.py", "lib"] and stat.S_IMODE(folder.stat().st_mode) == 0o755
    assert stat.S_IMODE(seed.stat().st_mode) == 0o600


def test_try_with_a_broken_course_is_one_line(tmp_path: Path) -> None:
    """run_autograder's own error, on one line, when it writes no results.json."""
    (tmp_path / "course.toml").write_text('[gradescope]\ngames = ["bottles:n=3"]\n')
    assert moocow(sys.executable, "gradescope", "build", "course.toml", cwd=tmp_path).returncode == 0
    with zipfile.ZipFile(tmp_path / "autograder.zip") as opened:
        entries = [(info, opened.read(info)) for info in opened.infolist()]
    with zipfile.ZipFile(tmp_path / "broken.zip", "w") as broken:
        for info, data in entries:
            broken.writestr(info, b"[gradescope]\nbogus = 1\n" if info.filename == "course.toml" else data)
    (tmp_path / "broken.zip").chmod(0o600)  # it holds the seed: one others can read is refused
    (tmp_path / "bacplayer.py").write_text("")
    done = moocow(sys.executable, "gradescope", "try", "broken.zip", "bacplayer.py", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith("error: ") and "unknown key 'bogus'" in done.stderr


def test_an_installed_moocow_is_packed_again_as_the_wheel_it_came_from(tmp_path: Path) -> None:
    """Without a checkout (moocow installed from a wheel), the zip's wheel is the installed files
    packed again: the same files, byte for byte, with metadata pip installs."""
    (tmp_path / "built").mkdir()
    built = moocow_wheel(tmp_path / "built")
    installed = tmp_path / "installed"
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target"]
    subprocess.run([*pip, str(installed), str(built)], check=True, capture_output=True)
    packing = "import pathlib, moocow.course.wheel as w; print(w.moocow_wheel(pathlib.Path('.')))"
    done = subprocess.run(  # -S: no site, so not the editable install of this checkout
        [sys.executable, "-S", "-c", packing], cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(installed)},
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    repacked = Path(done.stdout.strip())
    assert repacked.parent == tmp_path and repacked.name == built.name
    with zipfile.ZipFile(built) as first, zipfile.ZipFile(repacked) as second:
        assert sorted(first.namelist()) == sorted(second.namelist())
        for name in first.namelist():
            assert name.endswith(("RECORD", "WHEEL")) or first.read(name) == second.read(name), name
    subprocess.run([*pip, str(tmp_path / "again"), str(repacked)], check=True, capture_output=True)
    assert (tmp_path / "again" / "moocow" / "course" / "wheel.py").is_file()
