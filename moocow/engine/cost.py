"""How long scoring will take, from the game's sizes alone: a cheap model, not a measurement.

Every heuristic decision scores guesses against candidates, one feedback lookup and one count per
(candidate, guess) pair, so its time is its number of pairs times a cost per pair. The costs
were calibrated on the 2-core machine the project is measured on (numpy, no numba), against the
evaluations ``bench/evaluations.py`` times:

- a pair read from the held table and counted: ``HELD_NS`` plus ``VALUE_NS`` per feedback value
  the game declares (``MANY_VALUES_NS`` in all past ``FEW_VALUES``, counted compiled);
- a pair computed from the game's kernel and counted, when the table does not fit: ``KERNEL_NS``
  plus the same count;
- plus, computed from the kernel, ``GUESS_NS`` per guess and tile for the kernel's work on the
  guesses alone, which dominates small candidate sets (many guesses against a few candidates:
  its cost varies several times from game to game, and a value between is used);
- building the held table: ``BUILD_NS`` a cell.

A whole evaluation scores, at each level of the strategy's tree, every secret still in play
against every guess (against the node's candidates with ``candidates_only``), about
``LEVELS_FACTOR * log(secrets) / log(values)`` levels deep, plus a fixed cost per decision. Checked
against measured evaluations (bottles, Mastermind and digits of several sizes): within a factor
of 2 either way, which is what telling minutes from hours needs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from moocow.engine.partitions import FEW_VALUES
from moocow.engine.table import FeedbackTable

HELD_NS = 0.3
"""Nanoseconds to read one pair from the held table."""
KERNEL_NS = 1.0
"""Nanoseconds to compute one pair's feedback from the game's kernel, in tiles."""
GUESS_NS = 600.0
"""Nanoseconds per guess and tile of the kernel's own preparation of the guesses."""
VALUE_NS = 0.11
"""Nanoseconds per pair and per feedback value to count the parts."""
MANY_VALUES_NS = 2.0
"""Nanoseconds per pair to count the parts of a game of many values (Wordle's), compiled."""
BUILD_NS = 3.5
"""Nanoseconds per cell to build the held table."""
LEVELS_FACTOR = 1.4
"""Levels scored, per ``log(secrets) / log(values)``: answers are far from equally likely (fitted
on bottles, Mastermind and digits evaluations of several sizes)."""
DECISION_SECONDS = 100e-6
"""Fixed cost of one decision of a heuristic (numpy calls on a small set)."""


def pair_seconds(table: FeedbackTable) -> float:
    """Seconds to score one (candidate, guess) pair in this game."""
    read = HELD_NS if table.in_memory else KERNEL_NS
    if len(table.values) > FEW_VALUES:  # counted once per cell, whatever the values (``engine.counting``)
        return (read + MANY_VALUES_NS) * 1e-9
    return (read + VALUE_NS * len(table.values)) * 1e-9


def scoring_seconds(table: FeedbackTable, candidates: int, guesses: int) -> float:
    """Modelled seconds of one decision scoring ``guesses`` against ``candidates``."""
    kernel_calls = guesses * table.tile_count(candidates, guesses)
    return candidates * guesses * pair_seconds(table) + kernel_calls * GUESS_NS * 1e-9 + DECISION_SECONDS


@dataclass(frozen=True)
class EvaluationCost:
    """What evaluating a strategy over every secret will cost, by the model."""

    seconds: float
    """Modelled wall-clock time on the reference machine."""
    secrets: int
    """Secrets in play at the first level."""
    guesses: int
    """Guesses scored against each secret still in play at each level (0: the strategy scores none)."""
    levels: int
    """Levels of the tree modelled beyond the opening."""
    table_bytes: int
    """Size the whole feedback table would have."""
    held: bool
    """Whether that table is held in memory (otherwise feedback is computed as needed)."""
    candidates_only: bool = False
    """Whether only candidates are scored (each level's sets against themselves)."""

    def reason(self) -> str:
        """Why it takes that long, for people: numbers in words (``1.6 billion``), and no
        parenthesis, so that a message may put the whole reason in one."""
        if not self.guesses:
            return f"{self.secrets:,} secrets, each played to the end"
        per_level = self.secrets * self.guesses
        where = (
            f"from a {gigabytes(self.table_bytes)} table in memory"
            if self.held
            else f"each computed as needed, as the whole table would take {gigabytes(self.table_bytes)}"
        )
        if self.candidates_only:
            return f"{self.secrets:,} secrets, each set of candidates scored against itself, {where}"
        return (
            f"{self.secrets:,} secrets x {self.guesses:,} guesses to score at each of ~{self.levels} levels, "
            f"{in_words(per_level)} pairs a level, {where}"
        )


def evaluation_cost(
    table: FeedbackTable, scores: bool, candidates_only: bool, opening: int
) -> EvaluationCost:
    """The modelled cost of evaluating a strategy on ``table``'s game.

    ``scores``: whether the strategy scores guesses (the heuristics) or just picks one (``first``);
    ``opening``: how many guesses it scores at the first guess (fewer when symmetry applies).
    """
    secrets, guesses = table.secret_count, table.guess_count
    values = max(2, len(table.values))
    levels = max(1, round(LEVELS_FACTOR * math.log(max(secrets, 2)) / math.log(values)))
    seconds = DECISION_SECONDS * secrets
    cells = table.secret_count * table.guess_count
    if table.in_memory:
        seconds += cells * BUILD_NS * 1e-9
    width = 0
    if scores:
        pair = pair_seconds(table)
        seconds += secrets * opening * pair
        if candidates_only:
            # Each level's sets are about ``values`` times smaller: sum |C|^2 is a geometric series.
            width = max(1, secrets // values)
            seconds += secrets * width * pair * values / (values - 1)
        else:
            width = guesses
            seconds += secrets * guesses * levels * pair
    return EvaluationCost(seconds, secrets, width, levels, cells, table.in_memory, candidates_only)


def in_words(number: float) -> str:
    """A large count for people: 45,000, 1.6 million, 320 million, 1.6 billion, 13 trillion."""
    for size, name in ((10**12, "trillion"), (10**9, "billion"), (10**6, "million")):
        if number >= size:
            value = number / size
            return f"{value:.1f} {name}" if value < 9.95 else f"{value:,.0f} {name}"
    return f"{number:,.0f}"


def gigabytes(size: int) -> str:
    """Bytes for people: 1.6 GB, 132 GB, 13 TB."""
    if size >= 10**12:
        return f"{size / 10**12:.0f} TB"
    if size >= 10**9:
        return f"{size / 10**9:.1f} GB" if size < 10**10 else f"{size / 10**9:.0f} GB"
    return f"{size / 10**6:.0f} MB"


def duration(seconds: float) -> str:
    """A rough duration: 40 s, 3 min, 2 hours, 5 days."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.0f} hours"
    return f"{seconds / 86400:.0f} days"
