"""What a game is to the engine: ordered code spaces plus a vectorised feedback function.

The engine never looks inside a code. A code is a row of small integers (``uint8``); a feedback
is one small integer below ``feedback_model.size`` (``engine.feedback`` says what it means).
A game subclass supplies the spaces, the feedback kernel and the text
forms people type; everything else (candidate sets, tables, strategies, evaluation) is generic.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from moocow.engine.checks import (
    MAX_CODES,
    built,
    checked_codes,
    checked_feedback,
    checked_format,
    checked_length,
    checked_parse,
)
from moocow.engine.errors import MoocowError, quoted
from moocow.engine.faults import guard_own_methods
from moocow.engine.feedback import Counts, FeedbackModel
from moocow.engine.params import Param, bind, format_spec
from moocow.engine.pieces import derive_pieces

if TYPE_CHECKING:
    from moocow.engine.guess_rule import GuessRule
    from moocow.engine.symmetry import GuessClasses
    from moocow.engine.table import FeedbackTable

Codes = np.ndarray
"""A 2-D ``uint8`` array, one code per row."""

_CHECKED_METHODS: dict[str, Callable[[Any], Any]] = {
    "feedback": checked_feedback,
    "parse_code": checked_parse,
    "format_code": checked_format,
}
"""A game's own methods whose answers the engine checks as they are handed over."""
GUARDED_METHODS = (
    "code_length", "build_secrets", "build_guesses", "feedback_form", "move_distance",
    "feedback_values", "feedback_model", "guess_rule", "not_a_guess", "format_feedback",
    "parse_feedback", "score", "guess_index", "pieces",
)  # fmt: skip
"""The rest of what a game may supply or override: whatever they raise is one line naming the
game (``engine.faults``)."""


@dataclass(frozen=True)
class FeedbackForm:
    """A feedback the engine can compute itself, in compiled code, described as data.

    ``positional``: count the places holding the same symbol; ``symbols``: count the symbols two
    codes share, with multiplicity, over ``symbols`` symbols; both: ``matches * length + common``
    (bulls and cows packed in base ``length + 1``, Mastermind's black and white pegs too). A game
    whose ``feedback`` is one of these says so (``Game.feedback_form``) and the greedy engine
    scores it without building feedback tables (``engine.kernel.greedy``); the result must be the same.
    """

    positional: bool
    """Whether positional matches are counted."""
    symbols: int | None
    """The alphabet's size when common symbols are counted, else ``None``."""


@dataclass(eq=False)
class GameCaches:
    """What the engine works out once per game and keeps with it (``Game.caches``): the game owns
    it, and no other module writes onto a game."""

    feedback_table: FeedbackTable | None = None
    """The game's table (``table.FeedbackTable.for_game``), made again when the budget changes."""
    opening_searched: bool = False
    """Whether ``opening_guesses`` has been looked for (it may be ``None``: symmetry does not apply)."""
    opening_guesses: np.ndarray | None = None
    """The least first guess of each class alike by symmetry (``opening.opening_guesses``)."""
    guess_classes: GuessClasses | None = None
    """The classes of guesses alike under relabelling (``opening.later_guesses``)."""
    win_checked: bool = False
    """Whether only the secret itself has been seen to win (``checks.check_winning_answer``)."""
    symmetries_checked: bool = False
    """Whether the symmetries in force were seen to keep the feedback (``checks.check_symmetries``)."""


class Game(ABC):
    """A code-breaking game at one setting of its parameters.

    Subclasses set ``name``, ``summary``, ``params`` and ``feedback_fields`` and implement
    ``code_length``, ``build_secrets``, ``feedback``, ``parse_code`` and ``format_code``.
    By default feedback is a tuple of counts, one per field (``("black", "white")``), each between
    0 and ``code_length``, packed into one integer in base ``code_length + 1`` (``feedback.Counts``);
    a game may declare any other finite feedback by overriding ``feedback_model`` (Wordle's marks).
    """

    name: ClassVar[str]
    """The game's name in specs, e.g. ``mastermind``."""
    summary: ClassVar[str] = ""
    """One line for ``moocow games``."""
    params: ClassVar[tuple[Param, ...]] = ()
    """The parameters a spec may set."""
    code_noun: ClassVar[str] = "code"
    """What people call one code of this game (``arrangement``, ``word``), for messages."""
    feedback_fields: ClassVar[tuple[str, ...]] = ("bulls", "cows")
    """Names of the feedback counts, most significant first; the first one is the win count."""

    symmetries: ClassVar[frozenset[str]] = frozenset()
    """Relabellings applied to guess and secret alike that leave every feedback unchanged:
    ``"positions"`` (any permutation of the places), ``"symbols"`` (any renaming of the symbols
    ``0..`` of the codes). Exact searches try one guess per class; the default claims none."""

    feedback_defined_by: ClassVar[type[Game] | None] = None
    """The class whose ``feedback`` is in force, set as each game class is defined. A class that
    computes its own feedback faster elsewhere (``feedback_form``, its feedback model's values)
    does so only while this is itself: a subclass scoring its own way turns that off."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Every game's own ``feedback``, ``parse_code`` and ``format_code`` are checked as they
        answer (``engine.checks``), its other methods guarded (``engine.faults``);
        ``feedback_defined_by`` is set."""
        super().__init_subclass__(**kwargs)
        if "feedback" in cls.__dict__:
            cls.feedback_defined_by = cls
        for name, check in _CHECKED_METHODS.items():
            own = cls.__dict__.get(name)
            if callable(own) and not getattr(own, "is_checked", False):
                setattr(cls, name, check(own))
        guard_own_methods(cls, GUARDED_METHODS)

    def __init__(self, **values: Any) -> None:
        self.values: dict[str, Any] = bind(self.name, self.params, values)
        """The parameter values, defaults filled in."""

    @classmethod
    def from_arguments(cls, arguments: Mapping[str, Any]) -> Game:
        """Build the game from raw spec arguments (text or typed values)."""
        return cls(**arguments)

    @property
    def spec(self) -> str:
        """The canonical spec that rebuilds this game, e.g. ``bottles:n=7``."""
        return format_spec(self.name, self.values, self.params)

    def __repr__(self) -> str:
        return f"<Game {self.spec}>"

    # ------------------------------------------------------------------ what a game supplies
    @property
    @abstractmethod
    def code_length(self) -> int:
        """Symbols per code (pegs, digits, letters, bottles)."""

    @abstractmethod
    def build_secrets(self) -> Codes:
        """Every possible secret, in the game's canonical order (called once, then cached)."""

    def build_guesses(self) -> Codes:
        """Every allowed guess in canonical order; by default the secrets themselves."""
        return self.secrets

    @abstractmethod
    def feedback(self, guesses: Codes, secrets: Codes) -> np.ndarray:
        """Feedback of each guess against each secret: a ``(len(guesses), len(secrets))`` array of
        whole numbers below ``feedback_model.size``; not assumed symmetric."""

    @abstractmethod
    def parse_code(self, text: str) -> np.ndarray:
        """Read a code as people type it; raise ``MoocowError`` saying what is wrong."""

    @abstractmethod
    def format_code(self, code: np.ndarray) -> str:
        """Write a code as people read it; ``parse_code`` reads it back."""

    def feedback_form(self) -> FeedbackForm | None:
        """``feedback`` as data the compiled engine computes itself (``None``: only the numpy kernel)."""
        return None

    def move_distance(self, previous: np.ndarray, guesses: Codes) -> np.ndarray | None:
        """Effort of turning ``previous`` into each guess (``None``: the game has no such notion)."""
        return None

    def pieces(self) -> Sequence[str] | None:
        """What a person taps for each symbol ``0, 1, ...`` on the phone page (``"7"``, ``"red"``),
        so that a guess is entered by taps; ``format_code`` must write a code as its pieces, one
        after another or with a separator (``red-blue``). By default read from ``format_code`` when
        the symbols are at most 36 of at most 3 characters (``engine.pieces``); ``None``: the page
        asks for the guess to be typed. Override it to offer more, or other, keys."""
        return derive_pieces(self)

    # ------------------------------------------------------------------ spaces, cached
    @cached_property
    def caches(self) -> GameCaches:
        """The engine's work on this game, kept with it (``GameCaches``)."""
        return GameCaches()

    @cached_property
    def secrets(self) -> Codes:
        """The secret space (built on first use)."""
        return checked_codes(
            built(self, "build_secrets", self.build_secrets), checked_length(self), f"{self.spec} secrets"
        )

    @cached_property
    def guesses(self) -> Codes:
        """The guess space (built on first use); a superset of the secrets, each written so that
        ``parse_code`` reads it back (checked at both ends: a player's guesses are read so)."""
        offered = built(self, "build_guesses", self.build_guesses)
        if offered is self.secrets:  # the default: already checked
            guesses = offered
        else:
            guesses = checked_codes(offered, checked_length(self), f"{self.spec} guesses")
        for code in (guesses[0], guesses[-1]):
            self._check_read_back(code)
        return guesses

    def _check_read_back(self, code: np.ndarray) -> None:
        """``parse_code`` reads ``code`` back from ``format_code``'s text, or a plugin's fault is said."""
        text = self.format_code(code)
        try:
            read = self.parse_code(text)
        except MoocowError as error:
            problem = f"which it refuses: {error}"
        else:
            if np.array_equal(read, code):
                return
            problem = f"which it reads as {read.tolist()}"
        raise MoocowError(
            f"{self.spec}: parse_code does not read back what format_code writes: "
            f"{code.tolist()} is written {text!r}, {problem}"
        )

    @cached_property
    def symmetries_in_force(self) -> frozenset[str]:
        """The declared ``symmetries`` that hold: those the feedback is invariant under (marks move
        with their places) and under which the secrets, as well as the guesses, are closed (a list
        of answers inside a larger list of guesses seldom is). Every search that drops guesses
        alike by relabelling reads this, not the declaration."""
        model = self.feedback_model
        kept = frozenset(self.symmetries) & model.invariant_under
        if self.guesses is self.secrets:
            return kept  # the guesses' closure is checked where the classes are counted
        known = {code.tobytes() for code in self.secrets}
        return frozenset(kind for kind in kept if _closed(self.secrets, kind, self.symbol_count, known))

    @cached_property
    def symbol_count(self) -> int:
        """One more than the highest symbol of any code: the size of the alphabet codes index."""
        return max(int(self.guesses.max()), int(self.secrets.max())) + 1

    @cached_property
    def secret_guess_index(self) -> np.ndarray:
        """For each secret, its index in the guess space."""
        if self.guesses is self.secrets:
            return np.arange(len(self.secrets), dtype=np.int64)
        lookup = self._guess_lookup
        missing = [code for code in self.secrets if code.tobytes() not in lookup]
        if missing:
            raise MoocowError(f"{self.spec}: secret {self.format_code(missing[0])} is not a guess")
        return np.fromiter((lookup[code.tobytes()] for code in self.secrets), np.int64)

    @cached_property
    def _guess_lookup(self) -> dict[bytes, int]:
        return {code.tobytes(): index for index, code in enumerate(self.guesses)}

    def guess_index(self, text: str) -> int:
        """The index of a typed guess in the guess space, or a one-line reason it is not a guess."""
        code = self.parse_code(text)
        index = self._guess_lookup.get(np.asarray(code, dtype=np.uint8).tobytes())
        if index is None:
            raise MoocowError(self.not_a_guess(text))
        return index

    def not_a_guess(self, text: str) -> str:
        """Why a well-formed code is not a guess (a game whose guesses are a list names the list)."""
        return f"{quoted(text)} is not a valid guess in {self.spec}"

    # ------------------------------------------------------------------ feedback values
    @cached_property
    def feedback_model(self) -> FeedbackModel:
        """What the feedback values are (``engine.feedback``): by default the counts of
        ``feedback_fields`` packed in base ``code_length + 1``; a game scored otherwise (a mark per
        place, as Wordle) returns its own model. Every layer reads feedback through it."""
        length = checked_length(self)
        return Counts(self.feedback_fields, length, self.feedback_values(), self.feedback_symmetric)

    feedback_symmetric: ClassVar[bool] = False
    """Whether the game's counts are the same with guess and secret swapped (bulls and cows are);
    a fast path that swaps them checks ``feedback_model.symmetric``."""

    def feedback_values(self) -> list[int]:
        """The packed counts that can occur (a ``Counts`` game may narrow them; by default: counts
        that add up to at most the length). Partitions are counted over these values."""
        return list(Counts(self.feedback_fields, checked_length(self)).values())

    def score(self, guess: int, secret: int) -> int:
        """The feedback of one guess against one secret, both given as indices (of ``guesses`` and
        of ``secrets``): every caller holds indices (a deal's secret, a typed guess looked up, a
        strategy's decision), and indices are what the feedback table is read by, so no code is
        copied to score a pair. Looked up in the game's feedback table (``caches.feedback_table``,
        made by ``FeedbackTable.for_game``, as the referee does before a round) where its rows are
        held or small enough to build at once, else ``feedback`` on the one pair: the same value
        either way. Every place that scores one pair
        asks this; whether it wins is ``position.wins``."""
        table = self.caches.feedback_table
        if table is not None:
            value = table.held_value(guess, secret)
            if value is not None:
                return value
        return int(self.feedback(self.guesses[guess : guess + 1], self.secrets[secret : secret + 1])[0, 0])

    @property
    def feedback_bound(self) -> int:
        """Exclusive upper bound of the feedback values (``feedback_model.size``)."""
        return self.feedback_model.size

    @property
    def win(self) -> int:
        """The feedback of a guess equal to the secret."""
        return self.feedback_model.win

    def format_feedback(self, value: int) -> str:
        """A feedback value as people read it (``feedback_model.format``)."""
        return self.feedback_model.format(value)

    def parse_feedback(self, text: str) -> int:
        """Feedback as typed (``feedback_model.parse``), or a one-line reason it is wrong."""
        return self.feedback_model.parse(text)

    @property
    def guess_rule(self) -> GuessRule | None:
        """Which guesses stay legal as the game goes on (``None``: every guess, always)."""
        return None


def _closed(codes: Codes, kind: str, symbol_count: int, known: set[bytes]) -> bool:
    """Whether ``codes`` map onto themselves under the relabellings of ``kind``: checked on the
    group's generators, the swaps of neighbouring places or of neighbouring symbols."""
    length = codes.shape[1]
    if kind == "positions":
        swaps = [np.r_[0:place, place + 1, place, place + 2 : length] for place in range(length - 1)]
        images = [codes[:, order] for order in swaps]
    else:
        images = []
        for symbol in range(symbol_count - 1):
            renaming = np.arange(max(symbol_count, 256), dtype=np.uint8)
            renaming[[symbol, symbol + 1]] = symbol + 1, symbol
            images.append(renaming[codes])
    return all(image.tobytes() in known for mapped in images for image in mapped)


def check_space_size(count: int, spec: str) -> None:
    """Refuse a code space too large to build, before building it."""
    if count > MAX_CODES:
        raise MoocowError(f"{spec} has {count:,} codes, more than the engine handles ({MAX_CODES:,})")
