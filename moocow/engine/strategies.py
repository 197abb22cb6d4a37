"""Strategies: given a position, choose the next guess.

Every strategy is deterministic for its parameters (``random`` too: its choice is seeded by the
position), so a decision is a function of the position and is computed once and cached.
Ties are broken the same way everywhere: candidates first, then (optionally, for games with a
notion of moving pieces) the fewest moves from the last guess, then the lowest guess index.
Strategies are found by name in ``moocow.plugins.strategy_registry``.

At the table a strategy may be given a ``budget`` (seconds, by the cost model of
``engine.cost``, so that the same position always gets the same suggestion): a heuristic whose
full scoring would exceed it scores a smaller, deterministic set of guesses and says so
(``Strategy.note``). Evaluations never set one: their totals are exact.
"""

from __future__ import annotations

import reprlib
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from moocow.engine.cost import duration, scoring_seconds
from moocow.engine.errors import MoocowError
from moocow.engine.faults import owner_of
from moocow.engine.game import Game
from moocow.engine.opening import absent_symbol_guesses, later_guesses, opening_guesses
from moocow.engine.params import Param, bind, format_spec
from moocow.engine.partitions import (
    compiled_scores,
    entropy_cost,
    entropy_ties,
    expected_size,
    partition_sizes,
    parts_cost,
    worst_case,
)
from moocow.engine.position import Position

OPENING = Param("first", str, None, "a fixed first guess, e.g. 1122")


@dataclass(frozen=True)
class QuickChoice:
    """A decision made on fewer guesses than the strategy scores, because all would exceed the budget."""

    strategy: str
    """The strategy's name."""
    scored: str
    """Which guesses were scored, e.g. ``candidates only``."""
    full_seconds: float
    """Modelled time of scoring every guess the strategy would."""

    def __str__(self) -> str:
        full = duration(self.full_seconds)
        return f"quick suggestion: {self.scored}, the full {self.strategy} would take ~{full}"


EXACT_KEY_CANDIDATES = 4096
"""Up to this many candidates a position keys the decision cache by its candidates themselves
(at most this many indices); larger ones, a few near the top of a big game, by a 16-byte digest."""


FAST_PATH_METHODS = ("decide", "choose", "choose_noted", "_tie_break", "least")
"""The methods whose definition a fast path checks (``Strategy.defined_by``)."""


class Strategy(ABC):
    """Chooses guesses; subclasses implement ``choose`` for positions with two or more candidates."""

    name: ClassVar[str]
    """The strategy's name in specs."""
    summary: ClassVar[str] = ""
    """One line for people."""
    params: ClassVar[tuple[Param, ...]] = (OPENING,)
    """The parameters a spec may set."""
    defined_by: ClassVar[dict[str, type]] = {}
    """For each method a fast path relies on (``FAST_PATH_METHODS``), the class whose definition is
    in force, set as each strategy class is defined: a shortcut that knows how a class decides
    holds only while that class's method is the one in force, not a subclass's own."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = {name: cls for name in FAST_PATH_METHODS if name in cls.__dict__}
        cls.defined_by = {**cls.defined_by, **own}

    def __init__(self, **values: Any) -> None:
        self.values: dict[str, Any] = bind(self.name, self.params, values)
        self.budget: float | None = None
        """Modelled seconds a decision may take (``None``: no limit, every decision exact)."""
        self._decisions: dict[tuple[str, bytes], tuple[int, QuickChoice | None]] = {}

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
        first = self.values.get("first")  # a plugin's strategy may have no such parameter
        if position.is_start and first is not None:
            return position.game.guess_index(first)
        if len(position.candidates) == 1:
            return int(position.candidate_guesses[0])
        return self._decided(position)[0]

    def note(self, position: Position) -> QuickChoice | None:
        """How the decision ``decide`` made in ``position`` was cut short to fit the budget, if it was."""
        decision = self._decisions.get((position.game.spec, self._position_key(position)))
        return None if decision is None else decision[1]

    def _decided(self, position: Position) -> tuple[int, QuickChoice | None]:
        key = (position.game.spec, self._position_key(position))
        decision = self._decisions.get(key)
        if decision is None:
            guess, note = self.choose_noted(position)
            decision = self._decisions[key] = (self._guess_index(position, guess), note)
        return decision

    def _guess_index(self, position: Position, guess: object) -> int:
        """``choose``'s answer, if it is a guess index: a plugin's strategy answers here, and a
        wrong answer is one line naming it rather than a wrong guess or an ``IndexError`` later."""
        count = len(position.game.guesses)
        if isinstance(guess, int | np.integer) and not isinstance(guess, bool) and 0 <= guess < count:
            return int(guess)
        shown = " ".join(reprlib.repr(guess).split())  # one line, however long or wide the value
        raise MoocowError(
            f"{owner_of(self)}: its choose returned {shown}, not a guess index (0 to {count - 1})"
        )

    @abstractmethod
    def choose(self, position: Position) -> int:
        """The guess index for a position with at least two candidates."""

    def choose_from_pair(self, pair: np.ndarray) -> int | None:
        """What ``choose`` guesses where two candidates (guess indices) are left and each tells
        the other apart, if that depends on nothing else; ``None`` if it may. Evaluation then
        settles such positions without making them (most of a large game's are small)."""
        return None

    def choose_noted(self, position: Position) -> tuple[int, QuickChoice | None]:
        """``choose``, with how it was cut short to fit the budget (by default, never)."""
        return self.choose(position), None

    def _position_key(self, position: Position) -> bytes:
        """The decision cache's key: the position itself where it is small (most are; no hashing
        to load or compute), else its digest (``_position_seed``'s bytes)."""
        if len(position.candidates) > EXACT_KEY_CANDIDATES:
            return b"#" + self._position_digest(position)
        key = b"=" + position.candidates.astype("<i8").tobytes() + position.rule_key()
        if self.depends_on_last_guess:
            key += _last_code_key(position)
        return key

    def _position_seed(self, position: Position) -> int:
        """A seed that is a function of the position alone, the same on every machine."""
        return int.from_bytes(self._position_digest(position)[:8], "little")

    def _position_digest(self, position: Position) -> bytes:
        import hashlib  # here, not at the top: a plain evaluation never hashes, nor pays for the import

        digest = hashlib.blake2b(position.candidates.astype("<i8").tobytes(), digest_size=16)
        digest.update(position.rule_key())
        if self.depends_on_last_guess:
            digest.update(_last_code_key(position))
        return digest.digest()


def _last_code_key(position: Position) -> bytes:
    """The last code played, as a decision that depends on it keys its cache (none: empty)."""
    last = position.last_code
    return b"" if last is None else b"@" + last.tobytes()


Strategy.defined_by = {name: Strategy for name in FAST_PATH_METHODS if name in Strategy.__dict__}


class FirstCandidate(Strategy):
    name = "first"
    summary = "the first remaining candidate in the game's order (the naive strategy)"

    def choose(self, position: Position) -> int:
        return int(position.candidate_guesses.min())

    def choose_from_pair(self, pair: np.ndarray) -> int | None:
        return int(pair.min()) if self.defined_by["choose"] is FirstCandidate else None


class RandomCandidate(Strategy):
    name = "random"
    summary = "a random remaining candidate, seeded"
    params = (OPENING, Param("seed", int, 0, "seed of the random choices", minimum=0))

    def choose(self, position: Position) -> int:
        generator = np.random.default_rng([self.values["seed"], self._position_seed(position)])
        return int(generator.choice(position.candidate_guesses))


class HeuristicStrategy(Strategy):
    """Greedy one-step look-ahead: score how every guess splits the candidates, keep the best."""

    @staticmethod
    @abstractmethod
    def score(sizes: np.ndarray) -> np.ndarray:
        """Each guess's score from the sizes of the parts it splits the candidates into (a column
        each): the least wins. A subclass gives a function (``score = staticmethod(worst_case)``)."""

    params = (
        OPENING,
        Param("candidates_only", bool, False, "guess only codes that are still possible"),
        Param("fewest_moves", bool, False, "among tied guesses prefer the fewest moves from the last guess"),
    )

    @property
    def depends_on_last_guess(self) -> bool:
        return bool(self.values["fewest_moves"])

    def choose(self, position: Position) -> int:
        return self.choose_noted(position)[0]

    def choose_from_pair(self, pair: np.ndarray) -> int | None:
        """Both split the pair into singletons, the best any guess does, so the tie rule takes
        the lower, unless moves break the tie (or a subclass chooses its own way)."""
        chosen_here = self.defined_by["choose_noted"], self.defined_by["_tie_break"]
        if self.values["fewest_moves"] or chosen_here != (HeuristicStrategy, HeuristicStrategy):
            return None
        return int(pair.min())

    def choose_noted(self, position: Position) -> tuple[int, QuickChoice | None]:
        candidates = position.candidate_guesses
        if len(candidates) <= len(position.table.values):
            # A candidate that splits the rest into singletons is optimal for every heuristic.
            sizes = partition_sizes(position.table, position.candidates, candidates)
            separating = candidates[sizes.max(axis=0) == 1]
            if len(separating):
                return self._tie_break(position, separating), None
        guesses, note = self._guesses_to_score(position)
        if guesses is not None and len(guesses) == 1:
            return int(guesses[0]), note
        scores = None
        if self.defined_by["least"] is HeuristicStrategy:  # scores alone decide: no sizes needed
            # No candidate tells all apart (above): the first guess that does is the one chosen,
            # unless the tie is broken otherwise (moves, or a subclass's own rule).
            own_tie_break = self.defined_by["_tie_break"] is not HeuristicStrategy
            first_perfect = not (self.values["fewest_moves"] or own_tie_break)
            scores = compiled_scores(
                position.table, position.candidates, guesses, type(self).score, first_perfect
            )
        if scores is None:
            sizes = partition_sizes(position.table, position.candidates, guesses)
            tied = self.least(sizes, type(self).score(sizes))
        else:
            tied = np.flatnonzero(scores == scores.min())
        if guesses is not None:
            tied = guesses[tied]
        is_candidate = np.zeros(position.table.guess_count, dtype=bool)
        is_candidate[candidates] = True
        preferred = tied[is_candidate[tied]]
        return self._tie_break(position, preferred if len(preferred) else tied), note

    @staticmethod
    def least(sizes: np.ndarray, scores: np.ndarray) -> np.ndarray:
        """The columns with the least score; integer scores compare exactly as they are."""
        return np.flatnonzero(scores == scores.min())

    def _guesses_to_score(self, position: Position) -> tuple[np.ndarray | None, QuickChoice | None]:
        """The guesses worth scoring (``None``: all), cut to fit the budget if there is one.

        At the start only the least guess of each class alike by symmetry (``engine.opening``):
        the same choice as scoring all. Over budget: the candidates only if they fit, otherwise
        as many of them as fit, drawn by a generator seeded with the position.
        """
        table, candidates = position.table, position.candidate_guesses
        guesses = candidates if self.values["candidates_only"] else position.legal_guesses
        if position.is_start:
            alike = opening_guesses(position.game)
        elif self.budget is None and not self.values["fewest_moves"] and not position.outside:
            # (moves are not symmetric; nor is a code outside the guesses, which no index names)
            width = table.guess_count if guesses is None else len(guesses)
            played = tuple(guess for guess, _ in position.history)
            alike = later_guesses(position.game, played, len(candidates) * width)
            renamed = absent_symbol_guesses(position, len(candidates) * width)
            if renamed is not None:
                alike = np.flatnonzero(renamed) if alike is None else alike[renamed[alike]]
        else:
            alike = None
        if alike is not None:
            guesses = alike if guesses is None else np.intersect1d(alike, guesses)
        width = table.guess_count if guesses is None else len(guesses)
        full = scoring_seconds(table, len(candidates), width)
        if self.budget is None or full <= self.budget:
            return guesses, None
        if guesses is None and scoring_seconds(table, len(candidates), len(candidates)) <= self.budget:
            return candidates, QuickChoice(self.name, "candidates only", full)
        pool = candidates if guesses is None else guesses
        pair = scoring_seconds(table, len(candidates), 1)
        fitting = int(max(1, min(len(pool) - 1, self.budget // pair)))
        seed = self._position_seed(position)
        sample = np.sort(np.random.default_rng(seed).choice(pool, size=fitting, replace=False))
        noun = "candidates" if guesses is None or self.values["candidates_only"] else "guesses"
        return sample, QuickChoice(
            self.name, f"{fitting:,} of the {len(pool):,} {noun}, a seeded sample", full
        )

    def _tie_break(self, position: Position, tied: np.ndarray) -> int:
        last = position.last_code
        if self.values["fewest_moves"] and last is not None and len(tied) > 1:
            game = position.game
            moves = game.move_distance(last, game.guesses[tied])
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
    least = staticmethod(entropy_ties)


class Parts(HeuristicStrategy):
    name = "parts"
    summary = "Kooi: the most distinct answers"
    score = staticmethod(parts_cost)


def check_opening(strategy: Strategy, game: Game) -> None:
    """Fail early, in one line, when a strategy's fixed first guess is not a guess of ``game``."""
    if strategy.values.get("first") is not None:
        game.guess_index(strategy.values["first"])
