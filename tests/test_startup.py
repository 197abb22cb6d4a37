"""The light commands load only what they use: the numbers of the start-up are in bench/.

Each command runs in a fresh interpreter, which then lists the modules it loaded. Timing is not
asserted (bench/ measures it); what is asserted is the cause of slowness: numba and the exact
search (0.3 s and more to load) for any command that does not search, numpy and the games for help.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = """
import json, sys
sys.argv = ["moocow", *json.loads(sys.argv[1])]
from moocow.cli import main
try:
    main()
except SystemExit:
    pass
sys.stderr.write("\\nMODULES " + json.dumps(sorted(sys.modules)) + "\\n")
"""

SEARCH = ("numba", "moocow.optimal.search", "moocow.optimal.kernel", "moocow.optimal.prove")
RUNNER = ("moocow.runner.tournament", "moocow.runner.workers", "moocow.sandbox.process")
COMMAND_MODULES = (
    "moocow.cli.runner",
    "moocow.cli.optimal",
    "moocow.cli.tree",
    "moocow.sandbox.sandbox",
    "moocow.cli.serve",
    "starlette",
    "uvicorn",
    "jinja2",
)
"""What the runner's, the exact search's, the tree's and the web server's commands load."""


def loaded(*arguments: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``moocow ARGUMENTS``."""
    completed = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(arguments)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    line = next(line for line in completed.stderr.splitlines() if line.startswith("MODULES "))
    return set(json.loads(line.removeprefix("MODULES ")))


@pytest.mark.parametrize("arguments", [("--help",), ("--version",)])
def test_help_loads_neither_numpy_nor_the_games(arguments: tuple[str, ...]) -> None:
    """Help and the version need typer and rich only (a command's own help first loads the plugins,
    whose errors every command reports)."""
    modules = loaded(*arguments)
    assert not modules & {"numpy", "moocow.plugins", "moocow.api", *SEARCH, *RUNNER}


@pytest.mark.parametrize(
    "arguments",
    [
        ("evaluate", "--help"),
        ("games",),
        ("strategies",),
        ("evaluate", "mastermind", "--strategy", "minmax:first=1122"),
        ("solve", "bottles:n=5", "--secret", "EDCBA"),
    ],
)
def test_commands_that_do_not_search_do_not_load_numba(arguments: tuple[str, ...]) -> None:
    """Knuth's evaluation and the listings play no exact search and referee no one, and do not
    load the modules of the commands that do."""
    modules = loaded(*arguments)
    assert "moocow.engine.game" in modules  # the probe ran the command
    assert not modules & {*SEARCH, *RUNNER, *COMMAND_MODULES}


def test_a_lazy_command_runs_with_its_own_options() -> None:
    """``optimal`` is made when named: its module loads then, and its options work."""
    modules = loaded("optimal", "mastermind:pegs=2,colors=2", "--workers", "1")
    assert {"moocow.cli.optimal", "moocow.optimal.search"} <= modules


def test_serve_loads_neither_the_search_nor_the_runner() -> None:
    """``moocow serve`` (here refused at once: the port is out of range) loads its own module, not
    numba, the exact search or the runner; the web app's modules load when it runs."""
    modules = loaded("serve", "--port", "70000")
    assert "moocow.cli.serve" in modules
    assert not modules & {*SEARCH, *RUNNER, "starlette.applications", "uvicorn", "moocow.web.app"}


def test_no_plugin_installed_no_metadata_imported() -> None:
    """With no distribution declaring moocow entry points, Knuth's run does not import
    ``importlib.metadata`` (20 to 40 ms) to find none."""
    assert "importlib.metadata" not in loaded("evaluate", "mastermind", "--strategy", "minmax:first=1122")


def test_results_printed_as_lines_do_not_load_rich() -> None:
    """Knuth's evaluation prints lines only: rich (20 ms) loads for tables and bars, not for them."""
    assert not any(
        module.split(".")[0] == "rich" for module in loaded("evaluate", "mastermind", "-s", "minmax")
    )
    assert "rich.console" in loaded("games")  # a table: the probe sees rich when it loads


def test_the_compiled_engine_loads_numba_when_it_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The probe can see numba: the compiled greedy engine loads it (else the tests above could
    not fail). The exact search no longer does, once built (``test_kernel_ahead``)."""
    monkeypatch.setenv("MOOCOW_ENGINE", "compiled")
    assert "numba" in loaded("evaluate", "bottles:n=3", "-s", "minmax")


def test_a_tournament_here_does_not_load_dask() -> None:
    """``distributed`` is imported only for ``--scheduler``: a local run does not pay for its imports."""
    modules = loaded("tournament", "-p", "first", "-g", "bottles:n=3", "-r", "1", "--seed", "1")
    assert "moocow.runner.tournament" in modules  # the probe ran the command
    assert not modules & {"distributed", "dask", "moocow.runner.cluster"}


@pytest.mark.parametrize(
    "arguments", [("evaluate", "mastermind", "--strategy", "minmax:first=1122"), ("play", "--seed", "x")]
)
def test_command_line_values_are_read_without_pydantic(arguments: tuple[str, ...]) -> None:
    """typer reads values through pydantic (0.12 s and more of Knuth's 0.4 s); moocow's plain
    values, good or bad, are read by ``cli_values``."""
    modules = loaded(*arguments)
    assert "moocow.cli.group" in modules  # the probe ran the command
    assert not any(module.split(".")[0] == "pydantic" for module in modules)


def test_a_python_player_of_moocows_interface_loads_only_what_it_needs() -> None:
    """The adapter that runs a Python player loads the course's deck code (and with it random and
    the engine's parameters, 20 ms of a player's start) only for a course player."""
    probe = "import json, sys, moocow.referee.adapter; print(json.dumps(sorted(sys.modules)))"
    completed = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    modules = set(json.loads(completed.stdout))
    assert "moocow.referee.adapter" in modules
    assert not modules & {"moocow.referee.bacrunner", "numpy", "moocow.engine.params", "random"}
