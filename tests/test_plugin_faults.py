"""A game plugin is someone else's code: whatever its methods hand the engine is checked where it
is handed over, and each fault is one line naming the game (``engine.checks``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_cli_input import one_line_error, run

TINY_GAME = """
import itertools
import numpy as np
from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.plugins import hookimpl

class Tiny(Game):
    name = "tiny"
    summary = "three places, three symbols"
    feedback_fields = ("correct",)
    code_length = CODE_LENGTH

    def build_secrets(self):
        return SECRETS

    def feedback(self, guesses, secrets):
        return FEEDBACK

    def parse_code(self, text):
        if len(text) != 3 or not set(text) <= set("abc"):
            raise MoocowError(f"{text!r} is not three of a, b, c")
        return PARSE

    def format_code(self, code):
        return FORMAT

@hookimpl
def register_games(register):
    register(Tiny)
"""

SOUND = {
    "code_length": "3",
    "secrets": "np.array(list(itertools.product(range(3), repeat=3)), dtype=np.uint8)",
    "feedback": "(guesses[:, None, :] == secrets[None, :, :]).sum(axis=2).astype(np.uint8)",
    "parse": 'np.array(["abc".index(letter) for letter in text], dtype=np.uint8)',
    "format": '"".join("abc"[symbol] for symbol in code)',
}
"""The sound game's parts, Python expressions; each fault below replaces one of them."""
GOOD_SECRETS, GOOD_FEEDBACK = SOUND["secrets"], SOUND["feedback"]


def tiny_game(folder: Path, **parts: str) -> Path:
    """A plugin file of the game ``tiny``, its parts as given (Python expressions), else sound."""
    source = TINY_GAME
    for part, expression in {**SOUND, **parts}.items():
        source = source.replace(part.upper(), expression)
    plugin = folder / "tiny.py"
    plugin.write_text(source)
    return plugin


BAD_SECRETS = {
    "raising": (
        "(_ for _ in ()).throw(RuntimeError('cannot build'))",
        "its build_secrets failed: RuntimeError",
    ),
    "twice": (f"np.concatenate([{GOOD_SECRETS}] * 2)", "tiny secrets: a code is there twice"),
    "over 255": (f"{GOOD_SECRETS}.astype(int) + 254", "codes must be whole numbers from 0 to 255"),
    "NaN": (f"{GOOD_SECRETS} * np.nan", "codes must be whole numbers from 0 to 255 (float64 given)"),
    "text": ("np.array([['a', 'b', 'c']])", "codes must be whole numbers"),
    "ragged": ("[[0, 1, 2], [0, 1]]", "expected a non-empty array of codes of length 3"),
}
BAD_FEEDBACK = {
    "raising": ("(_ for _ in ()).throw(ValueError('boom'))", "tiny: its feedback failed: ValueError: boom"),
    "a list": (f"({GOOD_FEEDBACK}).tolist()", "it gave a list"),
    "flat": (f"({GOOD_FEEDBACK}).ravel()", "it gave an array of uint8 of shape (729,)"),
    "NaN": (f"({GOOD_FEEDBACK}) * np.nan", "it gave an array of float64"),
    "negative": (
        f"({GOOD_FEEDBACK}).astype(np.int64) - 1",
        "feedback must be a value of its counts (0 to 3), not -1",
    ),
    "too large": (f"({GOOD_FEEDBACK}) * 3", "(0 to 3), not 9"),
}


BAD_CODE_LENGTH = {
    "raising": ("property(lambda self: 1 / 0)", "tiny: its code_length failed: ZeroDivisionError"),
    "zero": ("0", "tiny: code_length must be a whole number from 1 to 255, not 0"),
    "text": ("'3'", "code_length must be a whole number from 1 to 255, not '3'"),
}
BAD_PARSE = {
    "raising": ("{}['x']", "tiny: its parse_code failed: KeyError: 'x'"),
    "None": ("None", "tiny: parse_code must give 3 whole numbers from 0 to 255; it gave a NoneType"),
    "the text": ("list(text)", "it gave a list"),
    "too short": ("np.zeros(2, np.uint8)", "it gave an array of uint8 of shape (2,)"),
    "over 255": ("np.full(3, 256)", "it gave an array of int64 of shape (3,)"),
    "misread": ("np.zeros(3, np.uint8)", "parse_code does not read back what format_code writes"),
}
BAD_FORMAT = {
    "raising": ("1 / 0", "tiny: its format_code failed: ZeroDivisionError"),
    "None": ("None", "tiny: format_code must give a line of printable text; it gave a NoneType"),
    "empty": ('""', "it gave ''"),
    "two lines": ('"a\\nb"', "it gave 'a\\nb'"),
    "not read back": (
        '"".join("bca"[symbol] for symbol in code)',
        "[0, 0, 0] is written 'bbb', which it reads as [1, 1, 1]",
    ),
    "refused": ('"zzz"', "[0, 0, 0] is written 'zzz', which it refuses: 'zzz' is not three of a, b, c"),
}
FAULTS = {
    "code_length": BAD_CODE_LENGTH,
    "secrets": BAD_SECRETS,
    "feedback": BAD_FEEDBACK,
    "parse": BAD_PARSE,
    "format": BAD_FORMAT,
}
PLUGIN_FAULTS = [(part, fault) for part, faults in FAULTS.items() for fault in faults]


@pytest.mark.parametrize(
    ("part", "fault"), PLUGIN_FAULTS, ids=[f"{part} {fault}" for part, fault in PLUGIN_FAULTS]
)
@pytest.mark.parametrize(
    "command", [("evaluate", "tiny"), ("solve", "tiny", "--secret", "aaa"), ("tree", "tiny")]
)
def test_a_plugin_game_that_hands_over_anything_bad_is_one_line(
    tmp_path: Path, part: str, fault: str, command: tuple[str, ...]
) -> None:
    """A plugin's code length, codes, feedback and text forms are checked as they are handed over.
    A repeated code was counted twice, 256 wrapped to 0, a negative or too large feedback gave
    wrong totals with exit 0, and a raise, a list or a flat array was a traceback."""
    expression, message = FAULTS[part][fault]
    plugin = tiny_game(tmp_path, **{part: expression})
    one_line_error(run("--plugin", str(plugin), *command), message)


def test_the_tiny_game_itself_plays(tmp_path: Path) -> None:
    """The plugin the faults above are made from is sound: 27 secrets, found."""
    result = run("--plugin", str(tiny_game(tmp_path)), "evaluate", "tiny", "-s", "first")
    assert result.exit_code == 0, result.stderr
    assert "27 secrets" in result.stdout


def test_a_game_its_plugin_cannot_build_costs_its_own_row(tmp_path: Path) -> None:
    """`moocow games` lists every other game and warns about that one; it once ended in a
    traceback that listed nothing."""
    plugin = tiny_game(tmp_path, secrets=BAD_SECRETS["raising"][0])
    result = run("--plugin", str(plugin), "games")
    assert result.exit_code == 0, result.stderr
    assert "mastermind" in result.stdout and "tiny" in result.stdout
    assert result.stderr.splitlines() == [
        "warning: game 'tiny' cannot be built: tiny: its build_secrets failed: RuntimeError: cannot build"
    ]


@pytest.mark.parametrize(
    ("constructor", "message"),
    [
        ('raise RuntimeError("cannot make")', "tiny: the game could not be made: RuntimeError: cannot make"),
        ("pass", "tiny: the game could not be made: AttributeError"),  # no values, so no spec
    ],
)
def test_a_plugin_game_that_cannot_be_made_is_one_line(
    tmp_path: Path, constructor: str, message: str
) -> None:
    """A plugin's own ``__init__`` that raises, or that skips ``Game.__init__``, was a traceback."""
    plugin = tiny_game(tmp_path)
    source = plugin.read_text().replace(
        "    code_length = 3\n",
        f"    code_length = 3\n\n    def __init__(self, **values):\n        {constructor}\n",
    )
    plugin.write_text(source)
    one_line_error(run("--plugin", str(plugin), "evaluate", "tiny"), message)


COMMON_SYMBOLS = (
    "np.minimum(*(np.stack([(codes == symbol).sum(axis=-1) for symbol in range(3)], axis=-1)"
    " for codes in (guesses[:, None], secrets[None]))).sum(axis=-1).astype(np.uint8)"
)
"""Feedback that counts the symbols a guess shares with the secret, in any place: ``bac`` scores
the win against ``abc``, as 1122 does against 2211 in a colour-only Mastermind."""


@pytest.mark.parametrize(
    "command",
    [
        ("solve", "tiny", "--secret", "abc"),
        ("evaluate", "tiny"),
        ("assist", "tiny"),
        ("play", "tiny", "--seed", "1"),
        ("tree", "tiny"),
        ("optimal", "tiny"),
        ("tournament", "-p", "minmax", "-g", "tiny", "-r", "2", "--seed", "1"),
    ],
)
def test_a_game_whose_win_another_guess_scores_is_refused_by_every_command(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    """Every command takes the winning answer to mean the guess is the secret; only ``optimal``
    checked it, so ``solve`` "found" a secret it never guessed and a tournament lost every round."""
    plugin = tiny_game(tmp_path, feedback=COMMON_SYMBOLS)
    one_line_error(
        run("--plugin", str(plugin), *command, input="quit\n"),
        "tiny: guess aba scores the win (3) against secret aab; "
        "the winning answer must come from the secret itself only",
    )


def test_games_reports_the_problem_every_other_command_refuses_the_game_with(tmp_path: Path) -> None:
    """``games`` built the game without its checks and listed ``problem: null`` for a game every
    other command refuses; its reason is now the refusal itself, word for word."""
    plugin = tiny_game(tmp_path, feedback=COMMON_SYMBOLS)
    refusal = one_line_error(run("--plugin", str(plugin), "evaluate", "tiny"), "tiny: guess aba")
    listed = run("--plugin", str(plugin), "games", "--json")
    assert listed.exit_code == 0, listed.stderr
    tiny = next(info for info in json.loads(listed.stdout) if info["name"] == "tiny")
    assert tiny["problem"] == refusal.removeprefix("error: ")
    assert (tiny["secrets"], tiny["guesses"]) == (None, None)


def test_the_win_is_checked_on_a_sample_of_a_large_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game too large to score every pair at load is checked on secrets spread over its space."""
    from moocow.engine import checks
    from moocow.plugins.mastermind import Mastermind

    monkeypatch.setattr(checks, "WIN_CHECK_PAIRS", 1296 * 10)
    game = Mastermind(pegs=4, colors=6)
    calls: list[int] = []
    scored = Mastermind.feedback
    monkeypatch.setattr(Mastermind, "feedback", lambda game, g, s: calls.append(len(s)) or scored(game, g, s))
    checks.check_winning_answer(game)
    checks.check_winning_answer(game)  # once per game
    assert calls == [10]


@pytest.mark.parametrize(
    ("model", "message"),
    [
        ('"marks"', "feedback_model must be a moocow.engine.feedback.FeedbackModel, not 'marks'"),
        (
            "_Model(4, 7)",
            "its feedback model needs a whole size from 1 to 2**32 and a win below it (size 4, win 7)",
        ),
        (
            "_Model(4, 3, (0, 9))",
            "its feedback model's values must be whole numbers below 4, the win among them",
        ),
        (
            "_Model(4, 3, (0, 1))",
            "its feedback model's values must be whole numbers below 4, the win among them",
        ),
    ],
)
def test_a_plugins_broken_feedback_model_is_one_line(tmp_path: Path, model: str, message: str) -> None:
    """A model that is no model, a win beyond its size, or values it cannot hold: one line at load."""
    declared = f"    @property\n    def feedback_model(self):\n        return {model}\n\n"
    source = TINY_GAME.replace(
        "    def build_secrets(self):", declared + "    def build_secrets(self):"
    ).replace("class Tiny(Game):", MODEL_CLASS + "\nclass Tiny(Game):")
    for part, expression in SOUND.items():
        source = source.replace(part.upper(), expression)
    plugin = tmp_path / "tiny.py"
    plugin.write_text(source)
    one_line_error(run("--plugin", str(plugin), "evaluate", "tiny"), f"tiny: {message}")


MODEL_CLASS = """
from moocow.engine.feedback import Counts

class _Model(Counts):
    def __init__(self, size, win, values=None):
        super().__init__(("correct",), 3)
        self.size, self.win = size, win
        self._declared = values

    def values(self):
        return self._declared if self._declared is not None else tuple(range(self.size))
"""


A_LEADS = f"np.where((guesses[:, None, 0] == 0) & (({GOOD_FEEDBACK}) < 3), 0, {GOOD_FEEDBACK})"
"""Feedback in which a guess starting with ``a`` scores nothing unless it wins: renaming the
symbols, or moving the places, changes what a pair scores."""


@pytest.mark.parametrize("kind", ["positions", "symbols"])
@pytest.mark.parametrize("command", [("evaluate", "tiny"), ("solve", "tiny", "--secret", "abc")])
def test_a_declared_symmetry_the_feedback_does_not_keep_is_refused_at_load(
    tmp_path: Path, kind: str, command: tuple[str, ...]
) -> None:
    """A false claim was honoured by every search, with wrong totals and no warning (minmax scored
    673 guesses where 580 was honest); it is now checked on a seeded sample as the game loads."""
    plugin = tiny_game(tmp_path, feedback=A_LEADS)
    source = plugin.read_text().replace(
        "    code_length = ", f"    symmetries = {{{kind!r}}}\n    code_length = "
    )
    plugin.write_text(source)
    line = one_line_error(
        run("--plugin", str(plugin), *command), f"tiny: its declared symmetry {kind!r} does not hold"
    )
    assert f"the same with its {kind} relabelled" in line


def test_every_built_in_and_example_game_keeps_the_symmetries_it_declares() -> None:
    """Each is checked as it loads, and passes; the check costs a few milliseconds at most."""
    import time

    from moocow.plugins import BUILTIN_PLUGINS, game_classes, load_game, load_plugin_file

    load_plugin_file("examples/bagels.py", strict=True)
    load_plugin_file("examples/marks_mastermind/moocow_marks_mastermind/__init__.py", strict=True)
    builtin = {cls.name for cls in game_classes().values() if cls.__module__ in BUILTIN_PLUGINS}
    assert builtin == {"bottles", "digits", "mastermind", "wordle", "words"}
    for name in sorted(builtin | {"bagels", "marks_mastermind"}):
        game = load_game(name)
        assert game.caches.symmetries_checked == bool(game.symmetries), name
    from moocow.engine import checks

    game = load_game("mastermind")
    game.caches.symmetries_checked = False
    start = time.perf_counter()
    checks.check_symmetries(game)
    assert time.perf_counter() - start < 0.25
