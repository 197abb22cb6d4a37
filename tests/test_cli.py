"""The command line through typer's CliRunner: output, JSON, and one-line errors with status 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moocow.cli import app


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(app, list(args), input=input)

    return invoke


def test_games_lists_the_four_games_with_sizes(run) -> None:
    """`moocow games` names each built-in game with its default size."""
    result = run("games")
    assert result.exit_code == 0, result.output
    for name, size in [("bottles", "720"), ("digits", "5,040"), ("mastermind", "1,296"), ("words", "1,682")]:
        assert name in result.output and size in result.output


def test_help_lists_every_command_in_order(run) -> None:
    """The commands made only when used (runner, exact search, tree) are listed like the rest."""
    result = run("--help")
    assert result.exit_code == 0, result.output
    names = ["games", "strategies", "solve", "evaluate", "assist", "play"]
    names += ["tournament", "grade", "optimal", "tree"]
    places = [result.output.find(f"│ {name} ") for name in names]
    assert -1 not in places and places == sorted(places), result.output


@pytest.mark.parametrize(("typo", "meant"), [("tournamen", "tournament"), ("evaluat", "evaluate")])
def test_a_mistyped_command_is_suggested(run, typo: str, meant: str) -> None:
    """Suggestions cover every command, those made only when used too: one line, status 2."""
    result = run(typo)
    assert result.exit_code == 2
    assert f"no such command '{typo}'. Did you mean '{meant}'?" in result.output


def test_evaluate_json_reports_knuth(run) -> None:
    """`moocow evaluate mastermind --strategy minmax --first 1122 --json` gives Knuth's numbers."""
    result = run("evaluate", "mastermind", "--strategy", "minmax", "--first", "1122", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["total"], data["worst"], data["histogram"]) == (5801, 5, [1, 6, 62, 533, 694])
    assert data["strategy"] == "minmax:first=1122"


def test_evaluate_prints_a_histogram(run) -> None:
    """The terminal form shows the totals and one bar per number of guesses."""
    result = run("evaluate", "bottles:n=4")
    assert result.exit_code == 0, result.output
    assert "total" in result.output and "worst case" in result.output
    assert "█" in result.output


@pytest.mark.parametrize(
    "command", [("evaluate", "bottles:n=4"), ("solve", "bottles:n=4", "--secret", "DCBA")]
)
def test_output_that_cannot_encode_blocks_falls_back_to_ascii(command: tuple[str, ...]) -> None:
    """A legacy locale (``PYTHONIOENCODING=ascii``, a Windows console): evaluate's bars were a
    ``UnicodeEncodeError``; they are ``#`` now, as tables take ASCII borders."""
    environment = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run(
        [sys.executable, "-c", "from moocow.cli import main; main()", *command],
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
    )
    assert done.returncode == 0 and not done.stderr, done.stderr
    assert done.stdout.isascii()
    if command[0] == "evaluate":
        assert "        8 ########################################" in done.stdout


def test_solve_ends_with_the_secret(run) -> None:
    """`moocow solve` shows each guess and ends on the secret."""
    result = run("solve", "mastermind", "--secret", "6543", "--first", "1122")
    assert result.exit_code == 0, result.output
    assert "1122" in result.output and "6543" in result.output and "4B" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("evaluate", "chess"), "unknown game 'chess'"),
        (("evaluate", "bottles:m=7"), "unknown parameter m"),
        (("evaluate", "bottles:n=seven"), "whole number"),
        (("evaluate", "mastermind", "--strategy", "knuth"), "unknown strategy"),
        (("evaluate", "mastermind", "--first", "11x2"), "11x2"),
        (("solve", "digits", "--secret", "1123"), "distinct"),
        (("solve", "bottles", "--secret", "ABCDEFG"), "ABCDEFG"),
    ],
)
def test_bad_input_is_one_line_and_status_2(run, args: tuple[str, ...], message: str) -> None:
    """Unknown games, parameters, strategies and malformed codes give one clear line, exit 2."""
    result = run(*args)
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert message in lines[0]
    assert "Traceback" not in result.output


def test_assistant_session_on_stdin(run) -> None:
    """An assistant session: counts, a refused impossible score, undo, and the end."""
    session = "\n".join(["ABCD 0", "BADC 3", "undo", "bogus", "ABCD 0", "BADC 4", ""])
    result = run("assist", "bottles:n=4", input=session)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "24 arrangements are possible" in out
    assert "9 arrangements remain" in out  # derangements of four bottles
    assert "impossible" in out and "nothing recorded" in out
    assert "Took back the last entry." in out
    assert "expected a guess and its score" in out
    assert "Solved in 2 guesses." in out
    assert "Traceback" not in out


def test_play_against_a_seeded_secret(run) -> None:
    """`moocow play` with a seed: a malformed guess is refused, then a correct one wins."""
    import random

    from moocow.plugins import load_game

    game = load_game("bottles:n=3")
    secret = game.format_code(game.secrets[random.Random(5).randrange(len(game.secrets))])
    result = run("play", "bottles:n=3", "--seed", "5", input=f"AAB\n{secret}\n")
    assert result.exit_code == 0, result.output
    assert "error:" in result.output and "Solved in 1 guess." in result.output


def test_tournament_says_why_rounds_were_lost(run) -> None:
    """After the leaderboard, each round lost to a foul is listed with its reason."""
    crash = str(Path(__file__).with_name("players") / "crash.py")
    result = run(
        "tournament",
        "-p",
        "minmax",
        "-p",
        crash,
        "-g",
        "mastermind:pegs=3,colors=4",
        "-r",
        "2",
        "--seed",
        "1",
    )
    assert result.exit_code == 0, result.output
    assert "minmax" in result.stdout
    assert f"{crash} lost mastermind:pegs=3,colors=4 round 0: crash: exited with status 1" in result.stderr
