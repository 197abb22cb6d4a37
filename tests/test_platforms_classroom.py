"""GitHub Classroom: `classroom build` writes a template whose workflow's shell steps, run here on a
checkout of it with a student's player, give the grading reporter results it decodes to the points
the player earned. Everything in the template is public: the test reads the seed in the workflow."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from moocow.cli.platforms import classroom
from moocow.platforms.classroom.grade import grade_course
from moocow.platforms.classroom.template import workflow_text
from moocow.runner.grading import grade
from moocow.sandbox import sandbox
from tests.gradescope_helpers import PLAYERS, moocow
from tests.platforms_helpers import check_reporter_results, reporter_points, reporter_runners

WORDS = ["alpha", "bravo", "cider", "dwarf", "fjords", "glyphs", "cobweb", "nymph", "quartz", "wizard"]
COURSE = '[gradescope]\nwords = "words.txt"\nrounds = 3\n'


def git(*arguments: str, cwd: Path) -> str:
    done = subprocess.run(["git", *arguments], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout.strip()


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A template repository from a course file on ten words, 3 graded rounds on a fixed public seed."""
    folder = tmp_path_factory.mktemp("course")
    (folder / "course.toml").write_text(COURSE)
    (folder / "words.txt").write_text("\n".join(WORDS) + "\n")
    done = moocow(sys.executable, "classroom", "build", "course.toml", "-o", "template", cwd=folder)
    assert done.returncode == 0, done.stderr
    repository = folder / "template"
    git("init", "-q", "-b", "main", cwd=repository)
    git("add", "-A", cwd=repository)
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "template", cwd=repository)
    return repository


def run_workflow(checkout: Path) -> tuple[list[dict[str, object]], dict[str, str]]:
    """Run the workflow's shell steps in ``checkout`` (moocow is installed here: the install step
    is checked, not run), then decode what the reporter step is given, as the reporter does."""
    workflow = yaml.safe_load((checkout / ".github" / "workflows" / "classroom.yml").read_text())
    steps = workflow["jobs"]["run-autograding-tests"]["steps"]
    outputs: dict[str, dict[str, str]] = {}
    environment = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    environment["GITHUB_SHA"] = git("rev-parse", "HEAD", cwd=checkout)
    for step in steps:
        if "run" not in step:
            continue
        if step["name"] == "Install moocow":
            (wheel,) = re.findall(r"\.moocow/moocow-\S+\.whl", step["run"])
            assert (checkout / wheel).is_file()
            continue
        written = checkout.parent / "github_output"
        written.write_text("")
        shell = ["bash", "-e", "-c", step["run"]]
        environment["GITHUB_OUTPUT"] = str(written)
        done = subprocess.run(
            shell, cwd=checkout, env=environment, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr
        outputs[step["id"]] = dict(line.split("=", 1) for line in written.read_text().splitlines())
    reporter = next(step for step in steps if "grading-reporter" in step.get("uses", ""))
    assert reporter["uses"] == "classroom-resources/autograding-grading-reporter@v1"
    given = {}
    for name, value in reporter["env"].items():
        step, output = re.fullmatch(r"\$\{\{steps\.([\w-]+)\.outputs\.(\w+)\}\}", value).groups()
        given[name] = outputs[step][output]
    return reporter_runners(given, reporter["with"]["runners"]), environment


@pytest.mark.parametrize("player", ["course_first.py"])  # crash.py: test_platforms_reports
def test_the_workflow_grades_a_checkout_with_partial_credit(
    template: Path, tmp_path: Path, player: str
) -> None:
    checkout = tmp_path / "checkout"
    git("clone", "-q", str(template), str(checkout), cwd=tmp_path)
    shutil.copyfile(PLAYERS / player, checkout / "bacplayer.py")
    git("add", "bacplayer.py", cwd=checkout)
    git("-c", "user.name=s", "-c", "user.email=s@s", "commit", "-qm", "my player", cwd=checkout)
    (results,), _ = run_workflow(checkout)
    check_reporter_results(results)
    workflow = (checkout / ".github" / "workflows" / "classroom.yml").read_text()
    seed = int(re.search(r"--seed (\d+)", workflow).group(1))  # public: the student reads it too
    deck = grade("minmax", words=str(checkout / ".moocow" / "words.txt"), seed=seed, rounds=3)
    assert [test["name"].split(": ")[1] for test in results["tests"]] == [one.secret for one in deck.rounds]
    solved = 3 if player == "course_first.py" else 0  # it solves every round of ten words; crash.py none
    assert reporter_points([results]) == (solved, 3)


def test_a_checkout_without_the_player_is_an_error_the_reporter_shows(template: Path, tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    git("clone", "-q", str(template), str(checkout), cwd=tmp_path)
    (results,), _ = run_workflow(checkout)
    check_reporter_results(results)
    assert results["status"] == "error" and reporter_points([results]) == (0, 3)
    assert "has no bacplayer.py" in results["tests"][0]["message"]


def test_a_deck_from_the_commit_changes_with_each_commit(
    template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--deck commit: the seed is the pushed commit's hash, so each commit plays another deck."""
    workflow = workflow_text("moocow.whl", "commit", 0)
    assert '--commit "$GITHUB_SHA"' in workflow and "--seed" not in workflow
    course = str(template / ".moocow" / "course.toml")
    shutil.copyfile(PLAYERS / "course_first.py", tmp_path / "bacplayer.py")
    monkeypatch.chdir(tmp_path)
    decks = set()
    for commit in ("a" * 40, "b" * 40, "main"):
        graded = CliRunner().invoke(classroom, ["grade", course, "--commit", commit, "--json"])
        decks.add(graded.stdout if graded.exit_code == 0 else graded.output)
    assert len(decks) == 3 and any("--commit must be a commit's hash" in deck for deck in decks)


def test_a_scale_course_gives_its_points_between_its_marks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """points scale: full marks at minmax's total on the same graded deck, none at every round lost, a line
    between; one test holding them, which the reporter adds up."""
    course = tmp_path / "course.toml"
    course.write_text(
        '[gradescope]\ngames = ["mastermind:pegs=3,colors=3"]\nrounds = 4\n'
        '[gradescope.points]\nscheme = "scale"\nmax = 10\nfull_at = "minmax"\nzero_at = "mercy"\n'
    )
    shutil.copyfile(PLAYERS / "first_candidate.py", tmp_path / "bacplayer.py")
    monkeypatch.chdir(tmp_path)
    results = grade_course(course, 7)
    check_reporter_results(results, per_round=False)
    game = "mastermind:pegs=3,colors=3"
    player = grade("bacplayer.py", game, seed=7, rounds=4).total
    best, worst = grade("minmax", game, seed=7, rounds=4).total, 4 * 20
    expected = 10.0 if player <= best else round(10 * (worst - player) / (worst - best), 2)
    assert reporter_points([results]) == (expected, 10) and expected > 0
    assert "minmax's total on the same graded deck" in results["tests"][0]["message"]


def test_a_runner_without_namespaces_still_grades_and_says_so(
    template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An Actions runner where bubblewrap makes no namespaces (not root): the player runs unconfined,
    a line says why, and the results are there (the runner and the deck are the student's anyway)."""
    monkeypatch.setattr(sandbox, "strongest", lambda: (sandbox.Confinement.NONE, "no namespaces here"))
    shutil.copyfile(PLAYERS / "course_first.py", tmp_path / "bacplayer.py")
    monkeypatch.chdir(tmp_path)
    said: list[str] = []
    results = grade_course(template / ".moocow" / "course.toml", 5, said.append)
    check_reporter_results(results)
    assert reporter_points([results]) == (3, 3)
    assert said == [
        "note: the player runs unconfined, as the runner's user: cannot sandbox players on this machine "
        "(no namespaces here); --no-sandbox runs them unconfined, as your own user, which a hostile "
        "player can exploit"
    ]


def test_a_bad_course_is_one_line_and_leaves_no_folder(tmp_path: Path) -> None:
    outcome = CliRunner().invoke(classroom, ["build", "--game", "nope", "-o", str(tmp_path / "t")])
    assert (
        outcome.exit_code == 2 and outcome.output.count("\n") == 1 and "unknown game 'nope'" in outcome.output
    )
    assert not (tmp_path / "t").exists()
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("")
    outcome = CliRunner().invoke(classroom, ["build", "--game", "mastermind", "-o", str(tmp_path / "full")])
    assert outcome.exit_code == 2 and "must be a new or empty folder" in outcome.output
    outcome = CliRunner().invoke(
        classroom, ["build", "--game", "mastermind", "-r", "301", "-o", str(tmp_path / "t")]
    )
    assert outcome.exit_code == 2 and "at most 300 rounds, not 301" in outcome.output
