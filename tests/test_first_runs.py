"""A fresh install's first runs: a compile that takes seconds is said when it starts, done up
front where a clock runs, and the first proof of a game says it builds before it does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import moocow
from moocow.cli import app
from moocow.engine import progress, warmup
from moocow.optimal.kernel import ahead, entries
from moocow.runner import tournament as running


@pytest.fixture
def heard(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The engine's notices, and a process whose kernels are not warm yet."""
    notices: list[str] = []
    progress.listen(notices.append)
    monkeypatch.setattr(warmup, "_warm", False)
    yield notices
    progress.listen(None)


def test_a_tournament_compiles_before_its_first_round(
    heard: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first tournament of a fresh install compiled inside the first strategy's guesses: 23 s
    with nothing said, and 58 ms per guess in its column. The compile is now said, and done before
    any round is played."""
    events: list[str] = []
    monkeypatch.setattr(warmup, "kernels_cached", lambda: False)
    monkeypatch.setattr(warmup, "_exercise", lambda: events.append("compile"))
    real = running.run_sessions
    monkeypatch.setattr(
        running, "run_sessions", lambda *arguments: events.append("rounds") or real(*arguments)
    )
    result = CliRunner().invoke(
        app, ["tournament", "-p", "minmax", "-g", "mastermind", "-r", "2", "--seed", "1"]
    )
    assert result.exit_code == 0, result.stderr
    assert events == ["compile", "rounds"]
    assert heard == [warmup.NOTICE.format(seconds=warmup.WARM_UP_SECONDS)]


def test_a_tournament_of_small_games_does_not_load_the_compiled_engine(
    heard: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Games too small for the compiled engine, or no strategy of the engine: nothing to compile."""
    monkeypatch.setattr(warmup, "_exercise", lambda: pytest.fail("compiled for nothing"))
    for arguments in (["-p", "minmax", "-g", "bottles:n=4"], ["-p", "tests/players/first_candidate.py"]):
        games = [] if "-g" in arguments else ["-g", "mastermind"]
        result = CliRunner().invoke(app, ["tournament", *arguments, *games, "-r", "1", "--seed", "1"])
        assert result.exit_code == 0, result.stderr


def test_the_engine_compiles_every_kernel_at_its_first_use_once(
    heard: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first game large enough for the compiled engine compiles all its kernels at once, after
    one notice; a warm process says nothing."""
    from moocow.plugins.bottles import Bottles

    compiled: list[int] = []
    monkeypatch.setattr(warmup, "kernels_cached", lambda: False)
    real = warmup._exercise
    monkeypatch.setattr(warmup, "_exercise", lambda: compiled.append(1) or real())
    monkeypatch.setenv("MOOCOW_ENGINE", "compiled")
    for n in (4, 5):
        moocow.evaluate(Bottles(n=n), "minmax")
    assert compiled == [1] and len(heard) == 1 and "compiling the engine's kernels" in heard[0]


def test_a_fresh_cache_is_filled_by_the_warm_up_and_said_once(tmp_path: Path) -> None:
    """For real, in a cache of its own: the first process says it compiles and leaves every
    kernel cached; the next one says nothing."""
    program = (
        "from moocow.engine import progress, warmup; progress.listen(print); "
        "warmup.warm_up(); print('cached:', warmup.kernels_cached())"
    )
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    runs = [
        subprocess.run(
            [sys.executable, "-c", program], capture_output=True, text=True, env=environment, timeout=600
        )
        for _ in range(2)
    ]
    assert [run.stdout.splitlines() for run in runs] == [
        [warmup.NOTICE.format(seconds=warmup.WARM_UP_SECONDS), "cached: True"],
        ["cached: True"],
    ], [run.stderr for run in runs]


def test_the_first_proof_of_a_game_says_it_builds(
    heard: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Building the exact search's modules took 35 to 60 s with nothing said: it is said once, as
    the first build starts, however many modules follow."""
    monkeypatch.setattr(ahead, "cache_directory", lambda: tmp_path)
    monkeypatch.setattr(ahead, "_announced", False)
    monkeypatch.setattr(ahead, "build_command", lambda request: [sys.executable, "-c", "raise SystemExit(1)"])
    from moocow.optimal.prove import prove_optimal
    from moocow.plugins.mastermind import Mastermind

    for entry in entries.ALL_ENTRIES:
        monkeypatch.setattr(entry, "_served", {})
    prove_optimal(Mastermind(pegs=3, colors=4))
    assert heard == [ahead.BUILD_NOTICE]
    assert len(list(tmp_path.glob("*.failed"))) > 1
    prove_optimal(Mastermind(pegs=3, colors=4))
    assert heard == [ahead.BUILD_NOTICE]
