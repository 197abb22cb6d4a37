"""The line protocol between the runner and a player program, versions 1 and 2.

One message per line, UTF-8, ``\\n`` terminated; the first word says what the message is. The
runner speaks first and the player answers every message except ``quit`` with exactly one line:

    runner: moocow LEAST DECK      player: moocow VERSION [ID [AUTHOR...]]
    runner: game LENGTH SPEC       player: GUESS
    runner: feedback FEEDBACK      player: GUESS
    runner: quit                   (the player exits)

``DECK`` is what the whole session plays (a game spec, or ``bacrunner:...`` for the course's
words of several lengths); each round names its own game ``SPEC`` and code length. A round ends
without notice: the next message is another ``game`` or ``quit``.

The versions differ only in ``FEEDBACK``. Version 1 sends the game's counts in its field order
(``feedback 1 2`` is one bull and two cows), so it can carry counts only. Version 2 sends the
feedback's own text, as the game writes it (``feedback GYBBB`` in Wordle, ``feedback 1B2C`` in
the word game, ``feedback 3`` in the bottle game), which ``moocow.load_game(SPEC).parse_feedback``
reads back. The runner's first line names the least version the deck needs: ``1`` where every
round's feedback is counts, ``2`` otherwise (Wordle's marks). The player answers with the version
it speaks, and the session uses it: any of 1 and 2 at or above the least. A player written for
counts must never be sent marks (it would misread them silently), so a version-1 answer to a deck
that needs 2 is refused in one line. This module is plain standard library because the adapter
that runs Python players in their own process imports it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

NAME = "moocow"
"""The first word of both handshake lines."""
COUNTS = 1
"""The version whose feedback is counts (``feedback 1 2``)."""
TEXT = 2
"""The version whose feedback is its text as the game writes it (``feedback GYBBB``)."""
VERSIONS = (COUNTS, TEXT)
"""The versions this runner speaks; a player answering with another one is turned away."""
VERSION = COUNTS
"""The version of a runner's or player's line when none is named: version 1's lines are unchanged."""
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


@dataclass(frozen=True)
class Hello:
    """The runner's first line as a player reads it."""

    least: int
    """The least version the deck needs (2 where some feedback is not counts)."""
    deck: str
    """What the session plays."""


@dataclass(frozen=True)
class Greeting:
    """A player's answer to the handshake as the runner reads it."""

    identity: Identity
    """Who the player says it is."""
    version: int
    """The version it speaks, and the session uses."""


def least_version(kind: str) -> int:
    """The least version that can carry feedback of this kind (``FeedbackModel.kind``)."""
    return COUNTS if kind == "counts" else TEXT


def hello(deck: str, least: int = VERSION) -> str:
    """The runner's first line."""
    return f"{NAME} {least} {deck}"


def read_hello(line: str) -> Hello:
    """The runner's first line (for players)."""
    parts = line.split(maxsplit=2)
    if len(parts) < 3 or parts[0] != NAME or not parts[1].isdigit():
        raise ProtocolError(f"expected '{NAME} VERSION DECK', got {line.strip()[:80]!r}")
    least = int(parts[1])
    if least not in VERSIONS:
        raise ProtocolError(f"runner needs protocol version {parts[1]}, this player speaks 1 and 2")
    return Hello(least, parts[2].strip())


def reply_hello(identity: Identity, version: int = VERSION) -> str:
    """A player's answer to the handshake, naming itself (the id made one word, ``-`` if missing)."""
    if not (identity.student_id or identity.author):
        return f"{NAME} {version}"
    student_id = "_".join(identity.student_id.split()) or "-"
    return " ".join(filter(None, (NAME, str(version), student_id, " ".join(identity.author.split()))))


def read_reply_hello(line: str) -> Greeting:
    """The identity and version in a player's handshake answer, or why the answer is not one."""
    parts = line.split(maxsplit=3)
    if len(parts) < 2 or parts[0] != NAME:
        raise ProtocolError(f"answered the handshake with {line.strip()[:80]!r}, not '{NAME} {VERSION}'")
    if parts[1] not in map(str, VERSIONS):
        raise ProtocolError(f"speaks protocol version {parts[1][:20]!r}; this runner speaks 1 and 2")
    return Greeting(Identity(*parts[2:4]), int(parts[1]))


def too_old(version: int, kind: str, spec: str) -> str | None:
    """Why a player speaking ``version`` may not play ``spec``, whose feedback is of ``kind``
    (``None``: it may)."""
    if version >= least_version(kind):
        return None
    return (
        f"speaks protocol version {version}, whose feedback is counts; {spec} gives {kind}: "
        f"the player must speak version {least_version(kind)} (feedback as text)"
    )


def start_round(length: int, spec: str) -> str:
    """The message that starts a round of ``spec`` with codes of ``length`` symbols."""
    return f"game {length} {spec}"


def feedback(counts: Sequence[int]) -> str:
    """The message carrying the feedback to the last guess in version 1: its counts."""
    return "feedback " + " ".join(str(count) for count in counts)


def feedback_text(text: str) -> str:
    """The message carrying the feedback to the last guess in version 2: its text."""
    return f"feedback {text}"


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
    """Feedback counts (``feedback`` in version 1 only)."""
    text: str = ""
    """The feedback as sent (``feedback`` only): its text in version 2, the counts in version 1."""


def read_message(line: str, version: int = VERSION) -> Message:
    """Parse a runner message after the handshake of a session in ``version`` (for players)."""
    kind, _, rest = line.strip().partition(" ")
    rest = rest.strip()
    if kind == QUIT:
        return Message(kind)
    try:
        if kind == "game":
            length, _, spec = rest.partition(" ")
            return Message(kind, length=int(length), spec=spec.strip())
        if kind == "feedback" and version >= TEXT and rest:
            return Message(kind, text=rest)
        if kind == "feedback" and version == COUNTS:
            return Message(kind, counts=tuple(int(count) for count in rest.split()), text=rest)
    except ValueError:
        pass
    raise ProtocolError(f"unexpected message {line.strip()[:80]!r}")
