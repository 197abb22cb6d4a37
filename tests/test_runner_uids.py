"""Player user ids: one per player process on the whole machine while it runs, leased through a lock
file per id, never two at once for two players, whichever runners, workers or threads start them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from moocow.engine.errors import MoocowError
from moocow.sandbox import sandbox, uids
from moocow.sandbox.uids import PlayerUid

AS_ROOT = pytest.mark.skipif(
    not sandbox.running_as_root(), reason="players get uids of their own as root only"
)

LEASE_IN_ANOTHER_PROCESS = """
import sys
from pathlib import Path
from moocow.sandbox.uids import PlayerUid
held = [PlayerUid.lease(int(sys.argv[1]), Path(sys.argv[2]) if sys.argv[2] else None) for _ in range(3)]
print(*(lease.uid for lease in held), flush=True)
sys.stdin.read()  # held until told to go
"""


def lease_elsewhere(base: int, folder: Path | None) -> tuple[subprocess.Popen[str], list[int]]:
    """Another process holding three leases, and their ids."""
    other = subprocess.Popen(
        [sys.executable, "-c", LEASE_IN_ANOTHER_PROCESS, str(base), str(folder or "")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert other.stdout is not None
    return other, [int(uid) for uid in other.stdout.readline().split()]


@AS_ROOT
def test_ids_held_at_once_are_distinct_in_one_process_and_across_processes() -> None:
    """130 players at once in this process (a Dask worker's threads, over a long session) and three in
    another: 133 ids. Ids were a block of 128 per process, handed out in turn: the 129th player ran
    under the first one's id, sharing its process budget while both ran."""
    held = [sandbox.player_uid() for _ in range(130)]
    other, theirs = lease_elsewhere(sandbox.PLAYER_UID_BASE, None)
    try:
        mine = [lease.uid for lease in held if lease is not None]
        assert len(set(mine) | set(theirs)) == 133
        assert all(uid >= sandbox.PLAYER_UID_BASE for uid in mine + theirs)
    finally:
        other.communicate("")
        for lease in held:
            if lease is not None:
                lease.release()


def test_a_released_id_is_leased_again_and_one_of_a_process_gone_too(tmp_path: Path) -> None:
    """Released, an id is the next one leased; held by a process that was killed, it is free again (the
    kernel drops the lock with the process) and no running lease can take an id still held."""
    first = PlayerUid.lease(1000, tmp_path)
    second = PlayerUid.lease(1000, tmp_path)
    assert second.uid == first.uid + 1
    first.release()
    again = PlayerUid.lease(1000, tmp_path)
    assert again.uid == first.uid and again.held and not first.held
    other, theirs = lease_elsewhere(1000, tmp_path)
    assert theirs == [second.uid + 1, second.uid + 2, second.uid + 3]
    other.kill()
    other.wait()
    freed = PlayerUid.lease(1000, tmp_path)
    assert freed.uid == theirs[0]
    for lease in (first, second, again, freed):
        lease.release()  # first's second release does nothing: its lock is closed once


@AS_ROOT
def test_processes_left_under_an_id_by_a_killed_runner_are_killed_and_the_id_skipped(tmp_path: Path) -> None:
    """A runner killed mid-session leaves its lock file saying ``leased``, and maybe a process under
    the id: the next lease kills it and takes another id; once it is gone, the id is leased again."""
    other, theirs = lease_elsewhere(1000, tmp_path)
    left = subprocess.Popen(["sleep", "300"], user=theirs[0], group=theirs[0], extra_groups=[])
    other.kill()
    other.wait()
    try:
        skipping = PlayerUid.lease(1000, tmp_path)
        assert skipping.uid != theirs[0]
        assert left.wait(timeout=60) == -9
        again = PlayerUid.lease(1000, tmp_path)
        assert again.uid == theirs[0]
        skipping.release()
        again.release()
    finally:
        if left.poll() is None:
            left.kill()
            left.wait()


def test_the_lease_folder_is_never_one_other_users_could_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder of that name open to others (made by a player in /tmp, say) is refused, in one line:
    a player able to remove lock files could make two players share an id."""
    (tmp_path / uids.LEASE_FOLDER).mkdir(mode=0o777)
    os.chmod(tmp_path / uids.LEASE_FOLDER, 0o777)
    monkeypatch.setattr(uids, "PLACES", (str(tmp_path),))
    with pytest.raises(MoocowError, match=r"no folder to lease player user ids in: .* not the runner's own"):
        uids.lease_folder()
    (tmp_path / uids.LEASE_FOLDER).chmod(0o700)
    assert uids.lease_folder() == tmp_path / uids.LEASE_FOLDER
