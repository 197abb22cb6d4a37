"""At the ``user`` level (Gradescope's) players run under the seccomp filter too, which the launcher
installs; before, only bubblewrap installed it, so at this level players could signal each other
(and the next player) through locks, watches, keys and the page cache.

moocow is run as root without ``CAP_SYS_ADMIN`` (``setpriv``), as ``test_runner_user_level.py``
does, by a ``python3`` other users can run (``readable_python``): its module players run on it.
``tests/players/hostile/signaller.py`` tries each channel and reports how it went; the control runs
it with the filter switched off, where the record says so, and every channel is open.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.test_runner_user_level import DROPPED, GAME, WHY_NOT

pytestmark = pytest.mark.skipif(WHY_NOT is not None, reason=f"needs the user level: {WHY_NOT}")

PLAYERS = Path(__file__).parent / "players"
SIGNALLER = PLAYERS / "hostile" / "signaller.py"
FILTERED = ["flock", "lockf", "ofd", "dnotify", "inotify", "keyring", "add_key", "nowait"]
"""The channels of the signaller that the filter closes (the count of terminals is another matter)."""
SWITCHED_OFF = (
    "import sys, runpy; from moocow.sandbox import sandbox; "
    "sandbox.filter_absence = lambda level: 'switched off for the control'; "
    "sys.argv[0] = 'moocow'; runpy.run_module('moocow', run_name='__main__')"
)
"""moocow, as if the kernel had refused the filter: players run without it, and the record says so."""


def grade(python: str, player: str, folder: Path, filtered: bool = True) -> subprocess.CompletedProcess[str]:
    """``moocow grade PLAYER`` for one round at the user level, run by ``python``."""
    moocow = ["-m", "moocow"] if filtered else ["-c", SWITCHED_OFF]
    command = [*DROPPED, python, *moocow, "grade", player, "--game", GAME, "--rounds", "1"]
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=300, check=False)


def channels(done: subprocess.CompletedProcess[str]) -> dict[str, str]:
    """How each of the signaller's channels went, from its handshake on ``grade``'s last line."""
    assert done.returncode == 0, done.stderr
    _, name, *outcomes = done.stdout.splitlines()[-1].split()
    assert name == "channels", done.stdout
    found = dict(outcome.split(":") for outcome in outcomes)
    return {channel: found[channel] for channel in FILTERED}


def test_at_the_user_level_locks_watches_keys_and_reads_without_waiting_are_refused(
    readable_python: str, reachable: Path
) -> None:
    """flock on a file every player can read, inotify, a named keyring, add_key (one more in
    ``/proc/key-users``) and a ``preadv2`` with ``RWF_NOWAIT``: each refused with ``EPERM``, and
    the record says nothing is missing."""
    done = grade(readable_python, f"{readable_python} {SIGNALLER}", reachable)
    assert channels(done) == dict.fromkeys(FILTERED, "refused")
    assert "players sandboxed: user (an unprivileged uid of its own); limits:" in done.stderr


def test_without_the_filter_the_same_channels_are_open_and_the_record_says_it_is_absent(
    readable_python: str, reachable: Path
) -> None:
    """The control: every refusal above is the filter's; where it cannot be installed, the printed
    line says so rather than confine less in silence."""
    done = grade(readable_python, f"{readable_python} {SIGNALLER}", reachable, filtered=False)
    assert channels(done) == dict.fromkeys(FILTERED, "open")
    assert (
        "players sandboxed: user (an unprivileged uid of its own; no seccomp filter: switched off for "
        "the control); limits:" in done.stderr
    )


@pytest.mark.parametrize("player", ["first_candidate.py", "mastermind.sh"])
def test_ordinary_players_still_play_under_the_filter(
    readable_python: str, reachable: Path, player: str
) -> None:
    """A Python module player (on the runner's interpreter, through moocow's adapter) and a bash program solve
    their round: the filter refuses nothing they need."""
    done = grade(readable_python, str(PLAYERS / player), reachable)
    assert done.returncode == 0, done.stderr
    assert "players sandboxed: user (an unprivileged uid of its own); limits:" in done.stderr
    *_, solved, total = done.stdout.splitlines()
    assert solved.split()[-1] == solved.split()[0].strip("[]:")  # the last guess is the secret
    assert int(total.split()[0]) <= 20, done.stdout
