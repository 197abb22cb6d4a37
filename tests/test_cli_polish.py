"""A newcomer's first hour (issue 30): docs that drifted, errors that named the wrong thing,
listings and conversations that tripped. Each test fails without its fix."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from moocow.cli import app

PLAYERS = Path(__file__).with_name("players")


def run(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Result:
    """``moocow ARGS`` in-process, stdout and stderr kept apart."""
    return CliRunner().invoke(app, list(args), input=input, env=env)


def one_line_error(result: Result, fragment: str) -> str:
    """Exit 2 with exactly one ``error:`` line on stderr holding ``fragment``."""
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert fragment in lines[0], lines[0]
    return lines[0]


# ---------------------------------------------------------------- docs that drifted


def test_rounds_lost_at_the_mercy_limit_are_listed_with_their_reason() -> None:
    """The README says the tournament prints the reason for every lost round: the mercy limit too."""
    result = run("tournament", "-p", "first", "-g", "mastermind", "-r", "2", "--seed", "1", "--mercy", "2")
    assert result.exit_code == 0, result.stderr
    assert "first lost mastermind round 0: mercy: not solved in 2 guesses" in result.stderr


def test_leaderboard_names_are_whole_off_a_terminal() -> None:
    """Off a terminal (a pipe, a file) the table is as wide as its names, not cut at 80 columns."""
    long_name = "random:seed=" + "1234567890" * 9
    result = run("tournament", "-p", long_name, "-g", "bottles:n=3", "-r", "1", "--seed", "1")
    assert result.exit_code == 0, result.stderr
    assert long_name in result.stdout


def test_the_readme_names_no_missing_tournament_file() -> None:
    """Every TOML file the README and the manual run with ``--config`` is in the repository."""
    root = Path(__file__).parents[1]
    readme = "\n".join(page.read_text() for page in [root / "README.md", *sorted(root.glob("docs/*.md"))])
    named = [name for name in re.findall(r"--config ([\w./-]+\.toml)", readme) if name != "FILE.toml"]
    assert named
    for name in named:
        assert (Path(__file__).parents[1] / name).is_file(), name


def test_the_readme_binds_dask_to_a_chosen_address() -> None:
    """No bare ``dask scheduler`` (every interface) in the manual's set-up."""
    readme = (Path(__file__).parents[1] / "docs" / "tournaments.md").read_text()
    commands = [line.split("#")[0].strip() for line in readme.splitlines() if line.startswith("dask ")]
    assert commands and all("--host" in command for command in commands), commands


# ---------------------------------------------------------------- errors that named the wrong thing


def test_an_unknown_engine_is_refused() -> None:
    """``MOOCOW_ENGINE=gpu`` was silently the automatic choice."""
    one_line_error(run("games", env={"MOOCOW_ENGINE": "gpu"}), "MOOCOW_ENGINE must be numpy or compiled")


def test_a_device_as_the_proof_store_is_named_as_such() -> None:
    """``--store /dev/null`` said "disk I/O error"."""
    one_line_error(run("optimal", "bottles:n=3", "--store", "/dev/null"), "not a regular file")


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        (("--min-length", "30"), "--min-length must be from 1 to 15, not 30"),
        (("--max-length", "0"), "--max-length must be from 1 to 15, not 0"),
        (("--min-length", "9", "--max-length", "6"), "--min-length 9 is more than --max-length 6"),
    ],
)
def test_grade_names_its_own_length_options(tmp_path: Path, options: tuple[str, ...], fragment: str) -> None:
    """Not the internal ``bacrunner: parameter minlen``."""
    words = tmp_path / "words.txt"
    words.write_text("planet\n")
    line = one_line_error(run("grade", "first", "--words", str(words), *options), fragment)
    assert "bacrunner" not in line


def test_play_refuses_a_negative_seed_as_the_runner_does() -> None:
    """One rule for seeds: -1 would deal the secret of 1."""
    one_line_error(run("play", "digits", "--seed", "-1", input="quit\n"), "a seed is 0 or more")


def test_a_results_header_whose_seed_is_not_whole_is_refused(tmp_path: Path) -> None:
    """A header saying ``"seed": 5.0`` was resumed as seed 5."""
    results = tmp_path / "r.jsonl"
    args = ("tournament", "-p", "first", "-g", "bottles:n=3", "-r", "2", "--results", str(results))
    assert run(*args, "--seed", "5").exit_code == 0
    lines = results.read_text().splitlines()
    header = json.loads(lines[0])
    header["tournament"]["seed"] = 5.0
    results.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    one_line_error(run(*args, "--resume"), "its seed is 5.0, not a whole number")
    one_line_error(run(*args, "--seed", "5", "--resume"), "its seed is 5.0")


# ---------------------------------------------------------------- assist and play


def test_undo_before_any_entry_says_so_and_suggests_nothing_new() -> None:
    result = run("assist", "bottles:n=3", input="undo\nquit\n")
    assert result.exit_code == 0, result.stderr
    after = result.stdout.split("score> ", 1)[1]
    assert after.startswith("Nothing to undo: no entry yet.\n")
    assert "Suggested" not in after


def test_an_error_on_the_first_entry_mentions_no_previous_entry() -> None:
    result = run("assist", "bottles:n=3", input="ABC 7\nquit\n")
    assert "nothing recorded" in result.stdout
    assert "undo" not in result.stdout.split("score> ", 1)[1]
    later = run("assist", "bottles:n=3", input="ABC 0\nBCA 7\nquit\n")
    assert "if an earlier entry was mistyped, undo takes back the last one" in later.stdout


def test_a_tab_between_guess_and_score_is_accepted() -> None:
    result = run("assist", "bottles:n=3", input="ABC\t0\nquit\n")
    assert "2 arrangements remain" in result.stdout, result.stdout


def test_play_warns_about_a_repeated_guess() -> None:
    result = run("play", "digits", "--seed", "7", input="1234\n1234\nquit\n")
    assert "warning: guess 1 was 1234 too" in result.stdout


# ---------------------------------------------------------------- listings


def test_listings_show_no_python_none_and_defaults_as_specs_write_them() -> None:
    strategies = run("strategies")
    games = run("games")
    for result in (strategies, games):
        assert result.exit_code == 0, result.stderr
        assert "None" not in result.stdout and "False" not in result.stdout
    assert "first, candidates_only=false, fewest_moves=false" in strategies.stdout
    assert "zipf=0.0, file " in games.stdout


def test_solve_labels_every_column() -> None:
    """The unlabelled column of "(not possible)" shrank to nothing on a narrow terminal: folded in."""
    result = run("solve", "bottles:n=7", "--secret", "GFEDCBA", "--strategy", "minmax:fewest_moves=true")
    assert "CDEFGBA (not possible)" in result.stdout
    header = next(line for line in result.stdout.splitlines() if "guess" in line)
    assert [cell.strip() for cell in header.strip("┃").split("┃")] == ["#", "guess", "feedback", "remaining"]


def test_resuming_a_finished_file_says_all_rounds_were_played(tmp_path: Path) -> None:
    results = tmp_path / "r.jsonl"
    args = (
        "tournament",
        "-p",
        "first",
        "-g",
        "bottles:n=3",
        "-r",
        "3",
        "--seed",
        "5",
        "--results",
        str(results),
    )
    assert "3 rounds played, seed 5" in run(*args).stdout
    again = run(*args, "--resume")
    assert again.exit_code == 0, again.stderr
    assert "All 3 rounds were already played (read from the results file)" in again.stdout
    assert "0 rounds" not in again.stdout


# ---------------------------------------------------------------- JSON


def test_games_and_strategies_print_json() -> None:
    games = json.loads(run("games", "--json").stdout)
    assert {"name": "bottles", "parameters": {"n": 6}, "secrets": 720}.items() <= games[0].items()
    strategies = {entry["name"]: entry for entry in json.loads(run("strategies", "--json").stdout)}
    assert strategies["minmax"]["parameters"] == {
        "first": None,
        "candidates_only": False,
        "fewest_moves": False,
    }


def test_tournament_prints_json() -> None:
    result = run(
        "tournament", "-p", "first", "-p", "minmax", "-g", "mastermind", "-r", "3", "--seed", "2", "--json"
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert (data["seed"], data["rounds"], data["played"], data["games"]) == (2, 6, 6, ["mastermind"])
    assert [row["player"] for row in data["standings"]] == [
        row["player"] for row in data["by_game"]["mastermind"]
    ]
    assert {"player", "total", "average", "worst", "failed", "seconds_per_guess"} <= set(data["standings"][0])


# ---------------------------------------------------------------- --plugin


@pytest.mark.parametrize(
    ("name", "text", "fragment"),
    [
        ("notes.txt", "hello\n", "is not a Python file"),
        ("nohook.py", "x = 1\n", "no @hookimpl function"),
        ("garbled.py", "def (:\n", "SyntaxError"),
    ],
)
def test_a_plugin_file_that_does_not_load_is_an_error(
    tmp_path: Path, name: str, text: str, fragment: str
) -> None:
    """A file named with ``--plugin`` that is not Python or has no hook: one line, status 2, not a warning."""
    plugin = tmp_path / name
    plugin.write_text(text)
    result = run("--plugin", str(plugin), "games")
    one_line_error(result, fragment)
    assert result.stdout == ""


def test_plugin_after_the_command_says_where_it_goes() -> None:
    line = one_line_error(run("games", "--plugin", "x.py"), "no such option: --plugin")
    assert "goes before the command: moocow --plugin FILE games ..." in line
    assert "--version is an option of moocow itself" in one_line_error(run("games", "--version"), "--version")
    assert "itself" not in one_line_error(run("games", "--plugi", "x"), "--plugi")


# ---------------------------------------------------------------- shell completion


def test_completion_is_offered_and_completes_every_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--show-completion`` prints the shell's script; the script's request completes commands,
    those made only when used (``tournament``) included, and options. The shell is named, not
    found among the test's parents (a suite started by a shell that has exited has none: typer then
    says ``Shell  not supported`` and exits 1)."""
    monkeypatch.setenv("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", "1")  # --show-completion takes a shell
    script = run("--show-completion", "bash")
    assert script.exit_code == 0 and "_MOOCOW_COMPLETE=complete_bash" in script.stdout
    for words, cword, expected in [
        ("moocow tou", "1", "tournament"),
        ("moocow evaluate --st", "2", "--strategy"),
    ]:
        environment = {"_MOOCOW_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": cword}
        result = CliRunner().invoke(app, [], env=environment, prog_name="moocow")
        assert result.stdout.split() == [expected], result.stdout


def test_pruning_the_kernel_cache_leaves_a_build_under_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process's build folder (``tmpgr1m_x_9``) looked like a stale module: unlinking it
    raised IsADirectoryError, a traceback from ``moocow optimal`` while another one compiled."""
    from moocow.engine.kernel import ahead

    monkeypatch.setattr(ahead, "IN_TREE", tmp_path)
    (tmp_path / "tmpgr1m_x_9").mkdir()
    stale = tmp_path / "search_000000000000_0123456789abcdef.so"
    stale.write_bytes(b"")
    ahead.prune(tmp_path)
    assert (tmp_path / "tmpgr1m_x_9").is_dir() and not stale.exists()
