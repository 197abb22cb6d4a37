"""A results file read to be shown, perhaps while its tournament is still writing it.

Unlike ``read_results`` (for ``--resume``) nothing is written: a torn last line is a round being
written, left alone, and the header is the file's own. Every row is still checked as a resumed
one is (``RowCheck``: schema, scores, the seed's secrets), so what is shown is a round the
tournament could have played. A signed file read without its key is shown with its signatures
unchecked, and says so.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from moocow.engine.errors import MoocowError
from moocow.engine.inputs import open_regular
from moocow.runner import signing
from moocow.runner.results import BadRow, RoundResult, RowCheck, complete_lines, json_line

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
    try:
        with open_regular(path, "results file") as file:
            data = file.read(limit + 1)
    except OSError as error:
        raise MoocowError(f"cannot read results file {name!r}: {error.strerror}") from None
    if len(data) > limit:
        raise MoocowError(f"results file {name!r} is larger than {limit >> 20} MB")
    lines, first, _ = complete_lines(Path(path), data)
    signed = first.get("signed") is True
    description = first.get("tournament")
    try:
        check = RowCheck(description)  # type: ignore[arg-type]
        expected = len(description["players"]) * len(description["games"]) * description["rounds"]  # type: ignore[index]
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        if isinstance(error, MoocowError):
            raise MoocowError(f"results file {name!r}, line 1: {error}") from None
        raise MoocowError(f"results file {name!r}, line 1: not a tournament's description") from None
    rounds = []
    for number, line in enumerate(lines[1:], 2):
        try:
            row = json_line(line)
            if signed and isinstance(row, dict):
                row = {key: value for key, value in row.items() if key != signing.FIELD}
            rounds.append(check(number, row))
        except BadRow as error:
            raise MoocowError(f"results file {name!r}, line {number}: {error}") from None
    return ShownResults(description, tuple(rounds), expected, signed, check)  # type: ignore[arg-type]
