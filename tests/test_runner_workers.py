"""A runner no player can stop: a worker an unconfined player kills or stops is that player's foul
alone; one lost under a sandboxed player, which cannot reach it, has its session played anew."""

from __future__ import annotations

import contextlib
import os
import signal
import tempfile
import threading
import time
from pathlib import Path

import pytest

from moocow.runner.results import RoundResult
from moocow.runner.tournament import build_tournament, run_tournament
from moocow.sandbox.limits import Limits
from moocow.sandbox.sandbox import SandboxPolicy

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


def workers_playing(marker: str) -> list[int]:
    """This process's worker processes with a descendant whose command line holds ``marker``."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError, ValueError, IndexError):
            if entry.name.isdigit():
                parents[int(entry.name)] = int((entry / "stat").read_text().rpartition(")")[2].split()[1])

    def worker_of(pid: int) -> int | None:
        while pid in parents and parents[pid] != os.getpid():
            pid = parents[pid]
        return pid if parents.get(pid) == os.getpid() else None

    found = set()
    for pid in parents:
        with contextlib.suppress(OSError):
            if marker.encode() in (Path("/proc") / str(pid) / "cmdline").read_bytes():
                worker = worker_of(pid)
                if worker is not None:
                    found.add(worker)
    return sorted(found)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_worker_killed_from_outside_plays_its_sandboxed_session_anew(tmp_path: Path) -> None:
    """A sandboxed player cannot reach its worker, so a worker lost under it (an out-of-memory kill,
    an operator) cost the player every round it had left, for good: the session is played anew."""
    slow = str(Path(__file__).parent / "players" / "slow_first.py")
    settings = {**tournament([slow, "minmax"]), "sandbox": SandboxPolicy(), "rounds": 20}
    killed: list[int] = []

    def kill_the_slow_players_worker() -> None:
        deadline = time.monotonic() + 60
        while not killed and time.monotonic() < deadline:
            for worker in workers_playing("slow_first.py"):
                os.kill(worker, signal.SIGKILL)
                killed.append(worker)
            time.sleep(0.05)

    killer = threading.Thread(target=kill_the_slow_players_worker)
    killer.start()
    parallel = run_tournament(build_tournament(settings), workers=2)
    killer.join()
    assert killed, "the slow player's worker was never found"
    assert not [r for r in parallel.results if r.failure is not None]
    serial = run_tournament(build_tournament(settings))
    assert rows(parallel.results) == rows(serial.results)


def rows(results: tuple[RoundResult, ...]) -> list[dict[str, object]]:
    """Rounds without their timing, in round order (a session played anew comes back later)."""
    return sorted((r.without_timing() for r in results), key=lambda r: (r["player"], r["game"], r["round"]))
