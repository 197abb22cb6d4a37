"""Wordle: its marks against a plain reference of the rule, their text forms, its lists, hard mode,
and the feedback model that lets the engine play a game whose feedback is not counts."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moocow.engine.errors import MoocowError
from moocow.engine.evaluation import evaluate
from moocow.engine.feedback import Counts, Marks
from moocow.engine.position import Position
from moocow.engine.table import FeedbackTable
from moocow.plugins import PLUGINS, load_game
from moocow.plugins.kernel.entries import MARKS_INTO
from moocow.plugins.mastermind import Mastermind
from moocow.plugins.strategy_registry import load_strategy
from moocow.plugins.wordle import Wordle
from moocow.wordlists import official


def reference_marks(guess: str, answer: str) -> str:
    """The rule as people state it: greens first, then yellows left to right out of the letters the
    answer has left; written independently of moocow's code, one character per mark."""
    marks = ["G" if g == a else "B" for g, a in zip(guess, answer, strict=True)]
    unmatched = [a for a, mark in zip(answer, marks, strict=True) if mark != "G"]
    for place, letter in enumerate(guess):
        if marks[place] != "G" and letter in unmatched:
            marks[place] = "Y"
            unmatched.remove(letter)
    return "".join(marks)


def small_wordle(tmp_path, answers: list[str], guesses: list[str] = (), hard: bool = False) -> Wordle:
    answers_file = tmp_path / "answers.txt"
    answers_file.write_text("\n".join(answers) + "\n")
    spec = f"wordle:length={len(answers[0])},answers={answers_file}"
    if guesses:
        guesses_file = tmp_path / "guesses.txt"
        guesses_file.write_text("\n".join(guesses) + "\n")
        spec += f",guesses={guesses_file}"
    game = load_game(spec + (",hard=true" if hard else ""))
    assert isinstance(game, Wordle)
    return game


WORDS = st.text(alphabet="abcde", min_size=5, max_size=5)
"""Five letters from five: most words repeat a letter, which is where the rule is subtle."""


@settings(max_examples=60, deadline=None)
@given(st.lists(WORDS, min_size=2, max_size=12, unique=True), st.lists(WORDS, min_size=1, max_size=6))
def test_marks_match_a_plain_reference_duplicates_included(tmp_path_factory, answers, more) -> None:
    """Every pair, through the compiled table, the numpy one (small tables) and the one-pair
    path, equals the reference."""
    game = small_wordle(tmp_path_factory.mktemp("w"), answers, more)
    table = game.feedback(game.guesses, game.secrets)
    compiled = np.empty((len(game.secrets), len(game.guesses)), np.uint8)
    MARKS_INTO(np.ascontiguousarray(game.guesses), np.ascontiguousarray(game.secrets), 26, compiled)
    assert np.array_equal(compiled.T, table)
    for i, guess in enumerate(game.guesses):
        for j, secret in enumerate(game.secrets):
            expected = reference_marks(game.format_code(guess), game.format_code(secret))
            assert game.format_feedback(int(table[i, j])) == expected
            one = game.feedback(game.guesses[i : i + 1], game.secrets[j : j + 1])[0, 0]
            assert int(one) == int(table[i, j])


def test_marks_are_not_symmetric_and_known_examples_hold() -> None:
    """ROSES against HORSE is not HORSE against ROSES; the classic duplicate cases."""
    assert reference_marks("roses", "horse") == "YGYYB"
    assert reference_marks("horse", "roses") == "BGYYY"
    assert reference_marks("speed", "abide") == "BBYBY"
    assert reference_marks("eerie", "there") == "YBYBG"
    model = Marks(5)
    assert not model.symmetric and model.win == 242 and model.size == 243
    assert len(model.values()) == 238  # no lone yellow beside four greens


def test_marks_are_typed_many_ways_and_refused_in_one_line() -> None:
    model = Marks(5)
    value = model.encode((2, 1, 0, 0, 0))
    for text in (
        "GYBBB",
        "gybbb",
        "GY---",
        "gy...",
        "21000",
        "G Y B B B",
        "\U0001f7e9\U0001f7e8\u2b1b\u2b1c\u2b1b",
    ):
        assert model.parse(text) == value
    assert model.format(value) == "GYBBB"
    for text, reason in (
        ("GYBB", "has 4 marks; expected 5"),
        ("GYBBQ", "'Q' is not a mark"),
        ("GGGGY", "a lone yellow beside 4 greens"),
    ):
        with pytest.raises(MoocowError, match=reason):
            model.parse(text)


def test_counts_keep_the_integers_moocow_always_used() -> None:
    """Saved trees, proof stores and results files hold these integers: 2B1W is 2 * 5 + 1."""
    game = Mastermind()
    assert isinstance(game.feedback_model, Counts) and game.feedback_model.symmetric
    assert game.parse_feedback("2B1W") == 11 and game.win == 20 and game.feedback_bound == 25
    assert game.format_feedback(11) == "2B1W"


def test_the_official_lists_come_from_the_extra() -> None:
    game = load_game("wordle:list=official")
    assert (len(game.secrets), len(game.guesses)) == (2315, 12972)
    assert game.format_code(game.secrets[0]) == "aback" and game.words == tuple(sorted(game.words))
    assert game.symmetries_in_force == frozenset() and not game.feedback_model.symmetric
    table = FeedbackTable.for_game(game)
    assert table.dtype == np.uint8 and len(np.unique(table.rows(np.arange(50)))) <= 238


def test_without_the_extra_the_official_lists_are_one_line(monkeypatch) -> None:
    official.official_lists.cache_clear()
    monkeypatch.setattr(official.importlib.util, "find_spec", lambda name: None)
    monkeypatch.setattr(PLUGINS, "made", {})  # made anew, as in a process without the extra
    try:
        with pytest.raises(MoocowError, match=r"pip install 'moocow\[wordle\]'"):
            load_game("wordle:list=official,hard=true")
    finally:
        official.official_lists.cache_clear()


def test_the_common_lists_ship_with_moocow() -> None:
    game = load_game("wordle")
    assert len(game.secrets) > 2000 and len(game.guesses) > 10000
    with pytest.raises(MoocowError, match="not in the game's word list"):
        game.guess_index("zzzzz")


def test_hard_mode_keeps_greens_in_place_and_revealed_letters(tmp_path) -> None:
    """After SPEED against ABIDE (grey, grey, yellow, grey, yellow: E and D revealed), a guess must
    hold an E and a D; after a green, that letter stays in its place."""
    answers = ["abide", "speed", "dense", "ideal", "edged", "aided"]
    game = small_wordle(tmp_path, answers, ["zzzzz"], hard=True)
    position = Position.start(game).after(game.guess_index("speed"), game.parse_feedback("BBYBY"))
    legal = {game.format_code(game.guesses[index]) for index in position.legal_guesses}
    assert legal == {"abide", "dense", "ideal", "edged", "aided", "speed"}
    with pytest.raises(
        MoocowError,
        match=r"zzzzz is not allowed in hard mode: it must hold E at least once \(as speed revealed\)",
    ):
        position.check_legal(game.guess_index("zzzzz"))
    greened = Position.start(game).after(game.guess_index("abide"), game.parse_feedback("BBBYG"))
    assert greened.allowed is not None and not greened.allowed[game.guess_index("ideal")]
    with pytest.raises(MoocowError, match="letter 5 must be E"):
        greened.check_legal(game.guess_index("ideal"))


def test_hard_mode_strategies_play_only_legal_guesses(tmp_path) -> None:
    """Every guess of minmax's tree under hard mode is legal where it is played."""
    rng = np.random.default_rng(7)
    letters = np.array(list("abcdefgh"))
    words = sorted({"".join(rng.choice(letters, 4)) for _ in range(120)})
    game = small_wordle(tmp_path, words[:40], words[40:], hard=True)
    strategy = load_strategy("minmax")
    stack = [Position.start(game)]
    while stack:
        position = stack.pop()
        if len(position.candidates) < 2:
            continue
        guess = strategy.decide(position)
        position.check_legal(guess)
        answers = position.feedback_to(guess)
        for value in np.unique(answers).tolist():
            if value != game.win:
                stack.append(position.after(guess, value))
    assert evaluate(game, strategy).secrets == 40


def test_hard_mode_keeps_a_bounded_number_of_masks(tmp_path, monkeypatch) -> None:
    """A long session meets ever new (guess, answer) pairs: the oldest masks are dropped, and a
    dropped one is made again alike."""
    from moocow.plugins import wordle

    monkeypatch.setattr(wordle, "MASKS_KEPT", 3)
    game = small_wordle(tmp_path, ["abide", "speed", "dense", "ideal", "edged", "aided"], hard=True)
    rule = game.guess_rule
    first = rule.after(game.guesses[0], 0).copy()
    for index in range(1, len(game.guesses)):
        rule.after(game.guesses[index], 0)
    assert len(rule._masks) == 3
    assert np.array_equal(rule.after(game.guesses[0], 0), first)
