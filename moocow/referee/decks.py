"""What a tournament entry deals: for each round a game and a secret, drawn from a seed.

A game spec deals that game's secrets from a stream of its own: round ``k`` is an HMAC-SHA256
keyed with the seed over the entry's canonical spec and ``k`` (``entry_draws``), so one entry's
secrets say nothing of another's (with one ``random.Random(seed)`` for all, round ``k`` of one game
named round ``k`` of another in most rounds). ``bacrunner:file=...`` deals the course's words of
several lengths with the course's own ``random.Random(seed).choice``, each round in the word game
of its secret's length, so a course's log does not change. Either way the same seed deals the
same secrets on every machine.
"""

from __future__ import annotations

import hmac
from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import lru_cache

from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.engine.solve import secret_index
from moocow.plugins import load_game
from moocow.referee.bacrunner import WordSource, draw_secrets, is_course_deck
from moocow.wordlists.files import NOTES


@dataclass(frozen=True, eq=False)
class Deal:
    """One round's game and secret."""

    game: Game
    """The game the round is played in."""
    secret: int
    """Index of the secret in ``game.secrets``."""

    @property
    def secret_text(self) -> str:
        """The secret as the game writes it."""
        return self.game.format_code(self.game.secrets[self.secret])


class Deck(ABC):
    """A source of rounds."""

    @property
    @abstractmethod
    def spec(self) -> str:
        """The canonical spec: results name the entry by it, players are told it in the handshake."""

    @abstractmethod
    def deal(self, seed: int, rounds: int) -> list[Deal]:
        """The first ``rounds`` rounds for ``seed``; the same for every player."""

    @abstractmethod
    def dealt_as(self, secret: str) -> Deal:
        """The round whose secret is written ``secret``, for a results file whose seed is secret:
        ``MoocowError`` if the deck never deals it."""

    @property
    @abstractmethod
    def feedback_kind(self) -> str:
        """The kind of every round's feedback (``FeedbackModel.kind``): what a player must read."""


class GameDeck(Deck):
    """Every round in one game, secrets drawn uniformly in the game's canonical order."""

    def __init__(self, game: Game) -> None:
        self.game = game

    @property
    def spec(self) -> str:
        return self.game.spec

    def deal(self, seed: int, rounds: int) -> list[Deal]:
        """Secrets from the game's secrets alone (Wordle's answers, not every word it takes as a guess)."""
        return [
            Deal(self.game, index) for index in entry_draws(seed, self.spec, rounds, len(self.game.secrets))
        ]

    def dealt_as(self, secret: str) -> Deal:
        deal = Deal(self.game, secret_index(self.game, secret))
        if deal.secret_text != secret:
            raise MoocowError(f"{secret!r} is not written as {self.spec} writes its secrets")
        return deal

    @property
    def feedback_kind(self) -> str:
        return self.game.feedback_model.kind


DEAL_DOMAIN = b"moocow deal v1\0"
"""What a deal's hash is about, so that no other use of a seed as a key gives the same bytes."""


def entry_draws(seed: int, spec: str, rounds: int, choices: int) -> list[int]:
    """Round ``k``'s pick in ``range(choices)``: HMAC-SHA256, keyed with the seed (its decimal digits),
    over the domain, the entry's spec and ``k``, read as a number modulo ``choices``. A keyed hash,
    not a generator one seeds per entry: without the seed no round of any entry tells anything of
    another round (a Mersenne Twister's state can be rebuilt from its outputs); the modulo's bias is
    below ``choices / 2**256``."""
    key = str(seed).encode("ascii")
    about = DEAL_DOMAIN + spec.encode("utf-8") + b"\0"
    return [
        int.from_bytes(hmac.digest(key, about + str(k).encode("ascii"), "sha256")) % choices
        for k in range(rounds)
    ]


class CourseDeck(Deck):
    """The course runner's secrets, each played in ``words:length=N,file=...`` for its length."""

    def __init__(self, source: WordSource) -> None:
        self.source = source
        self._games: dict[int, Game] = {}
        self._word_set: frozenset[str] | None = None

    @property
    def spec(self) -> str:
        return self.source.spec

    @property
    def feedback_kind(self) -> str:
        """Bulls and cows: counts, at every length."""
        return "counts"

    def game(self, length: int) -> Game:
        """The word game of one length, from the same file."""
        if length not in self._games:
            words = "list=alpha" if self.source.file is None else f"file={self.source.file}"
            with NOTES.quiet():  # what the course's filter left out is said by the source, once
                self._games[length] = load_game(f"words:length={length},{words}")
        return self._games[length]

    def deal(self, seed: int, rounds: int) -> list[Deal]:
        words = self.source.words()
        if not words:
            raise MoocowError(f"{self.spec}: the word file has no acceptable word")
        deals = []
        for word in draw_secrets(words, seed, rounds):
            game = self.game(len(word))
            try:
                deals.append(Deal(game, secret_index(game, word)))
            except MoocowError:
                raise MoocowError(f"{self.spec}: the word {word!r} is not playable in {game.spec}") from None
        return deals

    def dealt_as(self, secret: str) -> Deal:
        if secret not in self._words():
            raise MoocowError(f"{secret!r} is not a word of {self.spec}")
        game = self.game(len(secret))
        return Deal(game, secret_index(game, secret))

    def _words(self) -> frozenset[str]:
        """The deck's words, as a set (read once)."""
        if self._word_set is None:
            self._word_set = frozenset(self.source.words())
        return self._word_set


@lru_cache(maxsize=32)
def load_deck(spec: str) -> Deck:
    """The deck a spec names: ``bacrunner:...`` or any game spec (cached: decks hold built games)."""
    if is_course_deck(spec):
        return CourseDeck(WordSource.from_spec(spec))
    return GameDeck(load_game(spec))
