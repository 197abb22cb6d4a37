"""A loaded machine does not change a grade: CPU time is the limit a busy player meets, and the
wall-clock limits are a backstop at least ``BACKSTOP`` times as long.

A student needing 0.955 s of CPU a guess against ``guess_seconds=1`` timed out on a loaded Dask
worker and fell from rank 2 to 100. Here busy loops (three per core, for a minute at most) load
the machine while a player that burns most of its CPU allowance on every guess plays.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from bench.referee_bounds import busy_loops
from moocow.runner.grading import grade
from moocow.sandbox.limits import BACKSTOP, PAIRS, Limits

GAME = "mastermind:pegs=3,colors=3"
NEAR, LIMIT, WAIT = 0.5, 0.8, 0.6
"""CPU seconds the player burns each guess, its limit, and how long a slow player also waits."""
PLAYER = f"""\
import time

from moocow import load_game

_game = load_game({GAME!r})  # at import, in the setup's time: a guess burns NEAR alone


def next_guess(game, history):
    time.sleep({{wait}})  # waiting, as a loaded machine makes a player wait, costs no CPU
    start = time.process_time()
    while time.process_time() - start < {NEAR}:  # CPU time: the same however loaded the machine
        pass
    candidates = _game.secrets
    for guess, feedback in history:
        code = _game.guesses[_game.guess_index(guess)][None, :]
        value = _game.feedback_model.encode(tuple(feedback))
        candidates = candidates[_game.feedback(code, candidates)[0] == value]
    return _game.format_code(candidates[0])
"""


@pytest.fixture
def near_limit(reachable: Path) -> str:
    """The player, in a folder its user id can read."""
    (reachable / "near.py").write_text(PLAYER.format(wait=0))
    return str(reachable / "near.py")


@pytest.fixture
def near_limit_and_slow(reachable: Path) -> str:
    """The player, waiting ``WAIT`` seconds before each guess as well."""
    (reachable / "slow.py").write_text(PLAYER.format(wait=WAIT))
    return str(reachable / "slow.py")


def played(player: str, limits: Limits) -> list[tuple[bool, tuple[str, ...], str | None]]:
    """Each round's outcome: solved or not, its guesses, its failure."""
    rounds = grade(player, game=GAME, rounds=2, seed=5, limits=limits).rounds
    return [(one.solved, one.guesses, one.failure) for one in rounds]


def test_a_player_near_its_cpu_limit_keeps_its_result_on_a_loaded_machine(near_limit: str) -> None:
    """Idle and loaded, the same rounds, solved the same way, under ``guess_cpu`` with the clock as
    a backstop. (Whether the load slows the player depends on the machine: a cgroup of its own may
    give it a core whatever runs beside it. The next test makes it wait, always.)"""
    by_cpu = Limits.from_mapping({"guess_cpu": LIMIT})
    idle = played(near_limit, by_cpu)
    assert all(solved for solved, _, _ in idle)
    with busy_loops(3 * (os.cpu_count() or 1), seconds=60):  # three a core, a minute at most
        time.sleep(0.5)  # every loop running
        loaded = played(near_limit, by_cpu)
    assert loaded == idle


def test_a_player_kept_waiting_is_timed_out_by_a_tight_clock_and_not_by_its_cpu_limit(
    near_limit: str, near_limit_and_slow: str
) -> None:
    """The player made to wait ``WAIT`` seconds a guess, as a loaded machine makes it wait: a clock
    as tight as its CPU limit times it out, its CPU limit with the clock as a backstop does not."""
    by_cpu = Limits.from_mapping({"guess_cpu": LIMIT})
    tight_clock = Limits.from_mapping({"guess_cpu": LIMIT, "guess_seconds": LIMIT})
    assert played(near_limit_and_slow, by_cpu) == played(near_limit, by_cpu)
    assert {failure for _, _, failure in played(near_limit_and_slow, tight_clock)} == {"timeout"}


def test_by_default_the_clock_is_a_backstop_to_the_cpu_limits() -> None:
    """Each wall-clock limit is at least ``BACKSTOP`` times its CPU limit by default; given alone, a
    CPU limit takes its clock along, which it never shortens; given both, each is as given."""
    defaults = Limits()
    for cpu, wall in PAIRS:
        assert getattr(defaults, wall) >= BACKSTOP * getattr(defaults, cpu)
        assert getattr(Limits.from_mapping({cpu: 1}), wall) == getattr(defaults, wall)
        assert getattr(Limits.from_mapping({cpu: 100}), wall) == BACKSTOP * 100
        assert getattr(Limits.from_options([f"{cpu}=100", f"{wall}=7"]), wall) == 7
