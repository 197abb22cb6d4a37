"""The benchmark suite: its quick run end to end, and its baselines computing what moocow computes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from moocow.engine.solve import solve
from moocow.optimal.prove import prove_optimal
from moocow.plugins.bottles import Bottles
from moocow.plugins.mastermind import Mastermind
from moocow.plugins.strategy_registry import load_strategy

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def bench_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    """``bench`` lives next to ``moocow`` in the checkout, not in the installed package."""
    monkeypatch.syspath_prepend(str(ROOT))


def test_quick_suite_runs_and_agrees(tmp_path: Path) -> None:
    """``python -m bench --quick`` prints the table, writes the JSON, and every baseline agrees."""
    output = tmp_path / "bench.json"
    done = subprocess.run(
        [sys.executable, "-m", "bench", "--quick", "--json", str(output)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("| workload | basis | moocow | baseline | ratio | peak RSS | result |")
    rows = json.loads(output.read_text())["rows"]
    kinds = {row["workload"].split()[0] for row in rows}
    assert kinds == {
        "evaluate",
        "runner",
        "sandbox",
        "referee",
        "optimal",
        "bounds",
        "counting",
        "process",
        "web",
        "tournament",
    }
    assert all(row["agree"] is not False for row in rows)
    compared = [row for row in rows if row["agree"]]
    assert compared and all(row["ratio"] > 0 and row["peak_rss"] > 0 for row in compared)


@pytest.mark.parametrize("name", ["minmax", "expected", "entropy", "parts", "first", "random"])
def test_baseline_plays_every_secret_like_moocow(bench_importable: None, name: str) -> None:
    """The notes' player, opening with its own choice, takes moocow's number of guesses on every secret."""
    from bench.baseline import NotesPlayer

    game, strategy = Mastermind(pegs=3, colors=3), load_strategy(name)
    player = NotesPlayer.for_game(game, name)
    opening = player.choose(list(range(len(player.secrets))), list(player.secrets))
    assert opening == solve(game, strategy, 0)[0].guess
    for secret in range(len(game.secrets)):
        assert player.play(secret, opening) == len(solve(game, strategy, secret))


def test_exhaustive_search_finds_the_proven_optimum(bench_importable: None) -> None:
    """The pure-Python exact search agrees with moocow's: 86 guesses in all for 4 bottles."""
    from bench.baseline import NotesPlayer
    from bench.exhaustive import ExhaustiveSearch

    player = NotesPlayer.for_game(Bottles(n=4), "minmax")
    total = ExhaustiveSearch(player.guesses, player.score).total(tuple(player.secrets))
    assert total == prove_optimal(Bottles(n=4)).total == 86


def test_the_scaling_model_schedules_batches_as_the_flight_does(bench_importable: None) -> None:
    """Openings go in order to the first worker free, cheap ones batched up to half a second, each
    batch paying a round trip; the first worker starts with the best opening's exact proof."""
    from bench.scaling_model import simulate

    assert simulate([1.0] * 10, 2, 0.0, 0.0) == 5.0
    assert simulate([1.0] * 10, 10, 0.0, 0.0) == 1.0
    assert simulate([0.125] * 8, 1, 0.0, 0.01) == 1.0 + 0.02  # two batches of four
    assert simulate([1.0] * 4, 2, 3.0, 0.0) == 4.0  # the second worker takes three while the first proves
