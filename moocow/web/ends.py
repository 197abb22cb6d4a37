"""How each game against the computer ended, so a token cannot be played again.

The guesses ride in the URL and the secret in the token, so without a record a given-up game's
secret could be played into the same token ("Solved in 1 guess"), and any list of guesses could be
tried against one secret. The first page that shows a game over (solved, or given up) records the
token with its guesses; from then on the token shows that end and nothing else, for as long as
the server's key lives.

The record is bounded: past ``KEPT`` ended games the server makes a new key, as a restart does,
which ends every game in play and lets the record start again (a token of the old key is refused
as not made by this server). So the memory stays bounded whatever arrives, and no ended token is
ever played again.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from dataclasses import dataclass

KEPT = 100_000
"""Ended games remembered before the key is changed (a token each: memory bounded by the count)."""
REPLAYED = "this game is over: its token was {how}; start a new game"


@dataclass(frozen=True)
class End:
    """How a game ended: after which guesses, and whether it was given up."""

    guesses: bytes
    """A digest of its guesses, as the game writes them."""
    gave_up: bool


class Ends:
    """The ended games of one server, and the key its tokens are sealed with."""

    def __init__(self, key: bytes) -> None:
        self.key = key
        self._ends: dict[bytes, End] = {}
        self._lock = threading.Lock()

    def get(self, token: str) -> End | None:
        """How the game of ``token`` ended, if it did."""
        return self._ends.get(_digest(token))

    def check(self, token: str, guesses: list[str]) -> str | None:
        """Why ``guesses`` may not be played on ``token`` (``None``: they may)."""
        end = self.get(token)
        if end is None or end.guesses == _digest(*guesses):
            return None
        return REPLAYED.format(how="given up" if end.gave_up else "solved")

    def record(self, token: str, guesses: list[str], gave_up: bool) -> str | None:
        """Record the game of ``token`` as ended after ``guesses``; if it had ended otherwise
        (two requests at once), why this one may not be shown."""
        with self._lock:
            refused = self.check(token, guesses)
            if refused is not None:
                return refused
            if _digest(token) not in self._ends and len(self._ends) >= KEPT:
                self.key = secrets.token_bytes(32)  # as a restart: every game in play ends
                self._ends.clear()
            self._ends.setdefault(_digest(token), End(_digest(*guesses), gave_up))
            return None

    def __len__(self) -> int:
        return len(self._ends)


def _digest(*texts: str) -> bytes:
    return hashlib.blake2b("\0".join(texts).encode("utf-8"), digest_size=16).digest()
