"""A whole tournament's guesses a second, against the referee alone: what the bookkeeping costs.

On Mastermind 2x2 the first-fit player (``players/first_fit.py``) as a sandboxed module does next
to nothing, so a tournament's time is the referee's and the tournament's own bookkeeping: the
round's record, its line in the results file, the signature of the chain and the record of its
head, the leaderboard's collection. Each repeat runs ``run_tournament`` whole (building the
tournament, the results file signed with a key, the sandbox started and removed), then, in the
same process and pinned to the same core, the referee alone on the same rounds
(``referee.referee``: a seat started, the rounds refereed with ``play_round``, the seat closed).
The baseline is that session whole (start, rounds, close); what the tournament takes beyond it,
per round, is its bookkeeping, set against the referee's cost per guess.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.measure import median, one_core, peak_rss
from bench.referee import Refereed, referee
from bench.rounds import PLAYER, SEED
from bench.rows import Row, ratio
from moocow.runner.tournament import build_tournament, run_tournament
from moocow.sandbox.sandbox import SandboxPolicy

KEY = b"bench key"


@dataclass(frozen=True)
class Whole:
    """A whole tournament: its guesses and wall-clock seconds."""

    guesses: int
    seconds: float
    cpu: float
    """The runner's process time (the player's is its own)."""


def whole_tournament(game: str, rounds: int, folder: Path) -> Whole:
    """One tournament of the first-fit module, results signed into a fresh file in ``folder``."""
    results, key_file = folder / "results.jsonl", folder / "bench.key"
    results.unlink(missing_ok=True)
    key_file.write_bytes(KEY)
    started, cpu = time.perf_counter(), time.process_time()
    tournament = build_tournament({"players": [str(PLAYER)], "games": [game], "rounds": rounds, "seed": SEED})
    played = run_tournament(tournament, results, key=KEY, key_file=key_file)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    return Whole(sum(len(result.guesses) for result in played.results), seconds, cpu)


def referee_alone(game: str, rounds: int) -> tuple[Refereed, float]:
    """The referee alone on the same rounds, and the runner's process time for all of it."""
    cpu = time.process_time()
    alone = referee(str(PLAYER), game, rounds, SandboxPolicy())
    return alone, time.process_time() - cpu


@dataclass(frozen=True)
class TournamentWorkload:
    """A whole sandboxed tournament against the referee alone on the same rounds."""

    game: str = "mastermind:pegs=2,colors=2"
    rounds: int = 4000
    repeats: int = 3
    quick: bool = False

    @property
    def name(self) -> str:
        """The workload's name in the table and for ``--only``."""
        return f"tournament module player {self.game}"

    def run(self) -> list[Row]:
        """Alternate whole tournaments and the referee alone, on one core; one row."""
        wholes: list[Whole] = []
        alone: list[tuple[Refereed, float]] = []
        with tempfile.TemporaryDirectory(prefix="moocow-bench-") as folder, one_core() as core:
            for _ in range(self.repeats):
                wholes.append(whole_tournament(self.game, self.rounds, Path(folder)))
                alone.append(referee_alone(self.game, self.rounds))
        guesses = wholes[0].guesses
        seconds = median([run.seconds for run in wholes])
        session = median([run.start + run.seconds + run.close for run, _ in alone])
        per_guess = median([run.seconds / run.guesses for run, _ in alone])
        bookkeeping = (seconds - session) / self.rounds
        cpu_per_guess = median([(run.runner_cpu + run.player_cpu) / run.guesses for run, _ in alone])
        bookkeeping_cpu = (
            median([run.cpu for run in wholes]) - median([cpu for _, cpu in alone])
        ) / self.rounds
        return [
            Row(
                workload=self.name,
                basis=(
                    f"{self.rounds:,} rounds ({guesses:,} guesses), sandboxed, results signed, core {core}; "
                    "baseline: the referee alone (start, rounds, close)"
                ),
                moocow_seconds=seconds,
                baseline_seconds=session,
                ratio=ratio(session, seconds),
                peak_rss=peak_rss(),
                result=(
                    f"{guesses / seconds:,.0f} guesses/s end to end; referee {1 / per_guess:,.0f} guesses/s "
                    f"({per_guess * 1e6:.0f} µs a guess, CPU {cpu_per_guess * 1e6:.0f} µs); bookkeeping "
                    f"{bookkeeping * 1e6:.0f} µs a round (runner CPU {bookkeeping_cpu * 1e6:.0f} µs)"
                ),
                agree=max(run.fouls for run, _ in alone) == 0,
                details={
                    "guesses_per_second": guesses / seconds,
                    "referee_guesses_per_second": 1 / per_guess,
                    "bookkeeping_per_round": bookkeeping,
                    "referee_per_guess": per_guess,
                    "tournaments": [run.seconds for run in wholes],
                    "referee_sessions": [run.start + run.seconds + run.close for run, _ in alone],
                    "referee_rounds": [run.seconds for run, _ in alone],
                    "bookkeeping_cpu_per_round": bookkeeping_cpu,
                    "referee_cpu_per_guess": cpu_per_guess,
                    "bookkeeping_within_a_guess": bookkeeping <= per_guess,
                },
            )
        ]
