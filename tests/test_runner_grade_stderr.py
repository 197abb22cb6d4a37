"""``grade`` shows, under each lost round, the last lines the player wrote to stderr in that round
(students debug with print): escaped, never on stdout, never another round's or anyone else's."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from moocow.cli import app

PRINTER = """
import sys

def next_guess(game, history):
    print(f"thinking about guess {len(history) + 1}", file=sys.stderr)
    if len(history) == 2:
        print("giving up \\x1b[2J here", file=sys.stderr, flush=True)
        raise SystemExit(3)
    return "1234"
"""

QUIET_THEN_LOST = """
import sys

def next_guess(game, history):
    if not history:
        print("round starts", file=sys.stderr, flush=True)
    return "1234"
"""


def grade(tmp_path: Path, source: str, *options: str):
    player = tmp_path / "player.py"
    player.write_text(source)
    seed = ("--seed", "123456789012345")
    return CliRunner().invoke(app, ["grade", str(player), "--game", "mastermind", *seed, *options])


def test_a_lost_round_shows_the_players_last_stderr_lines_escaped(tmp_path: Path) -> None:
    result = grade(tmp_path, PRINTER, "--rounds", "2")
    assert result.exit_code == 0, result.stderr
    lost = result.stderr.splitlines()
    first = lost.index(next(line for line in lost if line.startswith("round 1 [")))
    assert lost[first + 1 : first + 5] == [
        "  stderr: thinking about guess 1",
        "  stderr: thinking about guess 2",
        "  stderr: thinking about guess 3",
        "  stderr: giving up \\x1b[2J here",
    ]
    assert "\x1b" not in result.stderr
    assert "stderr:" not in result.stdout and "thinking" not in result.stdout  # the course log is as it was
    assert len(result.stdout.splitlines()) == 4  # header, two rounds, total


def test_only_the_round_it_lost_is_shown(tmp_path: Path) -> None:
    """A player lost at the mercy limit, still running: its lines of that round, not the round before."""
    result = grade(tmp_path, QUIET_THEN_LOST, "--rounds", "2", "--mercy", "2")
    lost = result.stderr.splitlines()
    for number in (1, 2):
        at = lost.index(next(line for line in lost if line.startswith(f"round {number} [")))
        assert lost[at + 1] == "  stderr: round starts"
        assert not lost[at + 2].startswith("  stderr:")
