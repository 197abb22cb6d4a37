"""Regressions of "no traceback, no silent misreading, no silence": each case of the issue, by name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from moocow.cli import app
from moocow.engine.evaluation import evaluate_with_tree
from moocow.engine.registry import load_strategy
from moocow.engine.treefile import save_tree
from moocow.plugins.bottles import Bottles


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


def test_a_zero_table_budget_still_plays() -> None:
    """A budget of 0 is valid: the table is recomputed in blocks and the totals are the same."""
    result = run("evaluate", "bottles:n=4", "--json", env={"MOOCOW_TABLE_BUDGET": "0"})
    assert result.exit_code == 0, result.stderr
    assert (
        json.loads(result.stdout)["total"]
        == json.loads(run("evaluate", "bottles:n=4", "--json").stdout)["total"]
    )
