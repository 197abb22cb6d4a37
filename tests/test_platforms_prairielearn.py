"""PrairieLearn: `prairielearn build` writes the question, its server files and its grader; `try` runs
the grader's entrypoint at a container's level (root without CAP_SYS_ADMIN, where this machine
allows) on an honest player, a crashing one, a missing file and the hostile flood player. Each gives
a results.json as PrairieLearn documents it, under 1 MB, score in [0, 1], and no graded secret."""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moocow.cli.platforms import prairielearn
from moocow.course.course_file import Course, Visibility
from moocow.course.dry_run import can_drop
from moocow.course.interpreter import VENVS_VARIABLE, unreachable
from moocow.course.run import Played
from moocow.platforms.prairielearn.grader import prairielearn_results
from moocow.runner.grading import grade
from moocow.runner.shown import GUESS_SHOWN, MOST_BYTES
from tests.gradescope_helpers import PLAYERS, graded_rounds, moocow, rounds_in, system_venv, try_venvs
from tests.platforms_helpers import GOLDEN, check_prairielearn

WORDS = ["".join(letters) for letters in itertools.permutations("abcdefg", 5)][:300]
SEED = 424242
COURSE = """\
[gradescope]
words = "words.txt"
rounds = 2
practice_rounds = 1
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A question built from a course file of 300 words: 1 practice and 2 graded rounds, a fixed seed,
    the word file closed to other users (PrairieLearn's copy of server files keeps no promise)."""
    folder = tmp_path_factory.mktemp("course")
    folder.chmod(0o755)
    (folder / "course.toml").write_text(COURSE)
    (folder / "words.txt").write_text("\n".join(WORDS) + "\n")
    done = moocow(sys.executable, "prairielearn", "build", "course.toml", "-o", "pl", cwd=folder)
    assert done.returncode == 0, done.stderr
    seed = folder / "pl" / "serverFilesCourse" / "moocow" / "seed"
    seed.write_text(f"{SEED}\n")  # the test knows the graded deck
    (seed.parent / "words.txt").chmod(0o600)  # the grader opens the deck's files to players itself
    return folder / "pl"


def test_the_build_holds_the_question_the_server_files_and_the_grader(built: Path) -> None:
    """info.json graded externally by the image's entrypoint with the course's server files and no
    network; an upload of the course's file; the seed 0600; a Dockerfile installing this wheel."""
    info = json.loads((built / "questions" / "moocow" / "info.json").read_text())
    options = info["externalGradingOptions"]
    assert info["gradingMethod"] == "External" and options["enabled"] and not options["enableNetworking"]
    assert options["serverFilesCourse"] == ["moocow/"] and 30 <= options["timeout"] <= 600
    assert options["entrypoint"] == "/moocow/run"
    question = (built / "questions" / "moocow" / "question.html").read_text()
    assert (
        '<pl-file-upload file-names="bacplayer.py">' in question
        and "<pl-external-grader-results>" in question
    )
    server = built / "serverFilesCourse" / "moocow"
    assert sorted(path.name for path in server.iterdir()) == ["course.toml", "seed", "words.txt"]
    assert stat.S_IMODE(os.stat(server / "seed").st_mode) == 0o600
    grader = built / "graders" / "moocow"
    (wheel,) = grader.glob("moocow-*.whl")
    dockerfile = (grader / "Dockerfile").read_text()
    assert (
        "FROM python:3.12" in dockerfile and f"pip install --no-cache-dir /moocow/{wheel.name}" in dockerfile
    )
    assert os.access(grader / "run", os.X_OK)


def graded_secrets() -> set[str]:
    words = Path("/tmp") / "moocow-test-words.txt"
    words.write_text("\n".join(WORDS) + "\n")
    try:
        return {result.secret for result in grade("minmax", words=str(words), seed=SEED, rounds=2).rounds}
    finally:
        words.unlink()


def tried(question: str, player: str, name: str, python: str, reachable: Path) -> tuple[str, str]:
    """``prairielearn try QUESTION submission`` run in ``reachable`` on ``player`` submitted as
    ``name``: what it printed, and the results.json it wrote."""
    (reachable / "submission").mkdir()
    shutil.copyfile(PLAYERS / player, reachable / "submission" / name)
    out = reachable / "grade"
    done = moocow(python, "prairielearn", "try", question, "submission", "--out", str(out), cwd=reachable)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout, (out / "results" / "results.json").read_text()


@pytest.mark.parametrize(
    ("player", "name"),
    [("course_first.py", "bacplayer.py"), ("crash.py", "bacplayer.py"), ("course_first.py", "player.py"),
     ("hostile/flood.py", "bacplayer.py")],
)  # fmt: skip
def test_try_gives_valid_results_and_no_graded_secret(
    built: Path, readable_python: str, reachable: Path, player: str, name: str
) -> None:
    stdout, text = tried(str(built), player, name, readable_python, reachable)
    results = json.loads(text)
    check_prairielearn(results)
    assert len(text.encode()) < MOST_BYTES and "What the student sees:" in stdout
    assert str(SEED) not in text
    practice = "\n".join(
        test["output"] for test in results.get("tests", []) if test["name"].startswith("Practice")
    )
    shown_secrets, shown_guesses = rounds_in(practice)
    unseen = graded_secrets() - shown_secrets - shown_guesses
    assert unseen and not unseen & set(re.split(r"[^a-z]+", text))
    if name == "player.py":  # why, first, in one line
        assert (
            results["gradable"] is False and "has no bacplayer.py (it has: player.py)" in results["message"]
        )
        assert stdout.splitlines()[0] == " ".join(results["message"].split())
        return
    assert results["gradable"] is True
    assert not (
        reachable / "grade" / "serverFilesCourse" / "moocow" / "seed"
    ).exists()  # moved where the sandbox hides it
    scored = results["tests"][-1]
    assert scored["name"] == "Graded rounds: points, one per round solved" and scored["max_points"] == 2
    if player == "course_first.py":
        assert results["score"] == 1.0 and "123456789" in results["message"]
    else:
        assert results["score"] == 0
    if player == "hostile/flood.py":
        longest = max(len(word) for word in text.split())
        assert longest <= GUESS_SHOWN + 40 and len(text) < 20_000


@pytest.mark.parametrize("score", ["visible", "after_due_date"])
def test_graded_details_are_never_shown_whatever_the_course_says(score: str) -> None:
    """PrairieLearn shows everything at once: a graded round's details never, the score only where
    the course shows it at once, the practice rounds in full."""
    course = Course(("words:length=5",), rounds=4, leaderboard=(), visibility=Visibility(score=score))
    practice = [graded_rounds(["pupil"], ["opens"], 888)]
    graded = [
        graded_rounds(["zebra", "quilt", "cider"], ["gauzy"], 4242424242424),
        graded_rounds(["nymph"], ["fjord"], 4242424242424, solved=False),
    ]
    results = prairielearn_results(course, Played(practice, graded, None), "0")
    check_prairielearn(results)
    shown = json.dumps(results)
    assert "[zebra]" not in shown and "gauzy" not in shown and "4242424242424" not in shown
    assert "pupil" in shown and "opens" in shown
    assert results["score"] == (0.75 if score == "visible" else 0.0)
    assert ("Graded rounds: points" in shown) == (score == "visible")


def test_a_submission_limit_is_refused_in_one_line(tmp_path: Path) -> None:
    course = tmp_path / "course.toml"
    course.write_text('[gradescope]\ngames = ["mastermind"]\n[gradescope.submissions]\nmost = 3\n')
    outcome = CliRunner().invoke(prairielearn, ["build", str(course), "-o", str(tmp_path / "pl")])
    assert outcome.exit_code == 2 and outcome.output.count("\n") == 1
    assert "PrairieLearn limits attempts itself" in outcome.output and not (tmp_path / "pl").exists()


def test_the_golden_file_from_prairielearns_docs_passes_the_same_checks() -> None:
    """The checks every results.json here meets accept PrairieLearn's documented example."""
    check_prairielearn(json.loads((GOLDEN / "prairielearn.json").read_text()))


def test_a_player_hunting_the_seed_finds_nothing_under_prairielearn_try(
    built: Path, readable_python: str, reachable: Path
) -> None:
    """tests/players/hostile/seed_thief.py hunts command lines, the runner's memory, environment and
    folders at the level a container gives: it reads none of the runner's, and plays the graded
    rounds with no secret known, not each in one guess (a seed it may find in another program's
    command line or /tmp file on this machine is not the run's)."""
    question = reachable / "pl"
    shutil.copytree(built, question)
    course = question / "serverFilesCourse" / "moocow" / "course.toml"
    course.write_text(
        '[gradescope]\ngames = ["mastermind:pegs=3,colors=3"]\nrounds = 6\npractice_rounds = 0\n'
    )
    _, text = tried("pl", "hostile/seed_thief.py", "bacplayer.py", readable_python, reachable)  # relative
    results = json.loads(text)
    found = re.search(r"student id found:(\S+),", results["message"])
    assert found is not None and set(found.group(1).split(",")) <= {"nothing", "seed"}
    total = re.search(r"total (\d+) guesses", results["tests"][-1]["output"])
    assert total is not None and int(total.group(1)) > 6


def test_a_player_hunting_the_graders_seed_reads_nothing(
    built: Path, readable_python: str, reachable: Path
) -> None:
    """tests/players/hostile/grade_thief.py finds ``/grade`` on the grader's command line and opens
    the seed where the question puts it and where the grading moves it: it reads neither."""
    _, text = tried(str(built), "hostile/grade_thief.py", "bacplayer.py", readable_python, reachable)
    assert "student id read:nothing," in json.loads(text)["message"]


def test_a_broken_course_is_an_attempt_that_does_not_count(built: Path, reachable: Path) -> None:
    """The grader's own error: results.json says the attempt does not count, without the error (the
    student sees it all); try prints the error last, in one line, and exits 2."""
    question = reachable / "pl"
    shutil.copytree(built, question)
    (question / "serverFilesCourse" / "moocow" / "course.toml").write_text("[gradescope]\nrounds = 0\n")
    (reachable / "bacplayer.py").write_bytes((PLAYERS / "course_first.py").read_bytes())
    out = reachable / "grade"
    done = moocow(
        sys.executable, "prairielearn", "try", "pl", "bacplayer.py", "--out", str(out), cwd=reachable
    )
    results = json.loads((out / "results" / "results.json").read_text())
    check_prairielearn(results)
    assert results["gradable"] is False and "does not count" in results["message"]
    assert "rounds" not in results["message"] and done.returncode == 2
    assert done.stderr.splitlines()[-1].startswith("error: ") and "rounds must be" in done.stderr


@pytest.fixture
def closed_home() -> Iterator[Path]:
    """A folder closed to other users (mode 0700), as root's home is, where pyenv keeps its Pythons."""
    folder = Path(tempfile.mkdtemp(prefix="moocow-test-home-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.skipif(not can_drop(), reason="needs root, where players run as other users")
def test_try_grades_from_a_venv_whose_python_players_cannot_reach(
    built: Path, reachable: Path, closed_home: Path
) -> None:
    """A venv made on a Python in a mode-700 home (pyenv's in /root, as the README makes it): every
    submission came back "Not gradable", the reason after the whole results.json. ``try`` runs the
    entrypoint on the venv ``gradescope try`` builds once for players, says so once, and grades."""
    python = str(system_venv(closed_home))
    assert unreachable(python) == f"{str(closed_home)!r} is closed to other users"
    stdout, text = tried(str(built), "course_first.py", "bacplayer.py", python, reachable)
    results = json.loads(text)
    assert results["gradable"] is True and results["score"] > 0
    (said,) = [line for line in stdout.splitlines() if "players cannot reach this Python" in line]
    assert f"({str(closed_home)!r} is closed to other users)" in said and f"{try_venvs()}/python3." in said
    assert "for the entrypoint" in said or "the entrypoint runs" in said


def test_why_an_attempt_is_not_gradable_is_said_first_in_one_line(built: Path, reachable: Path) -> None:
    """The grader's error was printed after the whole results.json, where no one scrolls: it is the
    first line ``try`` prints (unbuffered, in the order written, as on a terminal)."""
    question = reachable / "pl"
    shutil.copytree(built, question)
    (question / "serverFilesCourse" / "moocow" / "course.toml").write_text("[gradescope]\nrounds = 0\n")
    (reachable / "bacplayer.py").write_bytes((PLAYERS / "course_first.py").read_bytes())
    environment = {**os.environ, VENVS_VARIABLE: str(try_venvs()), "PYTHONUNBUFFERED": "1"}
    asked = [sys.executable, "-m", "moocow", "prairielearn", "try", "pl", "bacplayer.py"]
    done = subprocess.run(
        asked, cwd=reachable, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        check=False,
    )  # fmt: skip
    first = done.stdout.splitlines()[0]
    assert done.returncode == 2 and first.startswith("error: ") and "rounds must be" in first
    assert done.stdout.count("rounds must be") == 1 and "Not gradable" in done.stdout
