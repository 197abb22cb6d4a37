"""Whatever a plugin game's methods raise (its feedback model's, its guess rule's, its own) is one
line naming the game and the method, never a traceback (``engine.faults``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_cli_input import one_line_error, run

from moocow.engine.errors import MoocowError

BROKEN_GAME = """
import itertools
from functools import cached_property
import numpy as np
from moocow.engine.errors import MoocowError
from moocow.engine.feedback import Counts
from moocow.engine.game import Game
from moocow.engine.guess_rule import GuessRule
from moocow.plugins import hookimpl

def fault(name):
    if name == "BROKEN":
        raise RuntimeError(name + " broke")

class Model(Counts):
    def values(self):
        fault("values")
        return super().values()
    def format(self, value):
        fault("format")
        return super().format(value)
    def parse(self, text):
        fault("parse")
        return super().parse(text)
    def parts(self, value):
        fault("parts")
        return super().parts(value)
    def encode(self, parts):
        fault("encode")
        return super().encode(parts)
    def describe(self):
        fault("describe")
        return super().describe()

class Rule(GuessRule):
    def __init__(self, count):
        self.count = count
    def after(self, code, feedback):
        fault("after")
        return np.ones(self.count, dtype=bool)
    def why_not(self, code, feedback, guess):
        fault("why_not")
        return None
    def state_key(self, allowed):
        fault("state_key")
        return super().state_key(allowed)

class Tiny(Game):
    name = "tiny"
    summary = "three places, three symbols"
    feedback_fields = ("correct",)
    code_length = 3

    def build_secrets(self):
        return np.array(list(itertools.product(range(3), repeat=3)), dtype=np.uint8)

    def build_guesses(self):
        fault("build_guesses")
        return self.secrets

    def feedback(self, guesses, secrets):
        return (guesses[:, None, :] == secrets[None, :, :]).sum(axis=2).astype(np.uint8)

    def parse_code(self, text):
        if len(text) != 3 or not set(text) <= set("abc"):
            raise MoocowError(f"{text!r} is not three of a, b, c")
        return np.array(["abc".index(letter) for letter in text], dtype=np.uint8)

    def format_code(self, code):
        return "".join("abc"[symbol] for symbol in code)

    def feedback_form(self):
        fault("feedback_form")
        return None

    def move_distance(self, previous, guesses):
        fault("move_distance")
        return None

    def feedback_values(self):
        fault("feedback_values")
        return super().feedback_values()

    def not_a_guess(self, text):
        fault("not_a_guess")
        return super().not_a_guess(text)

    @cached_property
    def feedback_model(self):
        fault("feedback_model")
        return Model(self.feedback_fields, 3, self.feedback_values())

    @property
    def guess_rule(self):
        fault("guess_rule")
        return Rule(len(self.guesses))

@hookimpl
def register_games(register):
    register(Tiny)
"""
"""The game ``tiny`` with every method a plugin may write; the one named ``BROKEN`` raises."""


def broken_game(folder: Path, method: str) -> Path:
    """A plugin file of ``tiny`` whose ``method`` raises ``RuntimeError: METHOD broke``."""
    plugin = folder / "tiny.py"
    plugin.write_text(BROKEN_GAME.replace("BROKEN", method))
    return plugin


THROUGH_THE_CLI = {
    "format": ("feedback_model.format", ("solve", "tiny", "--secret", "abc")),
    "parts": ("feedback_model.parts", ("solve", "tiny", "--secret", "abc")),
    "parse": ("feedback_model.parse", ("play", "tiny", "--seed", "1")),
    "guess_rule": ("guess_rule", ("solve", "tiny", "--secret", "abc")),
    "after": ("guess_rule.after", ("solve", "tiny", "--secret", "abc")),
    "state_key": ("guess_rule.state_key", ("evaluate", "tiny")),
    "encode": ("feedback_model.encode", ("evaluate", "tiny")),
}
"""Each method, what the message calls it and a command that calls it."""


@pytest.mark.parametrize("method", list(THROUGH_THE_CLI))
def test_a_plugin_method_that_raises_is_one_line_at_the_command_line(tmp_path: Path, method: str) -> None:
    """A model whose ``format`` raised on its own win value, a guess rule that raised, a ``parse``
    that raised on typed feedback: each was a Python traceback with exit status 1."""
    what, command = THROUGH_THE_CLI[method]
    result = run("--plugin", str(broken_game(tmp_path, method)), *command, input="aaa\nquit\n")
    one_line_error(result, f"error: tiny: its {what} failed: RuntimeError: {method} broke")
    assert "Traceback" not in result.stderr + result.stdout


ANY_OTHER = {
    "describe": lambda game: game.feedback_model.describe(),
    "why_not": lambda game: game.guess_rule.why_not(game.guesses[0], 0, game.guesses[1]),
    "feedback_form": lambda game: game.feedback_form(),
    "move_distance": lambda game: game.move_distance(game.guesses[0], game.guesses),
    "not_a_guess": lambda game: game.not_a_guess("ccc"),
}
"""Methods no command of the tiny game reaches, called as the engine calls them."""


@pytest.mark.parametrize("method", list(ANY_OTHER))
def test_every_other_plugin_method_that_raises_is_one_line(tmp_path: Path, method: str) -> None:
    """The rest of what a plugin may write is wrapped the same way, wherever it is called from."""
    from moocow.plugins import load_game, load_plugin_file

    load_plugin_file(broken_game(tmp_path, method), strict=True)
    game = load_game("tiny")
    prefix = {"describe": "feedback_model.", "why_not": "guess_rule."}.get(method, "")
    with pytest.raises(
        MoocowError, match=f"^tiny: its {prefix}{method} failed: RuntimeError: {method} broke$"
    ):
        ANY_OTHER[method](game)
