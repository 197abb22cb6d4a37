"""Round results, and the JSON-lines file a tournament appends each one to the moment it is played.

The first line describes the tournament; every later line is one finished round, written and
flushed at once, so a tournament killed at any point loses at most the rounds being played. On
``--resume`` the description must match, a torn last line is cut off, and the rounds found are
not played again.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from moocow.engine.errors import MoocowError

FORMAT = "moocow-tournament"
"""The header's ``format`` value."""
FORMAT_VERSION = 1
"""Bumped when the file layout changes."""


@dataclass(frozen=True)
class RoundResult:
    """One round of one player in one tournament entry."""

    player: str
    """The player's name."""
    game: str
    """The entry's spec (the deck): a game spec or ``bacrunner:...``."""
    round: int
    """The round's number in the entry, from 0."""
    secret: str
    """The secret, as the game writes it."""
    guesses: tuple[str, ...]
    """The player's guesses, as the game writes them (in a course round: as the player sent them)."""
    solved: bool
    """Whether the last guess was the secret."""
    score: int
    """Guesses taken if solved, otherwise the mercy limit."""
    failure: str | None
    """The kind of failure (``mercy``, ``timeout``, ``crash``, ...) or ``None``."""
    reason: str | None
    """One line saying how the round was lost, or ``None``."""
    seconds: float
    """Time spent waiting for the player's guesses (a timing field: varies run to run)."""

    TIMING_FIELDS = ("seconds",)

    @property
    def key(self) -> tuple[str, str, int]:
        """Which round this is: player, entry, round number."""
        return (self.player, self.game, self.round)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {**asdict(self), "guesses": list(self.guesses)}

    def without_timing(self) -> dict[str, Any]:
        """Everything that must be identical between two runs of the same tournament."""
        data = self.to_dict()
        for field in self.TIMING_FIELDS:
            del data[field]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundResult:
        """Read back what ``to_dict`` wrote."""
        return cls(**{**data, "guesses": tuple(data["guesses"])})


def header(description: dict[str, Any]) -> dict[str, Any]:
    """The first line of a results file."""
    return {"format": FORMAT, "version": FORMAT_VERSION, "tournament": description}


class ResultsFile:
    """An append-only JSON-lines file of round results (use as a context manager)."""

    def __init__(self, path: str | os.PathLike[str], description: dict[str, Any], resume: bool) -> None:
        self.path = Path(path)
        self.finished: list[RoundResult] = []
        """The rounds already in the file when resuming."""
        first = header(description)
        if resume and self.path.exists() and self.path.stat().st_size:
            self.finished = read_results(self.path, first)
            self._file = self.path.open("a", encoding="utf-8")
        elif self.path.exists() and self.path.stat().st_size:
            raise MoocowError(
                f"results file {str(path)!r} exists: --resume finishes it, or choose another file"
            )
        else:
            self._file = self.path.open("w", encoding="utf-8")
            self._write(first)

    def append(self, result: RoundResult) -> None:
        """Write one finished round and flush it to the operating system at once."""
        self._write(result.to_dict())

    def _write(self, data: dict[str, Any]) -> None:
        self._file.write(json.dumps(data, ensure_ascii=False) + "\n")
        self._file.flush()

    def close(self) -> None:
        """Close the file."""
        self._file.close()

    def __enter__(self) -> ResultsFile:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def read_results(path: Path, expected_header: dict[str, Any]) -> list[RoundResult]:
    """The rounds of a results file whose header is ``expected_header``; a torn last line is cut off."""
    data = path.read_bytes()
    complete = data.rfind(b"\n") + 1
    if complete < len(data):
        with path.open("r+b") as torn:
            torn.truncate(complete)
    lines = data[:complete].decode("utf-8").splitlines()
    try:
        found = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError:
        found = None
    if found != json.loads(json.dumps(expected_header)):
        raise MoocowError(
            f"results file {str(path)!r} belongs to another tournament "
            "(players, games, rounds, seed, mercy or limits differ)"
        )
    results: dict[tuple[str, str, int], RoundResult] = {}
    for number, line in enumerate(lines[1:], 2):
        try:
            result = RoundResult.from_dict(json.loads(line))
        except (json.JSONDecodeError, TypeError) as error:
            raise MoocowError(
                f"results file {str(path)!r}, line {number}: not a round result ({error})"
            ) from None
        results.setdefault(result.key, result)
    return list(results.values())
