"""The runner's rounds per second, for each kind of player, against refereeing it the bare way.

All three kinds play the same first-fit player (the first code that fits every answer): the
built-in ``first`` strategy, ``players/first_fit.py`` as a module and the same file as a
program. So the three rows differ only in where the player runs, and all of them must play the
same guesses. Each repeat runs a seeded tournament of one player on one game, then the
baseline on the same secrets: the notes' player for the built-in strategy, the module called
in this process or the program talked to over a pipe for the others (``bench.direct``). For a
module or a program both sides run pinned to one core, the runner's player with it: the baseline
is one process on one core, and a runner refereeing one player per core is how a course machine
is used.
"""

from __future__ import annotations

import sys
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from bench.baseline import NotesPlayer
from bench.direct import Driver, ModuleDriver, ProgramDriver, play_rounds
from bench.measure import Measured, measure, median, one_core
from bench.rows import Row, ratio
from moocow.engine.solve import secret_index
from moocow.plugins import load_game
from moocow.plugins.symbols import SymbolGame
from moocow.runner import TournamentResult, build_tournament, run_tournament

PLAYER = Path(__file__).with_name("players") / "first_fit.py"
"""The plain-Python first-fit player, a module and a program in one file."""

SEED = 0
"""Seed of the tournament's secrets."""


@dataclass(frozen=True)
class RunnerWorkload:
    """A tournament of one player on one game: rounds per second."""

    kind: str
    """``strategy``, ``module`` or ``program``."""
    game: str = "mastermind"
    """The game's spec (the first-fit player plays Mastermind)."""
    rounds: int = 500
    """Rounds in the tournament."""
    repeats: int = 3
    """Runs of each side; medians are reported."""
    quick: bool = False
    """Whether ``--quick`` runs it."""

    @property
    def name(self) -> str:
        """The workload's name in the table and for ``--only``."""
        return f"runner {self.kind} player {self.game}"

    @property
    def player(self) -> str:
        """The player as a tournament names it."""
        sources = {"strategy": "first", "module": str(PLAYER), "program": f"{sys.executable} {PLAYER}"}
        return sources[self.kind]

    def run(self) -> list[Row]:
        """Alternate tournament and baseline runs; one row."""
        tournaments: list[Measured[TournamentResult]] = []
        baselines: list[Measured[list[int]]] = []
        with one_core() if self.kind != "strategy" else nullcontext():  # a player and its runner share it
            for _ in range(self.repeats):
                tournaments.append(measure(self._tournament))
                secrets = self._secrets(tournaments[0].value)
                opening = tournaments[0].value.results[0].guesses[0]
                baselines.append(measure(self._baseline, secrets, opening))
        scores = [result.score for result in tournaments[0].value.results]
        moocow_seconds = median([run.seconds for run in tournaments])
        baseline_seconds = median([run.seconds for run in baselines])
        matching = sum(m == b for m, b in zip(scores, baselines[0].value, strict=True))
        return [
            Row(
                workload=self.name,
                basis=f"{self.rounds} rounds, seed {SEED}",
                moocow_seconds=moocow_seconds,
                baseline_seconds=baseline_seconds,
                ratio=ratio(baseline_seconds, moocow_seconds),
                peak_rss=max(run.peak_rss for run in tournaments),
                result=(
                    f"{self.rounds / moocow_seconds:,.0f} rounds/s, baseline "
                    f"{self.rounds / baseline_seconds:,.0f}; {sum(scores):,} guesses; "
                    f"{matching}/{self.rounds} rounds agree"
                ),
                agree=matching == self.rounds,
                details={
                    "player": self.player,
                    "moocow_runs": [run.seconds for run in tournaments],
                    "baseline_runs": [run.seconds for run in baselines],
                    "baseline_mode": _BASELINES[self.kind],
                    "rounds_per_second": self.rounds / moocow_seconds,
                    "baseline_rounds_per_second": self.rounds / baseline_seconds,
                },
            )
        ]

    def _tournament(self) -> TournamentResult:
        settings = {"players": [self.player], "games": [self.game], "rounds": self.rounds, "seed": SEED}
        return run_tournament(build_tournament(settings))

    def _game(self) -> SymbolGame:
        game = load_game(self.game)
        assert isinstance(game, SymbolGame)
        return game

    def _secrets(self, tournament: TournamentResult) -> list[int]:
        """The secrets the tournament dealt, as indices."""
        return [secret_index(self._game(), result.secret) for result in tournament.results]

    def _baseline(self, secrets: list[int], opening: str) -> list[int]:
        game = self._game()
        if self.kind == "strategy":
            player = NotesPlayer.for_game(game, "first")
            return [player.play(secret, game.guess_index(opening)) for secret in secrets]
        driver: Driver
        if self.kind == "module":
            driver = ModuleDriver(PLAYER)
        else:
            driver = ProgramDriver([sys.executable, str(PLAYER)], game.spec)
        return play_rounds(driver, game, secrets)


_BASELINES = {
    "strategy": "the notes' player playing first-fit, in this process, scored in Python",
    "module": "the module imported into this process and called in a loop, scored in Python",
    "program": "the program started once and talked to over a pipe in a loop, scored in Python",
}
"""What each kind's baseline is, for the JSON."""
