"""Whose a process is, in the runner: the process's user ids, whoever owns its ``/proc`` entry.

The scan of ``/proc`` (where no cgroup counts a player's processes, as under Gradescope) took the
owner of ``/proc/PID`` for the process's user, while the uid leases and the orphans' sweep read the
ids in ``/proc/PID/status``; all three now ask ``usage.runs_as``. The owner of ``/proc/PID`` is the
effective id alone: a setuid-root program the player ran has the player's real id and root's
effective one, and the scan missed it. A process that makes itself not dumpable gets root as the
owner of every file in its ``/proc`` entry (and, on old kernels, of the entry itself).

At the ``user`` level no player process can have ids that differ: it has no capabilities, and the
launcher sets ``no_new_privs`` (with the seccomp filter), so a setuid program runs with the player's
ids. The first test makes such a process as root; the second plays the not-dumpable attack there.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import tempfile
import time
from pathlib import Path

import pytest

from moocow.sandbox import sandbox
from moocow.sandbox.uids import processes_of
from moocow.sandbox.usage import ScannedGroup, runs_as
from tests.results_helpers import round_rows
from tests.test_runner_resources import gradescope_level
from tests.test_runner_user_level import WHY_NOT

UNDUMPABLE = Path(__file__).parent / "players" / "hostile" / "undumpable.py"
GAME = "mastermind:pegs=2,colors=2"
ROUNDS = 2
LIMITS = {"guess_seconds": 30, "setup_seconds": 30, "memory_mb": 128, "forks": "yes"}
"""Each child's 50 MB is within the address space each process may have (``RLIMIT_AS``); the three
of them together are over what all may hold. Processes allowed where no cgroup counts their CPU
time: memory of the player's children is what is tried."""
PLAYER_UID = 2_147_000_002
"""A user id no account has, for the processes the test starts itself."""
PR_SET_DUMPABLE = 4


def started_as(real: int, effective: int, dumpable: bool) -> int:
    """A child of this (root) process that runs as ``real`` and ``effective`` (saved: ``effective``,
    as after a setuid program's start) and sleeps, once it has its ids."""
    ready, told = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child
        try:
            os.close(ready)
            os.setresuid(real, effective, effective)
            if not dumpable:
                ctypes.CDLL(None).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
            os.write(told, b"x")
            time.sleep(60)
        finally:
            os._exit(0)
    os.close(told)
    assert os.read(ready, 1) == b"x"
    os.close(ready)
    return child


@pytest.mark.parametrize(("effective", "dumpable"), [(0, True), (PLAYER_UID, False)])
def test_a_process_of_the_players_user_id_is_found_whoever_owns_its_proc_entry(
    effective: int, dumpable: bool
) -> None:
    """A process with the player's real id and root's effective one (a setuid-root program it ran),
    and one of the player's ids that is not dumpable: the first's ``/proc`` entry is root's, the
    second's files there are, and both are the player's for the scan and for the uid leases. By the
    owner of ``/proc/PID``, the scan had no setuid program of the player's."""
    if not sandbox.running_as_root():
        pytest.skip("only root can start a process under other user ids")
    child = started_as(PLAYER_UID, effective, dumpable)
    group = ScannedGroup(os.getpid(), PLAYER_UID)
    try:
        owners = os.stat(f"/proc/{child}").st_uid, os.stat(f"/proc/{child}/status").st_uid
        assert owners == ((0, 0) if effective == 0 else (PLAYER_UID, 0))
        assert runs_as(child, PLAYER_UID) and not runs_as(child, PLAYER_UID + 1)
        assert child in group.members()
        assert processes_of(PLAYER_UID) == [child]
    finally:
        group.close()
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(child, signal.SIGKILL)
            os.waitpid(child, 0)


def test_memory_held_by_children_that_are_not_dumpable_is_the_players_at_gradescopes_level(
    readable_python: str,
) -> None:
    """Three children, each not dumpable and holding 50 MB, against ``memory_mb=128``, at the
    ``user`` level with no cgroup (as ``test_runner_resources.py`` plays it): every round is a
    ``memory`` foul, and none of them is left running. Whoever owns the files of their ``/proc``
    entries (root), their ids are the player's."""
    if WHY_NOT is not None or shutil.which("unshare") is None:
        pytest.skip(f"needs the user level and unshare: {WHY_NOT or 'no unshare'}")
    folder = Path(tempfile.mkdtemp(prefix="moocow-undumpable-"))
    folder.chmod(0o755)
    try:
        limits = [arg for key, value in LIMITS.items() for arg in ("--limit", f"{key}={value}")]
        args = ["tournament", "-p", f"{readable_python} {UNDUMPABLE} 50 3", "-g", GAME, "-r", str(ROUNDS)]
        done = gradescope_level(
            readable_python, [*args, "--seed", "5", *limits, "--results", "r.jsonl"], folder
        )
        assert done.returncode == 0, done.stderr
        assert "players sandboxed: user" in done.stderr
        rows = round_rows(folder / "r.jsonl")
        assert [row["failure"] for row in rows] == ["memory"] * ROUNDS, rows
        assert all("over the 128 MB limit" in row["reason"] for row in rows), rows
        assert not left_running(str(UNDUMPABLE))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def left_running(marker: str) -> list[int]:
    """Live processes whose command line holds ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker.encode() in (entry / "cmdline").read_bytes():
                state = (entry / "stat").read_bytes().rpartition(b")")[2].split()[0]
                found += [] if state == b"Z" else [int(entry.name)]
        except (OSError, IndexError):
            continue
    return found
