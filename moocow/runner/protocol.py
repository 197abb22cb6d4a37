"""The line protocol between the runner and a player program, version 1.

One message per line, UTF-8, ``\\n`` terminated; the first word says what the message is. The
runner speaks first and the player answers every message except ``quit`` with exactly one line:

    runner: moocow 1 DECK          player: moocow 1 [ID [AUTHOR...]]
    runner: game LENGTH SPEC       player: GUESS
    runner: feedback N [N...]      player: GUESS
    runner: quit                   (the player exits)

``DECK`` is what the whole session plays (a game spec, or ``bacrunner:...`` for the course's
words of several lengths); each round names its own game ``SPEC`` and code length. Feedback is
the game's counts in its field order (``feedback 1 2`` is one bull and two cows). A round ends
without notice: the next message is another ``game`` or ``quit``. This module is plain standard
library because the adapter that runs Python players in their own process imports it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

NAME = "moocow"
"""The first word of both handshake lines."""
VERSION = 1
"""The protocol version this runner speaks; a player answering with another one is turned away."""
QUIT = "quit"
"""The last message of a session."""


class ProtocolError(ValueError):
    """A line that is not the message the protocol expects at that point."""


@dataclass(frozen=True)
class Identity:
    """Who a player says it is, as the course runner prints it after the total."""

    student_id: str = ""
    """The first word after the version, e.g. a student number."""
    author: str = ""
    """The rest of the line, e.g. the author's name."""


def hello(deck: str) -> str:
    """The runner's first line."""
    return f"{NAME} {VERSION} {deck}"


def read_hello(line: str) -> str:
    """The deck named by the runner's first line (for players)."""
    parts = line.split(maxsplit=2)
    if len(parts) < 3 or parts[0] != NAME:
        raise ProtocolError(f"expected '{NAME} {VERSION} DECK', got {line.strip()[:80]!r}")
    if parts[1] != str(VERSION):
        raise ProtocolError(f"runner speaks protocol version {parts[1]}, this player speaks {VERSION}")
    return parts[2].strip()


def reply_hello(identity: Identity) -> str:
    """A player's answer to the handshake, naming itself (the id made one word, ``-`` if missing)."""
    if not (identity.student_id or identity.author):
        return f"{NAME} {VERSION}"
    student_id = "_".join(identity.student_id.split()) or "-"
    return " ".join(filter(None, (NAME, str(VERSION), student_id, " ".join(identity.author.split()))))


def read_reply_hello(line: str) -> Identity:
    """The identity in a player's handshake answer, or why the answer is not one."""
    parts = line.split(maxsplit=3)
    if len(parts) < 2 or parts[0] != NAME:
        raise ProtocolError(f"answered the handshake with {line.strip()[:80]!r}, not '{NAME} {VERSION}'")
    if parts[1] != str(VERSION):
        raise ProtocolError(f"speaks protocol version {parts[1][:20]!r}; this runner speaks {VERSION}")
    return Identity(*parts[2:4])


def start_round(length: int, spec: str) -> str:
    """The message that starts a round of ``spec`` with codes of ``length`` symbols."""
    return f"game {length} {spec}"


def feedback(counts: Sequence[int]) -> str:
    """The message carrying the feedback to the last guess."""
    return "feedback " + " ".join(str(count) for count in counts)


@dataclass(frozen=True)
class Message:
    """A runner message as a player reads it."""

    kind: str
    """``game``, ``feedback`` or ``quit``."""
    length: int = 0
    """Code length (``game`` only)."""
    spec: str = ""
    """The round's game spec (``game`` only)."""
    counts: tuple[int, ...] = ()
    """Feedback counts (``feedback`` only)."""


def read_message(line: str) -> Message:
    """Parse a runner message after the handshake (for players)."""
    kind, _, rest = line.strip().partition(" ")
    if kind == QUIT:
        return Message(kind)
    try:
        if kind == "game":
            length, _, spec = rest.partition(" ")
            return Message(kind, length=int(length), spec=spec.strip())
        if kind == "feedback":
            return Message(kind, counts=tuple(int(count) for count in rest.split()))
    except ValueError:
        pass
    raise ProtocolError(f"unexpected message {line.strip()[:80]!r}")
