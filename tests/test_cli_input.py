"""Regressions of "no traceback, no silent misreading, no silence": each case of the issue, by name."""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from moocow.cli import app
from moocow.engine.evaluation import evaluate_with_tree
from moocow.plugins import load_game
from moocow.plugins.bottles import Bottles
from moocow.plugins.strategy_registry import load_strategy
from moocow.referee.rules import read_guess
from moocow.sandbox.fouls import Failure, Foul
from moocow.trees.files import save_tree


def run(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Result:
    """``moocow ARGS`` in-process, stdout and stderr kept apart."""
    return CliRunner().invoke(app, list(args), input=input, env=env)


def one_line_error(result: Result, fragment: str) -> str:
    """Assert the result is exit 2 with exactly one ``error:`` line on stderr holding ``fragment``."""
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert fragment in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def b3(tmp_path: Path) -> Path:
    """A saved minmax tree of three bottles."""
    game = Bottles(n=3)
    path = tmp_path / "b3.json"
    save_tree(path, game, evaluate_with_tree(game, load_strategy("minmax"))[1], "minmax")
    return path


def edited(path: Path, change) -> Path:
    """A copy of a tree file with ``change`` applied to its document."""
    document = json.loads(path.read_text())
    change(document)
    copy = path.with_name("edited.json")
    copy.write_text(json.dumps(document))
    return copy


# ---------------------------------------------------------------- 1. tracebacks become one line


@pytest.mark.parametrize("command", [("evaluate", "mastermind"), ("solve", "mastermind", "--secret", "1234")])
def test_a_negative_random_seed_is_one_line(command: tuple[str, ...]) -> None:
    """`--strategy random:seed=-1` is refused in one line by evaluate and solve, not a numpy traceback."""
    one_line_error(run(*command, "--strategy", "random:seed=-1"), "seed must be at least 0")


def test_a_tree_file_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    """A tree file of binary bytes is refused as not UTF-8."""
    path = tmp_path / "binary.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    one_line_error(run("evaluate", "bottles:n=3", "--strategy", f"tree:{path}"), "not UTF-8")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["root"].update(size="x"), '"size" must be a whole number'),
        (lambda d: d["root"].update(size=2.5), '"size" must be a whole number'),
        (lambda d: d["root"].update(guess=5), '"guess" must be a code'),
        (lambda d: d["root"].update(children=[1]), '"children" must be an object'),
        (lambda d: d.update(root="ABC"), "a node must be a JSON object"),
        (lambda d: d.update(root=None), "a node must be a JSON object"),
        (lambda d: d["root"]["children"].update({"9": {}}), "root ABC: feedback '9' is impossible"),
        (lambda d: d.update(game=7), '"game" must be a game spec'),
        (lambda d: d.update(version=True), "tree format version true is not 1"),
        (lambda d: d.update(version=1.0), "tree format version 1.0 is not 1"),
        (lambda d: d.update(secrets=6.0), "the file says secrets/total/worst (6.0, 15, 4)"),
    ],
)
def test_a_mistyped_tree_file_is_one_line(b3: Path, change, message: str) -> None:
    """A node whose size, guess or children have the wrong JSON type says which field is wrong."""
    path = edited(b3, change)
    one_line_error(run("evaluate", "bottles:n=3", "--strategy", f"tree:{path}"), message)


def test_a_truncated_or_deep_tree_file_is_one_line(b3: Path, tmp_path: Path) -> None:
    """Truncated JSON, JSON nested thousands deep and numbers of thousands of digits: one line each."""
    truncated, deep, huge = tmp_path / "t.json", tmp_path / "d.json", tmp_path / "h.json"
    truncated.write_text(b3.read_text()[:50])
    deep.write_text("[" * 100_000)
    huge.write_text('{"format": ' + "1" * 5000 + "}")
    for path, message in [(truncated, "is not JSON"), (deep, "nested too deeply"), (huge, "too long")]:
        one_line_error(run("evaluate", "bottles:n=3", "--strategy", f"tree:{path}"), message)


def test_a_tree_file_without_a_game_says_so(b3: Path) -> None:
    """A tree with no "game" key says the key is missing, not "a tree for None"."""
    line = one_line_error(
        run("evaluate", "bottles:n=3", "--strategy", f"tree:{edited(b3, lambda d: d.pop('game'))}"),
        'no "game" key',
    )
    assert "None" not in line


@pytest.mark.parametrize("budget", ["abc", "-1", "1e9", "2G"])
def test_a_mistyped_table_budget_is_one_line(budget: str) -> None:
    """MOOCOW_TABLE_BUDGET that is not a whole number of bytes is refused before any work."""
    result = run("evaluate", "bottles:n=3", env={"MOOCOW_TABLE_BUDGET": budget})
    one_line_error(result, "MOOCOW_TABLE_BUDGET must be a whole number of bytes")
    assert result.stdout == ""


def test_a_table_refused_memory_is_held_once_the_budget_allows() -> None:
    """A game outlives one command in a process: its table follows the budget of the command now.

    Found when the fuzz test drew ``MOOCOW_TABLE_BUDGET=0`` for bottles:n=3, and a later
    ``optimal bottles:n=3`` in the same process said its table did not fit.
    """
    assert run("evaluate", "bottles:n=3", env={"MOOCOW_TABLE_BUDGET": "0"}).exit_code == 0
    result = run("optimal", "bottles:n=3", "--workers", "1")
    assert result.exit_code == 0, result.stderr
    assert "15 guesses in total, proven optimal" in result.stdout


def test_a_zero_table_budget_still_plays() -> None:
    """A budget of 0 is valid: the table is recomputed in blocks and the totals are the same."""
    result = run("evaluate", "bottles:n=4", "--json", env={"MOOCOW_TABLE_BUDGET": "0"})
    assert result.exit_code == 0, result.stderr
    assert (
        json.loads(result.stdout)["total"]
        == json.loads(run("evaluate", "bottles:n=4", "--json").stdout)["total"]
    )


# ---------------------------------------------------------------- 2. feedback read by its letters


def remaining_after(game: str, entry: str) -> str:
    """What `moocow assist GAME` answers to one entry."""
    result = run("assist", game, input=f"{entry}\nquit\n")
    assert result.exit_code == 0, result.stderr
    return result.stdout.split("score> ")[1].splitlines()[0]


@pytest.mark.parametrize(
    ("game", "labelled", "plain"),
    [
        ("mastermind", "1122 0W2B", "1122 2 0"),
        ("mastermind", "1122 2b 0w", "1122 2 0"),
        ("mastermind", "1122 2 black 0 white", "1122 2,0"),
        ("mastermind", "1122 1W", "1122 0 1"),
        ("digits", "1234 2C1B", "1234 1 2"),
        ("digits", "1234 1 bull 2 cows", "1234 12"),
        ("bottles", "ABCDEF 2C", "ABCDEF 2"),
    ],
)
def test_assist_reads_feedback_by_its_letters(game: str, labelled: str, plain: str) -> None:
    """`0W2B` is two black and no white, `2C1B` one bull and two cows: the letters, not the order, decide."""
    assert remaining_after(game, labelled) == remaining_after(game, plain)
    assert "remain" in remaining_after(game, labelled)


@pytest.mark.parametrize(
    ("game", "feedback", "message"),
    [
        ("mastermind", "2X1Y", "'X' is not a count here (the counts are B (black), W (white))"),
        ("digits", "2B1W", "'W' is not a count here"),
        ("mastermind", "2 blacks 1 white", "'blacks' is not a count here"),
        ("mastermind", "-1 0", "a count cannot be negative (-1)"),
        ("mastermind", "1B1B", "black is given twice"),
        ("digits", "1 bull 1B", "bulls is given twice"),
        ("mastermind", "3B2W", "the counts add up to more than 4"),
        ("mastermind", "99999999999999999999 0", "the counts add up to more than 4"),
        ("mastermind", "2B 1", "write each count before its label (2B1W), or give no labels"),
        ("mastermind", "B2W1", "write each count before its label"),
        ("mastermind", "2;1", "';' is neither a count nor a label"),
        ("mastermind", "2 1 0", "expected 2 counts (black, white)"),
        ("bottles", "1 2", "expected 1 count (correct)"),
    ],
)
def test_assist_refuses_feedback_it_cannot_read(game: str, feedback: str, message: str) -> None:
    """Unknown letters or words, negative counts, a letter twice, impossible totals: one line, no entry."""
    code = {"mastermind": "1122", "digits": "1234", "bottles": "ABCDEF"}[game]
    answer = remaining_after(game, f"{code} {feedback}")
    assert answer.startswith("error: ") and message in answer and "nothing recorded" in answer


@pytest.mark.parametrize("game", ["mastermind:pegs=3,colors=4", "digits:length=3,symbols=5", "bottles:n=4"])
def test_every_feedback_reads_back_however_it_is_written(game: str) -> None:
    """Each feedback value, printed, in plain digits, reversed labels or full names, parses to itself."""
    from moocow.plugins import load_game

    loaded = load_game(game)
    for value in loaded.feedback_model.values():
        counts = loaded.feedback_model.parts(value)
        fields = loaded.feedback_fields
        forms = [
            loaded.format_feedback(value),
            " ".join(map(str, counts)),
            ",".join(map(str, counts)),
            "".join(
                f"{count}{field[0]}" for count, field in reversed(list(zip(counts, fields, strict=True)))
            ),
            " ".join(f"{count} {field}" for count, field in zip(counts, fields, strict=True)),
        ]
        assert {loaded.parse_feedback(form) for form in forms} == {value}, forms


# ---------------------------------------------------------------- 3. --dot - is DOT alone


@pytest.mark.parametrize("command", [("tree", "bottles:n=3"), ("optimal", "bottles:n=3", "--workers", "1")])
def test_dot_on_stdout_is_only_the_dot_text(command: tuple[str, ...], tmp_path: Path) -> None:
    """With `--dot -` stdout holds the digraph alone; the summary and "saved to" go to stderr."""
    result = run(*command, "--dot", "-", "--save", str(tmp_path / "t.json"))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("digraph ") and result.stdout.endswith("}\n")
    assert "15 guesses in total" in result.stderr and "saved to" in result.stderr


def test_show_and_dot_on_stdout_are_refused_together() -> None:
    """`--show` with `--dot -` would mix text into the DOT output: refused in one line."""
    one_line_error(run("tree", "bottles:n=3", "--dot", "-", "--show", "2"), "give --show or --dot -")


# ---------------------------------------------------------------- 4. tree:PATH with : , = in the path


@pytest.mark.parametrize("name", ["a:b.json", "a,b.json", "a=b.json", "a: b, c.json", "a=b,c.json"])
@pytest.mark.parametrize("form", ["tree:{}", "tree:path={}"])
def test_a_tree_path_may_hold_colons_commas_and_equals(b3: Path, name: str, form: str) -> None:
    """`tree:/tmp/a:b.json` and `tree:path=/tmp/a,b.json` play the file; the canonical spec reads back."""
    path = b3.with_name(name)
    path.write_text(b3.read_text())
    result = run("evaluate", "bottles:n=3", "--strategy", form.format(path), "--json")
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["total"] == 15 and document["strategy"] == f"tree:path={path}"
    assert load_strategy(document["strategy"]).values["path"] == str(path)


def test_a_bare_value_that_looks_keyed_is_read_as_keys() -> None:
    """`tree:a=b.json` is the unknown parameter a (write `tree:./a=b.json`); other specs stay strict."""
    from moocow.engine.errors import MoocowError
    from moocow.engine.params import parse_spec

    with pytest.raises(MoocowError, match="unknown parameter a"):
        load_strategy("tree:a=b.json")
    assert load_strategy("tree:./a=b.json").values["path"] == "./a=b.json"
    with pytest.raises(MoocowError, match="malformed parameter '6'"):
        parse_spec("mastermind:pegs=4,6")


# ---------------------------------------------------------------- 5. the same minimum everywhere


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mastermind:colors=1", "mastermind: parameter colors must be at least 2, not 1"),
        ("digits:symbols=1,length=1", "digits: parameter symbols must be at least 2, not 1"),
        ("bottles:n=1", "bottles: parameter n must be at least 2, not 1"),
    ],
)
def test_a_game_with_one_code_is_refused_alike(spec: str, message: str) -> None:
    """One colour, one digit or one bottle leaves nothing to find: each game refuses it the same way."""
    one_line_error(run("evaluate", spec), message)


@pytest.mark.parametrize("spec", ["mastermind:pegs=1,colors=2", "digits:length=1,symbols=2", "bottles:n=2"])
def test_the_smallest_games_play(spec: str) -> None:
    """At the minimum each game has two secrets and plays: 3 guesses over both."""
    result = run("evaluate", spec, "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["total"] == 3


# ---------------------------------------------------------------- 6. command-line conventions

COMMANDS = [
    "games",
    "strategies",
    "solve",
    "evaluate",
    "assist",
    "play",
    "tournament",
    "grade",
    "optimal",
    "tree",
]


def test_version_is_the_package_version() -> None:
    """`moocow --version` prints `moocow 0.1.0`, read from the package metadata."""
    from importlib.metadata import version

    result = run("--version")
    assert result.exit_code == 0 and result.stdout == f"moocow {version('moocow')}\n" == "moocow 0.1.0\n"


@pytest.mark.parametrize("command", [[], *([name] for name in COMMANDS)])
def test_dash_h_is_help_everywhere(command: list[str]) -> None:
    """`-h` prints the same help as `--help`, for the app and for every command."""
    short, long = run(*command, "-h"), run(*command, "--help")
    assert short.exit_code == long.exit_code == 0
    assert short.stdout == long.stdout and "Usage: " in short.stdout


@pytest.mark.parametrize("command", [[], *([name] for name in COMMANDS)])
def test_metavars_read_as_words(command: list[str]) -> None:
    """No `<bool>`, `<int>`, `<list[Path]>` or `{game}` in any help: flags show nothing, values a word."""
    text = run(*command, "--help").stdout
    assert "<" not in text.replace("<=", "") and "{" not in text, text


def test_the_options_name_their_values() -> None:
    """Options say what they take: SPEC, CODE, N, FILE, GAME."""
    text = " ".join(run("solve", "--help").stdout.split()) + " ".join(run("tree", "--help").stdout.split())
    for shown in ["--strategy -s SPEC", "--first CODE", "--secret CODE", "--show N", "--dot FILE", "GAME"]:
        assert shown in text, shown


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("evaluate", "bottles:n=3", "--bogus"), "no such option: --bogus; see 'moocow evaluate --help'"),
        (("evaluate",), "missing argument 'GAME'"),
        (("solve", "bottles:n=3"), "missing option '--secret'"),
        (("play", "bottles:n=3", "--seed", "x"), "invalid value for '--seed'"),
        (("tree", "bottles:n=3", "--show", "0"), "invalid value for '--show'"),
        (("optimal", "bottles:n=3", "--workers", "-1"), "invalid value for '--workers'"),
        (("frobnicate",), "no such command 'frobnicate'"),
        (("evaluate", "bottles:n=3", "extra"), "unexpected extra argument"),
        (("--plugin",), "option '--plugin' requires an argument"),
    ],
)
def test_usage_errors_are_one_line(args: tuple[str, ...], message: str) -> None:
    """Unknown options, missing arguments and bad numbers are one `error:` line and status 2, no panel."""
    line = one_line_error(run(*args), message)
    assert "╭" not in line and "Usage" not in line


def test_moocow_alone_prints_the_help() -> None:
    """`moocow` with nothing else prints the help on stdout, status 0."""
    result = run()
    assert result.exit_code == 0 and "Usage: " in result.stdout and result.stderr == ""


def test_solve_json() -> None:
    """`solve --json` gives the specs, the secret as written by the game, and every step."""
    result = run("solve", "mastermind", "--secret", "6 5 4 3", "--first", "1122", "--json")
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert (document["game"], document["strategy"], document["secret"]) == (
        "mastermind",
        "minmax:first=1122",
        "6543",
    )
    assert document["guesses"] == len(document["steps"]) and document["steps"][0]["guess"] == "1122"
    assert document["steps"][-1] == {
        "guess": "6543",
        "feedback": "4B0W",
        "remaining": 1,
        "was_candidate": True,
    }


def test_one_guess_is_singular() -> None:
    """ "1 guess", never "1 guesses": in solve, the evaluate histogram and a one-guess assist session."""
    solved = run("solve", "mastermind:pegs=1,colors=2", "--secret", "1")
    assert "Found 1 in 1 guess with minmax." in solved.stdout
    histogram = run("evaluate", "mastermind:pegs=1,colors=2").stdout
    assert "  1 guess          1 " in histogram and "  2 guesses        1 " in histogram
    assert "1 guesses" not in histogram + solved.stdout
    assisted = run("assist", "bottles:n=2", input="AB 2\n").stdout
    assert "Solved in 1 guess." in assisted


@pytest.mark.parametrize("command", [("evaluate", "mastermind"), ("solve", "mastermind", "--secret", "1234")])
def test_a_first_guess_given_twice_is_refused(command: tuple[str, ...]) -> None:
    """`--first` against a strategy's own, different `first=` is refused; the same guess twice is not."""
    one_line_error(
        run(*command, "--strategy", "minmax:first=1122", "--first", "3456"),
        "two values of first: minmax:first=1122 and --first 3456; give one",
    )
    agreed = run("evaluate", "bottles:n=3", "--strategy", "first:first=ABC", "--first", "ABC")
    assert agreed.exit_code == 0, agreed.stderr


# ---------------------------------------------------------------- 7. playing at the table


def test_assist_marks_a_suggestion_that_cannot_be_the_secret() -> None:
    """After `1122 2B0W` minmax suggests 1234, which cannot be the secret: marked as solve marks it."""
    result = run("assist", "mastermind", input="1122 2B0W\n")
    assert "Suggested first guess: 1122\n" in result.stdout
    assert "Suggested next guess: 1234 (not possible)" in result.stdout
    possible = run("assist", "bottles:n=4", input="ABCD 0\nBADC 0\n").stdout
    assert "(not possible)" not in possible.split("score> ")[2]


def test_assist_warns_when_a_guess_repeats() -> None:
    """The same guess twice is recorded with a warning naming the earlier entry."""
    result = run("assist", "mastermind", input="1122 2 0\n3456 0 0\n1122 2 0\nhistory\n")
    assert "warning: guess 1 was 1122 too" in result.stdout
    assert "3. 1122 2B0W" in result.stdout


def test_assist_lists_in_columns() -> None:
    """`list` shows what remains in aligned columns of at most 78 characters, then how many more."""
    result = run("assist", "mastermind", input="list\n")
    lines = [line for line in result.stdout.split("score> ", 1)[1].splitlines() if line.startswith("  ")]
    assert len(lines) > 10 and all(len(line) <= 78 for line in lines)
    assert lines[0].split()[:3] == ["1111", "1112", "1113"] and len({len(line) for line in lines[:-2]}) == 1
    assert lines[-1] == "  ... and 1,096 more"


def test_play_has_help_history_and_undo_and_refuses_an_empty_line() -> None:
    """`play` explains itself, lists and takes back guesses, and answers an empty line kindly."""
    result = run(
        "play", "digits", "--seed", "7", input="\nhelp\n0123\n4567\nhistory\nundo\nhistory\nundo\nundo\n"
    )
    out = result.stdout
    assert result.exit_code == 0 and result.stderr == ""
    assert "Type a guess, e.g. '0123', or help." in out and "Other commands: history, undo, help, quit" in out
    assert "1. 0123 0B2C\n2. 4567 0B1C\n" in out and "Took back guess 2, 4567 0B1C." in out
    assert "Took back guess 1, 0123 0B2C." in out and "Nothing to undo." in out
    assert "The secret was 5239." in out


def interrupted_input(prompt: str) -> str:
    """``input`` as it behaves when Ctrl-C is pressed at the prompt."""
    print(prompt, end="")
    raise KeyboardInterrupt


@pytest.mark.parametrize("ctrl_c", [True, False], ids=["ctrl-c", "eof"])
@pytest.mark.parametrize("command", [("play", "bottles:n=3", "--seed", "1"), ("assist", "bottles:n=3")])
def test_ctrl_c_or_eof_at_the_prompt_ends_on_a_fresh_line(
    command: tuple[str, ...], ctrl_c: bool, monkeypatch
) -> None:
    """Ctrl-C or the end of input at a prompt ends the session like quit, on a fresh line, no
    traceback; Ctrl-C exits 130, as everywhere (it was 0, as if the session had ended)."""
    if ctrl_c:
        monkeypatch.setattr("builtins.input", interrupted_input)
    result = run(*command, input="")
    assert result.exit_code == (130 if ctrl_c else 0), result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stderr == ("\n" if ctrl_c else "")
    assert "> \n" in result.stdout and "Traceback" not in result.stdout
    assert command[0] == "assist" or "The secret was" in result.stdout


def test_ctrl_c_during_work_is_a_fresh_line_and_status_130(monkeypatch) -> None:
    """An interrupt outside a prompt ends with a fresh line on stderr and status 130, no traceback."""

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("moocow.api.evaluate", interrupted)
    result = run("evaluate", "mastermind")
    assert result.exit_code == 130 and result.stderr == "\n" and "Traceback" not in result.stdout


def test_typed_bytes_that_are_not_utf8_are_refused_in_one_line() -> None:
    """Invalid UTF-8 typed at `play` or `assist` is an error line and the game goes on, in any locale."""
    result = run("play", "bottles:n=3", "--seed", "1", input=b"\xff\xfe\nquit\n")
    assert (
        result.exit_code == 0
        and "error: '\\udcff\\udcfe'" in result.stdout
        and "The secret was" in result.stdout
    )
    assisted = run("assist", "bottles:n=3", input=b"ABC \xff\n\x1b[31m 1\nquit\n")
    assert assisted.exit_code == 0 and "\x1b" not in assisted.stdout and "'\\udcff'" in assisted.stdout


def test_a_plugin_folder_is_named_a_folder(tmp_path: Path) -> None:
    """`--plugin DIR` says the path is a folder, not that it is missing."""
    one_line_error(run("--plugin", str(tmp_path), "games"), "is a folder")


def test_a_player_folder_is_named_a_folder(tmp_path: Path) -> None:
    """`-p DIR.py` says the path is a folder, not that it is missing."""
    folder = tmp_path / "bot.py"
    folder.mkdir()
    one_line_error(run("tournament", "-p", str(folder), "-g", "bottles:n=3"), "is a folder")


# ---------------------------------------------------------------- found by tests/test_cli_fuzz.py


def test_a_huge_max_depth_is_no_limit() -> None:
    """`optimal --max-depth 99999999999999999999` is no limit, proven at once, not bounded depth by depth."""
    result = run("optimal", "bottles:n=3", "--max-depth", "99999999999999999999", "--workers", "1")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("bottles:n=3: 15 guesses in total, proven optimal")


def test_a_broken_plugin_file_is_one_line_before_the_command_runs(tmp_path: Path) -> None:
    """A `--plugin` file that does not load is the error, in one line: the command never runs
    (it once warned, then went on to refuse the plugin's game as unknown)."""
    garbage = tmp_path / "garbage.py"
    garbage.write_bytes(b"def (:\n")
    one_line_error(run("--plugin", str(garbage), "evaluate", "chess"), "failed to load: SyntaxError")
    garbage.write_bytes(b"\x00\x01binary")  # Python 3.11.2 says ValueError, later ones SyntaxError
    one_line_error(run("--plugin", str(garbage), "evaluate", "chess"), "failed to load: ")


@pytest.fixture
def pipe(tmp_path: Path) -> Iterator[Path]:
    """A named pipe that no one writes to. Should moocow wait on it, a rescuer opens and closes
    its other end after 30 s, so the test fails rather than hangs."""
    path = tmp_path / "pipe"
    os.mkfifo(path)
    done = threading.Event()

    def rescue() -> None:
        if not done.wait(30):
            with contextlib.suppress(OSError):
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))

    threading.Thread(target=rescue, daemon=True).start()
    yield path
    done.set()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        (("evaluate", "words:length=3,file={pipe}", "-s", "first"), "word file"),
        (("evaluate", "bottles:n=3", "--strategy", "tree:{pipe}"), "tree file"),
        (("tournament", "--config", "{pipe}"), "tournament file"),
        (("tournament", "-p", "first", "-g", "bottles:n=3", "--seed-file", "{pipe}"), "seed file"),
        (("tournament", "-p", "first", "-g", "bottles:n=3", "--key-file", "{pipe}"), "key file"),
        (("grade", "first", "--words", "{pipe}", "--rounds", "2"), "word file"),
        (
            ("tournament", "-p", "first", "-g", "bottles:n=3", "--results", "{pipe}", "--resume"),
            "results file",
        ),
    ],
    ids=["word file", "tree", "tournament file", "seed file", "key file", "course words", "results resumed"],
)
def test_a_pipe_named_as_an_input_file_is_refused_at_once(
    pipe: Path, arguments: tuple[str, ...], named: str
) -> None:
    """Each waited forever, printing nothing, for a writer that never came."""
    result = run(*(argument.format(pipe=pipe) for argument in arguments))
    message = one_line_error(result, "is not a regular file (a device, pipe or socket)")
    assert message.startswith(f"error: {named} ")


EXITING_PLUGINS = {
    "on import": "import sys\nsys.exit(0)\n",
    "on registering": (
        "from moocow.plugins import hookimpl\n\n@hookimpl\ndef register_games(register):\n"
        "    raise SystemExit(3)\n"
    ),
}


@pytest.mark.parametrize("when", list(EXITING_PLUGINS))
def test_a_plugin_that_exits_is_a_broken_plugin(tmp_path: Path, when: str) -> None:
    """A plugin's ``sys.exit()`` once ended moocow with nothing printed. A ``--plugin`` file is
    named by the user, so whether it exits on import or as it registers its games, it is one line
    and status 2, naming the exit, before the command runs."""
    plugin = tmp_path / "leaver.py"
    plugin.write_text(EXITING_PLUGINS[when])
    result = run("--plugin", str(plugin), "evaluate", "bottles:n=3", "-s", "first")
    said = {
        "on import": "failed to load: SystemExit",
        "on registering": "failed to register games: SystemExit: 3",
    }
    one_line_error(result, said[when])


@pytest.mark.parametrize("command", [("tree", "bottles:n=2"), ("optimal", "bottles:n=2", "--workers", "1")])
def test_outputs_that_cannot_be_written_are_refused_before_any_work(
    command: tuple[str, ...], tmp_path: Path
) -> None:
    """A folder or a missing folder as --save or --dot, or both naming one file: one line, nothing printed."""
    same = str(tmp_path / "same")
    (tmp_path / "real").mkdir()
    (tmp_path / "loop-a").symlink_to(tmp_path / "loop-b")
    (tmp_path / "loop-b").symlink_to(tmp_path / "loop-a")
    for outputs, message in [
        (["--dot", "-", "--save", str(tmp_path)], "is a folder: name a file in it"),
        (["--dot", str(tmp_path / "no" / "t.dot")], "does not exist"),
        (["--save", same, "--dot", same], "--save and --dot both name"),
        (["--save", same, "--dot", str(tmp_path / "real" / ".." / "same")], "--save and --dot both name"),
        (["--save", str(tmp_path / "loop-a")], "Too many levels of symbolic links"),
    ]:
        result = run(*command, *outputs)
        one_line_error(result, message)
        assert result.stdout == ""


# ---------------------------------------------------------------- 8. a word outside the list

OUTSIDE = "'zhang' is not in the game's word list (1,"
"""The reason for a well-formed word the words game does not have; the count follows."""


@pytest.mark.parametrize(
    "command",
    [("solve", "words", "--secret", "zhang"), ("solve", "words", "--secret", "about", "--first", "zhang")],
    ids=["secret", "first"],
)
def test_a_word_outside_the_list_is_refused_with_that_reason(command: tuple[str, ...]) -> None:
    """A name wordfreq counts (zhang) is refused as outside the list, naming the list and its size."""
    line = one_line_error(run(*command), OUTSIDE)
    assert line.endswith("words of 5 distinct letters from the English words of wordfreq's small list)")


@pytest.mark.parametrize(
    ("word", "reason"),
    [
        ("aabbc", "'aabbc': letters must be distinct ('a' repeats)"),
        ("abc", "'abc' has 3 letters; a words code has 5"),
        ("ab1de", "'ab1de': '1' is not a letter of words (letters are a-z)"),
    ],
)
def test_a_malformed_word_has_its_own_reason(word: str, reason: str) -> None:
    """Wrong length, a repeated letter or a non-letter says what is wrong, not that the list lacks it."""
    assert one_line_error(run("solve", "words", "--secret", word), reason) == f"error: {reason}"


@pytest.mark.parametrize("command", [("play", "words", "--seed", "1"), ("assist", "words")])
def test_a_word_outside_the_list_is_refused_at_the_table(command: tuple[str, ...]) -> None:
    """Typed at play's prompt, the word is refused with the reason and the game goes on; at
    assist's, the reason comes with an offer to record it anyway (declined here)."""
    typed = "zhang\nquit\n" if command[0] == "play" else "zhang 1 2\nn\nquit\n"
    result = run(*command, input=typed)
    assert result.exit_code == 0, result.stderr
    if command[0] == "play":
        assert f"> error: {OUTSIDE}" in result.stdout
    else:
        assert f"> {OUTSIDE}" in result.stdout and "Record it anyway" in result.stdout


def test_a_tree_file_with_a_word_outside_the_list_says_so(tmp_path: Path) -> None:
    """A tree file's guess that is a word shape but not in the list is named, with the reason."""
    game = load_game("words:length=2")
    path = tmp_path / "w2.json"
    save_tree(path, game, evaluate_with_tree(game, load_strategy("first"))[1], "first")
    changed = edited(path, lambda document: document["root"].update(guess="xq"))
    result = run("evaluate", "words:length=2", "--strategy", f"tree:{changed}")
    one_line_error(result, "root xq: 'xq' is not in the game's word list (")


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("zhang", OUTSIDE),
        ("aabbc", "'aabbc' is not a guess of words"),
        ("hello, runner", "is not a guess of"),
    ],
)
def test_a_player_guessing_a_word_outside_the_list_is_told_so(answer: str, reason: str) -> None:
    """The runner records why a guess is invalid: outside the list, or not a word of the game at all."""
    with pytest.raises(Foul) as caught:
        read_guess(load_game("words"), answer)
    assert caught.value.kind is Failure.INVALID and reason in caught.value.reason


@pytest.mark.parametrize("game", ["mastermind", "words", "bottles:n=5"])
def test_a_huge_mistyped_code_is_quoted_short(game: str) -> None:
    """A pasted 100,000-character line was echoed back whole in the one-line error."""
    line = one_line_error(run("solve", game, "--secret", "abcde" * 20_000), "...'")
    assert len(line) < 200, line
    played = run("play", game, input="abcde" * 20_000 + "\nquit\n")
    assert played.exit_code == 0 and max(map(len, (played.stdout + played.stderr).splitlines())) < 200
