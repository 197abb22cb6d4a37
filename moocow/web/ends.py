"""How each game against the computer ended, so a token cannot be played again; and how many games
are alive, so that this record stays bounded without ever ending a game in play.

The guesses ride in the URL and the secret in the token, so without a record a given-up game's
secret could be played into the same token ("Solved in 1 guess"), and any list of guesses could be
tried against one secret. The first page that shows a game over (solved, or given up) records the
token with its guesses; from then on the token shows that end and nothing else for as long as it
lives (``tokens.LIFE``). Past that the token is refused as expired, so its end can be forgotten.

The record is bounded by the games started, not by the games ended: a new game is dealt only while
fewer than ``KEPT`` games started within a token's life, at most ``share()`` of them from one
address, and every ended game is one of those. Past either bound new games wait (429 for the
address, 503 for the server) and no game in play ends. (The record used to be capped by its count
with a new key past it: one visitor giving up games in a loop ended everyone's games, issue 45.)
"""

from __future__ import annotations

import hashlib
import ipaddress
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from moocow.engine.wording import plural
from moocow.web import tokens

KEPT = 100_000
"""Games started within a token's life that the server deals at most (each may end: a record each)."""
CLIENTS = 20
"""Addresses it takes to fill the server: each may hold ``KEPT // CLIENTS`` of its games."""
BUCKET = 3600
"""Seconds of starts counted together: an hour of starts, with how those games ended, is forgotten
an hour after its last token expired (so a request still in flight finds its record)."""
REPLAYED = "this game is over: its token was {how}; start a new game"
DAYS = f"{tokens.LIFE // 86400} days"
FULL = "the server holds {count:,} games started in the last {days}, its most: try again in {wait}"
CROWDED = (
    "{count:,} games started from your address in the last {days}, the most one address may hold:"
    " try again in {wait}"
)


def share() -> int:
    """Games started within a token's life that one address may hold."""
    return max(1, KEPT // CLIENTS)


@dataclass(frozen=True)
class End:
    """How a game ended: after which guesses, and whether it was given up."""

    guesses: bytes
    """A digest of its guesses, as the game writes them."""
    gave_up: bool


@dataclass
class Hour:
    """The games started in one hour: how many, from which addresses, and how those ended."""

    total: int = 0
    started: Counter[str] = field(default_factory=Counter)
    ends: dict[bytes, End] = field(default_factory=dict)


class Ends:
    """The living games of one server, how those ended, and the key their tokens are sealed with."""

    def __init__(self, key: bytes, clock: Callable[[], float] = time.time) -> None:
        self.key = key
        self.clock = clock
        self._hours: dict[int, Hour] = {}
        self._lock = threading.Lock()

    def now(self) -> int:
        """The second a request is served at: its token is checked, dealt and recorded at it."""
        return int(self.clock())

    def start(self, address: str, now: int) -> tuple[str, int] | None:
        """Count a new game from ``address`` at ``now``; if it may not start, why and the status."""
        with self._lock:
            self._forget(now)
            hours = sorted(self._hours.items())
            if sum(hour.total for _, hour in hours) >= KEPT:
                return FULL.format(count=KEPT, days=DAYS, wait=_wait(_forgotten(hours[0][0]) - now)), 503
            own = [(number, hour.started[address]) for number, hour in hours if address in hour.started]
            if sum(count for _, count in own) >= share():
                return CROWDED.format(count=share(), days=DAYS, wait=_wait(_forgotten(own[0][0]) - now)), 429
            hour = self._hours.setdefault(now // BUCKET, Hour())
            hour.total += 1
            hour.started[address] += 1
            return None

    def get(self, token: str) -> End | None:
        """How the game of ``token`` ended, if it did."""
        start = tokens.issued(token)
        hour = None if start is None else self._hours.get(start // BUCKET)
        return None if hour is None else hour.ends.get(_digest(token))

    def check(self, token: str, guesses: list[str]) -> str | None:
        """Why ``guesses`` may not be played on ``token`` (``None``: they may)."""
        end = self.get(token)
        if end is None or end.guesses == _digest(*guesses):
            return None
        return REPLAYED.format(how="given up" if end.gave_up else "solved")

    def record(self, token: str, guesses: list[str], gave_up: bool, now: int) -> str | None:
        """Record the game of ``token`` (checked at ``now``) as ended after ``guesses``; if it had
        ended otherwise (two requests at once), why this one may not be shown."""
        start = tokens.issued(token)
        if start is None:
            return tokens.REFUSED
        with self._lock:
            refused = self.check(token, guesses)
            if refused is not None:
                return refused
            self._forget(now)
            hour = self._hours.setdefault(start // BUCKET, Hour())
            hour.ends.setdefault(_digest(token), End(_digest(*guesses), gave_up))
            return None

    def _forget(self, now: int) -> None:
        for number in [number for number in self._hours if _forgotten(number) <= now]:
            del self._hours[number]

    def __len__(self) -> int:
        return sum(len(hour.ends) for hour in self._hours.values())


def address(host: str | None) -> str:
    """Whom a request's new games count against: its IP address, an IPv6 one by its /64 (what one
    subscriber is given), so a visitor cannot take a new share from each of its addresses."""
    try:
        ip = ipaddress.ip_address(host or "")
    except ValueError:
        return host or ""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is None:
        return str(ipaddress.ip_network((ip, 64), strict=False))
    return str(getattr(ip, "ipv4_mapped", None) or ip)


def _forgotten(number: int) -> int:
    """When the hour ``number`` is forgotten: an hour after its last token expired."""
    return (number + 2) * BUCKET + tokens.LIFE


def _wait(seconds: int) -> str:
    minutes = max(1, -(-seconds // 60))
    if minutes < 120:
        return f"{minutes} {plural(minutes, 'minute')}"
    hours = -(-minutes // 60)
    return f"{hours} {plural(hours, 'hour')}"


def _digest(*texts: str) -> bytes:
    return hashlib.blake2b("\0".join(texts).encode("utf-8"), digest_size=16).digest()
