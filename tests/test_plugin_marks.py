"""Plugins whose feedback is not counts: the marks example (``examples/marks_mastermind``) through
every command, a plugin's own ``FeedbackModel`` kind (``examples/higher_lower.py``: typed and shown
its way, a table of its dtype, values outside its size refused, symmetries kept only where its
feedback allows them) and a plugin's own rule on guesses."""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from moocow.cli import app
from moocow.engine.errors import MoocowError
from moocow.engine.evaluation import evaluate
from moocow.engine.feedback import FeedbackModel
from moocow.engine.game import Codes, Game
from moocow.engine.position import Position
from moocow.engine.table import FeedbackTable
from moocow.plugins import game_classes, load_game, load_plugin_file
from moocow.plugins.strategy_registry import load_strategy
from tests.test_wordle import reference_marks

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
MARKS_PLUGIN = EXAMPLES / "marks_mastermind" / "moocow_marks_mastermind" / "__init__.py"
DIRECTION_PLUGIN = EXAMPLES / "higher_lower.py"
TINY = "marks_mastermind:pegs=3,colors=4"
"""24 secrets of different colours, 64 guesses: small enough to prove by brute force here."""


def moocow(plugin: Path, *arguments: str, typed: str | None = None):
    """The command line with ``plugin`` loaded, as a reader types it."""
    return CliRunner().invoke(app, ["--plugin", str(plugin), *arguments], input=typed)


def succeeded(result) -> str:
    assert result.exit_code == 0, f"{result.output}{result.exception!r}"
    return result.output


def one_line_error(result, message: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.output.strip() == f"error: {message}", result.output


# ---------------------------------------------------------------------- the marks example
@pytest.fixture
def marks_game():
    load_plugin_file(MARKS_PLUGIN)
    return load_game("marks_mastermind")


@pytest.mark.parametrize("spec", ["marks_mastermind:pegs=4,colors=5", "marks_mastermind:pegs=3,colors=3"])
def test_its_marks_follow_the_rule_on_every_pair(spec: str) -> None:
    """Every guess, repeated colours included, against every secret, as the rule says."""
    load_plugin_file(MARKS_PLUGIN)
    game = load_game(spec)
    table = game.feedback(game.guesses, game.secrets)
    assert table.dtype == np.uint8 and table.shape == (len(game.guesses), len(game.secrets))
    shown = np.vectorize(game.format_feedback)(table)
    guesses = [game.format_code(code) for code in game.guesses]
    secrets = [game.format_code(code) for code in game.secrets]
    expected = np.array([[reference_marks(guess, secret) for secret in secrets] for guess in guesses])
    assert np.array_equal(shown, expected)
    assert game.feedback_model.kind == "marks" and not game.feedback_model.symmetric
    assert game.symmetries_in_force == {"symbols"}


def test_games_lists_it_with_secrets_and_guesses_apart() -> None:
    row = next(
        line for line in succeeded(moocow(MARKS_PLUGIN, "games")).splitlines() if "marks_mastermind" in line
    )
    assert re.search(r"pegs=4, colors=6\s*│\s*360\s*│\s*1,296", row), row


def test_evaluate_and_solve_show_marks() -> None:
    printed = succeeded(moocow(MARKS_PLUGIN, "evaluate", "marks_mastermind", "--strategy", "minmax"))
    assert "total 1,099 guesses, average 3.0528, worst case 4" in printed
    printed = succeeded(moocow(MARKS_PLUGIN, "solve", "marks_mastermind", "--secret", "3521"))
    assert re.search(r"│ 1 │ 1234 +│ YYYB +│ 22 ", printed), printed
    assert "(not possible)" in printed  # a guess repeating a colour, which no secret does
    assert "Found 3521 in 3 guesses with minmax." in printed
    one_line_error(
        moocow(MARKS_PLUGIN, "solve", "marks_mastermind", "--secret", "1123"),
        "'1123' is a guess but not a possible secret in marks_mastermind",
    )


def test_assist_reads_marks_as_typed_and_refuses_impossible_ones() -> None:
    typed = "1234 GYBQ\n1234 GGGY\n1234 gy..\nquit\n"
    printed = succeeded(moocow(MARKS_PLUGIN, "assist", "marks_mastermind", typed=typed))
    assert "error: feedback 'GYBQ': 'Q' is not a mark" in printed
    assert "error: feedback 'GGGY' is impossible: a lone yellow beside 3 greens" in printed
    assert "4 codes remain.\n  1526 1562 1625 1652\n" in printed


def test_play_takes_guesses_that_cannot_be_the_secret() -> None:
    printed = succeeded(moocow(MARKS_PLUGIN, "play", "marks_mastermind", "--seed", "1", typed="1111\n2156\n"))
    assert "guess 1>   BGBB" in printed and "Solved in 2 guesses." in printed


def test_tournament_plays_its_rounds() -> None:
    arguments = ("tournament", "-p", "minmax", "-p", "entropy", "-g", "marks_mastermind", "-r", "4")
    printed = succeeded(moocow(MARKS_PLUGIN, *arguments, "--seed", "3"))
    assert "8 rounds played" in printed
    rows = [line for line in printed.splitlines() if re.match(r"│ \d │", line)]
    assert len(rows) == 2 and all(re.search(r"│ 0 +│ [\d.]+ +│$", row) for row in rows), rows


def test_grade_with_an_engine_strategy_and_a_python_player() -> None:
    """Graded as the course runner does: every round found (a lost round is on stderr)."""
    printed = succeeded(moocow(MARKS_PLUGIN, "grade", "minmax", "-g", "marks_mastermind", "-r", "3"))
    assert re.search(r"^\d+ minmax moocow$", printed, re.MULTILINE), printed
    player = Path(__file__).parent / "players" / "first_candidate.py"
    result = moocow(MARKS_PLUGIN, "grade", str(player), "-g", "marks_mastermind", "-r", "2")
    printed = succeeded(result)
    assert re.search(r"^\d+ first-candidate Test Player$", printed, re.MULTILINE), printed
    assert "lost" not in printed


V2_PLAYER = """
import runpy
from moocow.plugins import load_plugin_file

load_plugin_file(PLUGIN)  # a program knows a plugin's games as any program would: by loading it
runpy.run_path(PLAYER, run_name="__main__")
"""
"""The tests' version-2 program (first candidate, marks read as text), knowing the marks example."""


def test_grade_a_program_player_speaking_protocol_2(tmp_path: Path) -> None:
    """A program of its own process reads the marks as the game writes them (``feedback GYBB``)."""
    program = shutil.copy(Path(__file__).parent / "players" / "first_candidate_v2.py", tmp_path)
    player = tmp_path / "player.py"  # beside it: the sandbox shows a player its own folder
    player.write_text(V2_PLAYER.replace("PLUGIN", repr(str(MARKS_PLUGIN))).replace("PLAYER", repr(program)))
    printed = succeeded(
        moocow(MARKS_PLUGIN, "grade", f"{sys.executable} {player}", "-g", "marks_mastermind", "-r", "2")
    )
    assert re.search(r"^\d+ first-v2 Test Player$", printed, re.MULTILINE), printed
    assert "lost" not in printed


def test_tree_saves_draws_and_replays(tmp_path: Path) -> None:
    saved, drawing = tmp_path / "marks.json", tmp_path / "marks.svg"
    printed = succeeded(
        moocow(MARKS_PLUGIN, "tree", "marks_mastermind", "--save", str(saved), "--svg", str(drawing))
    )
    assert "SVG drawing written to" in printed
    picture = drawing.read_text()
    assert picture.startswith("<svg") and "<title>marks_mastermind with minmax</title>" in picture
    assert ">1234 (360)<" in picture  # the opening, over every secret
    replayed = moocow(MARKS_PLUGIN, "evaluate", "marks_mastermind", "--strategy", f"tree:{saved}")
    assert "total 1,099 guesses" in succeeded(replayed)


def brute_force_optimum(game: Game, depth: int) -> int:
    """Fewest guesses in total over every secret within ``depth`` guesses, by trying every guess
    at every node: a plain reference for the exact search on a tiny game."""
    table = game.feedback(game.guesses, game.secrets)

    @cache
    def best(candidates: tuple[int, ...], depth: int) -> float:
        if depth == 0:
            return float("inf")
        indices, least = np.array(candidates), float("inf")
        for row in table[:, indices]:
            total = float(len(indices))
            for value in np.unique(row):
                part = tuple(indices[row == value].tolist())
                if value != game.win:
                    total += float("inf") if len(part) == len(indices) else best(part, depth - 1)
                if total >= least:
                    break
            least = min(least, total)
        return least

    return int(best(tuple(range(len(game.secrets))), depth))


def test_optimal_proves_what_a_brute_force_finds() -> None:
    printed = succeeded(moocow(MARKS_PLUGIN, "optimal", TINY, "--max-depth", "4"))
    total = int(re.search(r"(\d+) guesses in total, proven optimal", printed)[1])
    assert total == brute_force_optimum(load_game(TINY), 4) == 54


def test_serve_offers_the_marks_that_occur() -> None:
    """The assistant's page, in process: the marks offered after a guess are those some secret
    gives, each with what it leaves."""
    from tests.web_helpers import client

    load_plugin_file(MARKS_PLUGIN)
    web = client()
    assert web.get("/assist", params={"game": "marks_mastermind"}).status_code == 200
    data = web.get("/assist.json", params={"game": "marks_mastermind", "g": "1234"}).json()
    offered = {answer["feedback"]: answer["remaining"] for answer in data["answers"]}
    assert offered["GYBB"] == 4 and sum(offered.values()) == 360 and "GGGY" not in offered
    after = web.get("/assist.json", params={"game": "marks_mastermind", "m": "1234:GYBB"}).json()
    assert after["remaining"] == 4 and after["codes"] == ["1526", "1562", "1625", "1652"]


def test_serve_lists_what_remains_of_a_plugin_game() -> None:
    from tests.web_helpers import client

    load_plugin_file(MARKS_PLUGIN)
    page = client().get("/assist", params={"game": "marks_mastermind", "m": "1234:GYBB"})
    assert page.status_code == 200 and "1526" in page.text


# ---------------------------------------------------------------------- a kind of its own
@pytest.fixture
def higher_lower():
    load_plugin_file(DIRECTION_PLUGIN)
    return load_game("higher_lower")


def test_its_own_values_are_typed_and_shown_its_way(higher_lower) -> None:
    model = higher_lower.feedback_model
    assert (model.kind, model.size, model.win, model.values()) == ("direction", 3, 2, (0, 1, 2))
    for typed in ("higher", " H ", ">", "Higher"):
        assert higher_lower.format_feedback(higher_lower.parse_feedback(typed)) == "higher"
    with pytest.raises(MoocowError, match=r"^feedback 'maybe' is not a direction \(lower, higher or equal"):
        higher_lower.parse_feedback("maybe")
    guesses, secrets = higher_lower.parse_code("50")[None], higher_lower.parse_code("37")[None]
    assert higher_lower.format_feedback(int(higher_lower.feedback(guesses, secrets)[0, 0])) == "lower"
    assert higher_lower.format_feedback(int(higher_lower.feedback(secrets, guesses)[0, 0])) == "higher"


def test_its_own_values_through_the_commands() -> None:
    printed = succeeded(moocow(DIRECTION_PLUGIN, "solve", "higher_lower", "--secret", "37"))
    assert [line.split("│")[3].strip() for line in printed.splitlines() if re.match(r"│ \d", line)] == [
        "lower",
        "higher",
        "equal",
    ]
    typed = "50 <\n25 h\n37 sideways\n37 =\n"
    printed = succeeded(moocow(DIRECTION_PLUGIN, "assist", "higher_lower", typed=typed))
    assert "error: feedback 'sideways' is not a direction" in printed
    assert "Solved in 3 guesses." in printed
    printed = succeeded(moocow(DIRECTION_PLUGIN, "evaluate", "higher_lower"))
    assert "total 580 guesses, average 5.8000, worst case 7" in printed  # a binary search
    printed = succeeded(moocow(DIRECTION_PLUGIN, "optimal", "higher_lower:n=20", "--max-depth", "5"))
    assert "74 guesses in total, proven optimal" in printed  # 1 + 2*2 + 4*3 + 8*4 + 5*5
    printed = succeeded(moocow(DIRECTION_PLUGIN, "tree", "higher_lower:n=7", "--show", "3"))
    assert printed.splitlines()[1:4] == ["4 (7)", "  lower -> 2 (3)", "    lower -> 1 (1)  win"], printed


class Steps(FeedbackModel):
    """How far the secret is across and down a 20 x 20 grid: 400 values, more than a byte holds."""

    kind = "steps"
    size = 400
    win = 0
    symmetric = True
    invariant_under = frozenset()

    def values(self) -> tuple[int, ...]:
        return tuple(range(self.size))

    def format(self, value: int) -> str:
        return "{}+{}".format(*self.parts(value))

    def parse(self, text: str) -> int:
        across, _, down = text.strip().partition("+")
        if not (across.isdigit() and down.isdigit() and int(across) < 20 and int(down) < 20):
            raise MoocowError(f"feedback {text.strip()!r} is not ACROSS+DOWN")
        return self.encode((int(across), int(down)))

    def parts(self, value: int) -> tuple[int, ...]:
        return divmod(int(value), 20)

    def encode(self, parts: Sequence[int]) -> int:
        return int(parts[0]) * 20 + int(parts[1])

    def describe(self) -> str:
        return "steps across and down, e.g. 3+4"


class Grid(Game):
    """Find a square of a 20 x 20 grid from how many steps away it is along each side."""

    name = "grid"
    code_length = 2
    feedback_model = Steps()
    symmetries = frozenset({"positions", "symbols"})
    """Claimed, and wrong: swapping the sides swaps the steps, renaming squares moves them."""

    def build_secrets(self) -> Codes:
        return np.array([(across, down) for across in range(20) for down in range(20)], dtype=np.uint8)

    def feedback(self, guesses: Codes, secrets: Codes) -> np.ndarray:
        steps = np.abs(guesses[:, None, :].astype(np.int16) - secrets[None, :, :])
        return steps[..., 0] * 20 + steps[..., 1]

    def parse_code(self, text: str) -> np.ndarray:
        across, _, down = text.strip().partition(",")
        return np.array([int(across), int(down)], dtype=np.uint8)

    def format_code(self, code: np.ndarray) -> str:
        return f"{code[0]},{code[1]}"


def test_more_than_256_values_get_a_table_of_uint16() -> None:
    grid = Grid()
    table = FeedbackTable.for_game(grid)
    assert grid.feedback_model.dtype == np.uint16 and table.dtype == np.uint16
    rows = table.rows(np.arange(len(grid.secrets)))
    assert rows.dtype == np.uint16 and rows.max() == 399
    assert np.array_equal(rows, grid.feedback(grid.guesses, grid.secrets).T)
    result = evaluate(grid, load_strategy("minmax"))
    assert (result.secrets, result.worst) == (400, 2)  # the corner's steps tell every square apart
    assert grid.format_feedback(grid.parse_feedback("7+3")) == "7+3"


GRID_PLUGIN = """
from moocow.plugins import hookimpl
from tests.test_plugin_marks import Grid

@hookimpl
def register_games(register):
    register(Grid)
"""


def test_the_exact_search_refuses_more_than_256_values_in_one_line(tmp_path: Path) -> None:
    """Its tables are bytes: a game of 400 values is one line naming the limit, not a traceback."""
    plugin = tmp_path / "grid.py"
    plugin.write_text(GRID_PLUGIN)
    message = (
        "grid has 400 feedback values: the exact search keeps its tables in bytes, "
        "so it takes games of at most 256"
    )
    one_line_error(moocow(plugin, "optimal", "grid", "--max-depth", "2"), message)


def test_feedback_outside_the_size_is_refused_in_one_line(tmp_path: Path) -> None:
    """A plugin that numbers its directions from 1 hands the engine a 3 it cannot hold."""
    source = DIRECTION_PLUGIN.read_text().replace(
        "LOWER, HIGHER, EQUAL = 0, 1, 2", "LOWER, HIGHER, EQUAL = 1, 2, 3"
    )
    plugin = tmp_path / "off_by_one.py"
    plugin.write_text(source)
    # its model's win (3) is beyond its size: refused when the game is loaded, before any feedback
    message = (
        "higher_lower: its feedback model needs a whole size from 1 to 2**32 and a win below it "
        "(size 3, win 3)"
    )
    for command in (
        ["evaluate", "higher_lower"],
        ["solve", "higher_lower", "--secret", "5"],
        ["tree", "higher_lower"],
    ):
        one_line_error(moocow(plugin, *command), message)


# ---------------------------------------------------------------------- symmetries in force
def test_symmetries_the_feedback_is_not_invariant_under_are_not_used(marks_game) -> None:
    """Marks move with their places: a claim of ``positions`` is dropped, ``symbols`` kept; a kind
    invariant under nothing keeps nothing; the results are those of a game claiming only what holds."""
    honest = type(marks_game)
    claiming = type("Claiming", (honest,), {"symmetries": frozenset({"positions", "symbols"})})
    game, twin = claiming(pegs=3, colors=4), honest(pegs=3, colors=4)
    assert game.symmetries == {"positions", "symbols"} and game.symmetries_in_force == {"symbols"}
    for strategy in ("minmax", "entropy"):
        ours, theirs = evaluate(game, load_strategy(strategy)), evaluate(twin, load_strategy(strategy))
        assert (ours.total, ours.histogram) == (theirs.total, theirs.histogram)
    assert Grid().symmetries_in_force == frozenset()


def test_symmetries_need_the_secrets_closed(marks_game) -> None:
    """Renaming colours keeps the marks, but not a list of secrets that leaves some out."""
    honest = type(marks_game)

    def fewer_secrets(self) -> Codes:
        return honest.build_secrets(self)[::2]

    partial = type("Partial", (honest,), {"build_secrets": fewer_secrets})(pegs=3, colors=4)
    assert partial.symmetries == {"symbols"} and partial.symmetries_in_force == frozenset()


def test_the_examples_register_beside_the_builtins() -> None:
    for plugin in (MARKS_PLUGIN, DIRECTION_PLUGIN):
        load_plugin_file(plugin)
    assert {"marks_mastermind", "higher_lower", "wordle"} <= set(game_classes())


# ---------------------------------------------------------------------- a rule on guesses
def test_a_plugins_guess_rule_narrows_the_guesses_and_says_why() -> None:
    """Strict higher-or-lower: after 50 got ``lower`` only 1..49 may follow; minmax's every guess,
    over every secret, is one the rule allows where it is played."""
    load_plugin_file(DIRECTION_PLUGIN)
    game = load_game("higher_lower:n=30,strict=true")
    start = Position.start(game)
    position = start.after(game.guess_index("15"), game.parse_feedback("lower"))
    assert [game.format_code(game.guesses[index]) for index in position.legal_guesses] == [
        str(number) for number in range(1, 15)
    ]
    with pytest.raises(MoocowError, match=r"^20 is not allowed in strict play: 15 was answered lower$"):
        position.check_legal(game.guess_index("20"))
    strategy, stack = load_strategy("minmax"), [start]
    while stack:
        position = stack.pop()
        guess = strategy.decide(position)
        position.check_legal(guess)
        for value in np.unique(position.feedback_to(guess)).tolist():
            if value != game.win:
                stack.append(position.after(guess, value))
    assert evaluate(game, strategy).secrets == 30


def test_the_table_and_the_web_page_refuse_a_guess_the_rule_forbids() -> None:
    """The plugin's reason, in one line, wherever a person types a guess."""
    from tests.web_helpers import client

    reason = "60 is not allowed in strict play: 50 was answered lower"
    typed = "50 lower\n60 lower\n"
    assert f"error: {reason}" in succeeded(
        moocow(DIRECTION_PLUGIN, "assist", "higher_lower:strict=true", typed=typed)
    )
    played = moocow(DIRECTION_PLUGIN, "play", "higher_lower:strict=true", "--seed", "2", typed="50\n60\n")
    assert f"error: {reason}" in succeeded(played)  # the seed's secret is 8
    page = client().get(
        "/assist.json", params={"game": "higher_lower:strict=true", "m": "50:lower", "g": "60"}
    )
    assert page.status_code == 400 and page.json()["error"] == reason
