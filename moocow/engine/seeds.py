"""A seed as ``random.Random`` reads it, checked once for every layer that takes one: the runner's
rounds, a game against the computer, a course file.

``random.Random(-N)`` deals what ``random.Random(N)`` deals, so -888 would deal the course's public
888 with no warning; and a number of thousands of digits is no seed anyone means."""

from __future__ import annotations

from moocow.engine.errors import MoocowError

LONGEST = 100
"""Most digits of a seed (a fresh one has 19; Python refuses to read numbers of over 4,300)."""


def checked_seed(value: int, where: str) -> int:
    """A seed ``random.Random`` reads as written: 0 or more (it takes -N as N, so -888 would deal the
    course's public 888 with no warning), of at most ``LONGEST`` digits."""
    if value < 0:
        raise MoocowError(
            f"{where}: a seed is 0 or more, not {value} (it would deal the secrets of {-value})"
        )
    if value >= 10**LONGEST:
        raise MoocowError(f"{where}: a seed has at most {LONGEST} digits")
    return value
