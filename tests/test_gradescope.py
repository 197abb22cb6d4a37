"""Gradescope: the course file, the zip, the dry run, and a results.json that keeps the graded deck secret.

The acceptance tests build a zip from a course file and run it with ``moocow gradescope try`` as
Gradescope would (as root with CAP_SYS_ADMIN dropped, where this machine allows: the ``user``
level), on a course player and on a hostile one, then check results.json against Gradescope's
specification and that no field a student sees before the due date holds a graded secret or guess.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import site
import stat
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from moocow.engine.errors import MoocowError
from moocow.gradescope.course import Course, Points, course_from, read_course
from moocow.gradescope.grading import Layout, player_folder, run_autograder
from moocow.gradescope.results import Mark, course_results, points
from moocow.gradescope.tryout import can_drop, default_metadata, student_view
from moocow.gradescope.wheel import moocow_wheel
from moocow.runner import sandbox
from moocow.runner.grading import Grade, grade
from moocow.runner.limits import Limits
from moocow.runner.protocol import Identity
from moocow.runner.results import RoundResult
from moocow.runner.shown import GUESS_SHOWN, MOST_BYTES, bounded

PLAYERS = Path(__file__).parent / "players"
SHARED = [folder / "shared" / "data" / "words_alpha.txt" for folder in Path(__file__).resolve().parents[1:4]]
WORDS_ALPHA = next((found for found in SHARED if found.is_file()), SHARED[0])
needs_words_alpha = pytest.mark.skipif(not WORDS_ALPHA.is_file(), reason="no ../shared/data/words_alpha.txt")
VISIBILITIES = {"visible", "after_due_date", "after_published", "hidden"}
FORMATS = {"text", "html", "simple_format", "md", "ansi"}


# --- Gradescope's specification (gradescope-autograders.readthedocs.io, "Autograder Specifications") ---

TOP = {
    "score": (int, float), "execution_time": (int, float), "output": str, "output_format": str,
    "test_output_format": str, "test_name_format": str, "visibility": str, "stdout_visibility": str,
    "extra_data": dict, "tests": list, "leaderboard": list,
}  # fmt: skip
TEST = {
    "score": (int, float), "max_score": (int, float), "status": str, "name": str, "name_format": str,
    "number": str, "output": str, "output_format": str, "tags": list, "visibility": str, "extra_data": dict,
}  # fmt: skip


def check_specification(results: dict[str, Any]) -> None:
    """Only the fields Gradescope defines, with their types and values; a score somewhere."""
    for key, value in results.items():
        assert key in TOP and isinstance(value, TOP[key]) and not isinstance(value, bool), key
    assert "score" in results or all("score" in test for test in results["tests"])
    for key in ("visibility", "stdout_visibility"):
        assert results.get(key, "visible") in VISIBILITIES
    for key in ("output_format", "test_output_format", "test_name_format"):
        assert results.get(key, "text") in FORMATS
    for test in results.get("tests", []):
        for key, value in test.items():
            assert key in TEST and isinstance(value, TEST[key]) and not isinstance(value, bool), key
        assert test.get("visibility", "visible") in VISIBILITIES
        assert test.get("status", "passed") in {"passed", "failed"}
    for column in results.get("leaderboard", []):
        assert set(column) <= {"name", "value", "order"} and isinstance(column["name"], str)
        assert isinstance(column["value"], int | float | str) and column.get("order", "desc") in {
            "asc",
            "desc",
        }


def plain_text_everywhere(results: dict[str, Any]) -> None:
    """Nothing a player sent can be rendered as HTML or Markdown: every output and name is plain text."""
    assert results["output_format"] == results["test_output_format"] == results["test_name_format"] == "text"
    assert all(test["output_format"] == test["name_format"] == "text" for test in results["tests"])


def visible_text(results: dict[str, Any]) -> str:
    """Everything a student may see before the due date: output, every test's name, visible tests'
    outputs, the leaderboard."""
    parts = [results.get("output", "")]
    for test in results["tests"]:
        parts.append(test["name"])
        if test.get("visibility", results.get("visibility", "visible")) == "visible":
            parts.append(test.get("output", ""))
    parts += [f"{column['name']} {column['value']}" for column in results.get("leaderboard", [])]
    return "\n".join(parts)


def rounds_in(text: str) -> tuple[set[str], set[str]]:
    """The secrets and the guesses of the ``[secret]: guess guess ...`` lines of a log."""
    secrets, guesses = set(), set()
    for secret, played in re.findall(r"^\[([^\]\n]*)\]: ?(.*)$", text, re.MULTILINE):
        secrets.add(secret)
        guesses.update(played.split())
    return secrets, guesses


def assert_graded_deck_unseen(results: dict[str, Any], seed: str) -> set[str]:
    """No graded secret, graded guess or the seed in what a student sees; returns the graded secrets."""
    details = [test for test in results["tests"] if test["name"].startswith("Graded rounds in detail")]
    practice = [test for test in results["tests"] if test["name"].startswith("Practice")]
    assert details and all(test["visibility"] in ("after_due_date", "hidden") for test in details)
    graded_secrets, graded_guesses = rounds_in("\n".join(test["output"] for test in details))
    shown_secrets, shown_guesses = rounds_in("\n".join(test["output"] for test in practice))
    secret_tokens = (graded_secrets | graded_guesses) - shown_secrets - shown_guesses
    visible = visible_text(results)
    assert graded_secrets and seed.strip() not in json.dumps(results)
    assert not secret_tokens & set(re.split(r"[\s,.:()]+", visible))
    assert not any(secret in visible for secret in graded_secrets - shown_secrets - shown_guesses)
    return graded_secrets


# --- An interpreter the player's unprivileged user can run (at the user level, as on Gradescope) ---


@pytest.fixture(scope="session")
def readable_python() -> Iterator[str]:
    """This interpreter if other users can run it, else a venv of the system's Python of the same
    version that imports this moocow, in a folder every user can reach (as setup.sh's /opt/moocow)."""
    spellings = (Path(sys.executable), Path(os.path.realpath(sys.executable)))
    if not sandbox.running_as_root() or all(sandbox.readable_by_others(path, True) for path in spellings):
        yield sys.executable
        return
    system = Path("/usr/bin/python3")
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    asked = [system, "-c", "import sys; print(*sys.version_info[:2], sep='.')"]
    same = (
        subprocess.run(asked, capture_output=True, text=True, check=False).stdout.strip()
        if system.exists()
        else ""
    )
    if same != version:
        pytest.skip(f"this Python is not readable by other users and {system} is not Python {version}")
    folder = Path(tempfile.mkdtemp(prefix="moocow-test-python-"))
    folder.chmod(0o755)
    try:
        subprocess.run([system, "-m", "venv", "--without-pip", folder / "venv"], check=True)
        bridge = folder / "venv" / "lib" / f"python{version}" / "site-packages" / "moocow-bridge.pth"
        bridge.write_text(
            "".join(f"import site; site.addsitedir({path!r})\n" for path in site.getsitepackages())
        )
        yield str(folder / "venv" / "bin" / "python")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def moocow(python: str, *arguments: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [python, "-m", "moocow", *arguments], capture_output=True, text=True, cwd=cwd, check=False
    )


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


@pytest.fixture
def reachable() -> Iterator[Path]:
    """A folder every user can reach, as /autograder is (pytest's own folders are closed to others)."""
    folder = Path(tempfile.mkdtemp(prefix="moocow-test-gradescope-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


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
    """tests/players/hostile/seed_thief.py (command lines, the runner's memory, environment and folders,
    every seed and results file it can name) finds nothing to read, at the level Gradescope gives."""
    (reachable / "course.toml").write_text(
        '[gradescope]\ngames = ["mastermind:pegs=3,colors=3"]\nrounds = 2\n'
    )
    built = moocow(sys.executable, "gradescope", "build", "course.toml", "-o", "a.zip", cwd=reachable)
    assert built.returncode == 0, built.stderr
    (reachable / "submission").mkdir()
    (reachable / "submission" / "bacplayer.py").write_bytes(
        (PLAYERS / "hostile" / "seed_thief.py").read_bytes()
    )
    out = reachable / "out"
    done = moocow(
        readable_python, "gradescope", "try", "a.zip", "submission", "--out", str(out), cwd=reachable
    )
    assert done.returncode == 0, done.stdout + done.stderr
    results = json.loads((out / "results" / "results.json").read_text())
    assert "(student id found:nothing, author Thief, Seed)" in results["output"], results["tests"][0][
        "output"
    ]


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
    packing = "import pathlib, moocow.gradescope.wheel as w; print(w.moocow_wheel(pathlib.Path('.')))"
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
    assert (tmp_path / "again" / "moocow" / "gradescope" / "wheel.py").is_file()


# --- The course file ---


def test_a_course_file_reads_back_as_the_zip_writes_it(tmp_path: Path) -> None:
    """Every key survives to_toml and read_course; deck files become the course folder's."""
    table = {
        "games": ["mastermind:pegs=3,colors=3", "words:length=5,file=w.txt"], "rounds": 7,
        "practice_rounds": 1,
        "practice_seed": 5, "mercy": 9, "files": ["bot.py", "helper.py"], "leaderboard": ["points", "worst"],
        "points": {"scheme": "scale", "max": 50, "full_at": 30, "zero_at": "first"},
        "visibility": {"practice": "after_published", "score": "visible", "details": "hidden"},
        "submissions": {"most": 3, "hours": 12}, "limits": {"guess_seconds": 2},
    }  # fmt: skip
    course = course_from(table)
    assert course.player == "bot.py" and course.submissions is not None and course.submissions.most == 3
    (tmp_path / "course.toml").write_text(course.to_toml())
    again = read_course(tmp_path / "course.toml")
    assert again == course.with_files(lambda name: str(tmp_path / name))
    assert again.decks[1] == f"words:length=5,file={tmp_path / 'w.txt'}"


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"visibility": {"details": "visible"}}, "must be after_due_date or hidden"),
        ({"visibility": {"details": "after_published"}}, "must be after_due_date or hidden"),
        ({"visibility": {"score": "soon"}}, "not one of visible"),
        ({"visibility": {"score": "after_published"}}, "a leaderboard shows the graded totals at once"),
        ({"seed": 4}, "unknown key 'seed'"),
        ({"files": ["../bot.py"]}, "not paths"),
        ({"leaderboard": ["speed"]}, "unknown leaderboard column"),
        ({"points": {"scheme": "scale"}}, "needs max"),
        ({"submissions": {"most": 0}}, "at least 1"),
        ({"rounds": 0}, "at least 1"),
        ({"min_length": 9, "max_length": 6}, "minlen 9 is more than maxlen 6"),
    ],
)
def test_a_bad_course_is_one_line(table: dict[str, Any], message: str) -> None:
    with pytest.raises(MoocowError, match=message):
        course_from(table)


def test_points_scale_between_two_marks() -> None:
    """Full marks at the full mark or better, none at the zero mark or worse, a straight line between."""
    full, zero = Mark(100, "minmax"), Mark(300, "every round lost")
    assert [points(total, full, zero, 10) for total in (90, 100, 200, 250, 300, 400)] == [
        10,
        10,
        5,
        2.5,
        0,
        0,
    ]


# --- results.json, composed directly ---


def graded_rounds(secrets: list[str], guesses: list[str], seed: int, solved: bool = True) -> Grade:
    rounds = tuple(
        RoundResult(
            "bot",
            "words:length=5",
            number,
            secret,
            (*guesses, secret) if solved else tuple(guesses),
            solved,
            len(guesses) + 1 if solved else 20,
            None if solved else "invalid",
            None if solved else f"{guesses[0]!r} is not a guess",
            0.01,
        )
        for number, secret in enumerate(secrets)
    )
    return Grade("bot.py", "words:length=5", seed, Identity("42", "Ada <b>L</b>"), rounds)


@pytest.mark.parametrize("scheme", ["solved", "scale"])
def test_no_graded_secret_guess_or_reason_where_a_student_looks(scheme: str) -> None:
    """The graded secrets, guesses and lost rounds' reasons are only in the details test; the practice
    deck is shown in full; the score test, names, output and leaderboard hold totals and counts."""
    course = Course(
        ("words:length=5",),
        rounds=2,
        points=Points(scheme, 10),
        leaderboard=("total", "failed", "points", "worst"),
    )
    practice = [graded_rounds(["pupil"], ["opens"], 888)]
    graded = [graded_rounds(["zebra", "quilt"], ["gauzy", "fjord"], 4242424242424, solved=False)]
    marks = (Mark(10, "minmax"), Mark(40, "every round lost")) if scheme == "scale" else None
    results = course_results(course, practice, graded, marks, {}, "0")
    check_specification(results)
    plain_text_everywhere(results)
    visible = visible_text(results)
    for secret in ("zebra", "quilt", "gauzy", "fjord", "is not a guess", "4242424242424"):
        assert secret not in visible
    assert "pupil" in visible and "opens" in visible and "total 40 guesses" in visible
    details = results["tests"][-1]
    assert details["visibility"] == "after_due_date" and "[zebra]: gauzy fjord" in details["output"]
    assert "4242424242424" not in json.dumps(results)


def test_totals_kept_until_published_show_nowhere_before() -> None:
    """With the score shown once grades are published and no leaderboard, what a student sees before
    holds no graded total: the covert channel of a visible total is closed."""
    table = {"games": ["words:length=5"], "leaderboard": [], "visibility": {"score": "after_published"}}
    graded = [graded_rounds(["zebra", "quilt"], ["gauzy", "fjord"], 4242424242424, solved=False)]
    results = course_results(course_from(table), [], graded, None, {}, "0")
    check_specification(results)
    assert "leaderboard" not in results and "40" not in visible_text(results)
    assert (
        results["tests"][0]["visibility"] == "after_published" and "total 40" in results["tests"][0]["output"]
    )


def test_results_are_cut_to_a_megabyte() -> None:
    """However long the outputs, the file is kept under the bound by halving the longest."""
    results = {"output": "x" * 3_000_000, "tests": [{"output": "y" * 2_000_000} for _ in range(3)]}
    assert len(json.dumps(bounded(results)).encode()) <= MOST_BYTES


def test_grade_writes_plain_bounded_results_for_a_flooding_player(tmp_path: Path) -> None:
    """`moocow grade --gradescope` too: 65,535-character guesses and HTML are cut and plain text; the
    file is kilobytes, where the same player once made megabytes."""
    words = tmp_path / "words.txt"
    words.write_text("hunts\nmotes\nplastin\n")
    graded = grade(
        str(PLAYERS / "hostile" / "flood.py"), words=str(words), rounds=2, limits=Limits(guess_seconds=20)
    )
    results = graded.gradescope()
    assert results["output_format"] == "text" and all(
        test["output_format"] == "text" for test in results["tests"]
    )
    assert len(json.dumps(results)) < 60_000 and max(map(len, results["output"].split())) <= GUESS_SHOWN + 40
    assert sum(len(guess) for result in graded.rounds for guess in result.guesses) > 1_000_000


def test_what_the_student_sees_is_the_visible_part() -> None:
    results = {
        "output": "hello",
        "tests": [
            {"name": "shown", "score": 1, "max_score": 2, "output": "public", "visibility": "visible"},
            {"name": "later", "score": 0, "max_score": 0, "output": "SECRET", "visibility": "after_due_date"},
        ],
        "leaderboard": [{"name": "Graded total of guesses", "value": 12, "order": "asc"}],
    }
    view = "\n".join(student_view(results))
    assert "public" in view and "SECRET" not in view and "later (after_due_date)" in view and "= 12" in view


# --- run_autograder without a player: a missing file, the submission limit ---


def laid_out(tmp_path: Path, course: str, files: dict[str, str], metadata: dict[str, Any]) -> Path:
    layout = Layout(tmp_path)
    for folder in (layout.source, layout.submission, layout.results.parent):
        folder.mkdir(parents=True)
    layout.course.write_text(course)
    layout.seed.write_text("123456789012345\n")
    layout.metadata.write_text(json.dumps(metadata))
    for name, text in files.items():
        (layout.submission / name).write_text(text)
    return tmp_path


def test_a_missing_file_is_one_line_and_no_points(tmp_path: Path) -> None:
    root = laid_out(
        tmp_path, '[gradescope]\ngames = ["bottles:n=3"]\n', {"player.py": ""}, default_metadata()
    )
    results = run_autograder(root)
    check_specification(results)
    assert results["score"] == 0 and results["output"].count("\n") == 0
    assert "no bacplayer.py" in results["output"] and "player.py" in results["output"]
    (Layout(root).submission / "bacplayer.py").symlink_to(Layout(root).seed)
    assert "Not graded: the submission has no bacplayer.py" in run_autograder(root)["output"]


def test_over_the_submission_limit_the_last_graded_results_stand(tmp_path: Path) -> None:
    """Two graded submissions in the last 24 hours with at most two allowed: no player runs, the last
    graded results are kept with a line saying why; an ungraded earlier one does not count."""
    metadata = default_metadata()
    scored = {"name": "Graded rounds: total of guesses", "score": 3, "max_score": 4}
    earlier = {"output": "old", "tests": [scored],
               "extra_data": {"moocow": {"graded": True}}}  # fmt: skip
    missing = {"output": "Not graded", "score": 0, "extra_data": {"moocow": {"graded": False}}}
    metadata["previous_submissions"] = [
        {"submission_time": "2000-01-01T00:00:00+00:00", "score": 1, "results": earlier},
        {"submission_time": metadata["created_at"], "score": 3, "results": earlier},
        {"submission_time": metadata["created_at"], "score": 0, "results": missing},
    ]
    course = '[gradescope]\ngames = ["bottles:n=3"]\n[gradescope.submissions]\nmost = 1\nhours = 24\n'
    root = laid_out(tmp_path, course, {"bacplayer.py": "raise SystemExit"}, metadata)
    results = run_autograder(root)
    assert results["output"].startswith("Not graded: at most 1 graded submissions in 24 hours")
    assert results["tests"] == earlier["tests"] and results["extra_data"]["moocow"]["graded"] is False
    metadata["previous_submissions"] = metadata["previous_submissions"][:1]
    Layout(root).metadata.write_text(json.dumps(metadata))
    assert "limit" not in run_autograder(root)["output"]


# --- The command line ---


def test_try_takes_earlier_submissions_from_metadata(tmp_path: Path) -> None:
    """`gradescope try --metadata`: a submission over the course's limit keeps the last graded results."""
    course = '[gradescope]\ngames = ["bottles:n=3"]\n[gradescope.submissions]\nmost = 1\n'
    (tmp_path / "course.toml").write_text(course)
    assert moocow(sys.executable, "gradescope", "build", "course.toml", cwd=tmp_path).returncode == 0
    metadata = default_metadata()
    earlier = {"output": "earlier", "tests": [], "score": 7, "extra_data": {"moocow": {"graded": True}}}
    metadata["previous_submissions"] = [{"submission_time": metadata["created_at"], "results": earlier}]
    (tmp_path / "metadata.json").write_text(json.dumps(metadata))
    (tmp_path / "bacplayer.py").write_text("")
    arguments = ["autograder.zip", "bacplayer.py", "--metadata", "metadata.json"]
    done = moocow(sys.executable, "gradescope", "try", *arguments, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Not graded: at most 1 graded submissions in 24 hours" in done.stdout and "Score: 7" in done.stdout


def test_build_takes_a_course_file_or_options_not_both(tmp_path: Path) -> None:
    (tmp_path / "course.toml").write_text("[gradescope]\n")
    done = moocow(sys.executable, "gradescope", "build", "course.toml", "--rounds", "3", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.startswith("error: give the course file or the options")
    assert done.stderr.count("\n") == 1 and not (tmp_path / "autograder.zip").exists()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--words", "missing.txt"], "error: cannot read word file '"),
        (["--game", "chess"], "error: unknown game 'chess'"),
        (
            ["--game", "bottles:n=3", "--rounds", "0"],
            "error: the options: rounds must be a whole number of at least 1",
        ),
        (["course.toml"], "error: points mark 'bot.py' is not a built-in strategy"),
    ],
)
def test_build_refuses_a_course_it_could_not_grade_in_one_line(
    tmp_path: Path, arguments: list[str], message: str
) -> None:
    """A deck file missing, a game unknown, a points mark that is no strategy: one line before any zip."""
    course = '[gradescope]\ngames = ["bottles:n=3"]\n[gradescope.points]\nscheme = "scale"\nmax = 5\n'
    course += 'full_at = "bot.py"\n'
    (tmp_path / "course.toml").write_text(course)
    done = moocow(sys.executable, "gradescope", "build", *arguments, cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.startswith(message) and done.stderr.count("\n") == 1
    assert not (tmp_path / "autograder.zip").exists()


def test_build_from_options_puts_the_games_in_the_zip(tmp_path: Path) -> None:
    done = moocow(sys.executable, "gradescope", "build", "-g", "bottles:n=3", "--rounds", "2", "-o", "a.zip",
                  cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(tmp_path / "a.zip") as opened:
        course = course_from(__import__("tomllib").loads(opened.read("course.toml").decode())["gradescope"])
    assert course.decks == ("bottles:n=3",) and course.rounds == 2 and course.player == "bacplayer.py"
