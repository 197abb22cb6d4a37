"""A fresh install's first runs: a compile that takes seconds is said when it starts, done up
front where a clock runs, and the first proof of a game says it builds before it does."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import moocow
from moocow.cli import app
from moocow.engine import progress, warmup
from moocow.engine.kernel import ahead
from moocow.engine.switches import SWITCHES
from moocow.runner import tournament as running


@pytest.fixture
def heard() -> Iterator[list[str]]:
    """The engine's notices, and a process whose kernels are not warm yet."""
    notices: list[str] = []
    progress.listen(notices.append)
    warmup.KERNELS.reset()
    yield notices
    progress.listen(None)
    warmup.KERNELS.reset()  # what the test left is no real kernel's state


@pytest.mark.parametrize("cached", [False, True], ids=["cold cache", "warm cache"])
def test_a_tournament_compiles_before_its_first_round(
    heard: list[str], monkeypatch: pytest.MonkeyPatch, cached: bool
) -> None:
    """The first tournament of a fresh install compiled inside the first strategy's guesses: 23 s
    with nothing said, and 58 ms per guess in its column. The compile is now said, and done before
    any round is played. With the kernels cached, the tournament's own process loads none of them
    (its workers are processes of their own): each session loads them before its first round."""
    events: list[str] = []
    monkeypatch.setattr(warmup, "kernels_cached", lambda: cached)
    monkeypatch.setattr(warmup, "_exercise", lambda: events.append("compile"))
    real = running.run_sessions
    monkeypatch.setattr(
        running, "run_sessions", lambda *arguments: events.append("rounds") or real(*arguments)
    )
    result = CliRunner().invoke(
        app, ["tournament", "-p", "minmax", "-g", "mastermind", "-r", "2", "--seed", "1"]
    )
    assert result.exit_code == 0, result.stderr
    if cached:
        assert events == ["rounds", "compile"] and heard == []
    else:
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
    SWITCHES.change(engine="compiled")
    for n in (4, 5):
        moocow.evaluate(Bottles(n=n), "minmax")
    assert compiled == [1] and len(heard) == 1 and "compiling the engine's kernels" in heard[0]


def test_a_cold_cache_is_filled_at_once_and_a_warm_one_loaded_as_used(tmp_path: Path) -> None:
    """For real, in a cache of its own: the first process says it compiles and compiles every
    kernel; the next says nothing and loads only the kernels it calls (it loaded them all, up
    front, whatever it called). Each process counts the kernels' signatures
    numba holds after an evaluation, then after every kernel is called (``warmup._exercise``)."""
    program = (
        "import moocow; from moocow.engine import progress, warmup; from moocow.engine.kernel import greedy; "
        "from moocow.plugins.mastermind import Mastermind; progress.listen(print); "
        "count = lambda: sum(len(kernel.signatures) for kernel in greedy.ENTRY_POINTS); "
        "moocow.evaluate(Mastermind(pegs=3, colors=4), 'minmax'); used = count(); warmup._exercise(); "
        "print('loaded', used, 'of', count(), 'cached:', warmup.kernels_cached())"
    )
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "MOOCOW_ENGINE": "compiled"}
    runs = [
        subprocess.run(
            [sys.executable, "-c", program], capture_output=True, text=True, env=environment, timeout=600
        )
        for _ in range(2)
    ]
    cold, warm = (run.stdout.splitlines() for run in runs)
    assert len(cold) == 2 and cold[0] == warmup.NOTICE.format(seconds=warmup.WARM_UP_SECONDS), runs[0].stderr
    _, used, _, every, _, cached = cold[1].split()
    assert used == every and cached == "True", cold
    assert len(warm) == 1, runs[1].stderr
    _, used, _, every, _, cached = warm[0].split()
    assert 0 < int(used) < int(every) and cached == "True", warm


def test_a_stale_or_missing_cache_is_cold(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An index numba would not load (another source, another numba) is as cold as none: the
    warm-up compiles it, said first, not numba at some later first call, unsaid."""
    from moocow.engine.kernel import greedy

    kernel = greedy.ENTRY_POINTS[0]
    cache_file = kernel._cache._cache_file
    monkeypatch.setattr(cache_file, "_index_path", str(tmp_path / "missing.nbi"))
    assert not warmup.kernels_cached()
    monkeypatch.setattr(cache_file, "_index_path", str(tmp_path / "stale.nbi"))
    monkeypatch.setattr(cache_file, "_source_stamp", ("another", "source"))
    cache_file._save_index({"a signature": "a file"})
    monkeypatch.setattr(cache_file, "_source_stamp", ("this", "source"))
    assert not warmup.kernels_cached()


def test_a_warm_cache_is_not_loaded_up_front(heard: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """With every kernel cached, the engine's first use loads nothing ahead and says nothing: numba
    loads each kernel at its first call."""
    from moocow.plugins.bottles import Bottles

    monkeypatch.setattr(warmup, "kernels_cached", lambda: True)
    monkeypatch.setattr(warmup, "_exercise", lambda: pytest.fail("loaded every kernel up front"))
    SWITCHES.change(engine="compiled")
    assert moocow.evaluate(Bottles(n=5), "minmax").total > 0
    assert heard == []


def test_the_first_proof_of_a_game_says_it_builds(
    heard: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, serve_anew: Callable[[bool], None]
) -> None:
    """Building the exact search's modules took 35 to 60 s with nothing said: it is said once, as
    the first build starts, however many modules follow."""
    monkeypatch.setattr(ahead, "cache_places", lambda: (tmp_path,))
    monkeypatch.setattr(ahead, "build_command", lambda request: [sys.executable, "-c", "raise SystemExit(1)"])
    from moocow.optimal.prove import prove_optimal
    from moocow.plugins.mastermind import Mastermind

    ahead.BUILDING.reset()
    serve_anew(True)
    prove_optimal(Mastermind(pegs=3, colors=4))
    assert heard == [ahead.BUILD_NOTICE]
    assert len(list(tmp_path.glob("*.failed"))) > 1
    prove_optimal(Mastermind(pegs=3, colors=4))
    assert heard == [ahead.BUILD_NOTICE]


def test_a_session_loads_the_kernels_before_its_first_round(
    heard: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a worker process too (each loads the kernels, 0.3 s and more), the engine's strategy has
    its kernels before its first round is timed."""
    from moocow.runner import session

    events: list[str] = []
    monkeypatch.setattr(warmup, "_exercise", lambda: events.append("compile"))
    real = session.play_round
    monkeypatch.setattr(session, "play_round", lambda *given: events.append("round") or real(*given))
    settings = {"players": ["minmax"], "games": ["mastermind"], "rounds": 2, "seed": 1}
    (plan,) = running.build_tournament(settings).plans()
    session.play_session(plan, lambda result: None)
    assert events == ["compile", "round", "round"]


def test_the_warm_up_game_scores_as_mastermind() -> None:
    """The engine's own warm-up game is Mastermind 2x4, scored by the compiled kernels as by numpy:
    the kernels are warmed on the argument types a real game gives them."""
    from moocow.engine.kernel import greedy
    from moocow.plugins.mastermind import Mastermind

    game, mastermind = warmup.WarmUpGame(), Mastermind(pegs=2, colors=4)
    codes = game.secrets
    assert (codes == mastermind.secrets).all()
    assert (game.feedback(codes, codes) == mastermind.feedback(codes, codes)).all()
    ours, theirs = (
        greedy.prepare(game, game.feedback_form()),
        greedy.prepare(mastermind, mastermind.feedback_form()),
    )
    assert ours is not None and theirs is not None
    for field in dataclasses.fields(ours):
        assert np.array_equal(getattr(ours, field.name), getattr(theirs, field.name)), field.name
