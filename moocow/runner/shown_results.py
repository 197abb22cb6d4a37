"""A results file read to be shown, perhaps while its tournament is still writing it.

Unlike ``--resume`` nothing is written: a torn last line is a round being written, left alone,
and the header is the file's own. Every row is still checked as a resumed one is (``RowCheck``:
schema, scores, the seed's secrets), so what is shown is a round the tournament could have
played. A signed file read without its key is shown with its signatures and chain unchecked, and
says so. The file is streamed, a line no longer than the runner writes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from moocow.engine.errors import MoocowError
from moocow.runner.reading import Follower, Lines, every_round, line_limit, open_results, read_header
from moocow.runner.results import RoundResult
from moocow.runner.rowcheck import RowCheck, description_problem

MAX_BYTES = 64 << 20
"""The largest results file shown: far beyond a course's tournament."""


@dataclass(frozen=True)
class ShownResults:
    """What a results file holds so far."""

    description: dict[str, Any]
    """The header's tournament: players, games, rounds, seed, mercy, limits."""
    rounds: tuple[RoundResult, ...]
    """The rounds written so far, in file order."""
    expected: int
    """Rounds the finished tournament will hold."""
    signed: bool
    """Whether the lines carry signatures (not checked here: the key stays with the runner)."""
    check: RowCheck
    """The checker, which knows each round's deal (``check.deals[game][round]``)."""

    @property
    def finished(self) -> bool:
        """Whether every round has been written."""
        return len(self.rounds) >= self.expected


def read_shown(path: str | os.PathLike[str], limit: int = MAX_BYTES) -> ShownResults:
    """The header and complete rows of a results file, each checked; one line if it is damaged."""
    name = str(path)
    with open_results(path) as file:
        if os.fstat(file.fileno()).st_size > limit:
            raise MoocowError(f"results file {name!r} is larger than {limit >> 20} MB")
        header, _ = read_header(path, file, None)
        description = header.description
        problem = description_problem(description)
        if problem is not None:
            raise MoocowError(f"results file {name!r}, line 1: {problem}")
        check = RowCheck(description)
        follower = Follower(header, None, check)
        rounds, _ = every_round(path, follower, Lines(file, line_limit(description)))
    expected = len(description["players"]) * len(description["games"]) * description["rounds"]
    return ShownResults(description, tuple(rounds), expected, header.signed, check)
