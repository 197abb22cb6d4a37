"""Strategies from plugins (``register_strategies``): the example ``examples/last_candidate.py``
through every command, the API, the runner's workers and the web's, its totals checked against a
brute force of its own; and the plugins that get it wrong, each one line naming the plugin."""

from __future__ import annotations

import itertools
import json
import time
from collections import defaultdict
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

import moocow
from moocow.cli import app
from moocow.engine.errors import MoocowError
from moocow.plugins import get_plugin_manager, load_plugin_file, plugin_errors
from moocow.plugins.strategy_registry import load_strategy, strategy_classes
from moocow.runner.tournament import build_tournament, run_tournament
from moocow.sandbox.limits import Limits
from tests.web_helpers import client

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "last_candidate.py"
MASTERMIND = ["".join(code) for code in itertools.product("123456", repeat=4)]
"""Mastermind's codes in the game's order, written out here rather than asked of the game."""

PLUGIN = """\
from moocow import Strategy, hookimpl


class Mine(Strategy):
    name = {name!r}
    summary = "a plugin's strategy for the tests"

    def choose(self, position):
        {choose}


@hookimpl
def {hook}(register):
    register(Mine)
"""


def plugin(folder: Path, name: str, choose: str = "return 0", hook: str = "register_strategies") -> Path:
    """A plugin file registering one strategy ``name`` whose ``choose`` is the line given."""
    path = folder / f"{name}_plugin.py"
    path.write_text(PLUGIN.format(name=name, choose=choose, hook=hook))
    return path.resolve()  # as the plugin manager names it


def run(*args: str) -> Result:
    """``moocow ARGS`` in-process, stdout and stderr kept apart."""
    return CliRunner().invoke(app, list(args))


def one_line_error(result: Result) -> str:
    """The one ``error:`` line of a command that failed with status 2."""
    assert result.exit_code == 2, (result.stdout, result.stderr)
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: ")
    return line


# ---------------------------------------------------------------------- the brute force
def pegs(guess: str, secret: str) -> tuple[int, int]:
    """Black and white pegs, by the rule of the box: colours in place, then colours in common."""
    black = sum(g == s for g, s in zip(guess, secret, strict=True))
    common = sum(min(guess.count(colour), secret.count(colour)) for colour in set(guess))
    return black, common - black


def brute_force_games(skip: int = 0) -> dict[str, list[str]]:
    """Each secret's guesses when the last code still possible (``skip`` more from the end) is
    played, worked out by splitting the codes by the pegs each guess gets."""
    played: dict[str, list[str]] = {}

    def split(remaining: list[str], before: list[str]) -> None:
        guess = remaining[-1 - skip % len(remaining)]
        parts: dict[tuple[int, int], list[str]] = defaultdict(list)
        for secret in remaining:
            parts[pegs(guess, secret)].append(secret)
        for answer, part in parts.items():
            if answer == (4, 0):
                played[guess] = [*before, guess]
            else:
                split(part, [*before, guess])

    split(MASTERMIND, [])
    return played


BRUTE = {skip: brute_force_games(skip) for skip in (0, 1)}


@pytest.fixture
def example() -> None:
    load_plugin_file(EXAMPLE, strict=True)


# ---------------------------------------------------------------------- the example, everywhere
@pytest.mark.parametrize("skip", [0, 1])
def test_evaluate_totals_the_brute_force(skip: int) -> None:
    """``moocow --plugin examples/last_candidate.py evaluate mastermind -s last``."""
    result = run("--plugin", str(EXAMPLE), "evaluate", "mastermind", "-s", f"last:skip={skip}", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    games = BRUTE[skip].values()
    assert data["total"] == sum(map(len, games)) and data["worst"] == max(map(len, games))


def test_solve_plays_the_brute_forces_guesses() -> None:
    for secret in ("1234", "6543", "1111"):
        result = run(
            "--plugin", str(EXAMPLE), "solve", "mastermind", "--secret", secret, "-s", "last", "--json"
        )
        assert result.exit_code == 0, result.stderr
        assert [step["guess"] for step in json.loads(result.stdout)["steps"]] == BRUTE[0][secret]


@pytest.mark.usefixtures("example")
def test_the_api_evaluates_and_lists_it() -> None:
    """``moocow.evaluate(game, "last")``, the listing, and the built-ins still first."""
    assert moocow.evaluate("mastermind", "last").total == sum(map(len, BRUTE[0].values()))
    assert moocow.load_strategy("last", skip=1).spec == "last:skip=1"
    listed = [info.name for info in moocow.describe_strategies()]
    assert listed[0] == "minmax" and listed[-1] == "last"
    assistant = moocow.assistant("mastermind", "last")
    assert assistant.suggestion() == MASTERMIND[-1]


@pytest.mark.usefixtures("example")
def test_a_seeded_tournament_on_two_workers_plays_the_brute_forces_guesses() -> None:
    """The runner's workers load the plugin file again: each round is the brute force's game."""
    settings = {"players": ["last", "last:skip=1"], "games": ["mastermind"], "rounds": 6, "seed": 5}
    results = run_tournament(build_tournament({**settings, "limits": Limits()}), workers=2).results
    assert len(results) == 12
    for result in results:
        skip = 1 if result.player == "last:skip=1" else 0
        assert result.solved and list(result.guesses) == BRUTE[skip][result.secret], result


@pytest.mark.usefixtures("example")
def test_a_seeded_tournament_on_a_dask_cluster_equals_the_same_played_here() -> None:
    """Dask's workers are fresh processes that load the runner's plugin files themselves (``runner
    .cluster``): without the file there, ``last`` is unknown and every round a crash, not this."""
    distributed = pytest.importorskip("distributed")
    settings = {"players": ["last", "last:skip=1"], "games": ["mastermind"], "rounds": 4, "seed": 5}
    chosen = build_tournament(settings)
    here = run_tournament(chosen, workers=1).results
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:  # as tests/test_runner_cluster.py starts one
        there = run_tournament(chosen, scheduler=cluster.scheduler_address).results
    assert [r.without_timing() for r in there] == [r.without_timing() for r in here] and len(here) == 8
    assert all(result.solved and result.failure is None for result in there), there


@pytest.mark.usefixtures("example")
def test_the_web_lists_it_suggests_with_it_and_evaluates_it_in_a_worker() -> None:
    """The first page offers it, the assistant suggests its guess, and an evaluation, which runs
    in a worker process that loads the plugin files again, ends with the brute force's total."""
    web = client()
    assert "last" in web.get("/index.json").json()["strategies"]
    assist = web.get("/assist.json", params={"game": "mastermind", "strategy": "last"}).json()
    assert assist["suggestion"]["code"] == MASTERMIND[-1]
    query = {"game": "mastermind", "s": "last"}
    for _ in range(300):
        data = web.get("/evaluate.json", params=query).json()
        if data["finished"]:
            break
        time.sleep(0.1)
    (shown,) = data["strategies"]
    assert shown["state"] == "done", shown
    assert shown["result"]["total"] == sum(map(len, BRUTE[0].values()))


# ---------------------------------------------------------------------- plugins that get it wrong
def test_a_name_a_builtin_has_is_refused_in_one_line(tmp_path: Path) -> None:
    """At the command line, status 2 before the command runs; loaded otherwise, a recorded line,
    and ``minmax`` is still Knuth's."""
    path = plugin(tmp_path, "minmax")
    line = one_line_error(run("--plugin", str(path), "evaluate", "bottles:n=3"))
    refused = "strategy 'minmax' ignored: already registered by moocow (a built-in strategy)"
    assert line == f"error: plugin {path}: {refused}"
    load_plugin_file(path)
    assert line.removeprefix("error: ") in plugin_errors()
    assert type(load_strategy("minmax")).__module__ == "moocow.engine.strategies"


@pytest.mark.parametrize(
    ("choose", "fault"),
    [
        ("raise ZeroDivisionError('no guess today')", "its choose failed: ZeroDivisionError: no guess today"),
        ("return 'one'", "its choose returned 'one', not a guess index (0 to 26)"),
        ("return 27", "its choose returned 27, not a guess index (0 to 26)"),
    ],
)
def test_a_choose_that_fails_is_one_line_naming_the_plugin(tmp_path: Path, choose: str, fault: str) -> None:
    path = plugin(tmp_path, "broken", choose)
    line = one_line_error(
        run("--plugin", str(path), "evaluate", "mastermind:pegs=3,colors=3", "-s", "broken")
    )
    assert line == f"error: strategy broken (plugin {path}): {fault}"


def test_a_choose_that_raises_loses_its_rounds_in_a_tournament_with_the_reason(tmp_path: Path) -> None:
    path = plugin(tmp_path, "broken", "raise RuntimeError('boom')")
    load_plugin_file(path, strict=True)
    settings = {
        "players": ["broken", "first"],
        "games": ["mastermind:pegs=3,colors=3"],
        "rounds": 2,
        "seed": 1,
    }
    results = run_tournament(build_tournament(settings)).results
    lost = [result for result in results if result.player == "broken"]
    assert [result.failure for result in lost] == ["crash", "crash"]
    assert {result.reason for result in lost} == {
        f"strategy broken (plugin {path}): its choose failed: RuntimeError: boom"
    }
    assert all(result.solved for result in results if result.player == "first")


def test_a_misspelled_hook_is_still_caught(tmp_path: Path) -> None:
    """``check_pending`` knows the new hook, and still refuses one that is not moocow's."""
    path = plugin(tmp_path, "typo", hook="register_strategy")
    line = one_line_error(run("--plugin", str(path), "strategies"))
    hooks = "moocow's hooks: register_games, register_strategies"
    assert line == f"error: plugin {path} failed to load: unknown hook register_strategy ({hooks})"
    load_plugin_file(path)
    assert not get_plugin_manager().has_plugin(str(path))
    get_plugin_manager().check_pending()


@pytest.mark.parametrize(
    ("offered", "problem"),
    [
        ("dict", "is not a subclass of moocow.Strategy"),
        ("type('Nameless', (Mine,), {'name': 'no name'})", "strategy class Nameless needs a name"),
        (
            "type('Quiet', (Mine,), {'summary': ''})",
            "strategy 'quiet_plugin_bad' needs a summary of one line",
        ),
    ],
)
def test_a_class_that_cannot_be_a_strategy_costs_its_line(tmp_path: Path, offered: str, problem: str) -> None:
    path = plugin(tmp_path, "quiet_plugin_bad")
    path.write_text(path.read_text().replace("register(Mine)", f"register({offered})"))
    load_plugin_file(path)
    assert any(line.startswith(f"plugin {path}: ") and problem in line for line in plugin_errors())


def test_each_register_strategies_runs_once_however_often_strategies_are_looked_up(tmp_path: Path) -> None:
    path = plugin(tmp_path, "counted")
    text = path.read_text().replace("    register(Mine)", "    CALLS.append(1)\n    register(Mine)")
    path.write_text("CALLS = []\n" + text)
    load_plugin_file(path)
    for _ in range(3):
        assert "counted" in strategy_classes()
    load_strategy("counted")
    assert get_plugin_manager().get_plugin(str(path)).CALLS == [1]
    with pytest.raises(MoocowError, match="unknown strategy 'nosuch'"):
        load_strategy("nosuch")
