"""The computer as the one who holds the secret, in a game against it: the secret dealt from a
seed, each guess answered, and the game so far (``Match``). The terminal's ``moocow play`` and the
web's play page both ask it, so they deal, answer, check and warn alike."""

from __future__ import annotations

import random

import numpy as np

from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.engine.position import Position, wins
from moocow.engine.seeds import checked_seed
from moocow.play.table import earlier_number, repeated


def deal_secret(game: Game, seed: int | None) -> int:
    """The computer's secret for ``seed`` (an index of the secrets; any when ``None``)."""
    if seed is not None:
        checked_seed(seed, "--seed")  # the runner's rule: -N would deal the secret of N
    return random.Random(seed).randrange(len(game.secrets))


def scored(game: Game, secret: int, guess: int) -> tuple[int, bool]:
    """The computer's answer to ``guess`` (an index of the guesses) when the secret is ``secret``
    (an index of the secrets), and whether it wins (``position.wins``: by the feedback alone)."""
    value = game.score(guess, secret)
    return value, wins(game, value)


class Match:
    """A game against the computer: its secret, each guess played with the computer's answer (as
    index and value), and, for a game with a rule on guesses (hard mode), the positions the rule's
    checks need; for any other game none is kept (a big game's position would hold every code)."""

    def __init__(self, game: Game, secret: int) -> None:
        self.game = game
        self.secret = secret
        """The computer's secret, an index of the secrets."""
        self.played: list[tuple[int, int]] = []
        """Each guess (an index of the guesses) and the answer it got, in the order played."""
        self._positions = [Position.start(game)] if game.guess_rule is not None else []

    @property
    def solved(self) -> bool:
        """Whether the last guess found the secret (``position.wins``: by its answer alone)."""
        return bool(self.played) and wins(self.game, self.played[-1][1])

    @property
    def allowed(self) -> np.ndarray | None:
        """The guesses the rule leaves (hard mode); ``None``: every guess."""
        return self._positions[-1].allowed if self._positions else None

    def check(self, guess: int) -> None:
        """Refuse, in one line saying why, a guess the rule forbids here."""
        if self._positions:
            self._positions[-1].check_legal(guess)

    def play(self, guess: int) -> int:
        """Play ``guess`` (an index of the guesses): checked against the rule, answered and kept;
        returns the answer. Once the secret is found, no guess follows."""
        if self.solved:
            raise MoocowError("the secret is found: the game is over")
        self.check(guess)
        value, _ = scored(self.game, self.secret, guess)
        self.played.append((guess, value))
        if self._positions:
            self._positions.append(self._positions[-1].after(guess, value))
        return value

    def undo(self) -> tuple[int, int] | None:
        """Take back the last guess, returned with its answer; ``None`` when there is none."""
        if not self.played:
            return None
        if len(self._positions) > 1:
            self._positions.pop()
        return self.played.pop()

    def repeat_warning(self) -> str | None:
        """The warning on the last guess, when an earlier one was the same."""
        guesses = [guess for guess, _ in self.played]
        earlier = earlier_number(guesses)
        return (
            None
            if earlier is None
            else repeated(earlier, self.game.format_code(self.game.guesses[guesses[-1]]))
        )
