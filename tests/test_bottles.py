"""The bottle game: arrangements, bottles-in-place feedback, text forms, block-interchange distance."""

from __future__ import annotations

import itertools
import math
from collections import deque
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.plugins import bottles
from moocow.plugins.bottles import Bottles, block_interchange_distance

Arrangement = tuple[int, ...]


def block_interchanges(row: Arrangement) -> set[Arrangement]:
    """Every arrangement one swap of two non-overlapping blocks away (adjacent or not)."""
    n = len(row)
    return {
        row[:a] + row[c:d] + row[b:c] + row[a:b] + row[d:]
        for a, b, c, d in itertools.combinations(range(n + 1), 4)
    } | {
        row[:a] + row[b:d] + row[a:b] + row[d:]  # adjacent blocks
        for a, b, d in itertools.combinations(range(n + 1), 3)
    }


@cache
def bfs_distances(start: Arrangement) -> dict[Arrangement, int]:
    """Fewest block interchanges from ``start`` to every arrangement, by breadth-first search."""
    distances = {start: 0}
    queue = deque([start])
    while queue:
        row = queue.popleft()
        for neighbour in block_interchanges(row):
            if neighbour not in distances:
                distances[neighbour] = distances[row] + 1
                queue.append(neighbour)
    return distances


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_block_interchange_distance_matches_breadth_first_search(n: int) -> None:
    """Christie's cycle formula equals BFS over block interchanges, from several starting rows."""
    game = Bottles(n=n)
    for previous in game.secrets[:: max(1, len(game.secrets) // 9)]:
        expected = bfs_distances(tuple(previous.tolist()))
        got = game.move_distance(previous, game.secrets)
        assert got.tolist() == [expected[tuple(code)] for code in game.secrets.tolist()]


def test_block_interchange_distance_is_symmetric_zero_on_itself_and_at_most_half_n() -> None:
    """On 6 bottles: d(a, b) = d(b, a), d(a, a) = 0, at most floor((n+1)/2) (Christie's diameter)."""
    codes = Bottles(n=6).secrets
    table = np.stack([block_interchange_distance(code, codes) for code in codes])
    assert np.array_equal(table, table.T)
    assert not table.diagonal().any() and (table[~np.eye(len(codes), dtype=bool)] > 0).all()
    assert table.max() == (6 + 1) // 2


def test_one_block_interchange_away_counts_match_the_move_list() -> None:
    """For 8 bottles, the rows at distance 1 are exactly the distinct single block interchanges."""
    game = Bottles(n=8)
    start = game.secrets[12345]
    distances = game.move_distance(start, game.secrets)
    neighbours = block_interchanges(tuple(start.tolist()))
    assert {tuple(code) for code in game.secrets[distances == 1].tolist()} == neighbours
    assert len(neighbours) == math.comb(9, 3) + math.comb(9, 4)


def test_distances_are_the_same_in_small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Splitting the guesses into blocks changes nothing."""
    codes = Bottles(n=5).secrets
    expected = block_interchange_distance(codes[7], codes)
    monkeypatch.setattr(bottles, "DISTANCE_BLOCK", 7)
    assert np.array_equal(block_interchange_distance(codes[7], codes), expected)


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 10).flatmap(lambda n: st.lists(st.permutations(range(n)), min_size=1, max_size=6)))
def test_feedback_counts_bottles_in_place(rows: list[list[int]]) -> None:
    """Feedback equals the plain count of equal positions, for random arrangements of 2 to 10 bottles."""
    game = Bottles(n=len(rows[0]))
    codes = np.array(rows, np.uint8)
    table = game.feedback(codes, codes[::-1])
    for i, guess in enumerate(rows):
        for j, secret in enumerate(rows[::-1]):
            assert table[i, j] == sum(a == b for a, b in zip(guess, secret, strict=True))


@pytest.mark.parametrize(("n", "size"), [(2, 2), (4, 24), (6, 720), (7, 5040), (8, 40320)])
def test_space_is_every_arrangement_in_lexicographic_order(n: int, size: int) -> None:
    """n bottles give n! arrangements, ABC... first and ...CBA last, in itertools.permutations order."""
    game = Bottles(n=n)
    assert len(game.secrets) == size == math.factorial(n)
    letters = "ABCDEFGHIJ"[:n]
    assert game.format_code(game.secrets[0]) == letters
    assert game.format_code(game.secrets[-1]) == letters[::-1]
    if n <= 4:
        assert game.secrets.tolist() == [list(row) for row in itertools.permutations(range(n))]


def test_feedback_is_symmetric_and_never_all_but_one() -> None:
    """a vs b equals b vs a; n - 1 bottles right is impossible; n right only on the diagonal."""
    game = Bottles(n=6)
    table = game.feedback(game.secrets, game.secrets)
    assert np.array_equal(table, table.T)
    assert np.array_equal(table == game.win, np.eye(720, dtype=bool))
    assert game.win == 6 and game.feedback_fields == ("correct",)
    assert sorted(set(table.ravel().tolist())) == [0, 1, 2, 3, 4, 6]


def test_parse_reads_any_case_and_round_trips() -> None:
    """Arrangements are letters from A, read in either case and written in capitals."""
    game = Bottles(n=6)
    assert game.parse_code("fedcba").tolist() == [5, 4, 3, 2, 1, 0]
    assert game.parse_code(" A B C D E F ").tolist() == list(range(6))
    for code in game.secrets:
        assert np.array_equal(game.parse_code(game.format_code(code)), code)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ABCDE", r"^'ABCDE' has 5 bottles; a bottles code has 6$"),
        ("ABCDEFG", r"^'ABCDEFG': 'G' is not a bottle of bottles \(bottles are A-F\)$"),
        ("ABCDEA", r"^'ABCDEA': bottles must be distinct \('A' repeats\)$"),
        ("abcdea", r"\('a' repeats\)"),
        ("AB1DEF", r"'1' is not a bottle"),
    ],
)
def test_anything_but_a_permutation_of_the_first_letters_is_refused(text: str, message: str) -> None:
    """Wrong length, a letter beyond the n-th, or a repeated bottle each get a one-line reason."""
    with pytest.raises(MoocowError, match=message):
        Bottles(n=6).parse_code(text)


def test_n_is_checked() -> None:
    """n outside 1..10 is refused by the parameter check."""
    with pytest.raises(MoocowError, match="n must be at most 10"):
        Bottles(n=11)


def test_module_registers_its_game() -> None:
    """The register_games hook hands the engine the Bottles class."""
    registered: list[type[Game]] = []
    bottles.register_games(registered.append)
    assert registered == [Bottles]
