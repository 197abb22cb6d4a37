"""A round's result, and how it is written as a row of the results file a tournament appends to.

The file itself is written by ``resultsfile.py`` and read back by ``reading.py``. A row is the
referee's record of a round, bounded: a course guess (any printable line of up to 64 KiB) is
stored cut to ``shown.GUESS_SHOWN`` characters with its length and the SHA-256 of the whole, and a
lost round's reason to ``shown.TEXT_SHOWN``, so that no player can make the runner's file grow
beyond ``most_row_bytes`` a round. Results cross between processes whole (``to_dict``).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

from moocow.referee.bacrunner import is_course_deck
from moocow.referee.protocol import Identity
from moocow.runner.chain import json_text
from moocow.runner.shown import GUESS_SHOWN, TEXT_SHOWN
from moocow.sandbox.stderr_tail import NOTHING_KEPT, RoundStderr

FORMAT = "moocow-tournament"
"""The header's ``format`` value."""
FORMAT_VERSION = 2
"""Bumped when the file layout changes: 2 chains its lines and closes, and bounds its rows."""
VERSIONS = (1, 2)
"""The versions read: a version-1 file (every line signed alone, guesses whole) resumes as one."""
CUT_FIELDS = ("cut", "length", "sha256")
"""A guess stored cut: its first ``GUESS_SHOWN`` characters, its length, the SHA-256 of the whole."""
FIXED_ROW_BYTES = 4096
"""The most a row takes beside its guesses and the names the operator chose (player, entry):
the secret, the numbers, the reason (``TEXT_SHOWN`` characters, 6 bytes each at most as JSON)."""
GUESS_BYTES = 1024
"""The most one stored guess takes: ``GUESS_SHOWN`` characters (4 bytes each at most in UTF-8),
with its length and digest when cut."""


def most_row_bytes(mercy: int, names: int = 0) -> int:
    """The longest row the runner writes in a tournament of this mercy limit, whose player names
    and entry spec take ``names`` bytes: the bound a results file's lines are read under."""
    return FIXED_ROW_BYTES + names + mercy * GUESS_BYTES


def cut_guess(guess: str) -> str | dict[str, Any]:
    """A course guess as its row stores it: whole up to ``GUESS_SHOWN`` characters, else cut."""
    if len(guess) <= GUESS_SHOWN:
        return guess
    digest = hashlib.sha256(guess.encode("utf-8", "surrogatepass")).hexdigest()
    return {"cut": guess[:GUESS_SHOWN], "length": len(guess), "sha256": digest}


def shown_guess(stored: str | dict[str, Any]) -> str:
    """A stored guess as text: a cut one as ``shown.cut`` shows it."""
    if isinstance(stored, str):
        return stored
    return f"{stored['cut']}... ({stored['length'] - GUESS_SHOWN:,} more characters)"


def _cut_reason(reason: str | None) -> str | None:
    if reason is None or len(reason) <= TEXT_SHOWN:
        return reason
    return f"{reason[:TEXT_SHOWN]}... ({len(reason) - TEXT_SHOWN:,} more characters)"


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
    stderr: RoundStderr = dataclass_field(default=NOTHING_KEPT, compare=False, repr=False)
    """The last lines the player wrote to stderr in the round, when kept (``grade`` shows them:
    students debug with ``print``); not written to the results file, the referee's record."""

    identity: Identity | None = dataclass_field(default=None, compare=False, repr=False)
    """Who the player said it was in this round's session (``student_id()``, ``author()``), if it
    said: written once per player to the results file, on a line of its own (``identity_line``)."""

    TIMING_FIELDS = ("seconds",)
    UNWRITTEN_FIELDS = ("stderr", "identity")
    """Fields the results file does not hold: the player's words, not the referee's record."""

    @property
    def key(self) -> tuple[str, str, int]:
        """Which round this is: player, entry, round number."""
        return (self.player, self.game, self.round)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the whole round, as it crosses between processes (``stderr`` is
        left out): built field by field, since ``asdict`` deep-copies (a large share of a round's
        bookkeeping, which ``bench/tournament.py`` measures)."""
        return {
            "player": self.player,
            "game": self.game,
            "round": self.round,
            "secret": self.secret,
            "guesses": list(self.guesses),
            "solved": self.solved,
            "score": self.score,
            "failure": self.failure,
            "reason": self.reason,
            "seconds": self.seconds,
        }

    def to_row(self) -> dict[str, Any]:
        """The results file's row: a course round's long guesses cut, a long reason cut."""
        data = self.to_dict()
        if is_course_deck(self.game):
            data["guesses"] = [cut_guess(guess) for guess in self.guesses]
        data["reason"] = _cut_reason(self.reason)
        return data

    def row_text(self) -> str | None:
        """``to_row()`` as ``chain.LINE`` writes it, built without the dict (encoding the dict was
        a share of a round's bookkeeping, ``bench/tournament.py``), or ``None`` where that may
        differ: a course round (its guesses may be cut), a field not of its usual type, a float JSON
        writes as a word."""
        player, game, secret, guesses, failure, reason, seconds = (
            self.player,
            self.game,
            self.secret,
            self.guesses,
            self.failure,
            self.reason,
            self.seconds,
        )
        if not (
            type(player) is str
            and type(game) is str
            and type(self.round) is int
            and type(secret) is str
            and type(guesses) is tuple
            and type(self.solved) is bool
            and type(self.score) is int
            and (failure is None or type(failure) is str)
            and (reason is None or type(reason) is str)
            and type(seconds) is float
            and math.isfinite(seconds)
            and all(type(guess) is str for guess in guesses)
        ) or is_course_deck(game):
            return None
        text, reason = json_text, _cut_reason(reason)
        return (
            f'{{"player": {text(player)}, "game": {text(game)}, "round": {self.round}, '
            f'"secret": {text(secret)}, "guesses": [{", ".join(map(text, guesses))}], '
            f'"solved": {"true" if self.solved else "false"}, "score": {self.score}, '
            f'"failure": {"null" if failure is None else text(failure)}, '
            f'"reason": {"null" if reason is None else text(reason)}, "seconds": {seconds!r}}}'
        )

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

    @classmethod
    def from_row(cls, data: dict[str, Any]) -> RoundResult:
        """Read back what ``to_row`` wrote: a cut guess as ``shown_guess`` shows it."""
        return cls(**{**data, "guesses": tuple(map(shown_guess, data["guesses"]))})


SEED_FINGERPRINT = "seed_fingerprint"
"""The header's field that stands for a secret seed (``seeds.fingerprint``): the seed is not written."""
IDENTITY = "identity"
"""The field of a line that records who a player said it was: its name, student id and author."""
IDENTITY_FIELDS = ("player", "student_id", "author")


def identity_line(player: str, identity: Identity) -> dict[str, Any]:
    """The line recording ``player``'s identity, its player text cut to ``shown.TEXT_SHOWN``
    characters as a reason is (the handshake's line may be 64 KiB)."""
    return {
        IDENTITY: {
            "player": player,
            "student_id": identity.student_id[:TEXT_SHOWN],
            "author": identity.author[:TEXT_SHOWN],
        }
    }


REFEREE = "referee"
"""The header's record of what protected the run (sandbox, limits): written, never compared on resume."""


def header(
    description: dict[str, Any],
    signed: bool = False,
    referee: dict[str, Any] | None = None,
    version: int = FORMAT_VERSION,
) -> dict[str, Any]:
    """The first line of a results file (without its signature and chain); ``signed`` files say so."""
    first = {"format": FORMAT, "version": version, "tournament": description}
    first = {**first, "signed": True} if signed else first
    return {**first, REFEREE: referee} if referee is not None else first
