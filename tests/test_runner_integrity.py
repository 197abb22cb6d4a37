"""Integrity: resumed results checked row by row, signed rows verified, secret seeds, printed text escaped."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moocow.cli import app
from moocow.runner.display import printable
from moocow.runner.results import KINDS, RoundResult
from moocow.runner.tournament import build_tournament, run_tournament

GAME = "mastermind:pegs=3,colors=3"
EVIL = (
    'sh -c \'read x; printf "moocow 1 id[red] evil\\r\\033[2J\\n"; '
    'read y; printf "\\033[31mboom\\033[0m\\n" >&2; exit 1\''
)
"""A player whose author holds a carriage return and a clear-screen, and whose crash reason is coloured."""


def run(*args: str, env: dict[str, str] | None = None):
    """``moocow ARGS`` through typer's runner, stdout and stderr apart."""
    return CliRunner().invoke(app, list(args), env=env)


def assert_one_line_error(outcome, *parts: str) -> None:
    """Exit status 2, one ``error:`` line on stderr naming every part, no traceback."""
    lines = [line for line in outcome.stderr.splitlines() if line.strip()]
    assert outcome.exit_code == 2, outcome.output
    assert len(lines) == 1 and lines[0].startswith("error: "), outcome.stderr
    for part in parts:
        assert part in lines[0], lines[0]
    assert "Traceback" not in outcome.output


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("Ada Lovelace", "Ada Lovelace"),
        ("José Ñúñez 李小龍", "José Ñúñez 李小龍"),
        ("evil\r\x1b[2J", "evil\\r\\x1b[2J"),
        ("tab\there", "tab\\there"),
        ("line\u2028para\u2029", "line\\u2028para\\u2029"),
        ("bidi\u202eevil", "bidi\\u202eevil"),
    ],
)
def test_printable_escapes_only_what_is_not_printable(text: str, shown: str) -> None:
    """Controls, separators and format characters are escaped as repr does; letters of any script stay."""
    assert printable(text) == shown


def test_grade_escapes_the_author_and_the_crash_reason() -> None:
    """A \\r and a clear-screen in the author, ANSI colours in a crash reason: printed escaped, not raw."""
    outcome = run("grade", EVIL, "--game", GAME, "--rounds", "2", "--seed", "4")
    assert outcome.exit_code == 0, outcome.output
    assert outcome.stdout.splitlines()[-1] == "40 id[red] evil\\r\\x1b[2J"
    assert "crash: exited with status 1: \\x1b[31mboom\\x1b[0m" in outcome.stderr
    assert "\x1b" not in outcome.output and "\r" not in outcome.output


def test_tournament_escapes_names_and_reasons(tmp_path: Path) -> None:
    """Leaderboard names (rich markup shown as typed) and foul reasons are printed escaped, never raw."""
    config = tmp_path / "t.toml"
    config.write_text(
        f"players = [{{name = \"boss\\r\\u001b[2J[red]x\", player = \"first\"}}, '''{EVIL}''']\n"
        f'games = ["{GAME}"]\nrounds = 2\nseed = 3\n',
        encoding="utf-8",
    )
    outcome = run("tournament", "--config", str(config))
    assert outcome.exit_code == 0, outcome.output
    assert "boss\\r\\x1b[2J[red]x" in outcome.stdout
    assert "crash: exited with status 1: \\x1b[31mboom\\x1b[0m" in outcome.stderr
    assert "\x1b" not in outcome.output and "\r" not in outcome.output


SETTINGS = {"players": ["minmax", "first"], "games": [GAME], "rounds": 3, "seed": 7}


@pytest.fixture
def played(tmp_path: Path) -> tuple[Path, Path]:
    """A tournament file and the results file of its honest run, its last row cut off to be forged."""
    config = tmp_path / "t.toml"
    config.write_text(f'players = ["minmax", "first"]\ngames = ["{GAME}"]\nrounds = 3\nseed = 7\n')
    results = tmp_path / "r.jsonl"
    run_tournament(build_tournament(SETTINGS), results=results)
    lines = results.read_bytes().splitlines(keepends=True)
    assert len(lines) == 1 + 6
    results.write_bytes(b"".join(lines[:-1]))
    return config, results


def last_row() -> dict[str, object]:
    """The row of the round the fixture cut off, rebuilt honestly."""
    honest = run_tournament(build_tournament(SETTINGS)).results[-1]
    return honest.to_dict()


def forge(row: dict[str, object], **changes: object) -> bytes:
    return (json.dumps({**row, **changes}) + "\n").encode()


FORGERIES = {
    "score -1000": (lambda row: forge(row, score=-1000), "score -1000 is not between 1 and 20"),
    "round 999": (lambda row: forge(row, round=999), "round 999 is not between 0 and 2"),
    "unknown player": (lambda row: forge(row, player="eve"), "unknown player 'eve'"),
    "unknown game": (lambda row: forge(row, game="bottles:n=4"), "unknown game 'bottles:n=4'"),
    "wrong secret": (
        lambda row: forge(row, secret="111" if row["secret"] != "111" else "222"),
        "is not the one the seed deals for round 2",
    ),
    "score off its guesses": (
        lambda row: forge(row, score=1 if len(row["guesses"]) != 1 else 2),
        "does not match its guesses",
    ),
    "solved without the secret": (
        lambda row: forge(row, guesses=["111"] * 2, score=2, solved=True),
        "the last guess is not the secret",
    ),
    "too many guesses": (
        lambda row: forge(row, guesses=["111"] * 21, score=20, solved=False, failure="mercy"),
        "21 guesses, more than the mercy limit 20",
    ),
    "unknown failure": (
        lambda row: forge(row, guesses=[], score=20, solved=False, failure="cheat", reason="x"),
        "failure 'cheat' is not one of mercy",
    ),
    "solved as text": (lambda row: forge(row, solved="yes"), 'solved must be true or false, not "yes"'),
    "round as true": (lambda row: forge(row, round=True), "round must be a whole number, not true"),
    "guess not a string": (lambda row: forge(row, guesses=[122]), "guess 1 must be a string, not 122"),
    "extra field": (lambda row: forge(row, bonus=1), "unknown field 'bonus'"),
    "missing field": (
        lambda row: json.dumps({k: v for k, v in row.items() if k != "score"}).encode() + b"\n",
        "no 'score'",
    ),
    "not JSON": (lambda row: b"{'player': 'x'}\n", "not JSON"),
    "NaN seconds": (lambda row: forge(row).replace(b'"seconds": ', b'"seconds": NaN, "x": '), "not JSON"),
    "not UTF-8": (
        lambda row: forge(row, player="first").replace(b"first", b"f\xffrst"),
        "not UTF-8 text (byte 0xff)",
    ),
}


@pytest.mark.parametrize("forgery", FORGERIES, ids=str)
def test_resume_refuses_a_forged_row_in_one_line(played: tuple[Path, Path], forgery: str) -> None:
    """Each kind of forged row makes --resume refuse the file: one line naming the file and line 7."""
    config, results = played
    make, message = FORGERIES[forgery]
    before = results.read_bytes() + make(last_row())
    results.write_bytes(before)
    outcome = run("tournament", "--config", str(config), "--results", str(results), "--resume")
    assert_one_line_error(outcome, f"error: results file {str(results)!r}, line 7: ", message)
    assert results.read_bytes() == before, "a refused file is left as it was"


def test_resume_refuses_a_duplicate_round(played: tuple[Path, Path]) -> None:
    """A round already in the file, appended again, is refused, naming both lines."""
    config, results = played
    lines = results.read_bytes().splitlines(keepends=True)
    results.write_bytes(b"".join(lines) + lines[1])
    outcome = run("tournament", "--config", str(config), "--results", str(results), "--resume")
    assert_one_line_error(
        outcome, "line 7: round 0 of 'minmax' in mastermind:pegs=3,colors=3 is on line 2 too"
    )


def test_an_honest_file_resumes_and_a_torn_line_is_cut(played: tuple[Path, Path]) -> None:
    """The cut-off file with half a row after it resumes: the torn line is dropped, the round replayed."""
    config, results = played
    results.write_bytes(results.read_bytes() + forge(last_row())[:30])
    outcome = run("tournament", "--config", str(config), "--results", str(results), "--resume")
    assert outcome.exit_code == 0, outcome.output
    assert "1 rounds played, seed 7, mercy 20." in outcome.stdout
    rows = [json.loads(line) for line in results.read_text().splitlines()[1:]]
    assert rows[-1]["seconds"] >= 0 and {k: v for k, v in rows[-1].items() if k != "seconds"} == {
        k: v for k, v in last_row().items() if k != "seconds"
    }


def test_the_schema_is_exactly_the_round_result_fields() -> None:
    """The checked fields are RoundResult's: a new field cannot slip past the resume check."""
    assert list(KINDS) == [field.name for field in fields(RoundResult)]
