"""The computer as the one who holds the secret, in a game against it: the secret dealt from a
seed, and each guess answered. The terminal's ``moocow play`` and the web's play page both ask it,
so they deal and answer alike."""

from __future__ import annotations

import random

from moocow.engine.game import Game
from moocow.engine.position import wins
from moocow.engine.seeds import checked_seed


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
