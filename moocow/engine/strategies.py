"""Strategies: given a position, choose the next guess.

Every strategy is deterministic for its parameters (``random`` too: its choice is seeded by the
position), so a decision is a function of the position and is computed once and cached.
Ties are broken the same way everywhere: candidates first, then (optionally, for games with a
notion of moving pieces) the fewest moves from the last guess, then the lowest guess index.
Strategies are found by name in ``moocow.engine.registry``.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.engine.params import Param, bind, format_spec
from moocow.engine.partitions import entropy_cost, expected_size, partition_sizes, parts_cost, worst_case
from moocow.engine.position import Position

OPENING = Param("first", str, None, "a fixed first guess, e.g. 1122")


class Strategy(ABC):
    """Chooses guesses; subclasses implement ``choose`` for positions with two or more candidates."""

    name: ClassVar[str]
    """The strategy's name in specs."""
    summary: ClassVar[str] = ""
    """One line for people."""
    params: ClassVar[tuple[Param, ...]] = (OPENING,)
    """The parameters a spec may set."""

    def __init__(self, **values: Any) -> None:
        self.values: dict[str, Any] = bind(self.name, self.params, values)
        self._decisions: dict[tuple[str, bytes], int] = {}

    @property
    def spec(self) -> str:
        """The canonical spec that rebuilds this strategy, e.g. ``minmax:first=1122``."""
        return format_spec(self.name, self.values, self.params)

    def __repr__(self) -> str:
        return f"<Strategy {self.spec}>"

    @property
    def depends_on_last_guess(self) -> bool:
        """Whether a decision depends on the last guess as well as on the candidates."""
        return False

    def decide(self, position: Position) -> int:
        """The guess index to play in ``position`` (cached: positions reached twice are decided once)."""
        if not position.history and self.values["first"] is not None:
            return position.game.guess_index(self.values["first"])
        if len(position.candidates) == 1:
            return int(position.candidate_guesses[0])
        key = (position.game.spec, self._position_key(position))
        guess = self._decisions.get(key)
        if guess is None:
            guess = self._decisions[key] = int(self.choose(position))
        return guess

    @abstractmethod
    def choose(self, position: Position) -> int:
        """The guess index for a position with at least two candidates."""

    def _position_key(self, position: Position) -> bytes:
        digest = hashlib.blake2b(position.candidates.astype("<i8").tobytes(), digest_size=16)
        if self.depends_on_last_guess:
            digest.update(int(position.last_guess or -1).to_bytes(8, "little", signed=True))
        return digest.digest()


class FirstCandidate(Strategy):
    name = "first"
    summary = "the first remaining candidate in the game's order (the naive strategy)"

    def choose(self, position: Position) -> int:
        return int(position.candidate_guesses.min())


class RandomCandidate(Strategy):
    name = "random"
    summary = "a random remaining candidate, seeded"
    params = (OPENING, Param("seed", int, 0, "seed of the random choices", minimum=0))

    def choose(self, position: Position) -> int:
        position_seed = int.from_bytes(self._position_key(position)[:8], "little")
        generator = np.random.default_rng([self.values["seed"], position_seed])
        return int(generator.choice(position.candidate_guesses))


class HeuristicStrategy(Strategy):
    """Greedy one-step look-ahead: score how every guess splits the candidates, keep the best."""

    score: ClassVar[Callable[[np.ndarray], np.ndarray]]
    params = (
        OPENING,
        Param("candidates_only", bool, False, "guess only codes that are still possible"),
        Param("fewest_moves", bool, False, "among tied guesses prefer the fewest moves from the last guess"),
    )

    @property
    def depends_on_last_guess(self) -> bool:
        return bool(self.values["fewest_moves"])

    def choose(self, position: Position) -> int:
        candidates = position.candidate_guesses
        if len(candidates) <= len(position.table.values):
            # A candidate that splits the rest into singletons is optimal for every heuristic.
            sizes = partition_sizes(position.table, position.candidates, candidates)
            separating = candidates[sizes.max(axis=0) == 1]
            if len(separating):
                return self._tie_break(position, separating)
        guesses = candidates if self.values["candidates_only"] else None
        scores = type(self).score(partition_sizes(position.table, position.candidates, guesses))
        tied = np.flatnonzero(scores == scores.min())
        if guesses is not None:
            return self._tie_break(position, guesses[tied])
        is_candidate = np.zeros(position.table.guess_count, dtype=bool)
        is_candidate[candidates] = True
        preferred = tied[is_candidate[tied]]
        return self._tie_break(position, preferred if len(preferred) else tied)

    def _tie_break(self, position: Position, tied: np.ndarray) -> int:
        last = position.last_guess
        if self.values["fewest_moves"] and last is not None and len(tied) > 1:
            game = position.game
            moves = game.move_distance(game.guesses[last], game.guesses[tied])
            if moves is None:
                raise MoocowError(f"{self.name}: fewest_moves needs a game with moves; {game.spec} has none")
            tied = tied[moves == moves.min()]
        return int(tied.min())


class Minmax(HeuristicStrategy):
    name = "minmax"
    summary = "Knuth: the smallest worst-case remaining set"
    score = staticmethod(worst_case)


class Expected(HeuristicStrategy):
    name = "expected"
    summary = "Irving: the smallest expected remaining set"
    score = staticmethod(expected_size)


class Entropy(HeuristicStrategy):
    name = "entropy"
    summary = "Neuwirth: the most information (entropy of the answers)"
    score = staticmethod(entropy_cost)


class Parts(HeuristicStrategy):
    name = "parts"
    summary = "Kooi: the most distinct answers"
    score = staticmethod(parts_cost)


def check_opening(strategy: Strategy, game: Game) -> None:
    """Fail early, in one line, when a strategy's fixed first guess is not a guess of ``game``."""
    if strategy.values["first"] is not None:
        game.guess_index(strategy.values["first"])
