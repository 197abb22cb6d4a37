"""The whole command line under Hypothesis: every command, driven with hostile values and files.

Whatever is typed (random bytes, truncated or mistyped JSON, TOML and JSON lines, folders where
files belong, missing folders, negative and huge numbers, odd Unicode, specs with junk
parameters), moocow ends with status 0, or with status 2 and exactly one line on stderr starting
``error:``: never a traceback, never another status. Games stay tiny, since a big one would only be
slow, which is another matter. ``tournament`` and ``grade`` get simple hostile values only, and
rounds of at most four digits: a huge round count is accepted and runs for ever (the runner's to
bound).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from moocow.cli import app
from moocow.engine.evaluation import evaluate_with_tree
from moocow.plugins import reset_plugins
from moocow.plugins.bottles import Bottles
from moocow.plugins.strategy_registry import load_strategy
from moocow.trees.files import save_tree


def fuzz(examples: int) -> settings:
    """A modest number of examples with no deadline: the suite must stay within a couple of minutes."""
    return settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check(
    args: Sequence[str],
    input: str | bytes | None = None,
    env: dict[str, str] | None = None,
    plugins: bool = False,
) -> None:
    """Run ``moocow ARGS``: status 0, or 2 with one ``error:`` line on stderr; no traceback.

    With ``plugins``, a broken ``--plugin`` file's documented warning line may come first.
    """
    reset_plugins()
    result = CliRunner().invoke(app, list(args), input=input, env=env)
    context = f"moocow {list(args)!r} (input {input!r}): status {result.exit_code}\n{result.stderr}"
    assert result.exception is None or isinstance(result.exception, SystemExit), context
    assert result.exit_code in (0, 2), context
    assert "Traceback" not in result.stderr, context
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        if plugins:
            lines = [line for line in lines if not line.startswith("warning: plugin ")]
        assert len(lines) == 1 and lines[0].startswith("error: "), context


# ---------------------------------------------------------------- hostile files, made once

ROOT = Path(__file__).resolve().parent


@pytest.fixture(scope="module", autouse=True)
def elsewhere(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Run in a folder of the test's own: fuzzed options name files ('-', '--candidates-only') and
    commands write them; never in the checkout."""
    before = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("cwd"))
    yield
    os.chdir(before)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Input files of every kind of wrong, plus a few right ones, by name."""
    folder = tmp_path_factory.mktemp("hostile")
    game = Bottles(n=3)
    tree = folder / "tree.json"
    save_tree(tree, game, evaluate_with_tree(game, load_strategy("minmax"))[1], "minmax")
    text = tree.read_text()
    document = json.loads(text)
    document["root"]["size"] = "x"
    written = {
        "binary": b"\x00\xff\xfe garbage \x80\x81",
        "latin-1": "caf\xe9\nna\xefve\n".encode("latin-1"),
        "empty": b"",
        "tree-truncated.json": text[: len(text) // 2].encode(),
        "tree-mistyped.json": json.dumps(document).encode(),
        "tree-deep.json": b"[" * 100_000,
        "tree-list.json": b"[1, 2, 3]",
        "tournament.toml": b'players = ["minmax"]\ngames = ["bottles:n=3"]\nrounds = 1\nseed = 1\n',
        "truncated.toml": b'players = ["minmax"\ngames = [',
        "mistyped.toml": b'players = 5\ngames = "bottles"\nrounds = "x"\nlimits = 3\n',
        "truncated.jsonl": b'{"format": "moocow-results", "version": ',
        "words.txt": b"cat\ndog\nfox\npig\ncow\nant\nhen\nowl\n",
        "garbage.py": b"def (:\n\x00",
        "odd \u202e name \u00e9.json": text.encode(),
    }
    for name, content in written.items():
        (folder / name).write_bytes(content)
    (folder / "folder").mkdir()
    paths = {name: str(folder / name) for name in written}
    paths.update(
        tree=str(tree),
        folder=str(folder / "folder"),
        missing=str(folder / "missing.json"),
        **{"missing-folder": str(folder / "no" / "such" / "file.json")},
    )
    paths["output"] = str(folder / "written.out")
    return paths


INPUTS = [
    "binary", "latin-1", "empty", "tree-truncated.json", "tree-mistyped.json", "tree-deep.json",
    "tree-list.json", "truncated.toml", "mistyped.toml", "truncated.jsonl", "garbage.py",
    "odd \u202e name \u00e9.json", "tree", "folder", "missing", "missing-folder", "words.txt",
]  # fmt: skip
"""Every file an input option may be given."""
OUTPUTS = ["folder", "missing-folder", "output"]
"""Where an output option may be pointed (never at an input, which it would overwrite)."""


def a_file(files: dict[str, str], names: Sequence[str] = INPUTS) -> st.SearchStrategy[str]:
    return st.sampled_from([files[name] for name in names])


# ---------------------------------------------------------------- hostile values

NUMBERS = ["-1", "0", "1", "2", "3", "-0", "99999999999999999999", "9" * 5000, "1e9", "1.5", "0x10"]
ODD = [
    "",
    " ",
    "x",
    "nan",
    "inf",
    "\u0663",
    "\u00b2",
    "\udcff",
    "\u202e",
    "\x1b[31m",
    "=",
    ",",
    ":",
    "\u00e9",
]
TEXT = st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=10)
"""Any Unicode but NUL, which no real command line can hold."""
VALUE = st.one_of(st.sampled_from(NUMBERS + ODD), TEXT)
TINY_GAMES = [
    "bottles:n=2", "bottles:n=3", "mastermind:pegs=1,colors=3", "mastermind:pegs=2,colors=2",
    "digits:length=2,symbols=3",
]  # fmt: skip
BAD_GAMES = [
    "chess",
    "",
    ":",
    "bottles:n=1",
    "mastermind:colors=1",
    "bottles:x=2",
    "bottles:n=3,n=3",
    "bottles:n",
]
STRATEGIES = [
    "minmax",
    "expected",
    "entropy",
    "parts",
    "first",
    "random:seed=2",
    "minmax:candidates_only=true",
]
CODES = ["ABC", "CBA", "AB", "BA", "12", "21", "11", "1", "3", "01", "10", "aBc", "A B C", "1,2", "AA"]
JUNK_OPTIONS = ["--bogus", "-x", "--json", "--", "--first", "--strategy", "-s", "--seed", "--show", "--dot"]


def spec(
    name: st.SearchStrategy[str], keys: Sequence[str], values: st.SearchStrategy[str]
) -> st.SearchStrategy[str]:
    """``name:key=value,...`` with junk keys and values; small numbers only, so a valid one stays tiny."""
    item = st.tuples(st.sampled_from(keys), values).map("=".join)
    return st.builds(
        lambda head, items: f"{head}:{','.join(items)}", name, st.lists(item, min_size=1, max_size=3)
    )


def games(files: dict[str, str]) -> st.SearchStrategy[str]:
    """Tiny games, bad specs, and specs with junk parameters (a word game always names a file)."""
    small = st.sampled_from(["-1", "0", "1", "2", "3", "99999999999999999999", "x", "", "1.5", "\udcff"])
    return st.one_of(
        st.sampled_from(TINY_GAMES),
        st.sampled_from(TINY_GAMES + BAD_GAMES),
        spec(
            st.sampled_from(["bottles", "mastermind", "digits", "chess"]),
            ["n", "pegs", "colors", "length", "symbols", "x"],
            small,
        ),
        st.builds(
            lambda file, rest: f"words:file={file},length=3{rest}",
            a_file(files),
            st.sampled_from(["", ",zipf=1", ",zipf=nan", ",list=huge", ",x=1", ",length=2"]),
        ),
    )


def strategies(files: dict[str, str]) -> st.SearchStrategy[str]:
    """Good strategies, junk parameters, and saved trees of every kind of wrong."""
    values = st.one_of(VALUE, st.sampled_from(CODES), a_file(files))
    return st.one_of(
        st.sampled_from(STRATEGIES),
        st.sampled_from(
            [*STRATEGIES, "knuth", "", "tree", "tree:", "minmax:fewest_moves=true", "random:seed=-1"]
        ),
        spec(
            st.sampled_from(["minmax", "random", "first", "tree", "knuth"]),
            ["first", "seed", "candidates_only", "fewest_moves", "path", "x"],
            values,
        ),
        a_file(files).map(lambda path: f"tree:{path}"),
    )


def options(pairs: dict[str, st.SearchStrategy[str]]) -> st.SearchStrategy[list[str]]:
    """Some of the options given, each with a drawn value, plus now and then a junk option."""
    chosen = st.lists(st.sampled_from(sorted(pairs)), unique=True, max_size=len(pairs))

    def with_values(names: list[str]) -> st.SearchStrategy[list[str]]:
        values = st.tuples(*(pairs[name] for name in names)) if names else st.just(())
        junk = st.one_of(
            st.just([]), st.just([]), st.just([]), st.sampled_from(JUNK_OPTIONS).map(lambda option: [option])
        )
        return st.builds(
            lambda drawn, extra: (
                [word for name, value in zip(names, drawn, strict=True) for word in (name, value)] + extra
            ),
            values,
            junk,
        )

    return chosen.flatmap(with_values)


def typed_lines(codes: st.SearchStrategy[str]) -> st.SearchStrategy[str | bytes]:
    """What a person might type at the table, good and bad, as text or as raw bytes."""
    feedback = st.sampled_from(
        ["0", "1", "2", "3", "1 0", "0,1", "10", "1B", "0W2B", "1C1B", "2X", "-1", "1 bull", "9"]
    )
    line = st.one_of(
        st.tuples(codes, feedback).map(" ".join),
        st.sampled_from(["undo", "list", "history", "help", "quit", "", "  ", "UNDO"]),
        codes,
        TEXT,
    )
    text = st.lists(line, max_size=8).map(lambda lines: "\n".join(lines) + "\n")
    return st.one_of(text, st.binary(max_size=40))


# ---------------------------------------------------------------- one test per command


@fuzz(40)
@given(data=st.data())
def test_games_strategies_version_and_help(files: dict[str, str], data: st.DataObject) -> None:
    """`games`, `strategies`, `--version`, `-h` and `--plugin` with hostile files, junk options."""
    plugins = data.draw(
        st.lists(a_file(files, ["garbage.py", "binary", "folder", "missing", "empty"]), max_size=2)
    )
    command = data.draw(
        st.sampled_from([["games"], ["strategies"], ["--version"], ["-h"], ["games", "-h"], []])
    )
    junk = data.draw(st.lists(st.sampled_from([*JUNK_OPTIONS, "--plugin"]), max_size=1))
    check([word for path in plugins for word in ("--plugin", path)] + command + junk, plugins=True)


@fuzz(250)
@given(data=st.data())
def test_evaluate(files: dict[str, str], data: st.DataObject) -> None:
    """`evaluate` with junk games, strategies, openings and table budgets."""
    args = data.draw(
        options({"--strategy": strategies(files), "--first": st.one_of(st.sampled_from(CODES), VALUE)})
    )
    budget = data.draw(st.sampled_from([None] * 6 + ["abc", "-1", "0", "", "1e9", "9" * 40]))
    flags = data.draw(st.lists(st.just("--json"), max_size=1))
    check(
        ["evaluate", data.draw(games(files)), *args, *flags],
        env=None if budget is None else {"MOOCOW_TABLE_BUDGET": budget},
    )


@fuzz(250)
@given(data=st.data())
def test_solve(files: dict[str, str], data: st.DataObject) -> None:
    """`solve` with junk secrets, games, strategies and openings, as a table or JSON."""
    code = st.one_of(st.sampled_from(CODES), VALUE)
    args = data.draw(options({"--strategy": strategies(files), "--first": code}))
    secret = data.draw(
        st.one_of(st.sampled_from(CODES), st.sampled_from(CODES), code).map(lambda text: ["--secret", text])
    )
    flags = data.draw(st.lists(st.just("--json"), max_size=1))
    check(["solve", data.draw(games(files)), *secret, *args, *flags])


@fuzz(200)
@given(data=st.data())
def test_assist(files: dict[str, str], data: st.DataObject) -> None:
    """`assist` with generated sessions: good and bad entries, commands, raw bytes."""
    args = data.draw(options({"--strategy": strategies(files)}))
    session = data.draw(typed_lines(st.sampled_from(CODES)))
    check(["assist", data.draw(games(files)), *args], input=session)


@fuzz(200)
@given(data=st.data())
def test_play(files: dict[str, str], data: st.DataObject) -> None:
    """`play` with junk seeds and generated sessions."""
    args = data.draw(options({"--seed": st.sampled_from(NUMBERS + ODD)}))
    session = data.draw(typed_lines(st.sampled_from(CODES)))
    check(["play", data.draw(games(files)), *args], input=session)


@fuzz(200)
@given(data=st.data())
def test_tree(files: dict[str, str], data: st.DataObject) -> None:
    """`tree` with junk strategies, players, depths and output paths."""
    output = st.one_of(a_file(files, OUTPUTS), st.just("-"))
    players = st.sampled_from(["minmax", "first", "knuth", "", str(ROOT / "players" / "first_candidate.py")])
    args = data.draw(
        options(
            {
                "--strategy": strategies(files),
                "--player": st.one_of(players, a_file(files, ["folder", "missing", "garbage.py"])),
                "--save": output,
                "--dot": output,
                "--show": st.sampled_from(NUMBERS + ODD),
            }
        )
    )
    check(["tree", data.draw(st.sampled_from(TINY_GAMES[:3] + BAD_GAMES)), *args])


@fuzz(60)
@given(data=st.data())
def test_optimal(files: dict[str, str], data: st.DataObject) -> None:
    """`optimal` on tiny games only, with junk depths, worker counts and output paths."""
    output = st.one_of(a_file(files, OUTPUTS), st.just("-"))
    numbers = st.sampled_from(["-1", "0", "1", "2", "99999999999999999999", "x", ""])
    args = data.draw(
        options(
            {
                "--max-depth": numbers,
                "--workers": st.sampled_from(["1", "0", "-1", "x"]),
                "--save": output,
                "--dot": output,
            }
        )
    )
    flags = data.draw(st.lists(st.just("--candidates-only"), max_size=1))
    workers = [] if "--workers" in args else ["--workers", "1"]
    check(["optimal", data.draw(st.sampled_from(TINY_GAMES[:3] + BAD_GAMES)), *args, *flags, *workers])


@fuzz(120)
@given(data=st.data())
def test_tournament_with_simple_hostile_values(files: dict[str, str], data: st.DataObject) -> None:
    """`tournament`: bad config, results and key files, folders, missing folders, bad numbers and limits."""
    small = st.sampled_from(["-1", "0", "1", "2", "x", "", "99999999999999999999"])
    players = st.one_of(
        st.sampled_from(["minmax", "first", "knuth", "", "random:seed=-1"]),
        a_file(files, ["folder", "missing", "garbage.py"]),
    )
    args = data.draw(
        options(
            {
                "--config": a_file(
                    files,
                    [
                        "missing",
                        "missing-folder",
                        "folder",
                        "binary",
                        "empty",
                        "truncated.toml",
                        "mistyped.toml",
                        "tournament.toml",
                    ],
                ),
                "--player": players,
                "--game": st.sampled_from(TINY_GAMES[:2] + BAD_GAMES),
                "--rounds": small.filter(lambda rounds: len(rounds) < 5),
                "--mercy": small,
                "--workers": st.sampled_from(["0", "-1", "x", "1"]),
                "--limit": st.sampled_from(
                    ["x=1", "memory_mb=-5", "round_seconds=x", "guess_seconds", "=", "memory_mb=512"]
                ),
                "--seed-file": a_file(files, ["missing", "folder", "binary", "empty"]),
                "--seed": small,
                "--results": st.one_of(
                    a_file(files, ["folder", "missing-folder", "truncated.jsonl", "binary", "empty"]),
                    st.uuids().map(lambda name: f"results-{name}.jsonl"),  # new, in the scratch folder
                ),
                "--key-file": a_file(files, ["missing", "folder", "binary", "empty"]),
            }
        )
    )
    base = data.draw(st.sampled_from([[], ["-p", "first", "-g", "bottles:n=3", "-r", "1", "--seed", "1"]]))
    resume = data.draw(st.lists(st.just("--resume"), max_size=1))
    check(["tournament", *base, *args, *resume])


@fuzz(60)
@given(data=st.data())
def test_grade_with_simple_hostile_values(files: dict[str, str], data: st.DataObject) -> None:
    """`grade`: word files that are missing, folders, binary or not UTF-8, bad lengths and round counts."""
    small = st.sampled_from(["-1", "0", "1", "2", "3", "x", "99"])
    args = data.draw(
        options(
            {
                "--words": a_file(files, ["missing", "folder", "binary", "latin-1", "empty", "words.txt"]),
                "--game": st.sampled_from(TINY_GAMES[:2] + BAD_GAMES),
                "--rounds": small,
                "--mercy": small,
                "--min-length": small,
                "--max-length": small,
                "--gradescope": a_file(files, OUTPUTS),
                "--seed-file": a_file(files, ["missing", "folder", "binary", "empty"]),
            }
        )
    )
    player = data.draw(
        st.one_of(st.sampled_from(["minmax", "first", "knuth", ""]), a_file(files, ["folder", "missing"]))
    )
    base = data.draw(st.sampled_from([[], ["--game", "bottles:n=3", "-r", "1"]]))
    check(["grade", player, *base, *args])


# ---------------------------------------------------------------- errors found once the run has begun


@pytest.mark.parametrize("case", ["results-folder", "tree-player"])
def test_runner_errors_found_after_the_bar_starts_are_one_line(files: dict[str, str], case: str) -> None:
    """A results path that is a folder, or a tree player whose file is binary, is one line (no bar first)."""
    extra = {
        "results-folder": ["-p", "minmax", "--results", files["folder"]],
        "tree-player": ["-p", f"tree:{files['binary']}"],
    }
    check(["tournament", "-g", "bottles:n=3", "-r", "1", "--seed", "1", *extra[case]])
