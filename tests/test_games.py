"""Mastermind, Bulls and Cows with digits and the word game: spaces, feedback and text forms."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.plugins import digits, load_game, mastermind, words
from moocow.plugins.bottles import Bottles
from moocow.plugins.digits import Digits
from moocow.plugins.mastermind import Mastermind
from moocow.plugins.symbols import describe_alphabet
from moocow.plugins.words import Words

CaseLists = tuple[Game, list[list[int]], list[list[int]]]


def plain_feedback(game: Game, guess: list[int], secret: list[int]) -> int:
    """Bulls (black) and cows (white) counted the slow obvious way, packed by the game."""
    bulls = sum(a == b for a, b in zip(guess, secret, strict=True))
    common = sum((Counter(guess) & Counter(secret)).values())
    return game.feedback_model.encode((bulls, common - bulls))


def assert_feedback_matches_plain(game: Game, guesses: list[list[int]], secrets: list[list[int]]) -> None:
    table = game.feedback(np.array(guesses, np.uint8), np.array(secrets, np.uint8))
    assert table.shape == (len(guesses), len(secrets)) and table.dtype == np.uint8
    for i, guess in enumerate(guesses):
        for j, secret in enumerate(secrets):
            assert table[i, j] == plain_feedback(game, guess, secret)


@st.composite
def mastermind_cases(draw: st.DrawFn) -> CaseLists:
    game = Mastermind(pegs=draw(st.integers(1, 8)), colors=draw(st.integers(2, 35)))
    pegs, colors = game.code_length, game.values["colors"]
    code = st.lists(st.integers(0, colors - 1), min_size=pegs, max_size=pegs)
    return game, draw(st.lists(code, min_size=1, max_size=5)), draw(st.lists(code, min_size=1, max_size=5))


@st.composite
def digits_cases(draw: st.DrawFn) -> CaseLists:
    symbols = draw(st.integers(2, 36))
    game = Digits(length=draw(st.integers(1, min(10, symbols))), symbols=symbols)
    code = st.permutations(range(symbols)).map(lambda order: order[: game.code_length])
    return game, draw(st.lists(code, min_size=1, max_size=5)), draw(st.lists(code, min_size=1, max_size=5))


@settings(max_examples=150, deadline=None)
@given(mastermind_cases())
def test_mastermind_feedback_matches_plain_python(case: CaseLists) -> None:
    """Vectorised black/white pegs equal the plain count, for random sizes and codes with repeats."""
    assert_feedback_matches_plain(*case)


@settings(max_examples=150, deadline=None)
@given(digits_cases())
def test_digits_feedback_matches_plain_python(case: CaseLists) -> None:
    """Vectorised bulls and cows equal the plain count, for random bases and lengths."""
    assert_feedback_matches_plain(*case)


@settings(max_examples=50, deadline=None)
@given(st.data())
def test_words_feedback_matches_plain_python(data: st.DataObject) -> None:
    """Word feedback equals the plain count on random words of the default list."""
    game = Words()
    word = st.sampled_from(game.secrets.tolist())
    guesses = data.draw(st.lists(word, min_size=1, max_size=5))
    assert_feedback_matches_plain(game, guesses, data.draw(st.lists(word, min_size=1, max_size=5)))


@pytest.mark.parametrize("game", [Mastermind(pegs=3, colors=4), Digits(length=3, symbols=6), Words(length=4)])
def test_feedback_is_symmetric_and_wins_only_on_the_diagonal(game: Game) -> None:
    """Scoring a against b equals b against a, and a code scores ``win`` exactly against itself."""
    table = game.feedback(game.secrets, game.secrets)
    assert np.array_equal(table, table.T)
    assert np.array_equal(table == game.win, np.eye(len(game.secrets), dtype=bool))


@pytest.mark.parametrize("game", [Mastermind(pegs=3, colors=4), Digits(length=3, symbols=5), Bottles(n=4)])
def test_declared_symmetries_leave_feedback_unchanged(game: Game) -> None:
    """Permuting positions and renaming symbols in guess and secret alike keeps every feedback."""
    assert game.symmetries == {"positions", "symbols"}
    codes = game.secrets
    rng = np.random.default_rng(7)
    for _ in range(5):
        renamed = rng.permutation(len(game.alphabet)).astype(np.uint8)[codes][
            :, rng.permutation(game.code_length)
        ]
        assert np.array_equal(game.feedback(renamed, renamed), game.feedback(codes, codes))
        assert sorted(map(tuple, renamed.tolist())) == sorted(map(tuple, codes.tolist()))


def test_words_claim_no_symmetry() -> None:
    """Renaming letters or moving them turns words into non-words, so the word game claims none."""
    assert Words.symmetries == frozenset()


@pytest.mark.parametrize(("game", "win"), [(Mastermind(), 20), (Digits(), 20), (Words(), 30)])
def test_win_is_all_bulls_no_cows(game: Game, win: int) -> None:
    """The win value is the packed (length, 0) and is what a code scores against itself."""
    assert game.win == win and game.feedback_model.parts(win) == (game.code_length, 0)
    assert game.feedback(game.secrets[:1], game.secrets[:1])[0, 0] == win


def test_mastermind_space_is_lexicographic() -> None:
    """Mastermind lists 6^4 = 1296 codes from 1111 to 6666 in itertools.product order."""
    game = Mastermind()
    assert len(game.secrets) == 1296
    written = [game.format_code(code) for code in game.secrets[[0, 1, 6, -1]]]
    assert written == ["1111", "1112", "1121", "6666"]
    small = Mastermind(pegs=2, colors=3)
    assert small.secrets.tolist() == [list(code) for code in itertools.product(range(3), repeat=2)]
    assert game.guesses is game.secrets


def test_digits_space_is_lexicographic_permutations() -> None:
    """Bulls and Cows lists 10*9*8*7 = 5040 codes from 0123 to 9876 in itertools.permutations order."""
    game = Digits()
    assert len(game.secrets) == 5040
    assert [game.format_code(code) for code in game.secrets[[0, 1, -1]]] == ["0123", "0124", "9876"]
    small = Digits(length=3, symbols=5)
    assert small.secrets.tolist() == [list(code) for code in itertools.permutations(range(5), 3)]
    hexadecimal = Digits(length=2, symbols=16)
    assert hexadecimal.format_code(hexadecimal.secrets[-1]) == "fe"


def test_knuths_1122_is_colours_0_0_1_1_however_it_is_typed() -> None:
    """Mastermind reads colours 1..9 then letters, with optional spaces or commas."""
    game = Mastermind()
    for text in ("1122", "1 1 2 2", "1,1,2,2", " 1, 1, 2, 2 "):
        assert game.parse_code(text).tolist() == [0, 0, 1, 1]
    assert game.format_code(np.array([0, 0, 1, 1], np.uint8)) == "1122"
    big = Mastermind(colors=12)
    assert big.parse_code("abC1").tolist() == big.parse_code("ABC1").tolist() == [9, 10, 11, 0]
    assert big.format_code(np.array([9, 10, 11, 0], np.uint8)) == "ABC1"


def test_digits_read_letters_above_nine_in_any_case() -> None:
    """Bulls and Cows in base 16 reads A-F as a-f and writes lower case."""
    game = Digits(symbols=16)
    code = game.parse_code("0Af9")
    assert code.tolist() == [0, 10, 15, 9] and game.format_code(code) == "0af9"


@pytest.mark.parametrize(
    "game", [Mastermind(pegs=2, colors=35), Digits(length=2, symbols=36), Words(length=2)]
)
def test_every_code_survives_format_then_parse(game: Game) -> None:
    """format_code and parse_code are inverse over a whole space, every symbol included."""
    for code in game.secrets:
        assert np.array_equal(game.parse_code(game.format_code(code)), code)


@pytest.mark.parametrize(
    ("game", "text", "message"),
    [
        (Mastermind(), "112", r"^'112' has 3 colours; a mastermind code has 4$"),
        (Mastermind(), "11223", r"has 5 colours; a mastermind code has 4"),
        (Mastermind(), "", r"^'' has 0 colours"),
        (Mastermind(), "1172", r"^'1172': '7' is not a colour of mastermind \(colours are 1-6\)$"),
        (Mastermind(), "11x2", r"'x' is not a colour"),
        (Mastermind(colors=12), "11?2", r"\(colours are 1-9, A-C\)"),
        (Digits(), "1123", r"^'1123': digits must be distinct \('1' repeats\)$"),
        (Digits(), "12a4", r"^'12a4': 'a' is not a digit of digits \(digits are 0-9\)$"),
        (Digits(), "123", r"has 3 digits; a digits code has 4"),
        (Digits(length=1), "12", r"has 2 digits; a digits:length=1 code has 1"),
        (Words(), "cr4ne", r"'4' is not a letter of words \(letters are a-z\)"),
        (Words(), "cr ane", r"' ' is not a letter"),
        (Words(), "hello", r"^'hello': letters must be distinct \('l' repeats\)$"),
        (Words(), "cran", r"has 4 letters; a words code has 5"),
        (Words(), "Crané", r"'é' is not a letter"),
    ],
)
def test_malformed_codes_are_one_line_errors_naming_the_fault(game: Game, text: str, message: str) -> None:
    """Each malformed code raises MoocowError naming the offending character or count."""
    with pytest.raises(MoocowError, match=message) as error:
        game.parse_code(text)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Digits(length=5, symbols=4), r"^digits:length=5,symbols=4: 5 distinct digits need at least"),
        (lambda: Mastermind(pegs=0), r"pegs must be at least 1"),
        (lambda: Mastermind(colors=36), r"colors must be at most 35"),
        (lambda: Words(list="huge"), r"list must be one of small, large"),
        (lambda: Words(length=15), r"has no word of 15 distinct letters a-z"),
        (lambda: Mastermind(pegs=15, colors=35).secrets, r"more than the engine handles"),
    ],
)
def test_impossible_settings_are_refused(build, message: str) -> None:
    """Settings that cannot make a game, or a space too big to build, raise MoocowError."""
    with pytest.raises(MoocowError, match=message):
        build()


def test_a_game_too_big_to_enumerate_still_reads_and_scores_codes() -> None:
    """The size check waits for the space, so a huge Mastermind can still referee single codes."""
    game = Mastermind(pegs=15, colors=35)
    code = game.parse_code("Z" * 14 + "1")
    assert game.feedback(code[None], code[None])[0, 0] == game.win


@pytest.fixture
def word_file(tmp_path: Path) -> Path:
    """A messy word file: CRLF, blanks, padding, duplicates, capitals, repeated letters, non-letters."""
    path = tmp_path / "words.txt"
    path.write_bytes(b"crane\r\nSlate\r\n\r\n  about \r\ncrane\r\nhello\r\nCRANE\r\ndon't\r\ncafe\r\nblimp")
    return path


def test_words_from_a_file_are_sorted_distinct_and_lower_case(word_file: Path) -> None:
    """A word file gives its playable words, lower-cased, deduplicated and sorted, as letter codes."""
    game = Words(file=str(word_file))
    assert game.words == ("about", "blimp", "crane", "slate")
    assert game.secrets.tolist() == [[ord(c) - ord("a") for c in word] for word in game.words]
    assert game.secret_guess_index.tolist() == [0, 1, 2, 3]
    assert game.guess_index(" Slate ") == 3
    assert game.spec == f"words:file={word_file}"
    with pytest.raises(MoocowError, match=r"^'ghost' is not in the game's word list \(4 words of 5 distinct"):
        game.guess_index("ghost")


def test_word_file_problems_are_one_line_errors(word_file: Path, tmp_path: Path) -> None:
    """A missing file, a length the file lacks, or a frequency floor on a file are refused."""
    with pytest.raises(MoocowError, match="cannot read word file"):
        Words(file=str(tmp_path / "missing.txt"))
    with pytest.raises(MoocowError, match=r"word file '.*words.txt' has no word of 6 distinct letters"):
        Words(file=str(word_file), length=6)
    with pytest.raises(MoocowError, match="zipf filters the wordfreq lists"):
        Words(file=str(word_file), zipf=3.5)


@pytest.mark.parametrize("zipf", ["nan", "inf", "-nan", "1e999"])
def test_a_frequency_floor_that_is_not_finite_is_refused(zipf: str) -> None:
    """NaN and infinity once reached wordfreq's integer cut as a traceback."""
    with pytest.raises(MoocowError, match=rf"^words: parameter zipf must be a finite number, not '{zipf}'$"):
        load_game(f"words:zipf={zipf}")


def test_default_words_are_the_playable_five_letter_wordfreq_words() -> None:
    """The default list has some 1,700 English 5-letter words of distinct letters, sorted."""
    game = Words()
    assert 1500 < len(game.words) < 2000
    assert list(game.words) == sorted(set(game.words))
    assert {"crane", "about", "light"} <= set(game.words) and "hello" not in game.words
    assert all(len(set(word)) == 5 and word.isascii() and word.isalpha() for word in game.words)
    assert game.code_length == 5 and game.feedback_fields == ("bulls", "cows")


def test_frequency_floor_and_large_list_change_the_words() -> None:
    """A Zipf floor keeps only common words; the large list adds rare ones; both contain the floor's."""
    default, common, large = Words(), Words(zipf=4.5), Words(list="large")
    assert set(common.words) < set(default.words) < set(large.words)
    assert "about" in common.words and len(common.words) < len(default.words) // 2


def test_describe_alphabet_groups_runs() -> None:
    """Alphabets are described as runs of consecutive characters."""
    assert describe_alphabet("123456789ABC") == "1-9, A-C"
    assert describe_alphabet("0") == "0"
    assert describe_alphabet("AB") == "A-B"


def test_each_module_registers_its_game() -> None:
    """The register_games hook of each module hands the engine its class."""
    registered: list[type[Game]] = []
    for module in (mastermind, digits, words):
        module.register_games(registered.append)
    assert registered == [Mastermind, Digits, Words]


@pytest.mark.parametrize(
    "spec",
    [
        "mastermind:pegs=1,colors=3",
        "mastermind:pegs=3,colors=3",
        "mastermind:pegs=4,colors=6",
        "mastermind:pegs=5,colors=4",
        "digits:length=1,symbols=2",
        "digits:length=3,symbols=3",
        "digits:length=4,symbols=6",
        "digits:length=5,symbols=7",
        "digits:length=4,symbols=10",
    ],
)
def test_the_feedback_values_are_exactly_those_some_pair_of_codes_scores(spec: str) -> None:
    """No value is counted that no guess and secret can score, and none that can is missed."""
    game = load_game(spec)
    scored = set(np.unique(game.feedback(game.guesses, game.secrets)).tolist())
    assert set(game.feedback_model.values()) == scored


@pytest.mark.parametrize("pegs", [2, 3, 4, 5])
def test_two_colours_score_fewer_values_than_counted_but_none_outside(pegs: int) -> None:
    """With two colours parity rules out more (0B1W in 2x2); the values counted still cover all."""
    game = load_game(f"mastermind:pegs={pegs},colors=2")
    scored = set(np.unique(game.feedback(game.guesses, game.secrets)).tolist())
    assert scored < set(game.feedback_model.values())


def test_ten_digits_of_ten_share_every_digit() -> None:
    """digits:length=10 scores only all-common answers: 10 values, where all sums up to 10 are 66."""
    assert len(Digits(length=10, symbols=10).feedback_model.values()) == 10
