"""A runner no player can stop: a worker killed or stopped under a session is that player's foul alone."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from moocow.runner.limits import Limits
from moocow.runner.sandbox import SandboxPolicy
from moocow.runner.tournament import build_tournament, run_tournament

GAME = "mastermind:pegs=3,colors=3"
QUICK = Limits(guess_seconds=2, setup_seconds=10, round_seconds=10)


def tournament(players: list[str]) -> dict[str, object]:
    """Settings for three rounds of each player, unconfined: only there can a player reach its worker."""
    return {
        "players": players, "games": [GAME, "bottles:n=4"], "rounds": 3, "seed": 5, "limits": QUICK,
        "sandbox": SandboxPolicy(unconfined=True),
    }  # fmt: skip


@pytest.mark.parametrize("signal", ["KILL", "STOP"])
def test_a_player_that_kills_or_stops_its_worker_loses_only_its_own_session(
    signal: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker is replaced; the rest of the session is lost; the others play as if serially."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where private homes would be left,
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # here and in the spawned workers
    attacker = f"sh -c 'read x; echo moocow 1; read y; kill -{signal} $PPID; sleep 30'"
    honest = "sh -c 'read x; echo moocow 1; while read y; do echo 111; done'"
    settings = tournament([attacker, honest, "minmax"])
    parallel = run_tournament(build_tournament(settings), workers=2)
    lost = [result for result in parallel.results if result.player == attacker]
    assert {(r.game, r.round) for r in lost} == {(g, n) for g in (GAME, "bottles:n=4") for n in range(3)}
    assert all(r.failure == "crash" and "worker process" in (r.reason or "") for r in lost)
    assert any(("stopped" if signal == "STOP" else "ended") in (r.reason or "") for r in lost)
    serial = run_tournament(build_tournament({**settings, "players": [honest, "minmax"]}))
    others = [r.without_timing() for r in parallel.results if r.player != attacker]
    assert others == [r.without_timing() for r in serial.results]
    assert list(tmp_path.iterdir()) == [], "a killed worker's player left its home behind"


def test_bytes_written_into_a_workers_descriptors_run_no_code_in_the_runner() -> None:
    """A pickle an unconfined player writes into every descriptor of its worker runs nothing."""
    ran = Path("/tmp/moocow-pickle-ran")
    ran.unlink(missing_ok=True)
    attacker = str(Path(__file__).parent / "players" / "hostile" / "pickler.py")
    outcome = run_tournament(build_tournament(tournament([attacker, "minmax"])), workers=2)
    assert not ran.exists()
    assert len(outcome.results) == 12
    assert all(r.solved for r in outcome.results if r.player == "minmax")


def test_the_folders_of_killed_runners_are_removed_by_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run folder whose runner is gone goes; a live runner's stays; the run's own goes too."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    stale, live = tmp_path / "moocow-run-999999999-x", tmp_path / f"moocow-run-{os.getpid()}-y"
    (stale / "player-a").mkdir(parents=True)
    live.mkdir()
    run_tournament(build_tournament(tournament(["minmax"])))
    assert sorted(tmp_path.iterdir()) == [live]
