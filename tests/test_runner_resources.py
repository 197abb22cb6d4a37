"""Every resource a player uses is counted, at Gradescope's level and at the namespaces level.

Each attack is ``tests/players/hostile/unseen.py``, tried as a student would: memory in System V
segments, in deleted files on tmpfs kept open and in files in flight (sent over a Unix socket and
closed), disk in deleted files in its home and in a burst written and removed between two timed
scans, CPU in short-lived children reaped unseen, and memory taken until something must die.
Before, each of them went without a foul (the memory beyond 1 GB, the disk beyond 1.5 GB, the CPU
three times its limit).

Gradescope's level is reproduced as ``test_runner_user_level.py`` does, and with no cgroup the
runner could write (Docker mounts ``/sys/fs/cgroup`` read-only): an empty tmpfs over it in a
private mount namespace. One tournament plays every attack there, once for the module. At the
namespaces level the runner is told no cgroup can be made, as on a machine without one, so that
only its scans count.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from moocow.runner.tournament import build_tournament, run_tournament
from moocow.sandbox import new_processes, sandbox
from moocow.sandbox.held import MEMORY_FILE_SYSTEMS, file_system_type
from moocow.sandbox.limits import Limits
from moocow.sandbox.sandbox import Confinement, SandboxPolicy
from moocow.sandbox.usage import CgroupGroup
from tests.results_helpers import round_rows
from tests.test_runner_user_level import DROPPED, WHY_NOT

UNSEEN = Path(__file__).parent / "players" / "hostile" / "unseen.py"
GAME = "mastermind:pegs=2,colors=2"
SEED = 5
ROUNDS = 2
LIMITS: dict[str, Any] = {
    "guess_seconds": 30, "guess_cpu": 1, "round_cpu": 2, "memory_mb": 64, "disk_mb": 64, "forks": True,
}  # fmt: skip
"""Small, so that each attack passes them with little: the machine is shared. Wall-clock ones wide:
on a loaded machine, a CPU-second may take many. Processes allowed where no cgroup counts them, so
that what is counted then is tried (``CHILDREN`` tries the default)."""
ATTACKS = {
    "sysv": "sysv 32 3",  # 96 MB of segments
    "shm": "shm 12 8",  # 96 MB of deleted files in /dev/shm (files stay under output_mb)
    "home": "home 12 8",  # 96 MB of deleted files in its home
    "burst": "burst 15 12",  # 180 MB written and removed in every round
    "sharedburst": "sharedburst 15 12",  # the same in /var/tmp, a folder anyone may write to
    "children": "children 50 100",  # 5 CPU-seconds in 100 children, every round
    "orphans": "orphans 50 100",  # 5 CPU-seconds in 100 orphans, every round
    "exhaust": "exhaust 25 6",  # 150 MB in 6 children
    "threads": "threads 50 100",  # 5 CPU-seconds in 100 threads that end, every round
    "memfd": "memfd 12 8",  # 96 MB of memfd files in flight
    "tmpfile": "tmpfile 12 8",  # 96 MB of O_TMPFILE files of its home in flight
}
CHILDREN = {
    "nocldwait": "nocldwait 50 100",  # 5 CPU-seconds in 100 children the kernel reaps, no SigIgn shown
    "children": "children 50 100",  # the same, ignoring SIGCHLD
}
"""Played under the default limits, where no cgroup counts CPU time: no process may be made."""
MOST_BURST_MB = 100
"""A burst of 180 MB against ``disk_mb=64`` is fouled before it passes this."""


def tournament_args(python: str, attacks: dict[str, str], settings: dict[str, Any] = LIMITS) -> list[str]:
    players = [arg for spec in attacks.values() for arg in ("-p", f"{python} {UNSEEN} {spec}")]
    limits = [arg for key, value in settings.items() for arg in ("--limit", f"{key}={value}")]
    return ["tournament", *players, "-g", GAME, "-r", str(ROUNDS), "--seed", str(SEED), *limits]


def rows(results: Path) -> dict[str, list[dict[str, Any]]]:
    """Each attack's rounds in a results file, by the attack's name."""
    found: dict[str, list[dict[str, Any]]] = {}
    for row in round_rows(results):
        found.setdefault(row["player"].split()[2], []).append(row)
    return found


def gradescope_level(python: str, args: list[str], folder: Path) -> subprocess.CompletedProcess[str]:
    """``moocow ARGS`` as root without ``CAP_SYS_ADMIN`` and with no cgroup it can write."""
    inner = shlex.join([*DROPPED, python, "-m", "moocow", *args])
    command = ["unshare", "-m", "sh", "-c", f"mount -t tmpfs none /sys/fs/cgroup && exec {inner}"]
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=600, check=False)


def played_at_gradescopes_level(
    python: str, attacks: dict[str, str], settings: dict[str, Any]
) -> tuple[dict[str, list[dict[str, Any]]], str]:
    """Attacks played once at the ``user`` level under ``settings``: their rounds, by attack, and
    what the run printed on stderr."""
    if WHY_NOT is not None or shutil.which("unshare") is None:
        pytest.skip(f"needs the user level and unshare: {WHY_NOT or 'no unshare'}")
    folder = Path(tempfile.mkdtemp(prefix="moocow-resources-"))
    folder.chmod(0o755)
    try:
        args = [*tournament_args(python, attacks, settings), "--results", "r.jsonl"]
        done = gradescope_level(python, args, folder)
        assert done.returncode == 0, done.stderr
        assert "players sandboxed: user" in done.stderr
        return rows(folder / "r.jsonl"), done.stderr
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def played_at_namespaces_level(
    attacks: dict[str, str], settings: dict[str, Any], cgroup: bool = False
) -> dict[str, list[dict[str, Any]]]:
    """Attacks played once at the ``namespaces`` level, with no cgroup unless ``cgroup``: their
    rounds, by attack."""
    if sandbox.strongest()[0] is not Confinement.NAMESPACES:
        pytest.skip(f"needs bubblewrap's namespaces: {sandbox.strongest()[1]}")
    tournament = {
        "players": [f"{sys.executable} {UNSEEN} {spec}" for spec in attacks.values()],
        "games": [GAME], "rounds": ROUNDS, "seed": SEED, "limits": Limits(**settings),
        "sandbox": SandboxPolicy(level=Confinement.NAMESPACES),
    }  # fmt: skip
    with pytest.MonkeyPatch.context() as patch:
        if not cgroup:
            patch.setattr(CgroupGroup, "make", classmethod(lambda cls, *_: None))
        results = run_tournament(build_tournament(tournament))
    found: dict[str, list[dict[str, Any]]] = {}
    for result in results.results:
        found.setdefault(result.player.split()[2], []).append(
            {"failure": result.failure, "reason": result.reason}
        )
    return found


@pytest.fixture(scope="module")
def at_gradescopes_level(readable_python: str) -> dict[str, list[dict[str, Any]]]:
    """Every attack played once at the ``user`` level: its rounds, by attack."""
    return played_at_gradescopes_level(readable_python, ATTACKS, LIMITS)[0]


@pytest.fixture(scope="module")
def at_namespaces_level() -> dict[str, list[dict[str, Any]]]:
    """Every attack played once at the ``namespaces`` level with no cgroup: its rounds, by attack."""
    attacks = {name: spec for name, spec in ATTACKS.items() if name not in ("shm", "burst", "sharedburst")}
    attacks["home"] = "home 12 8"  # a tmpfs there: memory, which disk_mb (its size) does not bound here
    attacks["tmpfile"] = "tmpfile 12 8"
    return played_at_namespaces_level(attacks, {**LIMITS, "disk_mb": 128})


@pytest.fixture(scope="module")
def children_printed(readable_python: str) -> tuple[dict[str, list[dict[str, Any]]], str]:
    """The children's attacks at the ``user`` level with ``forks`` at its default: their rounds, and
    what the run printed."""
    return played_at_gradescopes_level(readable_python, CHILDREN, {**LIMITS, "forks": False})


@pytest.fixture(scope="module")
def children_at_gradescopes_level(
    children_printed: tuple[dict[str, list[dict[str, Any]]], str],
) -> dict[str, list[dict[str, Any]]]:
    return children_printed[0]


@pytest.fixture(scope="module")
def children_at_namespaces_level() -> dict[str, list[dict[str, Any]]]:
    """The children's attacks at the ``namespaces`` level with no cgroup, ``forks`` at its default."""
    return played_at_namespaces_level(CHILDREN, {**LIMITS, "forks": False})


LEVELS = ["at_gradescopes_level", "at_namespaces_level"]


def failures(request: pytest.FixtureRequest, level: str, attack: str) -> list[tuple[str | None, str]]:
    return [(row["failure"], row["reason"] or "") for row in request.getfixturevalue(level)[attack]]


@pytest.mark.parametrize("level", LEVELS)
def test_system_v_shared_memory_is_refused(request: pytest.FixtureRequest, level: str) -> None:
    """40 segments of 32 MB, each written and detached, held 1.32 GB against ``memory_mb=256`` in
    no process's memory: the seccomp filter refuses System V IPC, and the player says so."""
    for failure, reason in failures(request, level, "sysv"):
        assert failure == "crash" and "sysv:refused:Operation not permitted" in reason, reason


@pytest.mark.parametrize("level", LEVELS)
def test_deleted_files_on_tmpfs_kept_open_are_memory(request: pytest.FixtureRequest, level: str) -> None:
    """96 MB in files unlinked and kept open on a tmpfs (``/dev/shm``; at the namespaces level the
    home is one too) against ``memory_mb=64``: a ``memory`` foul."""
    attack = "shm" if level == "at_gradescopes_level" else "home"
    first, *_ = failures(request, level, attack)
    assert first[0] == "memory" and "over the 64 MB limit" in first[1], first


def test_deleted_files_in_the_home_kept_open_are_disk(at_gradescopes_level: dict[str, Any]) -> None:
    """96 MB in files of its home unlinked and kept open, against ``disk_mb=64``: a ``disk`` foul
    (no walk of its folders finds them; their descriptors do). Where the machine's temp folder,
    and so the home, is a tmpfs, they are memory, and the foul says so."""
    first = at_gradescopes_level["home"][0]
    on_tmpfs = file_system_type(tempfile.gettempdir()) in MEMORY_FILE_SYSTEMS
    limit = "over the 64 MB limit" if on_tmpfs else "over the 64 MB disk limit"
    assert first["failure"] == ("memory" if on_tmpfs else "disk") and limit in first["reason"], first


@pytest.mark.parametrize("attack", ["burst", "sharedburst"])
def test_a_burst_written_and_removed_is_fouled_before_it_passes_100_mb(
    at_gradescopes_level: dict[str, Any], attack: str
) -> None:
    """12 files of 15 MB written as fast as it can and removed, in every round, in its home or in
    a folder anyone may write to: caught once in two runs on the timer alone. Every round is a
    ``disk`` foul, read before 100 MB were held (``test_runner_watch.py``: whatever else such a
    folder holds)."""
    rounds = at_gradescopes_level[attack]
    assert [row["failure"] for row in rounds] == ["disk"] * ROUNDS, rounds
    held = [int(re.search(r"held (\d+) MB", row["reason"])[1]) for row in rounds]  # type: ignore[index]
    assert all(64 <= mb < MOST_BURST_MB for mb in held), held


@pytest.mark.parametrize("level", LEVELS)
def test_cpu_in_children_reaped_unseen_is_a_cpu_foul(request: pytest.FixtureRequest, level: str) -> None:
    """A player that ignores ``SIGCHLD`` and burns 5 CPU-seconds a round in children of 50 ms
    each, against ``round_cpu=2``: the kernel drops their time from every total, so the ignoring
    itself is the ``cpu`` foul."""
    for failure, reason in failures(request, level, "children"):
        assert failure == "cpu" and "ignored SIGCHLD" in reason, reason


@pytest.mark.parametrize("attack", ["memfd", "tmpfile"])
@pytest.mark.parametrize("level", LEVELS)
def test_files_in_flight_cannot_be_held(request: pytest.FixtureRequest, level: str, attack: str) -> None:
    """96 MB in ``memfd`` files, or in ``O_TMPFILE`` files of its home, each sent over a Unix socket
    pair the player keeps and then closed: in no process's descriptors, maps or folders, they held
    960 MB against ``memory_mb=256`` (and 3.4 GB of disk against 64 MB) with no foul. The filter
    refuses sockets at both levels, and the player says so."""
    for failure, reason in failures(request, level, attack):
        assert failure == "crash" and f"{attack}:refused:Operation not permitted" in reason, reason


@pytest.mark.parametrize("attack", sorted(CHILDREN))
@pytest.mark.parametrize("level", ["children_at_gradescopes_level", "children_at_namespaces_level"])
def test_where_no_cgroup_counts_cpu_no_process_can_be_made(
    request: pytest.FixtureRequest, level: str, attack: str
) -> None:
    """Children the kernel reaps at once, with ``SA_NOCLDWAIT`` (no ``/proc`` file shows it): 8.44
    CPU-seconds in one guess against ``guess_cpu=1``, and the round won with no foul. Where no cgroup
    counts CPU time, making a process is refused by default, and the player says so; the printed
    line says why."""
    for failure, reason in failures(request, level, attack):
        assert failure == "crash" and "fork:refused:Operation not permitted" in reason, reason
    if level == "children_at_gradescopes_level":
        printed = request.getfixturevalue("children_printed")[1]
        assert "new processes refused: no cgroup counts the CPU time of a child the kernel reaps" in printed


def test_where_a_cgroup_counts_cpu_children_reaped_at_once_are_counted() -> None:
    """With a cgroup of its own, whoever reaps a child, its CPU time is in the cgroup's count: the
    same ``SA_NOCLDWAIT`` player may make its children, and loses the round as ``cpu``."""
    if not new_processes.cgroup_counts_cpu():
        pytest.skip("the runner cannot make a cgroup here")
    found = played_at_namespaces_level({"nocldwait": CHILDREN["nocldwait"]}, {**LIMITS, "forks": False}, True)
    for row in found["nocldwait"]:
        assert row["failure"] == "cpu" and "s of CPU time, over 1 s of CPU per guess" in row["reason"], row


@pytest.mark.parametrize("level", LEVELS)
def test_cpu_in_threads_that_end_is_counted(request: pytest.FixtureRequest, level: str) -> None:
    """5 CPU-seconds a round in threads of 50 ms each, one after another, against ``guess_cpu=1``:
    an ended thread's time stays in its process's count, so it is a ``cpu`` foul."""
    for failure, reason in failures(request, level, "threads"):
        assert failure == "cpu" and "s of CPU time, over 1 s of CPU per guess" in reason, reason


@pytest.mark.parametrize("level", LEVELS)
def test_cpu_in_orphans_is_counted(request: pytest.FixtureRequest, level: str) -> None:
    """5 CPU-seconds a round in grandchildren of 50 ms each, orphaned at once, against
    ``guess_cpu=1``: reaped by ``init``, their time was counted nowhere at the ``user`` level (and
    at the namespaces level, by bubblewrap's init, a process of root's). The launcher stays the
    player's parent there and reaps them; bubblewrap's init is counted: a ``cpu`` foul."""
    for failure, reason in failures(request, level, "orphans"):
        assert failure == "cpu" and "s of CPU time, over 1 s of CPU per guess" in reason, reason


@pytest.mark.parametrize("level", LEVELS)
def test_a_player_exhausting_memory_is_the_one_to_die_and_the_run_keeps_its_results(
    request: pytest.FixtureRequest, level: str
) -> None:
    """Memory taken in children until something must die: the player is the OOM killer's first
    choice (its ``oom_score_adj`` is 1000, which it reports), its round is a ``memory`` foul, and
    the run writes every round (the fixture read them from its results)."""
    rounds = failures(request, level, "exhaust")
    assert len(rounds) == ROUNDS and rounds[0][0] == "memory", rounds
    everyone = request.getfixturevalue(level)
    assert all(len(played) == ROUNDS for played in everyone.values())
