"""The compiled greedy engine computes exactly what the numpy path does (issue 13).

The numpy path is the reference: the feedback forms must give each game's own feedback, the
partition sizes must be equal, and whole evaluations must choose the same guesses.
"""

from __future__ import annotations

from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moocow.engine import opening, partitions
from moocow.engine.evaluation import evaluate
from moocow.engine.kernel import greedy
from moocow.engine.position import Position
from moocow.engine.switches import SWITCHES, switched
from moocow.engine.table import FeedbackTable
from moocow.plugins import load_game
from moocow.plugins.strategy_registry import load_strategy

GAMES = [
    "mastermind",
    "mastermind:pegs=3,colors=5",
    "mastermind:pegs=6,colors=3",
    "bottles:n=5",
    "digits:length=3",
    "words:length=3",
]


@pytest.mark.parametrize("spec", GAMES)
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_compiled_sizes_equal_numpy(spec: str, data: st.DataObject) -> None:
    game = load_game(spec)
    # budget=0: the numpy path computes its tiles from the game's kernel; otherwise from the held table.
    table = FeedbackTable(game, budget=0 if data.draw(st.booleans()) else 2**30)
    count = table.secret_count
    chosen = data.draw(st.sets(st.integers(0, count - 1), min_size=1, max_size=min(count, 300)))
    candidates = np.array(sorted(chosen), dtype=np.int64)
    guesses = None
    if data.draw(st.booleans()):
        picked = data.draw(st.sets(st.integers(0, table.guess_count - 1), min_size=1, max_size=200))
        guesses = np.array(sorted(picked), dtype=np.int64)
    guess = int(data.draw(st.integers(0, table.guess_count - 1)))
    with switched(engine="numpy"):
        expected = partitions.partition_sizes(table, candidates, guesses)
        column = table.column(guess, candidates)
    with switched(engine="compiled"):
        assert table.compiled(1) is not None
        assert np.array_equal(partitions.partition_sizes(table, candidates, guesses), expected)
        compiled_column = table.column(guess, candidates)
    assert compiled_column.dtype == np.uint8
    assert np.array_equal(compiled_column, column)


@pytest.mark.parametrize("spec", GAMES)
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_compiled_scores_are_those_of_the_sizes(spec: str, data: st.DataObject) -> None:
    """Worst case, expected size and parts scored on the compiled engine (a few candidates'
    answers pairwise, more counted block by block, serially or shared among threads) equal the
    heuristics computed from the numpy path's sizes, over every guess or some; stopped at the
    first guess telling every candidate apart, they choose the same guess."""
    table = FeedbackTable(load_game(spec))
    most = data.draw(st.sampled_from([greedy.FEW_CANDIDATES, 4 * greedy.FEW_CANDIDATES]))
    chosen = data.draw(st.sets(st.integers(0, table.secret_count - 1), min_size=1, max_size=most))
    candidates = np.array(sorted(chosen), dtype=np.int64)
    guesses = None
    if data.draw(st.booleans()):
        picked = data.draw(st.sets(st.integers(0, table.guess_count - 1), min_size=1, max_size=200))
        guesses = np.array(sorted(picked), dtype=np.int64)
    shared = data.draw(st.booleans())
    with switched(engine="numpy"):
        sizes = partitions.partition_sizes(table, candidates, guesses)
    with (
        switched(engine="compiled"),
        mock.patch.object(greedy, "PARALLEL_CELLS", 0 if shared else greedy.PARALLEL_CELLS),
    ):
        for score in partitions.COMPILED_KINDS:
            scores = partitions.compiled_scores(table, candidates, guesses, score)
            assert np.array_equal(scores, score(sizes))
            stopped = partitions.compiled_scores(table, candidates, guesses, score, first_perfect=True)
            assert stopped is not None and stopped.argmin() == scores.argmin()
            scored = stopped != greedy.UNSCORED
            assert np.array_equal(stopped[scored], scores[scored])
            perfect = score(np.ones((len(candidates), 1), np.int32))[0]
            assert scored.all() or stopped.min() == perfect
        assert partitions.compiled_scores(table, candidates, None, partitions.entropy_cost) is None


@pytest.mark.parametrize("spec", GAMES)
def test_forms_give_each_games_feedback(spec: str) -> None:
    game = load_game(spec)
    prepared = greedy.prepare(game, game.feedback_form())
    assert prepared is not None
    rng = np.random.default_rng(0)
    secrets = np.arange(len(game.secrets))
    for guess in rng.choice(len(game.guesses), size=20):
        expected = game.feedback(game.guesses[[guess]], game.secrets)[0]
        assert np.array_equal(greedy.column(prepared, int(guess), secrets), expected)


@pytest.mark.parametrize(
    ("spec", "strategy"),
    [
        ("mastermind", "minmax"),
        ("mastermind", "entropy"),
        ("mastermind:pegs=3,colors=5", "expected"),
        ("mastermind:pegs=3,colors=5", "parts:candidates_only=true"),
        ("bottles:n=5", "minmax:fewest_moves=true"),
        ("digits:length=3", "entropy"),
        ("words:length=3", "minmax"),
    ],
)
def test_compiled_evaluations_equal_numpy(spec: str, strategy: str) -> None:
    results = []
    for path in ("numpy", "compiled"):
        SWITCHES.change(engine=path)
        result = evaluate(load_game(spec), load_strategy(strategy))
        results.append((result.total, result.histogram))
    assert results[0] == results[1]


def test_games_without_a_form_stay_on_numpy() -> None:
    """A game that scores its own way (a subclass overriding ``feedback``) gets no compiled path."""
    from moocow.plugins.bottles import Bottles
    from moocow.plugins.mastermind import Mastermind
    from moocow.plugins.symbols import SymbolGame

    class Reversed(Mastermind):
        name = "reversed"

        def feedback(self, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
            return super().feedback(guesses[:, ::-1], secrets)

    class Crossed(Bottles):
        name = "crossed"

        def feedback(self, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
            return super().feedback(guesses[:, ::-1], secrets)

    SWITCHES.change(engine="compiled")
    assert Reversed().feedback_form() is None
    assert FeedbackTable(Reversed()).compiled(1 << 30) is None
    assert Crossed(n=4).feedback_form() is None and Bottles(n=4).feedback_form() is not None
    assert (Mastermind.feedback_defined_by, Reversed.feedback_defined_by) == (SymbolGame, Reversed)


def test_too_many_symbol_copies_stay_on_numpy() -> None:
    """13 colours, up to 5 copies each: masks of 65 bits, so the numpy path does it."""
    assert greedy.prepare(load_game("mastermind:pegs=5,colors=12"), load_game("mastermind").feedback_form())
    game = load_game("mastermind:pegs=5,colors=13")
    assert game.feedback_form() is not None
    assert greedy.prepare(game, game.feedback_form()) is None


def test_small_work_stays_on_numpy_until_the_games_work_adds_up() -> None:
    """A game's work stays on numpy (no numba to load) until it adds up to ``COMPILED_CELLS``
    pairs, though no one call is that large (Mastermind 5x8 after 11223); then all of it takes
    the compiled engine. Another game's does not, but a game of that many pairs in all starts on
    the compiled engine."""
    from moocow.engine.table import COMPILED_CELLS

    SWITCHES.change(engine=None)
    table = FeedbackTable(load_game("mastermind"))
    quarter = COMPILED_CELLS // 4
    assert [table.compiled(quarter) is None for _ in range(4)] == [True, True, True, False]
    assert table.compiled(10) is not None
    assert FeedbackTable(load_game("digits:length=3")).compiled(10) is None
    assert FeedbackTable(load_game("mastermind:pegs=5,colors=8")).compiled(10) is not None  # 2^30 pairs
    SWITCHES.change(engine="numpy")
    assert table.compiled(COMPILED_CELLS) is None


@pytest.mark.parametrize(
    ("spec", "strategy"),
    [
        ("mastermind", "minmax"),
        ("mastermind", "entropy"),
        ("mastermind:pegs=3,colors=5", "parts:candidates_only=true"),
        ("mastermind:pegs=4,colors=7", "expected"),
        ("digits:length=3", "expected"),
        ("bottles:n=6", "minmax"),
        ("bottles:n=7", "expected"),
    ],
)
def test_symmetry_after_the_opening_changes_no_choice(
    spec: str, strategy: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Scoring one guess per class of guesses alike (``opening.later_guesses``, and renaming the
    symbols no candidate holds, ``opening.absent_symbol_guesses``) at every position chooses
    exactly the guesses scoring all of them does."""
    SWITCHES.change(engine="compiled")  # which finds the absent symbols' classes
    results = []
    for cells in (1 << 62, 0):
        monkeypatch.setattr(opening, "SYMMETRY_CELLS", cells)
        monkeypatch.setattr(opening, "RENAMING_CELLS", cells)
        result = evaluate(load_game(spec), load_strategy(strategy))
        results.append((result.total, result.histogram))
    assert results[0] == results[1]


def test_mastermind_5x8_minmax_known_result() -> None:
    """Issue 13's workload, pinned, as a user runs it: the compiled engine takes it over as its
    work adds up (about 5 s; the numpy path takes 17)."""
    SWITCHES.change(engine=None)
    game = load_game("mastermind:pegs=5,colors=8")
    result = evaluate(game, load_strategy("minmax:first=11223"))
    assert (result.total, result.worst) == (183_775, 7)
    assert result.histogram == (1, 9, 98, 1258, 11373, 18638, 1391)
    assert FeedbackTable.for_game(game).compiled(1) is not None


def test_guesses_alike_by_renaming_absent_symbols_keep_the_least() -> None:
    """With colours 5 and 6 in no candidate, a guess and the one with 5 and 6 swapped are alike;
    the lower of the two is kept (both, when they are the same guess)."""
    game = load_game("mastermind")
    table = FeedbackTable(game)
    assert table.compiled(1 << 30) is not None
    candidates = np.flatnonzero((game.secrets < 4).all(axis=1))  # colours 1 to 4 only
    every_colour_played = ((game.guess_index("1234"), 0), (game.guess_index("5566"), 0))
    start = Position(game, table, candidates, every_colour_played)
    kept = opening.absent_symbol_guesses(start, opening.RENAMING_CELLS)
    assert kept is not None
    swapped = game.guesses.copy()
    swapped[game.guesses == 4], swapped[game.guesses == 5] = 5, 4
    partner = np.array([game.guess_index(game.format_code(code)) for code in swapped])
    assert np.array_equal(kept, np.arange(len(game.guesses)) <= partner)
    assert opening.absent_symbol_guesses(start, opening.RENAMING_CELLS - 1) is None


def test_guesses_alike_by_renaming_unplayed_symbols_keep_the_least() -> None:
    """After 1122 alone, colours 3 to 6 are in the candidates but in no guess played:
    renaming them among themselves keeps the answers, so of the guesses alike that way only the
    one using them in order of first appearance (3 before 4 before 5 before 6) is kept."""
    game = load_game("mastermind")
    table = FeedbackTable(game)
    assert table.compiled(1 << 30) is not None
    opening_guess = game.guess_index("1122")
    everything = np.arange(len(game.secrets))
    kept = opening.absent_symbol_guesses(
        Position(game, table, everything, ((opening_guess, 0),)), opening.RENAMING_CELLS
    )
    assert kept is not None

    def in_order(code: np.ndarray, symbols: list[int]) -> bool:
        order = list(dict.fromkeys(symbol for symbol in code.tolist() if symbol in symbols))
        return order == sorted(symbols)[: len(order)]

    unplayed = np.array([in_order(code, [2, 3, 4, 5]) for code in game.guesses])
    assert np.array_equal(kept, unplayed)
    assert 0 < kept.sum() < len(kept)

    # With colours 5 and 6 also in no candidate, both renamings apply: only guesses least under each.
    four_colours = np.flatnonzero((game.secrets < 4).all(axis=1))
    both = opening.absent_symbol_guesses(
        Position(game, table, four_colours, ((opening_guess, 0),)), opening.RENAMING_CELLS
    )
    ruled_out = np.array([in_order(code, [4, 5]) for code in game.guesses])
    assert both is not None and np.array_equal(both, unplayed & ruled_out)
