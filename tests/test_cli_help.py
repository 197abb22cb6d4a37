"""What ``--help`` says (issue 47): every built-in game named, and each command's summary in the
list of commands on lines wrapped to the terminal, not the docstring's own."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from moocow.cli import app
from moocow.plugins import BUILTIN_PLUGINS, game_classes


def help_text(*arguments: str, columns: int = 160) -> str:
    result = CliRunner().invoke(app, [*arguments, "--help"], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    return result.stdout


def test_help_names_every_built_in_game() -> None:
    """``moocow --help`` named Mastermind, Bulls and Cows and the bottle game, not Wordle. Help
    loads no game, so its text is written out; this holds it to the registry's built-in games."""
    built_in = {name for name, cls in game_classes().items() if cls.__module__ in BUILTIN_PLUGINS}
    said = " ".join(help_text().split())
    assert set(re.findall(r"\((\w+)\)", said.split("Options")[0])) == built_in
    assert "Wordle (wordle)" in said


def test_a_command_summary_has_no_line_breaks_of_its_docstring() -> None:
    """verify's docstring has three lines, and the list of commands kept their breaks: on a
    terminal wide enough for any summary, its summary still took three lines."""
    listing = help_text(columns=400).split("Commands")[1]
    rows = [line.strip("│ ").strip() for line in listing.splitlines() if line.startswith("│")]
    verify = next(index for index, row in enumerate(rows) if row.startswith("verify "))
    assert rows[verify].endswith("exit status 0 if sound, 1 if not, 2 on bad input."), rows[
        verify : verify + 3
    ]
    assert all(re.match(r"[a-z]+ {2,}\S", row) for row in rows), rows
