"""Measuring a player costs the referee a bounded share of its time, and never the player's clock.

Usage is read once per answer from what the kernel keeps; a look at every process (and, at the
``user`` level, at every file of the player's user id) runs on a timer spaced by its own cost. These
tests count scans, never seconds: a busy machine changes how long things take, not how many there are.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import pytest

from moocow.plugins import load_game
from moocow.referee.players import parse_player
from moocow.referee.seats import ProgramSeat
from moocow.runner.grading import grade
from moocow.runner.tournament import TournamentResult, build_tournament, run_tournament
from moocow.sandbox import meter, sandbox
from moocow.sandbox.disk import NOT_ENFORCED, DiskScan
from moocow.sandbox.limits import Limits
from moocow.sandbox.meter import Meter
from moocow.sandbox.pacing import LookSchedule
from moocow.sandbox.report import referee_line, referee_record
from moocow.sandbox.sandbox import Confinement, SandboxPolicy
from moocow.sandbox.usage import Scan

HOSTILE = Path(__file__).parent / "players" / "hostile"
GAME = "mastermind:pegs=3,colors=3"
needs_root = pytest.mark.skipif(
    not sandbox.running_as_root(), reason="only root can run a player as another user"
)
STUBBORN = "sh -c 'read x; echo moocow 1; while read y; do {pause}echo 111; done'"
"""A player that always guesses 111, after ``pause`` (a shell command and ``;``, or nothing)."""


def play(players: list[str], limits: Limits, rounds: int, mercy: int, **more: object) -> TournamentResult:
    settings = {"players": players, "games": [GAME], "rounds": rounds, "seed": 3, "mercy": mercy}
    return run_tournament(build_tournament({**settings, "limits": limits, **more}))


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The processes each scan found, one element per scan, whichever player made them."""
    made: list[int] = []
    scan = Meter._scan

    def counted(self: Meter) -> None:
        scan(self)
        made.append(self._scanned.processes)

    monkeypatch.setattr(Meter, "_scan", counted)
    return made


def fair(results: TournamentResult) -> bool:
    """Every round ended by the secret or by the mercy limit: no foul."""
    return all(result.failure in (None, "mercy") for result in results.results)


def test_a_player_holding_every_descriptor_it_may_is_refereed_at_a_bounded_cost(scans: list[int]) -> None:
    """128 processes of 1,024 descriptors each (the limits' most) made every reading a look at all
    of them, several a guess: half a second each, counted against the player. Now a guess costs one
    reading of what the kernel keeps, the look at everything waits on a timer, and the player
    plays its rounds out without a foul."""
    limits = Limits(guess_seconds=2, round_seconds=30, setup_seconds=30)
    crowd = f"{sys.executable} {HOSTILE / 'crowd.py'} 0.01"
    graded = grade(crowd, game=GAME, rounds=6, mercy=100, limits=limits)
    assert all(result.failure in (None, "mercy") for result in graded.rounds), graded.rounds
    processes, descriptors = map(int, graded.identity.student_id.split(":")[1:])
    # Most of its processes, not every one: a fork may fail for a moment on a loaded machine (117 of
    # 128 once, the whole suite on two cores), and three quarters already made each look half a second.
    assert processes >= limits.processes * 3 // 4 and descriptors >= 1000, graded.identity
    guesses = sum(len(result.guesses) for result in graded.rounds)
    assert guesses >= 300 and len(scans) <= 1 + guesses / 50, (scans, guesses)


def slow_scans(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """Every reading scans, and every scan takes ``seconds`` more: the worst a player could make them."""
    scan = Meter._scan

    def slow(self: Meter) -> None:
        scan(self)
        time.sleep(seconds)

    monkeypatch.setattr(Meter, "_scan", slow)
    monkeypatch.setattr(LookSchedule, "wait", lambda *_: 0.0)


def test_the_time_spent_measuring_a_player_is_not_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Readings made slower than the guess's time (0.3 s against 0.25 s) and adding up to more than
    the round's: the player, which answers in 0.1 s, loses nothing."""
    slow_scans(monkeypatch, 0.3)
    limits = Limits(guess_seconds=0.25, round_seconds=1.5, setup_seconds=10)
    results = play([STUBBORN.format(pause="sleep 0.1; ")], limits, rounds=1, mercy=8)
    assert fair(results), results.results


class ClockedGroup:
    """A group whose scans take ``cost`` seconds of a clock the test moves."""

    def __init__(self) -> None:
        self.now = 0.0
        self.cost = 0.0

    def scan(self) -> Scan:
        self.now += self.cost
        return Scan(0, 1)

    def cpu_seconds(self) -> float:
        return 0.0

    def memory_bytes(self) -> None:
        return None


def test_scans_wait_longer_the_more_they_cost(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a scan the next waits nine times its cost (so scans take a tenth of the time at most),
    and at least ``SCAN_SECONDS``; readings in between scan nothing."""
    group = ClockedGroup()
    monkeypatch.setattr(meter.time, "monotonic", lambda: group.now)
    watched = Meter(group)  # type: ignore[arg-type]
    made = []
    for now, cost in [(0.0, 2.0), (3.0, 0.0), (19.9, 0.0), (20.1, 0.001), (20.15, 0.0), (20.25, 0.0)]:
        group.now, group.cost = now, cost
        watched.read()
        made.append(watched.scans)
    assert made == [1, 1, 1, 2, 2, 3]
    assert meter.SCAN_SECONDS == 0.1 and meter.SCAN_SHARE == 0.1


@needs_root
def test_at_the_user_level_disk_past_the_limit_is_a_foul_and_the_run_goes_on() -> None:
    """12 MB written into its home and 1 MB into the host's temp folder, under ``disk_mb=4``: each of
    its rounds is lost as ``disk``, what it wrote is removed, and a player writing a note of its own
    beside it plays on."""
    hoarder = f"/usr/bin/python3 {HOSTILE / 'hoarder.py'} 12"  # the runner's Python may be private to root
    limits = Limits(guess_seconds=3, round_seconds=10, setup_seconds=10, disk_mb=4)
    modest = STUBBORN.format(pause="echo solved > $HOME/note; ")
    results = play(
        [hoarder, modest], limits, rounds=2, mercy=5, sandbox=SandboxPolicy(level=Confinement.USER)
    )
    mine = [result for result in results.results if result.player == hoarder]
    assert [result.failure for result in mine] == ["disk", "disk"], mine
    assert all("over the 4 MB disk limit" in (result.reason or "") for result in mine)
    assert all(result.failure in (None, "mercy") for result in results.results if result.player == modest)
    assert list(Path(tempfile.gettempdir()).glob("hoard-*")) == []


@needs_root
def test_disk_is_added_up_over_what_the_user_id_made_wherever_it_may_write(tmp_path: Path) -> None:
    """Its home whole; in a folder anyone may write to, its own entries, everything below its own
    folders, and its entries in the folders anyone may write to within; a file with two names
    counts once; a link is not followed; another user's files are not its."""
    uid = sandbox.PLAYER_UID_BASE + 77
    home, shared, open_, closed = (
        tmp_path / "home",
        tmp_path / "shared",
        tmp_path / "shared" / "open",
        tmp_path / "shared" / "closed",
    )
    for folder, mode in ((home, 0o700), (shared, 0o1777), (open_, 0o1777), (closed, 0o755)):
        folder.mkdir()
        folder.chmod(mode)
    mine = [
        home,
        home / "a",
        shared / "notes",
        shared / "made",
        shared / "made" / "deep",
        open_ / "b",
        shared / "link",
    ]
    (home / "a").write_bytes(b"x" * 8192)
    os.link(home / "a", shared / "a-again")
    (shared / "notes").write_bytes(b"x" * 4096)
    (shared / "made").mkdir()
    (shared / "made" / "deep").write_bytes(b"x" * 12288)
    (open_ / "b").write_bytes(b"x" * 4096)
    (open_ / "theirs").write_bytes(b"x" * 4096)
    (closed / "c").write_bytes(b"x" * 4096)
    (shared / "link").symlink_to("/usr")
    for path in [*mine, shared / "a-again", closed / "c"]:
        os.chown(path, uid, uid, follow_symlinks=False)
    blocks = sum(os.lstat(path).st_blocks * 512 for path in mine)
    assert blocks >= 8192 + 4096 + 12288 + 4096
    assert DiskScan(uid, [str(home)], [str(shared)]).held().bytes == blocks
    assert DiskScan(uid + 1, [], [str(shared)]).held().bytes == 0


def test_where_disk_cannot_be_held_the_printed_limits_say_so() -> None:
    """Unconfined, the player's files are the runner's user's: ``disk_mb`` is printed as not enforced."""
    unconfined = referee_line(referee_record(SandboxPolicy(unconfined=True), Limits()))
    assert f"disk_mb=64 ({NOT_ENFORCED})" in unconfined
    if sandbox.running_as_root():
        confined = referee_record(SandboxPolicy(level=Confinement.USER), replace(Limits(), disk_mb=8))
        assert "not enforced" not in referee_line(confined) and "scan" in confined["sandbox"]["disk_mb"]


@pytest.mark.parametrize("unconfined", [False, True], ids=["sandboxed", "unconfined"])
def test_a_close_waits_on_the_process_never_in_sleeps(
    monkeypatch: pytest.MonkeyPatch, unconfined: bool
) -> None:
    """Closing a player waited in 10 ms sleeps for it to exit after ``quit`` (12 to 15 ms a close);
    now it is killed after ``quit``, and the runner waits on the process and on its cgroup's events."""
    game = load_game(GAME)
    seat = ProgramSeat(
        parse_player(STUBBORN.format(pause="")), game.spec, Limits(), SandboxPolicy(unconfined=unconfined)
    )
    seat.start_round(game)
    assert seat.guess(None).text == "111"
    process = seat.process
    assert process is not None
    slept: list[float] = []
    monkeypatch.setattr(time, "sleep", slept.append)
    seat.close()
    assert slept == [] and seat.process is None
    with pytest.raises(ProcessLookupError):
        os.kill(process.pid, 0)
