"""The folder watch looks at what is the player's, whatever else the folders anyone may write to hold.

Its look at everything once walked ``/tmp``: with 150,000 files of others' there, the walk took the
thread away for a second, and a player's burst of 180 MB against ``disk_mb=64`` went unfouled in
most rounds. Here a writer under no limit plays the player: 12 files of 15 MB written as fast as it
can in a home, and in a folder anyone may write to that holds 40,000 files of others'; and 180 MB
written into one file of the home, deleted and kept open.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.burst import BURST, LIMIT_MB, crowd, stopped_at
from moocow.runner.tournament import build_tournament, run_tournament
from moocow.sandbox import meter, process, sandbox
from moocow.sandbox.held import MEMORY_FILE_SYSTEMS, file_system_type
from moocow.sandbox.limits import Limits
from moocow.sandbox.sandbox import Confinement, SandboxPolicy
from moocow.sandbox.usage import CgroupGroup
from moocow.sandbox.watch import FolderWatch
from tests.test_runner_resources import gradescope_level, rows
from tests.test_runner_user_level import WHY_NOT

MOST_MB = 100
DELETED = """
import os, sys
block = b"\\1" * (15 << 20)
with open(os.path.join(sys.argv[1], "kept"), "wb") as file:
    os.unlink(file.name)
    for _ in range(12):
        file.write(block)
"""


@pytest.fixture(scope="module")
def crowded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder anyone may write to, crowded with empty files of another user's (``nobody``)."""
    if os.geteuid() != 0:
        pytest.skip("needs root, to give the files to another user")
    return crowd(tmp_path_factory.mktemp("crowded"))


@pytest.mark.parametrize("where", ["home", "shared"])
def test_a_burst_is_stopped_before_100_mb_whatever_the_shared_folders_hold(
    tmp_path: Path, crowded: Path, where: str
) -> None:
    """Written in the home, or in the crowded folder anyone may write to: stopped (``SIGSTOP``)
    over the limit and before 100 MB, its looks never walking the others' files."""
    home = tmp_path / "home"
    home.mkdir()
    held = stopped_at(home, crowded, BURST, home if where == "home" else crowded)
    assert held is not None and LIMIT_MB <= held < MOST_MB, held


@pytest.mark.skipif(
    file_system_type(tempfile.gettempdir()) in MEMORY_FILE_SYSTEMS,
    reason="a deleted file on a tmpfs is memory",
)
def test_a_burst_into_a_deleted_file_kept_open_is_stopped_before_100_mb(
    tmp_path: Path, crowded: Path
) -> None:
    """No folder holds the file: the writes to it wake the watch all the same, and its descriptors
    tell what it holds."""
    held = stopped_at(tmp_path, crowded, DELETED, tmp_path)
    assert held is not None and LIMIT_MB <= held < MOST_MB, held


STRETCH = Path(__file__).parent / "players" / "hostile" / "stretch.py"
STRETCHES = ["nested", "siblings", "crowd", "overflow", "hidden"]
"""``stretch.py``'s attacks, each with a burst of 12 files of 15 MB (180 MB) every round."""
ROUNDS = 2
LIMITS = {"guess_seconds": 60, "round_seconds": 120, "disk_mb": LIMIT_MB}
"""A guess may take a minute (a course with slow players may allow it): the bursts' chance."""


@pytest.fixture(scope="module")
def stretched(readable_python: str) -> Iterator[dict[str, list[dict[str, Any]]]]:
    """Every ``stretch.py`` attack played at Gradescope's level: its rounds, by attack."""
    if WHY_NOT is not None or shutil.which("unshare") is None:
        pytest.skip(f"needs the user level and unshare: {WHY_NOT or 'no unshare'}")
    players = [arg for mode in STRETCHES for arg in ("-p", f"{readable_python} {STRETCH} {mode} 15 12")]
    limits = [arg for key, value in LIMITS.items() for arg in ("--limit", f"{key}={value}")]
    args = ["tournament", *players, "-g", "mastermind:pegs=2,colors=2", "-r", str(ROUNDS), "--seed", "5"]
    folder = Path(tempfile.mkdtemp(prefix="moocow-stretch-"))
    folder.chmod(0o755)
    try:
        done = gradescope_level(readable_python, [*args, *limits, "--results", "r.jsonl"], folder)
        assert done.returncode == 0, done.stderr
        assert "players sandboxed: user" in done.stderr
        yield rows(folder / "r.jsonl")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def held_mb(row: dict[str, Any]) -> int | None:
    """What a ``disk`` foul says the player's files held, in MB (``None`` for a files foul)."""
    found = re.search(r"held (\d+) MB", row["reason"] or "")
    return None if found is None else int(found[1])


@pytest.mark.parametrize("attack", ["nested", "siblings", "overflow"])
def test_a_burst_where_the_watch_once_did_not_look_is_stopped_before_100_mb(
    stretched: dict[str, list[dict[str, Any]]], attack: str
) -> None:
    """Past 256 folders (300 nested, or side by side), or in a folder made in ``/tmp`` while the
    event queue overflowed: the burst went unwatched, and reached 145 to 181 MB before the timer's
    foul. Every folder of the player's is watched now, and a lost queue has the player stopped
    while the watch walks everything again: a ``disk`` foul in every round, before 100 MB."""
    rounds = stretched[attack]
    assert [row["failure"] for row in rounds] == ["disk"] * ROUNDS, rounds
    held = [held_mb(row) for row in rounds]
    assert all(mb is not None and LIMIT_MB <= mb < MOST_MB for mb in held), held


@pytest.mark.parametrize("attack", ["crowd", "hidden"])
def test_a_player_making_more_entries_than_the_files_limit_is_fouled(
    stretched: dict[str, list[dict[str, Any]]], attack: str
) -> None:
    """70,000 empty files in ``/var/tmp`` (past what the watch kept: 182 MB went by), or 150,000 in
    the deepest of 300 nested folders (each timer scan listed them, and waited nine times as long
    after: 600 MB bursts came and went, and the round was won): each is past the ``files`` limit,
    a ``disk`` foul that says so, or stopped before its burst passed 100 MB."""
    rounds = stretched[attack]
    assert [row["failure"] for row in rounds] == ["disk"] * ROUNDS, rounds
    for row in rounds:
        mb = held_mb(row)
        assert "the files limit" in row["reason"] if mb is None else LIMIT_MB <= mb < MOST_MB, row


KILLED_LIMITS = {"guess_seconds": 20, "round_seconds": 60, "disk_mb": LIMIT_MB}
"""Wide enough for a loaded machine; a player left stopped would time out at 20 s."""


def kill_when_ready(started: list[FolderWatch], killed: list[int]) -> None:
    """SIGKILL the first watch once the player has left ``ready`` in its home, then tell it ``go``
    at once: its burst starts while no watch is there, before the meter's next reading."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if started and (home := Path(started[0].disk.homes[0])).joinpath("ready").exists():
            killed.append(started[0]._child)
            os.kill(started[0]._child, signal.SIGKILL)
            home.joinpath("go").touch()
            return
        time.sleep(0.005)


def shared(tmp_path: Path) -> Path:
    """A folder anyone may write to, of the test's own."""
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(0o1777)
    return folder


def played_killing_the_watch(
    python: str, monkeypatch: pytest.MonkeyPatch, replaceable: bool, shared: Path
) -> tuple[dict[str, Any], list[FolderWatch], list[int]]:
    """One round of ``stretch.py killed`` at the ``user`` level, in this process (no cgroup, as at
    Gradescope), its watch killed mid-round: the round, the watches started, the pid killed. Unless
    ``replaceable``, every watch after the first fails to start (``OSError``). ``shared`` is the only
    folder anyone may write to: the meter's timed walk of ``/tmp`` (200,000 entries of others' on a
    shared machine) takes seconds in the runner's thread, and a death during it is seen after it."""
    if not sandbox.running_as_root():
        pytest.skip("the user level is root's")
    monkeypatch.setattr(process, "shared_folders", lambda: (str(shared),))
    started: list[FolderWatch] = []
    killed: list[int] = []

    def watch(*args: Any, **kwargs: Any) -> FolderWatch:
        if started and not replaceable:
            raise OSError(errno.EMFILE, "no watch this time")
        started.append(FolderWatch(*args, **kwargs))
        return started[-1]

    monkeypatch.setattr(meter, "FolderWatch", watch)
    monkeypatch.setattr(CgroupGroup, "make", classmethod(lambda cls, *_: None))
    killer = threading.Thread(target=kill_when_ready, args=(started, killed), daemon=True)
    killer.start()
    tournament = {
        "players": [f"{python} {STRETCH} killed 15 12"], "games": ["mastermind:pegs=2,colors=2"],
        "rounds": 1, "seed": 5, "limits": Limits(**KILLED_LIMITS),
        "sandbox": SandboxPolicy(level=Confinement.USER),
    }  # fmt: skip
    results = run_tournament(build_tournament(tournament)).results
    killer.join()
    assert len(results) == 1 and killed, (results, killed)
    return {"failure": results[0].failure, "reason": results[0].reason}, started, killed


def test_a_watch_killed_mid_round_is_replaced_and_a_burst_after_is_stopped_before_100_mb(
    readable_python: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The watch SIGKILLed while the player waits, then a burst of 12 files of 15 MB held 0.5 s:
    the meter sees the watch's pipe at its end, stops the player and starts a new watch, which
    walks everything, resumes it, and stops it again over the limit. Without the replacement the
    burst is the timer's, read at 180 MB."""
    row, started, killed = played_killing_the_watch(readable_python, monkeypatch, True, shared(tmp_path))
    assert len(started) == 2 and started[1]._child != killed[0], started
    assert row["failure"] == "disk", row
    mb = held_mb(row)
    assert mb is not None and LIMIT_MB <= mb < MOST_MB, row
    assert not any(Path(f"/proc/{watch._child}").exists() for watch in started), "a watch outlived its round"


def test_a_watch_that_cannot_be_replaced_leaves_the_round_to_the_timer(
    readable_python: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The new watch cannot start (``OSError``, as when the machine is out of processes): the
    player, stopped when the old one was found gone, is resumed and the round goes on under the
    meter's timed scan alone, as where inotify is missing from the start. The held burst is its
    ``disk`` foul, not a timeout of a player left stopped."""
    row, started, _ = played_killing_the_watch(readable_python, monkeypatch, False, shared(tmp_path))
    assert len(started) == 1, started
    assert row["failure"] == "disk", row
    mb = held_mb(row)
    assert mb is not None and mb >= LIMIT_MB, row
