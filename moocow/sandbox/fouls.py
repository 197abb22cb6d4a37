"""Why a round was lost: the failure kinds the runner records, and the exception that carries one."""

from __future__ import annotations

from enum import StrEnum


class Failure(StrEnum):
    """The kind of a failed round, as written to the results file."""

    MERCY = "mercy"
    """Not solved within the mercy limit of guesses: no rule broken."""
    INVALID = "invalid"
    """Answered with something that is not a guess of the game (garbage included)."""
    TIMEOUT = "timeout"
    """Took longer than the wall-clock limit for a guess, a round or the setup."""
    CPU = "cpu"
    """Used more CPU time than the limit for a guess or a round."""
    MEMORY = "memory"
    """Ran out of its address-space limit."""
    OUTPUT = "output"
    """Wrote an over-long line, bytes that are not UTF-8, or more than the output limit."""
    DISK = "disk"
    """Its files held more than the disk limit (the ``user`` level, where no tmpfs of its own holds them)."""
    CRASH = "crash"
    """Exited, was killed by a signal, or closed its output."""
    PROTOCOL = "protocol"
    """Answered the handshake with something else: a wrong version, another program, tampering."""
    DISQUALIFIED = "disqualified"
    """Could not start a session (setup failed); every later round of the session is lost unplayed."""


class Foul(Exception):
    """A player broke a rule; the round is lost and ``reason`` says how, in one line."""

    def __init__(self, kind: Failure, reason: str, said: str = "") -> None:
        super().__init__(f"{kind}: {reason}")
        self.kind = kind
        """What kind of rule was broken."""
        self.reason = reason
        """One line for the results file, naming the limit or the offending text."""
        self.said = said
        """The player's own last line of stderr, which ends ``reason`` (``": " + said``) when given:
        where a graded round is shown to a student, the reason is shown without it."""


class Disqualified(Foul):
    """The player failed its setup (start, handshake, initialisation) and sits out the session."""

    def __init__(self, cause: Foul) -> None:
        super().__init__(Failure.DISQUALIFIED, f"setup failed ({cause.kind}): {cause.reason}", cause.said)
