"""Integrity: resumed results checked row by row, signed rows verified, secret seeds, printed text escaped."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from moocow.cli import app
from moocow.runner.display import printable

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
