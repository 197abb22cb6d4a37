"""Where a run's seed comes from, kept where students cannot read it.

The seed decides every secret: a student who knows it can precompute them all. A command line is
visible to every process on the machine (``ps``, ``/proc``), so a secret seed comes from a file
(``--seed-file``, its first line) or the environment (``MOOCOW_SEED``), or, for a tournament given
none, from the operating system (``secrets.randbelow``), reported only once the run is over.
"""

from __future__ import annotations

import os
import re
import secrets
from dataclasses import dataclass
from enum import StrEnum
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
            return (
                f"warning: seed {self.value} is short: a player that has seen a few of its secrets "
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
