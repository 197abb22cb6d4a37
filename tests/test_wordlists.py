"""Word sources: word files, wordfreq lists, the dictionary filter and the playable filter."""

from __future__ import annotations

import gzip
import hashlib
import os
from pathlib import Path

import pytest
import wordfreq

from moocow.engine.errors import MoocowError
from moocow.plugins import load_game
from moocow.plugins.words import Words
from moocow.wordlists import (
    alpha_words,
    english_words,
    file_words,
    is_english,
    is_playable,
    playable,
    wordfreq_words,
)
from moocow.wordlists.alpha import ALPHA_FILE


def test_file_words_keep_file_order_case_and_duplicates(tmp_path: Path) -> None:
    """CRLF, blank lines and padding go; order, capitals and duplicates stay for the caller."""
    path = tmp_path / "words.txt"
    path.write_bytes(b"Crane\r\n  slate \r\n\r\n\t\r\ncrane\r\nabout\r\nCrane")
    assert file_words(path) == ("Crane", "slate", "crane", "about", "Crane")


def test_file_words_accept_lf_cr_and_a_byte_order_mark(tmp_path: Path) -> None:
    """LF-only and CR-only files, and a UTF-8 byte order mark, read the same words."""
    for name, content in [
        ("lf.txt", b"one\ntwo\n"),
        ("cr.txt", b"one\rtwo\r"),
        ("bom.txt", b"\xef\xbb\xbfone\ntwo"),
    ]:
        path = tmp_path / name
        path.write_bytes(content)
        assert file_words(str(path)) == ("one", "two")


def test_file_words_are_cached_until_the_file_changes(tmp_path: Path) -> None:
    """A second read is the cached tuple; a rewritten file is read again."""
    path = tmp_path / "words.txt"
    path.write_text("alpha\nbravo\n")
    first = file_words(path)
    assert file_words(str(path)) is first
    path.write_text("alpha\nbravo\ncharlie\n")
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1_000_000_000))
    assert file_words(path) == ("alpha", "bravo", "charlie")


def test_unreadable_word_files_are_one_line_errors(tmp_path: Path) -> None:
    """A missing file or a directory raises MoocowError naming the path."""
    for path, message in [
        (tmp_path / "missing.txt", r"^cannot read word file '.+': .+$"),
        (tmp_path, r"^word file '.+' is a folder$"),
    ]:
        with pytest.raises(MoocowError, match=message):
            file_words(path)


@pytest.mark.parametrize(
    ("word", "length", "expected"),
    [
        ("crane", 5, True),
        ("crane", 4, False),
        ("hello", 5, False),
        ("Crane", 5, False),
        ("don't", 5, False),
        ("café", 4, False),
        ("c4ne", 4, False),
        ("a", 1, True),
        ("", 0, False),
    ],
)
def test_is_playable_means_distinct_lower_case_ascii_letters_of_that_length(
    word: str, length: int, expected: bool
) -> None:
    """Only lower-case a-z, no letter twice, exactly the length."""
    assert is_playable(word, length) is expected


def test_playable_lower_cases_and_keeps_order_and_duplicates() -> None:
    """Capitalised words count; the rest is filtered out; order and repeats are the caller's business."""
    assert playable(["Slate", "hello", "crane", "CRANE", "café", "abc"], 5) == ["slate", "crane", "crane"]


def test_wordfreq_small_list_has_about_2300_playable_five_letter_words() -> None:
    """The small English list gives about 2300 5-letter words of distinct letters (2323 in 3.1.1)."""
    words = playable(wordfreq_words("small"), 5)
    assert 2000 < len(words) < 3000 and len(set(words)) == len(words)
    assert {"about", "crane", "light"} <= set(words)


NAMES = ["abdel", "diane", "doyle", "huang", "zhang", "biden", "egypt", "fiona", "delhi", "james", "paris"]
WORDS = ["about", "crane", "light", "asked", "boxes", "women", "email", "until", "among", "forty", "china"]


def test_the_dictionary_filter_keeps_words_and_drops_names() -> None:
    """Names wordfreq counts in text are not English words; inflections and closed-class words are."""
    assert [word for word in NAMES if is_english(word)] == []
    assert english_words(WORDS) == WORDS


def test_the_default_word_game_has_english_words_only() -> None:
    """The names suggested at the table (abdel, diane, doyle, huang, zhang) are gone from the game."""
    words = set(Words().words)
    assert not words & set(NAMES)
    assert {"about", "crane", "light", "until", "women"} <= words
    assert 1500 < len(words) < 2000


@pytest.mark.parametrize("name", ["zhang", "abdel"])
def test_a_word_outside_the_list_is_refused_with_that_reason(name: str) -> None:
    """A well-formed word the list lacks is not a malformed guess: the reason names the list."""
    reason = rf"^'{name}' is not in the game's word list \(1,\d{{3}} words of 5 distinct letters from the Eng"
    with pytest.raises(MoocowError, match=reason):
        Words().guess_index(name)


def test_wordfreq_words_come_most_frequent_first() -> None:
    """The list starts with the commonest words and goes down in Zipf frequency."""
    words = wordfreq_words("small")
    assert words[0] == "the"
    zipfs = [wordfreq.zipf_frequency(word, "en", wordlist="small") for word in words[:: len(words) // 50]]
    assert zipfs == sorted(zipfs, reverse=True)


@pytest.mark.parametrize("floor", [3.5, 4.0, 5.25])
def test_zipf_floor_keeps_exactly_the_words_at_or_above_it(floor: float) -> None:
    """The cut agrees with wordfreq.zipf_frequency on both sides of the floor."""
    everything, kept = wordfreq_words("small"), wordfreq_words("small", floor)
    assert kept == everything[: len(kept)] and 0 < len(kept) < len(everything)
    assert wordfreq.zipf_frequency(kept[-1], "en", wordlist="small") >= floor
    assert wordfreq.zipf_frequency(everything[len(kept)], "en", wordlist="small") < floor


def test_large_list_is_bigger_and_loads_are_cached() -> None:
    """The large list extends the small one; the same arguments give the same cached tuple."""
    small, large = wordfreq_words("small"), wordfreq_words("large")
    assert len(large) > 10 * len(small) and set(small) <= set(large)
    assert wordfreq_words("small") is small


def test_unknown_wordfreq_list_is_a_one_line_error() -> None:
    """A list wordfreq does not have is a MoocowError, not a LookupError."""
    with pytest.raises(MoocowError, match="unknown wordfreq list 'medium'"):
        wordfreq_words("medium")


ALPHA_SHA256 = "2d8cf2326673fa0c179bdc3a58053872d16bff5352331580955ae62101f6a34d"
"""dwyl/english-words' words_alpha.txt, the course's copy (``moocow/wordlists/data/words_alpha.md``)."""


def test_the_shipped_course_list_is_the_course_file_byte_for_byte() -> None:
    """Compressed, and yet the very file the course reads: the same bytes, CRLF line ends kept."""
    content = gzip.decompress(ALPHA_FILE.read_bytes())
    assert hashlib.sha256(content).hexdigest() == ALPHA_SHA256
    assert content.count(b"\r\n") == content.count(b"\n") == 370_098


def test_the_shipped_list_reads_as_the_course_reads_its_file(tmp_path: Path) -> None:
    """``open(..., encoding="utf-8")`` over the file itself gives the same words in the same order."""
    copy = tmp_path / "words_alpha.txt"
    copy.write_bytes(gzip.decompress(ALPHA_FILE.read_bytes()))
    with open(copy, encoding="utf-8") as lines:
        course = [word for word in (line.strip() for line in lines) if word]
    assert list(alpha_words()) == course
    assert file_words(copy) == alpha_words()


def test_the_word_game_plays_the_course_list() -> None:
    """``words:list=alpha`` is the game of the course's words: a file no longer needed beside moocow."""
    game = load_game("words:list=alpha")
    assert len(game.secrets) == 10_173
    assert game.format_code(game.secrets[0]) == "abdom"
    assert "shipped with moocow" in game.not_a_guess("zzzzz")
    with pytest.raises(MoocowError, match="cannot apply to list=alpha"):
        load_game("words:list=alpha,zipf=3")
