"""Checking a signed results file against its key, without resuming it: ``moocow verify``.

A course keeps the results file and its key apart; whoever is handed the file checks it here.
Every line's HMAC is checked (``signing.verified``), and every round as ``--resume`` checks it
(``results.RowCheck``: the players and games of the header, a secret the seed deals, a score its
guesses make, no round twice), but every problem is reported, not only the first.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from moocow.engine.errors import MoocowError
from moocow.runner import signing
from moocow.runner.results import BadRow, RowCheck, header_of, json_line, line_text, read_whole, seed_problem
from moocow.terminal import plural


@dataclass(frozen=True)
class Verification:
    """What ``verify`` found in a results file."""

    rounds: int
    """Round lines that passed every check."""
    expected: int | None
    """Rounds the header's tournament has, if the header could be read."""
    problems: tuple[str, ...]
    """One line per problem, each naming its line of the file."""

    @property
    def sound(self) -> bool:
        """Whether no problem was found."""
        return not self.problems

    def summary(self, path: str | os.PathLike[str]) -> str:
        """One line: the verdict and how many rounds it covers."""
        rounds = f"{self.rounds}{'' if self.expected is None else f' of {self.expected}'} rounds"
        if not self.sound:
            return f"{path}: {len(self.problems)} {plural(len(self.problems), 'problem')}; {rounds} check out"
        unfinished = " (unfinished: --resume plays the rest)" if self.rounds < (self.expected or 0) else ""
        return f"{path}: every line is signed with this key and checks out, {rounds}{unfinished}"


def verify_results(path: str | os.PathLike[str], key: bytes) -> Verification:
    """Check every line of the results file at ``path`` against ``key``; a file that is not a
    results file at all, or cannot be read, is ``MoocowError``."""
    data = read_whole(path)
    complete = data.rfind(b"\n") + 1
    raw = data[:complete].split(b"\n")[:-1]
    problems: list[str] = []
    header = header_of(path, raw[0].decode("utf-8", "replace") if raw else None)
    description = _checked_header(header, key, problems)
    check = _row_check(description, problems)
    rounds = 0
    for number, line in enumerate(raw[1:], 2):
        try:
            row = signing.verified(_object(json_line(line_text(Path(path), number, line))), key)
            if check is not None:
                check(number, row)
            rounds += 1
        except (BadRow, ValueError) as error:
            problems.append(f"line {number}: {error}")
        except MoocowError as error:  # not UTF-8: the message names the file and line itself
            problems.append(str(error).split(", ", 1)[-1])
    if complete < len(data):
        problems.append(f"line {len(raw) + 1}: torn (no end of line): the run was stopped while writing it")
    expected = _expected(description)
    return Verification(rounds, expected, tuple(problems))


def _checked_header(header: dict[str, Any], key: bytes, problems: list[str]) -> dict[str, Any] | None:
    """The header's tournament once its signature holds; otherwise its problem, and ``None``."""
    try:
        unsigned = signing.verified(header, key)
    except ValueError as error:
        problems.append(f"line 1: {error}")
        return None
    if unsigned.get("signed") is not True:
        problems.append("line 1: the header does not say the file is signed")
    description = unsigned.get("tournament")
    problem = seed_problem(description) or (
        None if isinstance(description, dict) else "the header does not describe a tournament"
    )
    if problem is not None:
        problems.append(f"line 1: {problem}")
        return None
    return description


def _row_check(description: dict[str, Any] | None, problems: list[str]) -> RowCheck | None:
    """The checks of ``--resume`` for this header's tournament; none where the header is unsound
    (every row would fail for the header's sake: its problem is said once)."""
    if description is None:
        return None
    try:
        return RowCheck(description)
    except (KeyError, TypeError, AttributeError) as error:
        problems.append(
            f"line 1: the header does not describe a tournament ({type(error).__name__}: {error})"
        )
        return None


def _expected(description: dict[str, Any] | None) -> int | None:
    try:
        return len(description["players"]) * len(description["games"]) * int(description["rounds"])  # type: ignore[index]
    except (KeyError, TypeError, ValueError):
        return None


def _object(row: Any) -> dict[str, Any]:
    if not isinstance(row, dict):
        raise BadRow("not a round result (a JSON object)")
    return row
