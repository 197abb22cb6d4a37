"""The exact search: published optima, agreement with a plain exhaustive search, limits, interruption."""

from __future__ import annotations

import sqlite3
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from moocow.engine.errors import MoocowError
from moocow.engine.evaluation import evaluate
from moocow.engine.game import Game
from moocow.engine.kernel import relabel
from moocow.engine.symmetry import GuessClasses, bucket_starts
from moocow.engine.table import FeedbackTable
from moocow.optimal import parallel, partition, search
from moocow.optimal.bounds import INFEASIBLE, level_bounds
from moocow.optimal.kernel import scores
from moocow.optimal.parallel import ForkedGuessPool
from moocow.optimal.partition import answers_present, part_sizes
from moocow.optimal.prove import prove_optimal
from moocow.optimal.search import Search
from moocow.plugins.bottles import Bottles
from moocow.plugins.digits import Digits
from moocow.plugins.mastermind import Mastermind
from moocow.plugins.strategy_registry import load_strategy
from moocow.trees.files import tree_stats, tree_to_dict


class PlainMastermind(Mastermind):
    """Mastermind that declares no symmetry: the search must find the same optimum without it."""

    symmetries = frozenset()


def exhaustive(
    game: Game,
    max_depth: int | None = None,
    candidates_only: bool = False,
    secrets: tuple[int, ...] | None = None,
    first: int | None = None,
) -> float:
    """The optimum by trying every guess at every set, with no bound, symmetry or ordering.

    Over every secret, or over ``secrets`` (indices) alone; opening with ``first`` if given.
    """
    table = FeedbackTable.for_game(game).rows(np.arange(len(game.secrets)))
    guess_of = game.secret_guess_index

    @cache
    def best(candidates: tuple[int, ...], depth: float) -> float:
        if depth == 0:
            return float("inf")
        if len(candidates) == 1:
            return 1
        rows = table[list(candidates)]
        guesses = guess_of[list(candidates)] if candidates_only else range(table.shape[1])
        if first is not None and len(candidates) == len(game.secrets):
            guesses = [first]
        result = float("inf")
        for guess in guesses:
            parts: dict[int, list[int]] = {}
            for secret, answer in zip(candidates, rows[:, guess], strict=True):
                if answer != game.win:
                    parts.setdefault(int(answer), []).append(secret)
            if any(len(part) == len(candidates) for part in parts.values()):
                continue
            cost = len(candidates) + sum(best(tuple(part), depth - 1) for part in parts.values())
            result = min(result, cost)
        return result

    everything = tuple(range(len(game.secrets))) if secrets is None else secrets
    return best(everything, float("inf") if max_depth is None else max_depth)


@pytest.mark.parametrize(("n", "total"), [(3, 15), (4, 86), (5, 535)])
def test_published_bottle_optima(n: int, total: int) -> None:
    """Bottles: 15, 86 and 535 guesses in total for 3, 4 and 5 bottles, proven."""
    result = prove_optimal(Bottles(n=n))
    assert result.proven
    assert result.total == result.lower_bound == total
    assert result.root is not None and tree_stats(result.root).total == total


def test_mastermind_koyama_and_lai(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mastermind 4x6: 5625 in total (Koyama and Lai 1993), proven with both workers from the
    start (it is over before they would start by themselves); the tree plays to that total."""
    monkeypatch.setattr(search, "PARALLEL_SECONDS", 0.0)
    result = prove_optimal(Mastermind(), workers=2)
    assert result.proven and result.total == 5625
    assert result.root is not None
    stats = tree_stats(result.root)
    assert (stats.total, stats.secrets) == (5625, 1296)


def test_mastermind_four_pegs_seven_colours_ville() -> None:
    """Mastermind 4x7: 11228 over 2401 secrets, Ville's 4.676 a game (2013), proven in seconds;
    the tree plays to that total."""
    result = prove_optimal(Mastermind(colors=7), workers=2)
    assert result.proven and result.total == 11228
    assert result.root is not None
    stats = tree_stats(result.root)
    assert (stats.total, stats.secrets) == (11228, 2401)


def test_the_optimal_tree_is_the_same_for_any_number_of_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers finish in any order; a tie still goes to the guess the serial search tries first.

    Before, 4x6 Mastermind's tree answered 0B0W with 4456 in one run and 4546 in the next.
    """
    monkeypatch.setattr(search, "PARALLEL_SECONDS", 0.0)  # the pool from the start, not after a second
    game = Mastermind()
    trees = [prove_optimal(game, workers=workers).root for workers in (1, 2, 2)]
    assert all(root is not None for root in trees)
    documents = [tree_to_dict(game, root, "optimal") for root in trees if root is not None]
    assert documents[0] == documents[1] == documents[2]


def test_idle_workers_start_the_parts_still_to_come(monkeypatch: pytest.MonkeyPatch) -> None:
    """While a part's last guesses run, a free worker starts the next part's guesses with a budget
    at least theirs; the search takes those outcomes when it gets there, and the optimum and
    tree are those of one process (6 bottles: parts of 15, 40, 135, 264 and 265 secrets)."""
    monkeypatch.setattr(search, "PARALLEL_SECONDS", 0.0)
    game = Bottles(n=6)
    serial = prove_optimal(game)
    taken: list[int] = []
    hand_out = parallel.GuessPool._hand_out

    def watched(pool: parallel.GuessPool, task: parallel.GuessTask, position: int) -> bool:
        key = (task[0].tobytes(), task[1])
        early = pool._early.get(key)
        handed = hand_out(pool, task, position)
        if early is not None and key not in pool._early:
            assert early.task[3] >= task[3]  # started with a budget at least this one
            taken.append(position)
        return handed

    monkeypatch.setattr(parallel.GuessPool, "_hand_out", watched)
    shared = prove_optimal(game, workers=2)
    assert taken, "no guess started early was taken"
    assert shared.proven and shared.total == serial.total == 3924
    assert serial.root is not None and shared.root is not None
    assert tree_to_dict(game, shared.root, "optimal") == tree_to_dict(game, serial.root, "optimal")


def test_bulls_and_cows_tanaka() -> None:
    """Bulls and Cows, 4 digits of 10: 26274 in total, worst case 7 (Tanaka), proven (2 minutes)."""
    result = prove_optimal(Digits(), workers=2)
    assert result.proven and result.total == 26274
    assert result.root is not None
    stats = tree_stats(result.root)
    assert (stats.total, stats.secrets, stats.worst) == (26274, 5040, 7)


SMALL = [
    (Mastermind(pegs=2, colors=4), None, False),
    (Mastermind(pegs=3, colors=3), None, False),
    (Mastermind(pegs=3, colors=3), 4, False),
    (Mastermind(pegs=3, colors=3), None, True),
    (PlainMastermind(pegs=3, colors=3), None, False),
    (Digits(length=2, symbols=5), None, False),
    (Digits(length=3, symbols=4), 4, True),
    (Bottles(n=4), 5, False),
    (Bottles(n=4), 4, False),
    (Digits(length=3, symbols=4), 3, True),
    (Bottles(n=4), None, True),
]


@pytest.mark.parametrize(
    ("kernel_level", "probe_level"), [(0, 0), (2, 1), (99, 99)], ids=["kernel", "mixed", "python"]
)
@pytest.mark.parametrize(("game", "max_depth", "candidates_only"), SMALL, ids=str)
def test_agrees_with_exhaustive_search(
    game: Game,
    max_depth: int | None,
    candidates_only: bool,
    kernel_level: int,
    probe_level: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every pruning together changes no optimum on games small enough to search naively.

    Whether the compiled kernel searches (and bounds the parts of) everything, the levels below
    the second guess (the default) or nothing.
    """
    monkeypatch.setattr(search, "KERNEL_LEVEL", kernel_level)
    monkeypatch.setattr(search, "PROBE_LEVEL", probe_level)
    result = prove_optimal(game, max_depth, candidates_only)
    assert result.proven
    expected = exhaustive(game, max_depth, candidates_only)
    if expected == float("inf"):
        assert result.total is None and result.root is None
        return
    assert result.total == expected
    assert result.root is not None
    stats = tree_stats(result.root)
    assert stats.total == result.total
    assert max_depth is None or stats.worst <= max_depth


@pytest.mark.parametrize("game", [Mastermind(pegs=3, colors=3), Digits(length=3, symbols=4)], ids=str)
@pytest.mark.parametrize("max_depth", [None, 4])
def test_a_fixed_opening_agrees_with_exhaustive_search(game: Game, max_depth: int | None) -> None:
    """``first`` (Selby's ``-w``): the best strategy opening with that guess, canonical or not,
    and the best of every opening is the optimum."""
    totals = []
    for first in range(0, len(game.guesses), 5):
        code = game.format_code(game.guesses[first])
        result = prove_optimal(game, max_depth, first=code)
        expected = exhaustive(game, max_depth, first=first)
        assert result.proven and (result.total or float("inf")) == expected
        if result.root is not None:
            assert result.root.guess == first and tree_stats(result.root).total == expected
        totals.append(expected)
    assert min(totals) >= exhaustive(game, max_depth)


@pytest.mark.parametrize(
    "game", [Mastermind(pegs=3, colors=3), Digits(length=3, symbols=4), Bottles(n=4)], ids=str
)
def test_the_deeper_bound_lies_between_counting_and_the_optimum(game: Game) -> None:
    """``set_bound`` of random sets: never above their optimum, never below counting, above it for some."""
    search = Search(game)
    rng = np.random.default_rng(3)
    raised = 0
    for _ in range(40):
        size = int(rng.integers(3, len(game.secrets) + 1))
        secrets = np.sort(rng.choice(len(game.secrets), size, replace=False)).astype(np.int32)
        bound = search.kernel.set_bound(secrets, None, search.stats)
        counting = int(search.bounds(None)[size])
        assert counting <= bound <= exhaustive(game, secrets=tuple(secrets.tolist()))
        raised += bound > counting
    assert raised > 0
    assert search.stats.bounded > 0


@pytest.mark.parametrize("shape", [(1, 1), (3, 700), (2000, 5), (1100, 1000)])
def test_the_answers_present_are_counted_block_by_block_as_at_once(
    shape: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``answers_present`` reads the table a block of rows at a time, the last block short, and
    finds the answers one ``bincount`` of the whole table finds (a rare one in the last row too)."""
    monkeypatch.setattr(partition, "PRESENCE_CELLS", 4096)
    table = np.random.default_rng(shape[0]).integers(0, 9, shape, dtype=np.uint8)
    table[-1, -1] = 200
    assert np.array_equal(answers_present(table), np.bincount(table.ravel(), minlength=256) > 0)


@pytest.mark.parametrize("game", [Mastermind(pegs=3, colors=3), Bottles(n=5)], ids=str)
def test_the_best_guess_bound_counts_columns_or_rows_alike(game: Game) -> None:
    """The least counting bound one level deeper, read column by column with quick bounds first
    (and rows once columns get many: on bottles the quick bound refutes nearly nothing) or every
    guess counted over rows, equals the bound computed plainly with numpy."""
    search = Search(game)
    bounds = search.bounds(None)
    rng = np.random.default_rng(5)
    guesses = np.arange(search.rows.shape[1], dtype=np.int32)
    for _ in range(30):
        size = int(rng.integers(4, len(game.secrets) + 1))
        secrets = np.sort(rng.choice(len(game.secrets), size, replace=False)).astype(np.int32)
        sizes = part_sizes(search.rows[secrets], search.answers)
        is_candidate = np.zeros(len(guesses), dtype=np.uint8)
        is_candidate[search.guess_of[secrets]] = 1
        plain = int((size + bounds[sizes].sum(axis=0)).min())
        counts = np.zeros((len(guesses), search.answer_limit), dtype=np.uint16)
        arguments = (search.rows, secrets, guesses, bounds, counts, is_candidate)
        assert scores._least_guess_bound(*arguments) == plain
        assert scores._least_counted(*arguments) == plain


def test_the_optimal_tree_is_at_least_as_good_as_every_heuristic() -> None:
    """No heuristic beats the proven optimum (Mastermind 3x4)."""
    game = Mastermind(pegs=3, colors=4)
    optimum = prove_optimal(game).total
    assert optimum is not None
    for name in ("minmax", "expected", "entropy", "parts"):
        assert evaluate(game, load_strategy(name)).total >= optimum


class CountingPool(ForkedGuessPool):
    """The worker pool, counting the sets whose guesses it shared out."""

    shared = 0

    def best_guess(self, *args: Any) -> tuple[int, int]:
        CountingPool.shared += 1
        return super().best_guess(*args)


def test_two_workers_find_the_same_optimum(monkeypatch: pytest.MonkeyPatch) -> None:
    """Searching the parts of the first guesses in two processes changes nothing but the time."""
    monkeypatch.setattr(parallel, "ForkedGuessPool", CountingPool)
    monkeypatch.setattr(search, "PARALLEL_SECONDS", 0.0)
    game = Mastermind(pegs=3, colors=4)
    alone, together = prove_optimal(game), prove_optimal(game, workers=2)
    assert together.proven and together.total == alone.total
    assert together.root is not None and tree_stats(together.root).total == alone.total
    assert CountingPool.shared > 0


def test_workers_start_only_once_the_search_takes_long(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search over before ``PARALLEL_SECONDS`` never starts a pool: starting it costs more."""
    monkeypatch.setattr(parallel, "ForkedGuessPool", CountingPool)
    monkeypatch.setattr(search, "PARALLEL_SECONDS", 3600.0)
    CountingPool.shared = 0
    assert prove_optimal(Mastermind(pegs=3, colors=4), workers=2).proven
    assert CountingPool.shared == 0


def test_a_limit_no_strategy_meets_is_proven_impossible() -> None:
    """Nine codes cannot be told apart in two guesses when an answer has at most five values."""
    result = prove_optimal(Mastermind(pegs=2, colors=3), max_depth=2)
    assert result.proven and result.total is None and result.root is None
    with pytest.raises(MoocowError, match="at least 1"):
        prove_optimal(Bottles(n=3), max_depth=0)


def test_interrupted_search_keeps_the_best_tree_and_a_bound() -> None:
    """Ctrl-C during the search: the heuristic's tree (or better) and a lower bound below it."""

    def interrupt(done: float, best: int | None, lower: int) -> None:
        raise KeyboardInterrupt

    result = prove_optimal(Bottles(n=5), progress=interrupt)
    assert result.interrupted and not result.proven
    assert result.root is not None and result.total is not None and result.lower_bound is not None
    assert result.lower_bound <= 535 <= result.total == tree_stats(result.root).total


@pytest.mark.parametrize("workers", [1, 2])
def test_an_interrupted_search_keeps_the_parts_it_finished(
    workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopped at the first improvement on Irving's 540 (5 bottles), before the first guess is
    finished: the tree handed back plays the parts already solved optimally and totals what it says."""
    monkeypatch.setattr(search, "PARALLEL_SECONDS", 0.0)
    reports: list[tuple[float, int | None]] = []

    def stop_on_improvement(done: float, best: int | None, lower: int) -> None:
        reports.append((done, best))
        if best is not None and best < 540:
            raise KeyboardInterrupt

    result = prove_optimal(Bottles(n=5), progress=stop_on_improvement, workers=workers)
    assert result.interrupted and result.root is not None and result.total is not None
    assert result.lower_bound is not None and result.lower_bound <= 535 <= result.total < 540
    assert tree_stats(result.root).total == result.total
    assert reports[-1][0] < 1


@pytest.mark.parametrize(
    ("game", "smallest_first"), [(Bottles(n=5), True), (Mastermind(pegs=3, colors=4), False)]
)
def test_only_an_opening_without_rivals_takes_its_parts_smallest_first(
    game: Game, smallest_first: bool
) -> None:
    """Every opening of the bottle game is alike: its parts go smallest first. Mastermind's first
    guess has rivals, and its parts go largest first so that it fails early if it is to fail."""
    search = Search(game)
    searched = search.least_total
    first_guess_parts: list[int] = []

    def recording(
        candidates: np.ndarray, depth: int | None, beta: int, played: tuple[int, ...] | None, level: int
    ) -> int:
        if level == 1 and search.root.best >= INFEASIBLE:
            first_guess_parts.append(len(candidates))
        return searched(candidates, depth, beta, played, level)

    search.least_total = recording  # type: ignore[method-assign]
    search.run()
    assert len(set(first_guess_parts)) > 1
    assert first_guess_parts == sorted(first_guess_parts, reverse=not smallest_first)


def test_counting_bounds() -> None:
    """n candidates need 2n - 1 guesses while n <= k + 1; depth limits make big sets infeasible."""
    bounds = level_bounds(20, branching=4, depth=None)
    assert list(bounds[:6]) == [0, 1, 3, 5, 7, 9]
    assert bounds[6] == 9 + 3
    limited = level_bounds(20, branching=4, depth=2)
    assert limited[5] == 9 and limited[6] == INFEASIBLE


def test_canonical_guesses_match_the_notes() -> None:
    """Mastermind: 5 first guesses, then 12/53/39/130/57 second ones; Bulls and Cows: 1 then 20."""
    game = Mastermind()
    classes = GuessClasses(game)
    first = classes.canonical(())
    assert first is not None
    assert [game.format_code(code) for code in game.guesses[first]] == [
        "1111",
        "1112",
        "1122",
        "1123",
        "1234",
    ]
    seconds = [
        classes.canonical((game.guess_index(code),)) for code in ("1111", "1112", "1122", "1123", "1234")
    ]
    assert [int(mask.sum()) for mask in seconds if mask is not None] == [12, 53, 39, 130, 57]
    digits = Digits()
    digit_classes = GuessClasses(digits)
    assert int(digit_classes.canonical(()).sum()) == 1
    assert int(digit_classes.canonical((digits.guess_index("0123"),)).sum()) == 20


def test_bottle_classes_after_one_guess_are_cycle_types() -> None:
    """After one guess ``g``, a guess ``h`` of the bottle game is alike exactly those with the cycle
    type of ``g^-1 h``: the classes are the partitions of n (7, 11, 15, 22 for 5 to 8 bottles)."""
    assert [int(GuessClasses(Bottles(n=n)).canonical((0,)).sum()) for n in range(5, 9)] == [7, 11, 15, 22]


@pytest.mark.parametrize(
    "game", [Mastermind(), Digits(), Bottles(n=6), Mastermind(pegs=3, colors=5)], ids=str
)
def test_classes_from_a_few_relabellings_are_those_of_all(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The orbits found from a few relabellings, checked on their least guesses, keep exactly the
    guesses that trying every relabelling on every guess keeps, along random histories."""
    quick, every = GuessClasses(game), GuessClasses(game)
    monkeypatch.setattr(every, "_keys", None)  # as if not in lexicographic order: the long way
    rng = np.random.default_rng(11)
    compared = 0
    for _ in range(15):
        played: tuple[int, ...] = ()
        for _ in range(3):
            played = (*played, int(rng.integers(len(game.guesses))))
            found, expected = quick.canonical(played), every.canonical(played)
            assert (found is None) == (expected is None)
            if found is not None and expected is not None:
                assert np.array_equal(found, expected)
                compared += 1
    assert compared >= 15


def test_joined_images_give_the_least_of_each_orbit_or_nothing_outside_the_codes() -> None:
    """``relabel.join_images`` on the codes of two places and three symbols: swapping the places
    joins ``ab`` with ``ba`` (each root the lesser); with ``21`` missing from the codes, the swap
    maps ``12`` outside them and nothing is returned."""
    codes = np.array([(first, second) for first in range(3) for second in range(3)], dtype=np.intp)
    swap, same = np.array([[1, 0]], dtype=np.intp), np.array([[0, 1, 2]], dtype=np.intp)

    def joined(kept: np.ndarray) -> np.ndarray:
        keys = (kept[:, 0] * 3 + kept[:, 1]).astype(np.int64)
        forest = np.arange(len(kept))
        return relabel.join_images(kept, swap, same, 3, keys, bucket_starts(keys), forest)

    roots = joined(codes)
    expected = [3 * min(a, b) + max(a, b) for a, b in codes.tolist()]
    assert roots.tolist() == expected
    assert len(joined(np.delete(codes, 7, axis=0))) == 0  # 21 is gone; 12 maps to it


@pytest.mark.parametrize(
    "game", [Mastermind(), Digits(), Bottles(n=5), PlainMastermind(pegs=3, colors=4)], ids=str
)
def test_compiled_relabelling_matches_the_python_classes(game: Game) -> None:
    """Along random histories, the kernel's stabiliser keeps exactly the canonical guesses."""
    classes = GuessClasses(game)
    rng = np.random.default_rng(7)
    for _ in range(20):
        played: tuple[int, ...] = ()
        symmetry = classes.stabiliser(played)
        for _ in range(3):
            guess = int(rng.integers(len(game.guesses)))
            played = (*played, guess)
            symmetry = relabel._restrict(classes.codes, symmetry, guess)
            expected = classes.canonical(played)
            mask = np.array(
                [
                    relabel._is_canonical(classes.codes, symmetry[0], symmetry[1], index)
                    for index in range(len(game.guesses))
                ]
            )
            if expected is None:
                assert len(symmetry[0]) == 0 and mask.all()
            else:
                assert (mask == expected).all()


def test_deeper_part_bounds_change_the_work_not_the_optimum() -> None:
    """Bounding a guess's parts by their best guesses (``set_bound``) only prunes: six bottles
    are solved 3,924 with it and with counting bounds alone, with far fewer sets searched."""
    searches = {deeper: Search(Bottles(n=6), parts_bounded_deeper=deeper) for deeper in (True, False)}
    assert [searching.run() for searching in searches.values()] == [3924, 3924]
    assert searches[True].stats.nodes * 10 < searches[False].stats.nodes


def test_a_resumed_long_proof_starts_its_workers_at_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A proof resumed from a store that has searched for hours reaches its long sets within a
    second: its workers start there, not only once this run has taken ``PARALLEL_SECONDS``
    (seven bottles' resumed proof searched on one core of two)."""
    monkeypatch.setattr(parallel, "ForkedGuessPool", CountingPool)
    monkeypatch.setattr(search, "PARALLEL_SECONDS", 3600.0)
    store = tmp_path / "proof.db"

    def stop(done: float, best: int | None, lower: int) -> None:
        raise KeyboardInterrupt

    assert prove_optimal(Mastermind(), progress=stop, store=store).interrupted
    with sqlite3.connect(store) as connection:
        connection.execute("UPDATE meta SET value = '7200.0' WHERE key = 'seconds'")
    CountingPool.shared = 0
    assert prove_optimal(Mastermind(), workers=2, store=store).total == 5625
    assert CountingPool.shared > 0
