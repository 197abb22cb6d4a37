"""A rule on guesses that changes as the game goes on: Wordle's hard mode.

Most games let any guess be played at any time. Some narrow the guesses with each answer: in
Wordle's hard mode a guess must keep what earlier answers revealed. Such a rule is a function of
each (guess, answer) pair alone, so the guesses legal after a history are the AND of one mask per
pair, which the position carries (``Position.allowed``) and every strategy, search and referee
reads. Every secret still possible is always legal (it agrees with every answer), so a rule never
leaves a player without a guess.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from moocow.engine.faults import guard_own_methods


class GuessRule(ABC):
    """Which guesses may follow one guess and its answer."""

    name: str = "rule"
    """How people call the rule, for messages (``hard mode``)."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        """A game's own rule is its plugin's code: whatever its methods raise is one line."""
        super().__init_subclass__(**kwargs)
        guard_own_methods(cls, ("after", "why_not", "state_key"), "guess_rule.")

    @abstractmethod
    def after(self, code: np.ndarray, feedback: int) -> np.ndarray:
        """Mask over the game's guesses: those still legal once ``code`` got ``feedback``."""

    @abstractmethod
    def why_not(self, code: np.ndarray, feedback: int, guess: np.ndarray) -> str | None:
        """Why ``guess`` breaks the rule after ``code`` got ``feedback`` (``None``: it does not)."""

    def state_key(self, allowed: np.ndarray | None) -> bytes:
        """The rule's state as a cache key: caches keyed by the candidates alone would mix up
        positions with the same candidates and different legal guesses."""
        return b"" if allowed is None else b"!" + np.packbits(allowed).tobytes()
