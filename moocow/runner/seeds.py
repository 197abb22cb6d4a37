"""Where a run's seed comes from, kept where students cannot read it.

The seed decides every secret: a student who knows it can precompute them all. A command line is
visible to every process on the machine (``ps``, ``/proc``), so a secret seed comes from a file
(``--seed-file``, its first line) or the environment (``MOOCOW_SEED``), or, for a tournament given
none, from the operating system (``secrets.randbelow``), reported only once the run is over.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

from moocow.engine.errors import MoocowError
from moocow.engine.inputs import open_regular
from moocow.engine.seeds import LONGEST, checked_seed

SEED_VARIABLE = "MOOCOW_SEED"
"""The environment variable that may hold the seed."""
FRESH_BELOW = 2**63
"""A fresh seed is drawn from ``range(FRESH_BELOW)``."""
WHOLE = re.compile(r"[+-]?[0-9]+")
"""A whole number as a seed is written: digits, optionally signed."""
FIRST_LINE_BYTES = 4096
"""Most bytes read from a seed file: a seed is one short line."""
GUESSABLE_BELOW = 10**12
"""Seeds below this can be found by trying each: a player that has seen a few secrets deals them
all again for every seed up to it (``random.Random(seed)``: some 10^5 seeds a second), then knows
the rest."""
FINGERPRINT_SALT = b"moocow seed fingerprint v1"
"""What a fingerprint's hash is salted with, so that it is of no other use of the seed."""
FINGERPRINT_ROUNDS = 100_000
"""PBKDF2 rounds of a fingerprint (some 0.07 s): trying every seed up to ``GUESSABLE_BELOW``
against a fingerprint takes far longer than against the secrets it deals."""
FINGERPRINT_DIGITS = 8
"""Hexadecimal digits of a fingerprint: 32 bits, enough to tell runs apart, too few to pin a seed."""
SECRET_SOURCES = frozenset({"--seed-file", SEED_VARIABLE, "the tournament file"})
"""Where a seed comes from that is secret: it is shown and recorded only as its fingerprint."""


@lru_cache(maxsize=64)
def fingerprint(seed: int) -> str:
    """A short text that tells two seeds apart and shows nothing of either: a salted, slow hash
    (PBKDF2-HMAC-SHA256) of the seed's digits, cut to ``FINGERPRINT_DIGITS`` hexadecimal digits."""
    digest = hashlib.pbkdf2_hmac("sha256", str(seed).encode("ascii"), FINGERPRINT_SALT, FINGERPRINT_ROUNDS)
    return digest.hex()[:FINGERPRINT_DIGITS]


def shown_seed(seed: int, secret: bool) -> str:
    """A seed as every output shows it: its digits, or for a secret one its fingerprint."""
    return f"fingerprint {fingerprint(seed)}" if secret else str(seed)


class Source(StrEnum):
    """Where a seed came from, as a run reports it."""

    OPTION = "--seed"
    """The command line: visible to other processes."""
    FILE = "--seed-file"
    """The first line of a file."""
    ENVIRONMENT = SEED_VARIABLE
    """The environment variable."""
    CONFIGURED = "the tournament file"
    """The tournament file's ``seed``."""
    RESUMED = "the results file"
    """The header of the results file being resumed."""
    FRESH = "drawn at random"
    """The operating system's generator, when none was given."""
    COURSE = "the course default"
    """``bacrunner.py``'s 888: public."""


@dataclass(frozen=True)
class Seed:
    """A seed and where it came from."""

    value: int
    """The seed."""
    source: Source
    """Where it came from."""

    @property
    def secret(self) -> bool:
        """Whether the seed is secret (a file, the environment, a tournament file): then no output,
        page or results file shows it, only its ``fingerprint``."""
        return self.source in SECRET_SOURCES

    def warning(self, outside_players: bool = True) -> str | None:
        """Why this seed is not secret, or ``None`` when it is; a short seed matters only where
        players outside the engine play (``outside_players``)."""
        keep = f"give {Source.FILE} or {SEED_VARIABLE} to keep it secret"
        if self.source is Source.OPTION:
            return f"warning: --seed {self.value} is on the command line, visible to other processes; {keep}"
        if self.source is Source.COURSE:
            return f"warning: seed {self.value} is public: a student can precompute every secret; {keep}"
        if outside_players and self.value < GUESSABLE_BELOW and self.source is not Source.FRESH:
            digits = len(str(GUESSABLE_BELOW))
            named = f"the seed from {self.source}" if self.secret else f"seed {self.value}"
            return (
                f"warning: {named} is short: a player that has seen a few of its secrets "
                "can find it by trying every seed up to it, then knows the rest; "
                f"use one of {digits} digits or more"
            )
        return None


def choose_seed(
    option: int | None = None,
    seed_file: str | os.PathLike[str] | None = None,
    configured: Any = None,
    fallback: Seed | None = None,
) -> Seed:
    """``--seed`` > ``--seed-file`` > ``MOOCOW_SEED`` > the tournament file's > ``fallback`` > a fresh one.

    ``--seed`` and ``--seed-file`` together are refused: the file would be ignored, silently."""
    if option is not None and seed_file is not None:
        raise MoocowError("give the seed once: --seed or --seed-file, not both")
    if option is not None:
        return Seed(checked_seed(option, "--seed"), Source.OPTION)
    if seed_file is not None:
        return Seed(read_seed_file(seed_file), Source.FILE)
    text = os.environ.get(SEED_VARIABLE)
    if text is not None:
        return Seed(_whole(text, SEED_VARIABLE), Source.ENVIRONMENT)
    if configured is not None:
        if isinstance(configured, bool) or not isinstance(configured, int):
            raise MoocowError(f"seed must be a whole number, not {configured!r}")
        return Seed(checked_seed(configured, "the tournament file's seed"), Source.CONFIGURED)
    if fallback is not None:
        return fallback
    return Seed(secrets.randbelow(FRESH_BELOW), Source.FRESH)


def given_seed(seed_file: str | os.PathLike[str] | None = None) -> int | None:
    """A secret seed given to check a results file with (``verify``): ``seed_file``'s, else
    ``MOOCOW_SEED``'s, else ``None``."""
    if seed_file is not None:
        return read_seed_file(seed_file)
    text = os.environ.get(SEED_VARIABLE)
    return None if text is None else _whole(text, SEED_VARIABLE)


def read_seed_file(path: str | os.PathLike[str]) -> int:
    """The whole number on the first line of a seed file; missing, empty or anything else is one line."""
    shown = f"seed file {str(path)!r}"
    try:
        with open_regular(path, "seed file") as file:
            first = file.read(FIRST_LINE_BYTES).split(b"\n", 1)[0]
    except OSError as error:
        raise MoocowError(f"cannot read {shown}: {error.strerror or error}") from None
    try:
        text = first.decode("utf-8")
    except UnicodeDecodeError:
        raise MoocowError(f"{shown} is not UTF-8 text") from None
    return _whole(text, shown)


def _whole(text: str, where: str) -> int:
    """A seed written as a whole number, or one line saying what ``where`` holds instead."""
    stripped = text.strip()
    if not stripped:
        raise MoocowError(f"{where} is empty: its first line should be the seed, a whole number")
    if not WHOLE.fullmatch(stripped):
        shown = stripped if len(stripped) <= 20 else stripped[:17] + "..."
        raise MoocowError(f"{where} should hold a whole number, not {shown!r}")
    if len(stripped.lstrip("+-")) > LONGEST:
        raise MoocowError(f"{where}: a seed has at most {LONGEST} digits")
    return checked_seed(int(stripped), where)
