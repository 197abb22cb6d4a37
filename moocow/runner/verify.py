"""Checking a results file without resuming it: ``moocow verify``.

A course keeps the results file and its key apart; whoever is handed the file checks it here.
Every line of a signed file is checked against the key and, in version 2, its place in the chain
and the chain's head recorded beside the key (``chain.py``); every round as ``--resume`` checks it
(``rowcheck.RowCheck``). Every problem is reported, not only the first. The file is streamed. An
unsigned file is checked round by round, and said to be protected by nothing. A path that can be
led to another file (a link, a second name) is refused, as ``--resume`` refuses it: what passes
here is the file the runner would resume.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from moocow.engine.errors import MoocowError
from moocow.engine.wording import plural
from moocow.runner import chain
from moocow.runner.files import one_name, same_file
from moocow.runner.reading import Follower, Header, Lines, line_limit, open_results, read_header
from moocow.runner.results import SEED_FINGERPRINT
from moocow.runner.rowcheck import BadRow, RowCheck, _shown, description_problem
from moocow.runner.seeds import fingerprint
from moocow.runner.signing import KEY_VARIABLE

UNPROTECTED = (
    "not signed: nothing protects it (whoever can write it could change, remove or add rounds "
    "that still check out); sign results with --key-file"
)
UNCHAINED = (
    "version 1: its lines are signed one by one, not chained: a line removed, moved, or copied from "
    "another file signed with this key would not show"
)
SECRET_SEED = (
    "its seed is secret (the header holds its fingerprint alone): each secret is checked to be one its "
    "entry deals, not the one the seed deals; give the seed (--seed-file or MOOCOW_SEED) to check that"
)
HEADLESS = (
    "no record of its chain's head here (kept beside the key where it was written): lines cut "
    "from its end would not show"
)


@dataclass(frozen=True)
class Verification:
    """What ``verify`` found in a results file."""

    rounds: int
    """Round lines that passed every check."""
    expected: int | None
    """Rounds the header's tournament has, if the header could be read."""
    problems: tuple[str, ...]
    """One line per problem, each naming its line of the file."""
    notes: tuple[str, ...] = ()
    """What the checks could not cover (an unsigned file, an unchained one, no recorded head)."""
    closed: bool = False
    """Whether the file ends with its closing line."""

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
        closed = ", closed" if self.closed else ""
        if UNPROTECTED in self.notes:
            return f"{path}: every round checks out, {rounds}{unfinished}; nothing protects them (not signed)"
        return f"{path}: every line is signed with this key and checks out, {rounds}{closed}{unfinished}"


def verify_results(
    path: str | os.PathLike[str],
    key: bytes | None,
    key_file: str | os.PathLike[str] | None = None,
    seed: int | None = None,
) -> Verification:
    """Check every line of the results file at ``path`` (against ``key``, if it is signed); a file
    that is not a results file at all, or cannot be read, or is reached by a link, is ``MoocowError``.
    A header that keeps its seed secret is checked against ``seed``, if given: its fingerprint, then
    every round's secret."""
    found = one_name(path, "results file")
    with open_results(path) as file:
        same_file(file.fileno(), found, path, "results file")
        header, problem = read_header(path, file, key)
        if header.signed and key is None:
            raise MoocowError(
                f"results file {str(path)!r} is signed: verify needs the key it was signed with: "
                f"--key-file PATH or {KEY_VARIABLE}"
            )
        problems = [] if problem is None else [f"line 1: {problem}"]
        notes = _notes(header, key, problems)
        description = _description(header, problems)
        seed = _secret_seed(description, seed, problems)
        if description is not None and "seed" not in description and seed is None:
            notes += (SECRET_SEED,)
        head = None
        if header.chained and key is not None and header.chain is not None and not problems:
            head = chain.read_head(chain.record_folders(key_file), header.chain)
            notes += () if head is not None else (HEADLESS,)
        follower = Follower(
            header, key, _row_check(description, seed, problems), head.lines if head else None
        )
        lines = Lines(file, line_limit(description))
        rounds, count = 0, 1
        for number, raw in lines:
            count = number
            try:
                if follower.line(number, raw) is not None:
                    rounds += 1
            except BadRow as error:
                problems.append(f"line {number}: {error}")
        short = follower.cut_short(head, count)
        if short is not None:
            problems.append(f"line {short[0]}: {short[1]}")
        if lines.torn:
            problems.append(f"line {count + 1}: torn (no end of line): the run was stopped while writing it")
    return Verification(
        rounds, _expected(description), tuple(problems), notes, follower.closed_at is not None
    )


def _notes(header: Header, key: bytes | None, problems: list[str]) -> tuple[str, ...]:
    """What protects the file, said where it falls short; an unsigned file checked with a key is a
    problem (a key says it should be signed)."""
    if not header.signed:
        if key is not None:
            problems.append("line 1: the file is not signed, but a key was given: " + UNPROTECTED)
        return (UNPROTECTED,)
    return (UNCHAINED,) if header.version == 1 else ()


def _description(header: Header, problems: list[str]) -> dict[str, Any] | None:
    """The header's tournament if it is sound; otherwise its problem (said once), and ``None``."""
    if problems:
        return None
    description = header.description
    problem = description_problem(description)
    if problem is not None:
        problems.append(f"line 1: {problem}")
        return None
    return description


def _secret_seed(description: dict[str, Any] | None, seed: int | None, problems: list[str]) -> int | None:
    """The seed given, where the header keeps its seed secret and its fingerprint is this seed's;
    another seed's is a problem (and the secrets are then checked against their decks alone)."""
    if description is None or seed is None or "seed" in description:
        return None
    recorded = description.get(SEED_FINGERPRINT)
    if recorded != fingerprint(seed):
        problems.append(
            f"line 1: the seed given is not the one this file was played on (its fingerprint is "
            f"{fingerprint(seed)}, the file's {_shown(recorded)})"
        )
        return None
    return seed


def _row_check(description: dict[str, Any] | None, seed: int | None, problems: list[str]) -> RowCheck | None:
    """The checks of ``--resume`` for this header's tournament; none where the header is unsound
    (every row would fail for the header's sake: its problem is said once)."""
    if description is None:
        return None
    try:
        return RowCheck(description, seed)
    except (BadRow, KeyError, TypeError, AttributeError, ValueError) as error:
        problems.append(f"line 1: the header does not describe a tournament ({error})")
        return None


def _expected(description: dict[str, Any] | None) -> int | None:
    if description is None:
        return None
    return len(description["players"]) * len(description["games"]) * int(description["rounds"])
