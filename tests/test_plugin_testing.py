"""``moocow.testing`` on the examples: each example game held to a per-pair rule written here in
plain Python, its win, its determinism and every command on a tiny instance; and games broken on
purpose, which the checks must fail with a message naming the pair."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from moocow.engine.game import Codes, Game
from moocow.plugins import game_classes, load_game, load_plugin_file
from moocow.testing import (
    check_commands,
    check_determinism,
    check_feedback,
    check_game,
    check_win,
    registered,
)

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
BAGELS = EXAMPLES / "bagels.py"
HIGHER_LOWER = EXAMPLES / "higher_lower.py"
JOTTO = EXAMPLES / "jotto" / "moocow_jotto" / "__init__.py"
MARKS = EXAMPLES / "marks_mastermind" / "moocow_marks_mastermind" / "__init__.py"


# ---------------------------------------------------------------------- the rules, pair by pair
def bagels_rule(guess: str, secret: str) -> str:
    """Fermi: a digit in its place; pico: each other place of the guess holding a digit of the secret."""
    fermi = sum(g == s for g, s in zip(guess, secret, strict=True))
    pico = sum(g in secret for g in guess) - fermi
    return f"{fermi}F{pico}P"


def higher_lower_rule(guess: str, secret: str) -> str:
    if int(secret) == int(guess):
        return "equal"
    return "lower" if int(secret) < int(guess) else "higher"


def jotto_rule(guess: str, secret: str) -> int:
    return len(set(guess) & set(secret))


def marks_rule(guess: str, secret: str) -> str:
    """Wordle's marks: green in place; then, left to right, yellow while the secret has that colour
    unmatched; else grey."""
    marks = ["G" if g == s else "B" for g, s in zip(guess, secret, strict=True)]
    unmatched = Counter(s for s, mark in zip(secret, marks, strict=True) if mark == "B")
    for place, colour in enumerate(guess):
        if marks[place] == "B" and unmatched[colour]:
            marks[place], unmatched[colour] = "Y", unmatched[colour] - 1
    return "".join(marks)


# ---------------------------------------------------------------------- every example passes
def test_bagels_passes() -> None:
    check_game("bagels", bagels_rule, tiny="bagels:length=2", plugin=BAGELS)


def test_higher_lower_passes() -> None:
    check_game("higher_lower", higher_lower_rule, tiny="higher_lower:n=30", plugin=HIGHER_LOWER)


def test_higher_lower_strict_passes_where_optimal_is_not_asked() -> None:
    """A rule on guesses other than Wordle's hard mode: every command but ``optimal``."""
    check_game("higher_lower:n=40,strict=true", higher_lower_rule, plugin=HIGHER_LOWER)


def test_marks_mastermind_passes() -> None:
    check_game("marks_mastermind", marks_rule, tiny="marks_mastermind:pegs=3,colors=4", plugin=MARKS)


def test_jotto_passes_and_its_commands_on_a_list_cut_short() -> None:
    """Jotto has no parameter to make it small: a test's subclass with 60 of its words is registered
    for the commands."""
    load_plugin_file(JOTTO)
    check_game("jotto", jotto_rule, commands=False)
    jotto = game_classes()["jotto"]

    class TinyJotto(jotto):  # type: ignore[misc, valid-type]
        name = "tiny_jotto"

        def build_secrets(self) -> Codes:
            return super().build_secrets()[::10]

    with registered(TinyJotto):
        check_game("tiny_jotto", jotto_rule)


# ---------------------------------------------------------------------- broken games fail
def test_swapped_counts_fail_naming_the_pair() -> None:
    """Fermi and pico swapped whenever the guess starts with 9: the rule catches it, pair by pair."""
    load_plugin_file(BAGELS)

    class Swapped(game_classes()["bagels"]):  # type: ignore[misc]
        name = "bagels_swapped"
        symmetries = frozenset()

        def feedback(self, guesses: Codes, secrets: Codes) -> np.ndarray:
            right = super().feedback(guesses, secrets)
            fermi, pico = np.divmod(right, self.code_length + 1)
            swapped = (pico * (self.code_length + 1) + fermi).astype(np.uint8)
            return np.where(guesses[:, :1] == 9, swapped, right)

    with pytest.raises(AssertionError) as failed:
        check_feedback(Swapped(length=2), bagels_rule)
    message = str(failed.value)
    assert message.startswith("bagels_swapped:length=2: feedback differs from the rule on ")
    assert (
        "guess 90, secret 01: the rule says 0F1P (value 1), the game's feedback says 1F0P (value 3)"
        in message
    )


def test_swapped_marks_fail_naming_the_pair() -> None:
    """The first two marks swapped when a guess repeats a colour: found on the tiny game and on a
    sample of the large one."""
    load_plugin_file(MARKS)
    marks = game_classes()["marks_mastermind"]
    example = sys.modules[marks.__module__]

    class Swapped(marks):  # type: ignore[misc, valid-type]
        name = "marks_swapped"

        def feedback(self, guesses: Codes, secrets: Codes) -> np.ndarray:
            pegs = example.peg_marks(guesses, secrets, self.values["colors"])
            repeats = np.array([len(set(guess.tolist())) < len(guess) for guess in guesses])
            pegs[repeats] = pegs[repeats][..., [1, 0, *range(2, pegs.shape[-1])]]
            return example.pack(self.feedback_model, pegs)

    for game in (Swapped(pegs=3, colors=4), Swapped()):
        with pytest.raises(AssertionError, match=r"feedback differs from the rule on [\d,]+ of [\d,]+ pairs"):
            check_feedback(game, marks_rule)
    with pytest.raises(AssertionError) as failed:
        check_feedback(Swapped(pegs=3, colors=4), marks_rule)
    assert (
        "guess 111, secret 123: the rule says GBB (value 18), the game's feedback says BGB (value 6)"
        in str(failed.value)
    )


def test_a_secret_that_does_not_win_against_itself_fails() -> None:
    load_plugin_file(HIGHER_LOWER)

    class Never(game_classes()["higher_lower"]):  # type: ignore[misc]
        name = "never"

        def feedback(self, guesses: Codes, secrets: Codes) -> np.ndarray:
            return np.where(guesses[:, None, 0] <= secrets[None, :, 0], 1, 0).astype(np.uint8)

    with pytest.raises(
        AssertionError,
        match=r"never:n=5: a secret does not win against itself:\n  secret 1 against itself: higher",
    ):
        check_win(Never(n=5))


def test_secrets_built_differently_each_time_fail() -> None:
    load_plugin_file(HIGHER_LOWER)

    class Shuffled(game_classes()["higher_lower"]):  # type: ignore[misc]
        name = "shuffled"

        def build_secrets(self) -> Codes:
            return np.random.default_rng().permutation(self.values["n"]).astype(np.uint8)[:, None]

    with pytest.raises(
        AssertionError,
        match=r"shuffled:n=50: two fresh instances build different secrets \(50 and 50 codes; code 0 is ",
    ):
        check_determinism(Shuffled(n=50))


def test_feedback_that_changes_the_game_fails() -> None:
    load_plugin_file(HIGHER_LOWER)
    higher_lower = game_classes()["higher_lower"]

    class Counting(higher_lower):  # type: ignore[misc, valid-type]
        name = "counting"

        def feedback(self, guesses: Codes, secrets: Codes) -> np.ndarray:
            self.calls = getattr(self, "calls", 0) + 1
            return super().feedback(guesses, secrets)

    with pytest.raises(AssertionError, match=r"counting:n=9: feedback changed the game \(calls\)"):
        check_determinism(Counting(n=9))


def test_the_commands_ask_for_a_tiny_instance() -> None:
    with pytest.raises(AssertionError, match=r"bagels:length=4 has 5,040 secrets; .* give a smaller spec"):
        check_commands("bagels:length=4", plugin=BAGELS)


def test_an_unknown_game_is_one_line() -> None:
    with pytest.raises(AssertionError, match=r"moocow refuses the game: unknown game 'nothing'"):
        check_game("nothing", jotto_rule)


def test_a_rule_answer_that_is_no_feedback_is_named() -> None:
    load_plugin_file(HIGHER_LOWER)
    game = load_game("higher_lower:n=5")
    with pytest.raises(
        AssertionError, match=r"the rule's answer for guess 1, secret 1 is not a feedback: .*sideways"
    ):
        check_feedback(game, lambda guess, secret: "sideways")


def test_importing_moocow_does_not_load_it_and_it_needs_no_pytest() -> None:
    code = (
        "import sys; sys.modules['pytest'] = None; import moocow; "
        "assert 'moocow.testing' not in sys.modules; import moocow.testing; "
        "assert 'typer.testing' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_game_instance_is_checked_as_given() -> None:
    """An instance no plugin registered: its pairs, win and determinism, without the commands."""
    load_plugin_file(BAGELS)
    game: Game = game_classes()["bagels"](length=1)
    check_game(game, bagels_rule, commands=False)
