"""The referee against its physical floor: guesses a second, for each kind of player, sandboxed and not.

The floor is a line exchanged with a child process over two pipes (a Python child echoing with
``os.read`` and ``os.write``): no referee can go faster. Beside it, in the same process and pinned
to one core with its children, the runner referees the first-fit player (``players/first_fit.py``)
as a module and as a program, in the strongest sandbox the machine allows and unconfined, on a game
where the player's own work is next to nothing. The rounds are played in a seat whose player is
already running, so the rate is the refereeing's; starting and closing a player are timed apart.
Each guess's cost is reported twice: wall-clock on the one core, and CPU time (the runner's process
time and the player's, read as the runner reads it), which another job on the machine does not
inflate. Floor and players alternate, ``repeats`` times; medians are reported.

``CrowdWorkload`` holds the hostile crowd (``tests/players/hostile/crowd.py``: as many processes
holding as many descriptors as the limits allow) against the first-fit program: the runner's CPU
time per guess for each, and how many times the meter looked at all of the player's processes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass

from bench.isolate import ROOT
from bench.measure import median, one_core, peak_rss
from bench.rounds import PLAYER, SEED
from bench.rows import Row, ratio
from moocow.referee.decks import load_deck
from moocow.referee.players import parse_player
from moocow.referee.referee import Outcome, play_round
from moocow.referee.seats import ProgramSeat
from moocow.sandbox.limits import Limits
from moocow.sandbox.sandbox import SandboxPolicy

ECHO = "import os\nwhile data := os.read(0, 65536):\n    os.write(1, data)\n"
"""The floor's child: every line back as it came."""
CROWD = ROOT / "tests" / "players" / "hostile" / "crowd.py"
"""The player holding as many descriptors in as many processes as its limits allow."""
MERCY = 20


@dataclass(frozen=True)
class Exchanges:
    """Lines exchanged with a child: wall-clock and CPU time of both sides, in seconds."""

    count: int
    seconds: float
    cpu: float


def echoed(count: int) -> tuple[Exchanges, float]:
    """``count`` lines written to an echoing child that is up and read back, one at a time; and the
    child's CPU time over its whole life (``os.wait4``), its start included."""
    child = subprocess.Popen(
        [sys.executable, "-I", "-S", "-c", ECHO], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert child.stdin is not None and child.stdout is not None
    writing, reading = child.stdin.fileno(), child.stdout.fileno()
    line = b"feedback 1 0\n"
    os.write(writing, line)
    os.read(reading, 65536)  # the child is up
    cpu, started = time.process_time(), time.perf_counter()
    for _ in range(count):
        os.write(writing, line)
        os.read(reading, 65536)
    seconds, used = time.perf_counter() - started, time.process_time() - cpu
    child.stdin.close()
    _, _, usage = os.wait4(child.pid, 0)
    child.returncode = 0
    child.stdout.close()
    return Exchanges(count, seconds, used), usage.ru_utime + usage.ru_stime


def pipe_floor(count: int) -> Exchanges:
    """``count`` exchanges; the child's CPU time is its life's less that of a child that made none."""
    idle, many = echoed(0), echoed(count)
    return Exchanges(count, many[0].seconds, many[0].cpu + max(0.0, many[1] - idle[1]))


@dataclass(frozen=True)
class Refereed:
    """Rounds refereed in a seat whose player was already running, and its start and close."""

    guesses: int
    seconds: float
    """Wall-clock time of the rounds."""
    runner_cpu: float
    """The runner's process time over the rounds."""
    player_cpu: float
    """The player's CPU time over the rounds (its cgroup's, or its processes')."""
    start: float
    """Starting the player: its sandbox, its process and its answer to the handshake."""
    close: float
    """Closing it: saying quit, killing what is left, removing its home and cgroup."""
    fouls: int
    """Rounds lost by a foul (none is expected)."""
    scans: int
    """Looks at all of the player's processes (and files) during the rounds."""


def referee(player: str, game: str, rounds: int, sandbox: SandboxPolicy) -> Refereed:
    """Start ``player``, referee ``rounds`` rounds of ``game`` with it, close it; time each part."""
    deck = load_deck(game)
    deals = deck.deal(SEED, rounds)
    seat = ProgramSeat(parse_player(player), deck.spec, Limits(), sandbox, rounds)
    started = time.perf_counter()
    seat.start_round(deals[0].game)
    start = time.perf_counter() - started
    process = seat.process
    assert process is not None
    first = process.usage()
    scans, cpu, began = process.scans, time.process_time(), time.perf_counter()
    outcomes: list[Outcome] = [play_round(seat, deal, MERCY) for deal in deals]
    seconds, runner_cpu = time.perf_counter() - began, time.process_time() - cpu
    last = process.usage() if seat.process is process else None
    player_cpu = last.cpu_seconds - first.cpu_seconds if first is not None and last is not None else 0.0
    scans = process.scans - scans
    started = time.perf_counter()
    seat.close()
    close = time.perf_counter() - started
    guesses = sum(len(outcome.guesses) for outcome in outcomes)
    fouls = sum(outcome.failure not in (None, "mercy") for outcome in outcomes)
    return Refereed(guesses, seconds, runner_cpu, player_cpu, start, close, fouls, scans)


def middle(runs: list[Refereed]) -> Refereed:
    """The median of each measure over repeats of the same rounds."""
    return Refereed(
        guesses=runs[0].guesses,
        seconds=median([run.seconds for run in runs]),
        runner_cpu=median([run.runner_cpu for run in runs]),
        player_cpu=median([run.player_cpu for run in runs]),
        start=median([run.start for run in runs]),
        close=median([run.close for run in runs]),
        fouls=max(run.fouls for run in runs),
        scans=max(run.scans for run in runs),
    )


def micro(seconds: float, count: int) -> str:
    """Microseconds each of ``count``."""
    return f"{seconds / count * 1e6:.0f} µs"


@dataclass(frozen=True)
class RefereeWorkload:
    """The pipe floor and the runner's guesses a second, each kind of player sandboxed and not."""

    game: str = "mastermind:pegs=2,colors=2"
    """A game where the player's own work is next to nothing."""
    rounds: int = 3000
    """Rounds refereed per measurement (about two guesses each on Mastermind 2x2)."""
    repeats: int = 3
    """Measurements of each, alternated; medians are reported."""
    quick: bool = False
    """Whether ``--quick`` runs it."""

    @property
    def name(self) -> str:
        """The workload's name in the table and for ``--only``."""
        return f"referee players {self.game}"

    def seats(self) -> dict[str, tuple[str, SandboxPolicy]]:
        """Each kind of player, sandboxed and not, by the name of its row."""
        kinds = {"module": str(PLAYER), "program": f"{sys.executable} {PLAYER}"}
        return {
            f"referee {kind} player {self.game}{suffix}": (player, SandboxPolicy(unconfined=unconfined))
            for kind, player in kinds.items()
            for suffix, unconfined in ((" sandboxed", False), (" unconfined", True))
        }

    def run(self) -> list[Row]:
        """Alternate the floor and every seat on one core; a row for the floor and one per seat."""
        seats = self.seats()
        floors: list[Exchanges] = []
        runs: dict[str, list[Refereed]] = {name: [] for name in seats}
        with one_core() as core:
            for _ in range(self.repeats):
                for name, (player, sandbox) in seats.items():
                    runs[name].append(referee(player, self.game, self.rounds, sandbox))
                    floors.append(pipe_floor(runs[name][-1].guesses))
        count = floors[0].count
        floor = median([run.seconds / run.count for run in floors])
        floor_cpu = median([run.cpu / run.count for run in floors])
        rows = [
            Row(
                workload=f"referee pipe floor {self.game}",
                basis=f"{count:,} lines to a Python child and back over two pipes, core {core}",
                moocow_seconds=floor * count,
                baseline_seconds=None,
                ratio=None,
                peak_rss=peak_rss(),
                result=f"{1 / floor:,.0f} lines/s ({floor * 1e6:.1f} µs each, CPU {floor_cpu * 1e6:.1f} µs)",
                agree=None,
                details={"runs": [run.seconds for run in floors], "cpu": [run.cpu for run in floors]},
            )
        ]
        for name, measured in runs.items():
            rows.append(self._row(name, middle(measured), floor, floor_cpu, core, seats[name][0]))
        return rows

    def _row(self, name: str, run: Refereed, floor: float, floor_cpu: float, core: int, player: str) -> Row:
        per_cpu = (run.runner_cpu + run.player_cpu) / run.guesses
        return Row(
            workload=name,
            basis=f"{run.guesses:,} guesses to a running player, core {core}; baseline: as many pipe lines",
            moocow_seconds=run.seconds,
            baseline_seconds=floor * run.guesses,
            ratio=ratio(floor * run.guesses, run.seconds),
            peak_rss=peak_rss(),
            result=(
                f"{run.guesses / run.seconds:,.0f} guesses/s; CPU {1 / per_cpu:,.0f} guesses/s (runner "
                f"{micro(run.runner_cpu, run.guesses)}, player {micro(run.player_cpu, run.guesses)} a guess; "
                f"floor {floor_cpu * 1e6:.0f} µs); start {run.start * 1e3:.0f} ms, "
                f"close {run.close * 1e3:.1f} ms; {run.fouls} fouls"
            ),
            agree=run.fouls == 0,
            details={
                "player": player,
                "guesses_per_second": run.guesses / run.seconds,
                "guesses_per_cpu_second": 1 / per_cpu,
                "runner_cpu_per_guess": run.runner_cpu / run.guesses,
                "player_cpu_per_guess": run.player_cpu / run.guesses,
                "start_seconds": run.start,
                "close_seconds": run.close,
                "scans": run.scans,
            },
        )


@dataclass(frozen=True)
class CrowdWorkload:
    """The runner's time per guess under the descriptor crowd, against the first-fit program's."""

    game: str = "mastermind:pegs=3,colors=3"
    rounds: int = 3000
    """Rounds of the crowd (20 guesses each, but when the secret is its guess): long enough that the
    meter's timer comes due during them, several seconds; the first-fit player plays four times as many."""
    repeats: int = 3
    quick: bool = False

    @property
    def name(self) -> str:
        """The workload's name in the table and for ``--only``."""
        return f"referee crowd program player {self.game}"

    def run(self) -> list[Row]:
        """Alternate the crowd and the normal player, sandboxed, on one core; one row."""
        crowd: list[Refereed] = []
        normal: list[Refereed] = []
        with one_core() as core:
            for _ in range(self.repeats):
                crowd.append(referee(f"{sys.executable} {CROWD}", self.game, self.rounds, SandboxPolicy()))
                normal.append(
                    referee(f"{sys.executable} {PLAYER}", self.game, self.rounds * 4, SandboxPolicy())
                )
        hostile = median([run.runner_cpu / run.guesses for run in crowd])
        plain = median([run.runner_cpu / run.guesses for run in normal])
        guesses, fouls = crowd[0].guesses, max(run.fouls for run in crowd)
        return [
            Row(
                workload=self.name,
                basis=f"{guesses:,} guesses, sandboxed, core {core}; baseline: the first-fit program's",
                moocow_seconds=hostile * guesses,
                baseline_seconds=plain * guesses,
                ratio=ratio(plain * guesses, hostile * guesses),
                peak_rss=peak_rss(),
                result=(
                    f"runner {hostile * 1e6:.0f} µs a guess against {plain * 1e6:.0f} µs; "
                    f"{max(run.scans for run in crowd)} scans of all its processes; {fouls} fouls"
                ),
                agree=fouls == 0,
                details={
                    "crowd_runner_cpu": [run.runner_cpu for run in crowd],
                    "normal_runner_cpu": [run.runner_cpu for run in normal],
                    "crowd_scans": [run.scans for run in crowd],
                    "crowd_start_seconds": [run.start for run in crowd],
                },
            )
        ]
