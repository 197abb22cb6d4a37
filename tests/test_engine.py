"""The engine: published results, consistency between evaluation and play, determinism, ties."""

from __future__ import annotations

import gc
import subprocess
import sys
import weakref

import numpy as np
import pytest

from moocow.engine.errors import MoocowError
from moocow.engine.evaluation import evaluate
from moocow.engine.position import Position
from moocow.engine.solve import solve
from moocow.engine.table import FeedbackTable
from moocow.plugins.bottles import Bottles
from moocow.plugins.digits import Digits
from moocow.plugins.mastermind import Mastermind
from moocow.plugins.strategy_registry import BUILTIN_STRATEGIES, load_strategy, parse_strategy_spec

BUILT_IN = ["entropy", "expected", "first", "minmax", "parts", "random"]
SMALL_GAMES = [Mastermind(pegs=3, colors=4), Digits(length=3, symbols=5), Bottles(n=5)]


def test_knuth_minmax_from_1122() -> None:
    """Knuth (1977): minimax from 1122 takes 5801 guesses over the 1296 secrets, at most 5."""
    result = evaluate(Mastermind(), load_strategy("minmax:first=1122"))
    assert (result.secrets, result.total, result.worst) == (1296, 5801, 5)
    assert result.histogram == (1, 6, 62, 533, 694)


@pytest.mark.parametrize(
    ("strategy", "total", "worst"),
    [
        ("expected", 5696, 6),  # Irving's expected size: average 4.395 (Kooi 2005, table 1)
        ("entropy", 5722, 6),  # Neuwirth's entropy: average 4.415
        ("parts", 5668, 6),  # Kooi's most parts: average 4.373
        ("first", 7471, 9),  # the naive strategy of the lecture: average 5.765, worst case 9
    ],
)
def test_other_strategies_on_mastermind(strategy: str, total: int, worst: int) -> None:
    """The other heuristics reproduce their published averages on Mastermind 4x6."""
    result = evaluate(Mastermind(), load_strategy(strategy))
    assert (result.total, result.worst) == (total, worst)


@pytest.mark.parametrize("game", SMALL_GAMES, ids=lambda game: game.spec)
@pytest.mark.parametrize("name", BUILT_IN)
def test_evaluation_equals_playing_each_secret(game, name: str) -> None:
    """The tree evaluation counts exactly the guesses of playing every secret one by one."""
    strategy = load_strategy(name)
    result = evaluate(game, strategy)
    lengths = [len(solve(game, strategy, secret)) for secret in range(len(game.secrets))]
    assert result.total == sum(lengths)
    assert result.worst == max(lengths)
    assert sum(result.histogram) == len(game.secrets)


@pytest.mark.parametrize("name", BUILT_IN)
def test_evaluation_is_deterministic(name: str) -> None:
    """Two evaluations with fresh objects give the same result."""
    first = evaluate(Mastermind(pegs=3, colors=5), load_strategy(name))
    second = evaluate(Mastermind(pegs=3, colors=5), load_strategy(name))
    assert (first.total, first.histogram) == (second.total, second.histogram)


def test_random_seed_changes_the_choices() -> None:
    """The random strategy depends on its seed (and only on it)."""
    game = Mastermind(pegs=3, colors=5)
    totals = {evaluate(game, load_strategy(f"random:seed={seed}")).total for seed in range(4)}
    assert len(totals) > 1


def test_table_in_blocks_matches_table_in_memory() -> None:
    """With no memory budget the table is recomputed in blocks, with the same results."""
    game = Digits(length=3, symbols=6)
    in_memory = FeedbackTable(game)
    blocked = FeedbackTable(game, budget=0)
    assert in_memory.in_memory and not blocked.in_memory
    secrets = np.array([0, 7, 42, 119])
    assert np.array_equal(in_memory.rows(secrets), blocked.rows(secrets))
    assert np.array_equal(in_memory.column(5, secrets), blocked.column(5, secrets))
    game.caches.feedback_table = blocked
    expected = evaluate(Digits(length=3, symbols=6), load_strategy("minmax")).total
    assert evaluate(game, load_strategy("minmax")).total == expected


def test_a_dropped_games_table_is_freed_at_once() -> None:
    """The table holds its game weakly: it goes with the game's last reference, not at a later gc."""
    gc.collect()
    gc.disable()
    try:
        game = Mastermind(pegs=3, colors=4)
        evaluate(game, load_strategy("minmax"))
        table = weakref.ref(FeedbackTable.for_game(game))
        assert table() is not None
        del game
        assert table() is None
    finally:
        gc.enable()
    orphan = FeedbackTable(Digits(length=3, symbols=6), budget=0)
    with pytest.raises(ReferenceError, match="game of this feedback table is gone"):
        orphan.rows(np.array([0]))


def test_candidates_only_guesses_only_possible_codes() -> None:
    """With candidates_only every guess could have been the secret."""
    game = Mastermind()
    strategy = load_strategy("minmax:candidates_only=true")
    for secret in range(0, len(game.secrets), 97):
        assert all(step.was_candidate for step in solve(game, strategy, secret))


def test_minmax_may_guess_an_impossible_code() -> None:
    """Without the option, minimax sometimes plays a code that cannot be the secret (Knuth)."""
    game = Mastermind()
    strategy = load_strategy("minmax")
    steps = [step for secret in range(len(game.secrets)) for step in solve(game, strategy, secret)]
    assert any(not step.was_candidate for step in steps)


def test_positions_reached_twice_are_decided_once() -> None:
    """Evaluating twice with the same strategy object decides nothing the second time."""
    strategy = load_strategy("entropy")
    game = Mastermind(pegs=3, colors=4)
    evaluate(game, strategy)
    calls = 0
    original = strategy.choose

    def counting(position: Position) -> int:
        nonlocal calls
        calls += 1
        return original(position)

    strategy.choose = counting  # type: ignore[method-assign]
    evaluate(game, strategy)
    assert calls == 0


def test_impossible_feedback_is_refused() -> None:
    """Feedback that no remaining secret could give raises a one-line MoocowError."""
    game = Mastermind()
    position = Position.start(game).after(game.guess_index("1122"), game.parse_feedback("0 0"))
    with pytest.raises(MoocowError, match="impossible"):
        position.after(game.guess_index("3456"), game.parse_feedback("0 0"))


def test_unknown_strategy_and_bad_opening() -> None:
    """Unknown strategies and first guesses that are not codes are one-line errors."""
    with pytest.raises(MoocowError, match="unknown strategy"):
        load_strategy("minimax")
    with pytest.raises(MoocowError):
        evaluate(Mastermind(), load_strategy("minmax:first=1127"))


def test_the_registry_reads_every_strategy_spec() -> None:
    """One parser for every caller: only ``tree`` takes a bare value."""
    assert set(BUILTIN_STRATEGIES) == {*BUILT_IN, "tree"}
    assert parse_strategy_spec("tree:/trees/a,b.json") == ("tree", {"path": "/trees/a,b.json"})
    assert parse_strategy_spec("tree:path=/trees/a=b.json") == ("tree", {"path": "/trees/a=b.json"})
    assert parse_strategy_spec("minmax:first=1122") == ("minmax", {"first": "1122"})
    with pytest.raises(MoocowError, match="expected key=value"):
        parse_strategy_spec("minmax:1122")


def test_strategies_import_without_the_registry() -> None:
    """Defining strategies pulls in neither the registry nor the tree strategy: no import cycle."""
    code = (
        "import sys, moocow.engine.strategies; "
        "print(sorted(m for m in sys.modules if m.endswith(('.registry', '.treestrategy'))))"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"


DEFAULT_SIZE_RESULTS = {
    "mastermind": {
        "minmax": 5801,
        "expected": 5696,
        "entropy": 5722,
        "parts": 5668,
        "first": 7471,
        "random": 6032,
    },
    "digits": {
        "minmax": 27139,
        "expected": 26551,
        "entropy": 26424,
        "parts": 26751,
        "first": 28024,
        "random": 27509,
    },
    "words": {
        "minmax": 7536,
        "expected": 7407,
        "entropy": 7368,
        "parts": 7531,
        "first": 8446,
        "random": 8276,
    },
    "bottles": {
        "minmax": 4051,
        "expected": 3983,
        "entropy": 3978,
        "parts": 4034,
        "first": 4240,
        "random": 4106,
    },
}
"""Totals over every secret at each game's default size, pinned so any machine must agree."""


@pytest.mark.parametrize("game_name", sorted(DEFAULT_SIZE_RESULTS))
def test_every_strategy_on_every_game_at_its_default_size(game_name: str) -> None:
    """Each strategy solves every secret of each default game, with the same totals everywhere."""
    from importlib.metadata import version

    from moocow.plugins import load_game

    if game_name == "words" and (version("wordfreq"), version("lemminflect")) != ("3.1.1", "0.2.3"):
        pytest.skip("the pinned word totals are those of wordfreq 3.1.1's small list, lemminflect 0.2.3")
    game = load_game(game_name)
    for name, total in DEFAULT_SIZE_RESULTS[game_name].items():
        result = evaluate(game, load_strategy(name))
        assert sum(result.histogram) == len(game.secrets)
        assert result.total == total, name


def _columns(*parts: list[int]) -> np.ndarray:
    """Part sizes as ``partition_sizes`` lays them out: a column per guess, padded with zeros."""
    height = max(len(column) for column in parts)
    return np.array([column + [0] * (height - len(column)) for column in parts], dtype=np.int32).T


@pytest.mark.parametrize(
    ("equal", "other"),
    [([4, 1, 1, 1, 1], [2, 2, 2, 2]), ([6, 1, 1, 1, 1, 1, 1], [3, 3, 2, 2, 2])],
)
def test_entropy_ties_are_exact(equal: list[int], other: list[int]) -> None:
    """Splits of equal entropy tie whatever their floats say; a worse split does not join them."""
    from moocow.engine.partitions import entropy_cost, entropy_ties

    sizes = _columns(equal, [5, 3, 1], other)
    costs = entropy_cost(sizes)
    costs[2] = np.nextafter(costs[2], np.inf)  # the last-bit difference an order of additions can make
    assert entropy_ties(sizes, costs).tolist() == [0, 2]


def test_an_exact_entropy_tie_changes_seven_bottles_by_one() -> None:
    """33,427: with ties to the last bit, one position of seven bottles took a later guess (33,428)."""
    from moocow.plugins.bottles import Bottles

    assert evaluate(Bottles(n=7), load_strategy("entropy")).total == 33427
