"""One way to score and to win (issue 39): every place that scores one guess against one secret
agrees with ``Game.score``, and a guess wins when its feedback is the model's winning value
(``position.wins``), never because two texts or two indices are equal."""

from __future__ import annotations

import numpy as np
import pytest

from moocow.engine.checks import check_winning_answer
from moocow.engine.errors import MoocowError
from moocow.engine.game import Codes, Game
from moocow.engine.position import Position, wins
from moocow.engine.solve import solve
from moocow.engine.table import FeedbackTable
from moocow.play.opponent import scored
from moocow.play.table import feedback_example
from moocow.plugins import load_game, make_game
from moocow.plugins.mastermind import Mastermind
from moocow.plugins.strategy_registry import load_strategy
from moocow.referee.decks import Deal
from moocow.referee.playertree import _Merge
from moocow.referee.referee import play_round
from moocow.referee.rules import Guess
from moocow.referee.seats import Seat
from moocow.web.play import replay

GAMES = ("mastermind:pegs=3,colors=4", "digits:length=3,symbols=6", "words", "bottles:n=5", "wordle")
"""Every built-in game; Wordle's guesses go far beyond its answers."""
PAIRS = 40


class Scripted(Seat):
    """A seat that plays the given guess indices in turn and keeps each feedback it is told."""

    def __init__(self, game: Game, guesses: list[int]) -> None:
        self.game, self.guesses, self.told = game, guesses, []
        self.turn = 0

    def start_round(self, game: Game) -> None:
        self.turn = 0

    def guess(self, feedback: int | None) -> Guess:
        if feedback is not None:
            self.told.append(feedback)
        self.turn += 1
        return Guess.of(self.game, self.guesses[(self.turn - 1) % len(self.guesses)])

    def close(self) -> None:
        pass

    def forfeit(self) -> None:
        pass


def _pairs(game: Game, seed: int) -> list[tuple[int, int]]:
    """Random (guess, secret) index pairs, half of the guesses outside the secrets where the game
    has such guesses (Wordle), and each secret once played against itself."""
    rng = np.random.default_rng(seed)
    own = set(game.secret_guess_index.tolist())
    outside = np.array([index for index in range(len(game.guesses)) if index not in own], dtype=np.int64)
    pairs = []
    for number in range(PAIRS):
        secret = int(rng.integers(len(game.secrets)))
        if number % 4 == 0:
            guess = int(game.secret_guess_index[secret])
        elif number % 2 and len(outside):
            guess = int(rng.choice(outside))
        else:
            guess = int(rng.integers(len(game.guesses)))
        pairs.append((guess, secret))
    return pairs


def _reference(game: Game, guess: int, secret: int) -> int:
    """The game's own feedback function over the whole row of guesses, read at one pair."""
    return int(game.feedback(game.guesses, game.secrets[secret : secret + 1])[guess, 0])


@pytest.mark.parametrize("spec", GAMES)
def test_score_is_the_feedback_with_the_table_and_without(spec: str) -> None:
    """A fresh game (no table) scores the pair itself; the cached game, once its table exists,
    reads it (held or not): the values are the game's feedback either way. (A spec's game is made
    once a process, so the fresh one is made by its class.)"""
    made = make_game(spec)
    fresh = type(made)(**made.values)
    pairs = _pairs(fresh, 1)
    assert [fresh.score(guess, secret) for guess, secret in pairs] == [
        _reference(fresh, guess, secret) for guess, secret in pairs
    ]
    assert fresh.caches.feedback_table is None
    game = load_game(spec)
    table = FeedbackTable.for_game(game)
    assert [game.score(guess, secret) for guess, secret in pairs] == [
        int(table.column(guess, np.array([secret]))[0]) for guess, secret in pairs
    ]
    assert [game.score(guess, secret) for guess, secret in pairs] == [
        fresh.score(guess, secret) for guess, secret in pairs
    ]


@pytest.mark.parametrize("spec", GAMES)
def test_every_place_that_scores_a_pair_agrees_with_score(spec: str) -> None:
    """A game against the computer (terminal and web), the referee, the player tree, ``solve``
    and the example of a feedback: each answers a pair as ``Game.score`` does, and each says a
    guess wins exactly when that score is the winning value, which is when it is the secret."""
    game = load_game(spec)
    pairs = _pairs(game, 2)
    for guess, secret in pairs:
        value = game.score(guess, secret)
        assert value == _reference(game, guess, secret)
        won = wins(game, value)
        assert won == (guess == int(game.secret_guess_index[secret]))
        assert scored(game, secret, guess) == (value, won)
        match = replay(game, secret, [game.format_code(game.guesses[guess])])
        assert (match.played, match.solved) == ([(guess, value)], won)
    for secret in sorted({secret for _, secret in pairs})[:6]:
        others = [guess for guess, _ in pairs if guess != int(game.secret_guess_index[secret])][:3]
        own = int(game.secret_guess_index[secret])
        seat = Scripted(game, [*others, own])
        outcome = play_round(seat, Deal(game, secret), mercy=len(others) + 1)
        assert outcome.solved and outcome.score == len(others) + 1
        assert seat.told == [game.score(guess, secret) for guess in others]
        merged = _Merge(game, "scripted")
        merged.add(Deal(game, secret), outcome.guesses)
        node = merged.root
        for guess in others:
            assert node is not None and node.guess == guess
            node = node.children.get(game.score(guess, secret))
        assert node is not None and node.guess == own and not node.children
    assert feedback_example(game) == game.format_feedback(_reference(game, 0, len(game.secrets) - 1))


@pytest.mark.parametrize("spec", ["mastermind:pegs=3,colors=4", "bottles:n=5", "wordle"])
def test_solve_steps_are_scored_as_score(spec: str) -> None:
    """Each step ``solve`` records has the feedback ``Game.score`` gives, and only the last wins."""
    game = load_game(spec)
    for secret in (0, len(game.secrets) // 2, len(game.secrets) - 1):
        steps = solve(game, load_strategy("first"), secret)
        assert [step.feedback for step in steps] == [_reference(game, step.guess, secret) for step in steps]
        assert [wins(game, step.feedback) for step in steps] == [False] * (len(steps) - 1) + [True]


class ColourOnly(Mastermind):
    """Mastermind scored on the colours alone, their places ignored: 1122 scores the win against
    2211, though the texts differ (the game ``checks.check_winning_answer`` refuses to load)."""

    def feedback(self, guesses: Codes, secrets: Codes) -> np.ndarray:
        return super().feedback(np.sort(guesses, axis=1), np.sort(secrets, axis=1))


class NeverWins(Mastermind):
    """Mastermind whose every answer is no black and no white: not even the secret itself wins,
    though its text is the guess's."""

    def feedback(self, guesses: Codes, secrets: Codes) -> np.ndarray:
        return np.zeros((len(guesses), len(secrets)), dtype=np.int64)


def test_a_win_is_the_winning_feedback_and_not_equal_texts() -> None:
    """In a game where a guess other than the secret gets the winning feedback, every caller
    counts it a win; in one where the secret itself does not, none does, though the texts are the
    same. The loader refuses both games: the engine assumes the win is the secret's alone."""
    colours = ColourOnly(pegs=4, colors=3)
    guess, secret = colours.guess_index("1122"), colours.guess_index("2211")
    value = colours.score(guess, secret)
    assert value == colours.win and colours.format_code(colours.secrets[secret]) == "2211"
    assert scored(colours, secret, guess) == (value, True)
    match = replay(colours, secret, ["1122"])
    assert (match.played, match.solved) == ([(guess, value)], True)
    assert Position.start(colours).after(guess, value).solved
    outcome = play_round(Scripted(colours, [guess]), Deal(colours, secret), mercy=3)
    assert (outcome.solved, outcome.guesses) == (True, ("1122",))
    merged = _Merge(colours, "scripted")
    merged.add(Deal(colours, secret), outcome.guesses)
    assert merged.root is not None and merged.root.guess == guess and not merged.root.children

    never = NeverWins(pegs=2, colors=3)
    secret = 4
    own = int(never.secret_guess_index[secret])
    assert scored(never, secret, own) == (0, False)
    assert replay(never, secret, [never.format_code(never.guesses[own])] * 2).solved is False
    outcome = play_round(Scripted(never, [own]), Deal(never, secret), mercy=3)
    assert (outcome.solved, outcome.score, len(outcome.guesses)) == (False, 3, 3)
    assert outcome.guesses[0] == Deal(never, secret).secret_text
    for game in (colours, never):
        with pytest.raises(MoocowError, match="the winning answer must come from the secret itself only"):
            check_winning_answer(game)
