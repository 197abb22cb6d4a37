"""A results file read to be shown, perhaps while its tournament is still writing it.

Unlike ``--resume`` nothing is written: a torn last line is a round being written, left alone,
and the header is the file's own. Every row is still checked as a resumed one is (``RowCheck``:
schema, scores, the seed's secrets, or where the seed is secret the deck's), so what is shown is
a round the tournament could have played. What is shown names the seed by its fingerprint alone,
whatever the header holds: a page is posted to a class, and the seed deals every secret. A
signed file read without its key is shown with its signatures and chain unchecked, and says so.
The file is streamed, a line no longer than the runner writes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from moocow.engine.errors import MoocowError
from moocow.referee.protocol import Identity
from moocow.runner.reading import Follower, Lines, every_round, line_limit, open_results, read_header
from moocow.runner.results import SEED_FINGERPRINT, RoundResult
from moocow.runner.rowcheck import RowCheck, description_problem
from moocow.runner.seeds import fingerprint

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
    """The checker, which knows each round's deal (``check.deal``)."""
    identities: dict[str, Identity] = field(default_factory=dict)
    """Who each player said it was (its ``student_id()`` and ``author()``), where it said."""

    @property
    def finished(self) -> bool:
        """Whether every round has been written."""
        return len(self.rounds) >= self.expected

    @property
    def seed_fingerprint(self) -> str | None:
        """The seed as shown: its fingerprint (``seeds.fingerprint``), never the seed itself."""
        seed = self.description.get("seed")
        if isinstance(seed, int):
            return fingerprint(seed)
        recorded = self.description.get(SEED_FINGERPRINT)
        return recorded if isinstance(recorded, str) else None

    def identity(self, player: str) -> Identity:
        """Who ``player`` said it was (empty where it did not say)."""
        return self.identities.get(player, Identity())


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
    return ShownResults(description, tuple(rounds), expected, header.signed, check, follower.identities)
