"""Wordle through the runner: marks reach players as text (protocol version 2), a version-1 player
is refused them in one line, hard mode is a rule on players' guesses, and secrets are dealt from
the answers alone, in grade, tournament, verify, player trees and Gradescope."""

from __future__ import annotations

import json
import sys
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from moocow.cli import app
from moocow.engine.errors import MoocowError
from moocow.engine.position import Position
from moocow.engine.solve import secret_index
from moocow.plugins import load_game
from moocow.referee.players import parse_player
from moocow.referee.playertree import player_tree
from moocow.referee.seats import ProgramSeat
from moocow.runner.grading import grade
from moocow.sandbox.fouls import Failure, Foul
from moocow.sandbox.limits import Limits
from moocow.sandbox.sandbox import SandboxPolicy
from tests.gradescope_helpers import moocow
from tests.results_helpers import resigned

PLAYERS = Path(__file__).with_name("players")
ANSWERS = (
    "crane", "slate", "brick", "plaid", "mound", "fight", "joker", "quirk", "nymph", "vivid",
    "caret", "trace", "react", "crate", "grace", "shard", "sword", "crown", "blimp", "fudge",
)  # fmt: skip
"""A small answer list (no z: the breaching player's ``zzzzz`` never holds a revealed letter)."""
GUESSES = ("zzzzz", "aahed", "salet", "roate", "tares", "soare", "lares", "raise", "arise")
"""Further guesses; ``aahed`` comes first in the game's order and ``zzzzz`` last."""
VERSION_2 = f"{sys.executable} {PLAYERS / 'first_candidate_v2.py'}"
"""A program speaking version 2: the first answer that fits the marks, read as text."""
BREACH = str(PLAYERS / "hard_mode_breach.py")
"""A module player that opens with aahed, then plays zzzzz whatever the marks revealed."""
KEY = b"a key for wordle's results"


def run(*arguments: str) -> Result:
    return CliRunner().invoke(app, list(arguments))


def write_lists(folder: Path) -> None:
    """``answers.txt`` and ``guesses.txt`` in ``folder``."""
    (folder / "answers.txt").write_text("\n".join(ANSWERS) + "\n")
    (folder / "guesses.txt").write_text("\n".join(GUESSES) + "\n")


@pytest.fixture
def lists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A Wordle spec naming its word files relatively (players are told them absolutely, and shown copies)."""
    write_lists(tmp_path)
    monkeypatch.chdir(tmp_path)
    return "wordle:answers=answers.txt,guesses=guesses.txt"


def log_rounds(stdout: str) -> list[tuple[str, list[str]]]:
    """Each ``[secret]: guess guess ...`` line of a course log as (secret, guesses)."""
    rounds = []
    for line in stdout.splitlines()[1:-1]:
        secret, _, guesses = line.partition("]: ")
        rounds.append((secret.removeprefix("["), guesses.split()))
    return rounds


@pytest.mark.parametrize("hard", [False, True])
def test_grade_plays_wordle_with_a_program_that_reads_marks_as_text(
    lists: str, tmp_path: Path, hard: bool
) -> None:
    """Every round solved, every secret an answer, every guess a word of the game; results.json too.
    In hard mode the honest player's guesses are all allowed: the referee refused none."""
    spec = lists + (",hard=true" if hard else "")
    results = tmp_path / "results.json"
    outcome = run("grade", VERSION_2, "--game", spec, "-r", "6", "--seed", "3", "--gradescope", str(results))
    assert outcome.exit_code == 0, outcome.output
    assert outcome.stdout.splitlines()[-1].endswith(" first-v2 Test Player")
    rounds = log_rounds(outcome.stdout)
    assert len(rounds) == 6
    for secret, guesses in rounds:
        assert secret in ANSWERS and guesses[-1] == secret
        assert set(guesses) <= set(ANSWERS) | set(GUESSES)
    assert [test["score"] for test in json.loads(results.read_text())["tests"]] == [1] * 6


def test_a_module_player_gets_marks_as_text_on_the_common_lists() -> None:
    """``next_guess(game, history)`` gets ``(guess, "GYBBB")``; secrets come from the answers only."""
    graded = grade(str(PLAYERS / "first_candidate.py"), game="wordle", rounds=2, seed=5)
    answers = set(load_game("wordle").answers)
    assert [result.failure for result in graded.rounds] == [None, None]
    assert all(result.secret in answers for result in graded.rounds)


def test_a_sandboxed_player_using_moocow_reads_the_compiled_feedback_the_runner_built() -> None:
    """A module player that loads Wordle itself, sandboxed, once built the compiled feedback again
    in its own home on its first guess: 7 s of CPU, a round lost to the CPU limit. It reads the
    package's build (made by the runner as it loaded the game), well within 3 s."""
    graded = grade(
        str(PLAYERS / "first_candidate.py"), game="wordle", rounds=1, seed=5, limits=Limits(guess_cpu=3)
    )
    assert [result.failure for result in graded.rounds] == [None], graded.rounds[0].reason


def test_a_version_2_program_reads_counts_as_text_too() -> None:
    """Version 2 in a count game: ``feedback 1B2W``, read back by the game."""
    graded = grade(VERSION_2, game="mastermind:pegs=3,colors=4", rounds=3, seed=2)
    assert all(result.solved for result in graded.rounds)


def test_the_handshake_asks_for_version_2_only_where_the_feedback_is_marks(lists: str) -> None:
    """``moocow 1 DECK`` for a count game (byte for byte what it was), ``moocow 2 DECK`` for Wordle."""
    echo = "sh -c 'read x; set -- $x; echo \"moocow $2 heard:$2\"; cat'"
    for spec, heard in (("mastermind:pegs=3,colors=3", "heard:1"), (lists, "heard:2")):
        graded = grade(echo, game=spec, rounds=1)
        assert graded.identity.student_id == heard
        assert graded.rounds[0].failure == "invalid"  # cat answers with the round's first line


def test_a_version_1_player_is_refused_a_marks_game_in_one_line(lists: str) -> None:
    """The bash Mastermind player speaks version 1: it sits out Wordle, every round recorded with why."""
    graded = grade(f"bash {PLAYERS / 'mastermind.sh'}", game=lists, rounds=2)
    reason = (
        f"setup failed (protocol): speaks protocol version 1, whose feedback is counts; {lists} gives "
        "marks: the player must speak version 2 (feedback as text)"
    )
    assert [(result.failure, result.reason) for result in graded.rounds] == [("disqualified", reason)] * 2


def test_a_round_of_marks_is_refused_to_a_version_1_process_at_its_start(lists: str) -> None:
    """Should a deck of counts deal a round of marks, the round's start refuses it as the handshake would."""
    echo = parse_player("sh -c 'read x; echo moocow 1; cat'")
    seat = ProgramSeat(echo, "mastermind:pegs=2,colors=2", Limits(), SandboxPolicy())
    try:
        with pytest.raises(Foul) as refused:
            seat.start_round(load_game(lists))
    finally:
        seat.close()
    assert refused.value.kind is Failure.PROTOCOL
    assert refused.value.reason.endswith("gives marks: the player must speak version 2 (feedback as text)")


def test_a_hard_mode_breach_loses_the_round_with_the_rules_reason(lists: str) -> None:
    """zzzzz after aahed's marks: refused as the engine's position refuses it, and not recorded as
    played; in normal mode the same guesses are played until the mercy limit."""
    game = load_game(lists + ",hard=true")
    opening, breach = game.guess_index("aahed"), game.guess_index("zzzzz")
    hard = grade(BREACH, game=game.spec, rounds=3, seed=3)
    for result in hard.rounds:
        answered = game.score(opening, secret_index(game, result.secret))
        with pytest.raises(MoocowError) as refused:
            Position.start(game).after(opening, answered).check_legal(breach)
        assert (result.failure, result.reason, result.guesses) == ("invalid", str(refused.value), ("aahed",))
        assert str(refused.value).startswith("zzzzz is not allowed in hard mode: ")
    easy = grade(BREACH, game=lists, rounds=2, seed=3, mercy=4)
    assert [(result.failure, result.guesses) for result in easy.rounds] == [
        ("mercy", ("aahed", "zzzzz", "zzzzz", "zzzzz"))
    ] * 2


def test_wordle_results_verify_and_a_forged_hard_mode_breach_does_not(lists: str, tmp_path: Path) -> None:
    """A signed tournament of wordle in hard mode checks out; a row re-signed with a guess the rule
    forbids is named by verify (as --resume would refuse it)."""
    key_file, results = tmp_path / "key", tmp_path / "results.jsonl"
    key_file.write_bytes(KEY + b"\n")
    spec = lists + ",hard=true"
    played = run(
        "tournament", "-p", "entropy", "-p", VERSION_2, "-g", spec, "-r", "3", "--seed", "5",
        "--results", str(results), "--key-file", str(key_file),
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    assert run("verify", str(results), "--key-file", str(key_file)).exit_code == 0
    lines = results.read_text().splitlines()
    row = json.loads(lines[1])
    secret = row["secret"]
    revealing = next(word for word in ANSWERS if word != secret and set(word) & set(secret))
    row.update(guesses=[revealing, "zzzzz", secret], score=3, solved=True, failure=None, reason=None)
    lines[1] = resigned(lines, 2, row, KEY)
    results.write_text("\n".join(lines) + "\n")
    checked = run("verify", str(results), "--key-file", str(key_file))
    assert checked.exit_code == 1
    assert (
        "line 2: guess 'zzzzz' could not have been played: zzzzz is not allowed in hard mode"
        in checked.stdout
    )


def test_a_programs_tree_in_hard_mode_covers_every_answer(lists: str) -> None:
    """The player's tree is played against the answers (the secrets), not every word it may guess."""
    game = load_game(lists + ",hard=true")
    root = player_tree(game, parse_player(VERSION_2), Limits())
    assert root.size == len(ANSWERS) and game.format_code(game.guesses[root.guess]) == "blimp"


COURSE = """\
[gradescope]
games = ["wordle:answers=answers.txt,guesses=guesses.txt,hard=true"]
rounds = 2
practice_rounds = 2
files = ["bot.py"]
leaderboard = []

[gradescope.visibility]
score = "after_due_date"
"""


def test_a_gradescope_course_of_wordle_carries_its_word_files(
    tmp_path: Path, readable_python: str, reachable: Path
) -> None:
    """The zip holds both word files beside the course, which names them by name; a submission that
    reads marks as text solves its practice rounds under `gradescope try`."""
    folder = tmp_path / "course"
    folder.mkdir()
    (folder / "course.toml").write_text(COURSE)
    write_lists(folder)
    built = moocow(sys.executable, "gradescope", "build", "course.toml", "-o", "autograder.zip", cwd=folder)
    assert built.returncode == 0, built.stderr
    with zipfile.ZipFile(folder / "autograder.zip") as opened:
        assert {"answers.txt", "guesses.txt"} <= set(opened.namelist())
        assert (
            'games = ["wordle:answers=answers.txt,guesses=guesses.txt,hard=true"]'
            in opened.read("course.toml").decode()
        )
    submission = reachable / "submission"
    submission.mkdir()
    (submission / "bot.py").write_bytes((PLAYERS / "first_candidate.py").read_bytes())
    out = reachable / "out"
    done = moocow(readable_python, "gradescope", "try", str(folder / "autograder.zip"), str(submission),
                  "--out", str(out))  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    results = json.loads((out / "results" / "results.json").read_text())
    practice = results["tests"][0]
    assert practice["score"] == practice["max_score"], practice["output"]
