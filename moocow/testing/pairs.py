"""A game's feedback checked pair by pair: against the author's own rule, for the win, and for
determinism. Each failure is an ``AssertionError`` naming the pair, what the rule said and what
the game said, so a plugin author's pytest shows what to fix."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from moocow.engine.errors import MoocowError
from moocow.engine.game import Codes, Game

Rule = Callable[[str, str], "str | int | Sequence[int]"]
"""``rule(guess, secret)``, both as ``format_code`` writes them: the feedback as the game types
it (``"1F2P"``, ``"GYBB"``, ``"lower"``), its value, or its parts (a count per field, a mark per place)."""

EVERY_PAIR = 20_000
"""A game with at most this many pairs of a guess and a secret is checked on every pair."""
SAMPLE_PAIRS = 2_500
"""Pairs checked on a larger game: a block of seeded guesses by seeded secrets, as the engine
calls ``feedback`` on blocks."""
SHOWN = 3
"""Pairs a failure shows (and how many more there are)."""
MODEL_VALUES = 4_096
"""A model with at most this many values has each checked to read back as it is written."""


@dataclass(frozen=True)
class Block:
    """The pairs checked: guesses by secrets, each an index into the game's spaces."""

    guesses: np.ndarray
    secrets: np.ndarray

    @property
    def size(self) -> int:
        return len(self.guesses) * len(self.secrets)


def sample(game: Game, pairs: int = SAMPLE_PAIRS, seed: int = 0) -> Block:
    """Every pair of a small game; else a seeded block of about ``pairs`` pairs, holding each
    chosen secret's own guess, so that the win is checked on the block too."""
    guess_count, secret_count = len(game.guesses), len(game.secrets)
    if guess_count * secret_count <= max(pairs, EVERY_PAIR):
        return Block(np.arange(guess_count), np.arange(secret_count))
    rng = np.random.default_rng(seed)
    side = max(1, int(pairs**0.5))
    secrets = np.sort(rng.choice(secret_count, min(side, secret_count), replace=False))
    chosen = rng.choice(guess_count, min(side, guess_count), replace=False)
    guesses = np.union1d(chosen, game.secret_guess_index[secrets])
    return Block(guesses, secrets)


def check_feedback(game: Game, rule: Rule, pairs: int = SAMPLE_PAIRS, seed: int = 0) -> None:
    """``game.feedback`` gives what ``rule`` says on every pair of a small game, or on a seeded
    sample of a large one: the numpy code against the plain one it was written from."""
    block = sample(game, pairs, seed)
    table = _feedback(game, game.guesses[block.guesses], game.secrets[block.secrets])
    wrong: list[str] = []
    for row, guess in enumerate(block.guesses):
        guess_text = game.format_code(game.guesses[guess])
        for column, secret in enumerate(block.secrets):
            secret_text = game.format_code(game.secrets[secret])
            expected = _rule_value(game, rule, guess_text, secret_text)
            given = int(table[row, column])
            if given != expected:
                wrong.append(
                    f"guess {guess_text}, secret {secret_text}: the rule says "
                    f"{_shown(game, expected)}, the game's feedback says {_shown(game, given)}"
                )
    if wrong:
        where = "every pair" if block.size == len(game.guesses) * len(game.secrets) else f"seed {seed}"
        raise AssertionError(
            f"{game.spec}: feedback differs from the rule on {len(wrong):,} of {block.size:,} pairs "
            f"({where}):\n{_listed(wrong)}"
        )


def check_win(game: Game, pairs: int = SAMPLE_PAIRS, seed: int = 0) -> None:
    """Every secret scores the model's win against itself, no other pair scores it, and every
    value of the model reads back as it is written (``parse(format(value))``)."""
    model = game.feedback_model
    if game.win != model.win:
        raise AssertionError(f"{game.spec}: game.win is {game.win}, its feedback model's win {model.win}")
    values = model.values()
    if model.win not in values:
        raise AssertionError(f"{game.spec}: the win {model.win} is not among feedback_model.values()")
    if len(values) <= MODEL_VALUES:
        _check_read_back(game, values)
    own = game.secret_guess_index
    lost: list[str] = []
    for start in range(0, len(game.secrets), 256):
        stop = min(start + 256, len(game.secrets))
        diagonal = np.diagonal(_feedback(game, game.guesses[own[start:stop]], game.secrets[start:stop]))
        for offset in np.flatnonzero(diagonal != model.win):
            secret = game.format_code(game.secrets[start + offset])
            got = _shown(game, int(diagonal[offset]))
            lost.append(f"secret {secret} against itself: {got}, not the win {_shown(game, model.win)}")
    if lost:
        raise AssertionError(f"{game.spec}: a secret does not win against itself:\n{_listed(lost)}")
    block = sample(game, pairs, seed)
    table = _feedback(game, game.guesses[block.guesses], game.secrets[block.secrets])
    others = (table == model.win) & (block.guesses[:, None] != own[block.secrets][None, :])
    stolen = [
        f"guess {game.format_code(game.guesses[block.guesses[row]])} against secret "
        f"{game.format_code(game.secrets[block.secrets[column]])}"
        for row, column in zip(*np.nonzero(others), strict=True)
    ]
    if stolen:
        raise AssertionError(
            f"{game.spec}: the win ({_shown(game, model.win)}) must come from the secret itself only; "
            f"it also comes from:\n{_listed(stolen)}"
        )


def check_determinism(game: Game, pairs: int = SAMPLE_PAIRS, seed: int = 0) -> None:
    """Two fresh instances of the game give the same codes and the same feedback; the value of a
    pair does not depend on the block it is scored in; ``feedback`` changes neither its arguments
    nor the game. Instances are shared by the whole process and the web server's threads, and
    the plugin is loaded again in every worker, which must see the same game."""
    first, second = (_fresh(game) for _ in range(2))
    for fresh in (first, second):
        if fresh.spec != game.spec:
            raise AssertionError(f"{game.spec}: a fresh instance of its class is {fresh.spec}")
    for space in ("secrets", "guesses"):
        one, other = getattr(first, space), getattr(second, space)
        if one.shape != other.shape or not np.array_equal(one, other):
            raise AssertionError(
                f"{game.spec}: two fresh instances build different {space} "
                f"({len(one):,} and {len(other):,} codes{_first_difference(first, one, other)})"
            )
    block = sample(first, pairs, seed)
    guesses, secrets = first.guesses[block.guesses], first.secrets[block.secrets]
    kept = guesses.copy(), secrets.copy()
    tables = [_feedback(first, guesses, secrets)]
    attributes = dict(vars(first))  # after a first call, which may build what it keeps
    tables.append(_feedback(first, guesses, secrets))
    if not (np.array_equal(guesses, kept[0]) and np.array_equal(secrets, kept[1])):
        raise AssertionError(f"{game.spec}: feedback changed the codes it was given (they are shared)")
    changed = sorted(
        name
        for name in attributes.keys() | vars(first).keys()
        if vars(first).get(name) is not attributes.get(name)
    )
    if changed:
        raise AssertionError(
            f"{game.spec}: feedback changed the game ({', '.join(changed)}): an instance is shared by "
            "threads and must not change after __init__"
        )
    tables.append(_feedback(second, second.guesses[block.guesses], second.secrets[block.secrets]))
    rows = [_feedback(first, guesses[row : row + 1], secrets)[0] for row in range(min(len(guesses), 64))]
    tables.append(np.vstack([*rows, tables[0][len(rows) :]]))
    for table, how in zip(
        tables[1:], ("called again", "of another instance", "one guess at a time"), strict=True
    ):
        if not np.array_equal(tables[0], table):
            row, column = (int(place[0]) for place in np.nonzero(tables[0] != table))
            pair = f"guess {first.format_code(guesses[row])}, secret {first.format_code(secrets[column])}"
            raise AssertionError(
                f"{game.spec}: feedback is not deterministic: {pair} scores "
                f"{_shown(first, int(tables[0][row, column]))}, and {_shown(first, int(table[row, column]))} "
                f"{how}"
            )


def _fresh(game: Game) -> Game:
    """Another instance of the game's class at the same parameters."""
    try:
        return type(game).from_arguments(dict(game.values))
    except MoocowError as error:
        raise AssertionError(f"{game.spec}: a fresh instance cannot be made: {error}") from None


def _feedback(game: Game, guesses: Codes, secrets: Codes) -> np.ndarray:
    """``game.feedback``; moocow's own one-line refusal of it is the failure's message."""
    try:
        return game.feedback(guesses, secrets)
    except MoocowError as error:
        raise AssertionError(str(error)) from None


def _rule_value(game: Game, rule: Rule, guess: str, secret: str) -> int:
    """The rule's answer for a pair as a feedback value."""
    model = game.feedback_model
    answer: Any = rule(guess, secret)
    try:
        if isinstance(answer, str):
            return model.parse(answer)
        if isinstance(answer, int | np.integer) and not isinstance(answer, bool):
            return int(answer)
        if isinstance(answer, Sequence):
            return model.encode(answer)
    except MoocowError as error:
        raise AssertionError(
            f"{game.spec}: the rule's answer for guess {guess}, secret {secret} is not a feedback: {error}"
        ) from None
    raise AssertionError(
        f"{game.spec}: the rule gave {answer!r} for guess {guess}, secret {secret}: give the feedback as "
        f"typed ({model.describe()}), its value or its parts"
    )


def _check_read_back(game: Game, values: Sequence[int]) -> None:
    """Each value is read back from its text and rebuilt from its parts."""
    model = game.feedback_model
    for value in values:
        text = model.format(value)
        try:
            read = model.parse(text)
        except MoocowError as error:
            raise AssertionError(
                f"{game.spec}: feedback {value} is written {text!r}, which parse refuses: {error}"
            ) from None
        if read != value:
            raise AssertionError(
                f"{game.spec}: feedback {value} is written {text!r}, which parse reads as {read}"
            )
        if model.encode(model.parts(value)) != value:
            raise AssertionError(
                f"{game.spec}: feedback {value} has parts {model.parts(value)}, which encode as "
                f"{model.encode(model.parts(value))}"
            )


def _shown(game: Game, value: int) -> str:
    """A value as people read it, and as a number where its text may not be the model's."""
    try:
        return f"{game.format_feedback(value)} (value {value})"
    except Exception:  # a value outside the model: its number is the news
        return f"value {value}"


def _first_difference(game: Game, one: Codes, other: Codes) -> str:
    count = min(len(one), len(other))
    unequal = np.flatnonzero((one[:count] != other[:count]).any(axis=1))
    if not len(unequal):
        return ""
    at = int(unequal[0])
    return f"; code {at} is {game.format_code(one[at])} and {game.format_code(other[at])}"


def _listed(lines: list[str]) -> str:
    shown = "\n".join(f"  {line}" for line in lines[:SHOWN])
    return shown + (f"\n  and {len(lines) - SHOWN:,} more" if len(lines) > SHOWN else "")
