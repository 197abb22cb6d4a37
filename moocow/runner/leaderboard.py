"""The leaderboard: each player's total, average, worst round, failed rounds and time per guess.

Ranked as in golf, lowest total first; ties go to fewer failed rounds, then to the name, so the
order never depends on timing or on the order rounds finished in.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from moocow.runner.results import RoundResult


@dataclass(frozen=True)
class Standing:
    """One player's results over some rounds."""

    player: str
    """The player's name."""
    rounds: int
    """Rounds played."""
    total: int
    """Sum of the round scores (lower is better)."""
    worst: int
    """The highest round score."""
    failed: int
    """Rounds not solved (mercy limit or a foul)."""
    guesses: int
    """Guesses made, over all rounds."""
    seconds: float
    """Time spent waiting for those guesses."""

    @property
    def average(self) -> float:
        """Score per round."""
        return self.total / self.rounds if self.rounds else 0.0

    @property
    def seconds_per_guess(self) -> float:
        """Average time per guess."""
        return self.seconds / self.guesses if self.guesses else 0.0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the fields, the average and the time per guess."""
        return {**asdict(self), "average": self.average, "seconds_per_guess": self.seconds_per_guess}


def standings(results: Iterable[RoundResult], game: str | None = None) -> list[Standing]:
    """Every player's standing over the rounds of ``game`` (all games if ``None``), best first."""
    by_player: dict[str, list[RoundResult]] = {}
    for result in results:
        if game is None or result.game == game:
            by_player.setdefault(result.player, []).append(result)
    table = [
        Standing(
            player=player,
            rounds=len(rounds),
            total=sum(result.score for result in rounds),
            worst=max(result.score for result in rounds),
            failed=sum(not result.solved for result in rounds),
            guesses=sum(len(result.guesses) for result in rounds),
            seconds=sum(result.seconds for result in rounds),
        )
        for player, rounds in by_player.items()
    ]
    return sorted(table, key=lambda standing: (standing.total, standing.failed, standing.player))
