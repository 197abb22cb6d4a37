"""The course runner ``bacrunner.py``, reproduced: a course can switch without its scores changing.

The course runner (ikokkari/BullsAndCows, ``bacrunner.py``) reads ``words_alpha.txt`` with
``open(..., encoding="utf-8")``, keeps ``x.strip()`` when it is 5 to 15 characters long with no
character twice, in file order, and draws every secret with ``random.Random(seed).choice`` over
that list. It takes any string as a guess and scores it with ``count_bulls_and_cows``; a round
ends when the guess equals the secret or after ``mercy`` guesses, scores its number of guesses,
and the total is printed after the rounds. The functions here do exactly that, and write its log.
No numpy here: the adapter that runs course players in their own process uses
``WordSource.words`` to hand them the same word list.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache

from moocow.engine.errors import MoocowError
from moocow.engine.params import Param, bind, format_spec, parse_spec
from moocow.engine.wording import printable
from moocow.wordlists.files import NOTES, WordTally, word_file_text

NAME = "bacrunner"
"""The deck name in specs: ``bacrunner:file=words_alpha.txt,minlen=5,maxlen=15``."""
PARAMS = (
    Param("file", str, None, "the course's word file, one word per line (default: words_alpha.txt, shipped)"),
    Param("minlen", int, 5, "shortest secret word", minimum=1, maximum=15),
    Param("maxlen", int, 15, "longest secret word", minimum=1, maximum=15),
)
SEED = 888
"""The course runner's seed."""
ROUNDS = 20
"""The course runner's number of rounds."""
MERCY = 20
"""The course runner's mercy limit: the most guesses a round may take."""


@lru_cache(maxsize=64)
def is_course_deck(spec: str) -> bool:
    """Whether a deck spec names the course's deck (``bacrunner:...``) rather than a game."""
    return spec.split(":", 1)[0].strip() == NAME


def check_lengths(minlen: int, maxlen: int, names: tuple[str, str] = ("minlen", "maxlen")) -> None:
    """One line unless the length limits can be the course's, naming them as the caller's user
    knows them (``grade`` says ``--min-length``, not the spec's ``minlen``)."""
    for param, value, name in zip(PARAMS[1:], (minlen, maxlen), names, strict=True):
        assert param.minimum is not None and param.maximum is not None  # the lengths' params have both
        if not param.minimum <= value <= param.maximum:
            raise MoocowError(f"{name} must be from {param.minimum:g} to {param.maximum:g}, not {value}")
    if minlen > maxlen:
        raise MoocowError(f"{names[0]} {minlen} is more than {names[1]} {maxlen}")


def acceptable(word: str, minlen: int, maxlen: int) -> bool:
    """The course's filter: a length within the limits and no character twice."""
    return minlen <= len(word) <= maxlen and len(set(word)) == len(word)


@dataclass(frozen=True)
class WordSource:
    """The course's secret words: a word file and the length limits, as a ``bacrunner:...`` spec."""

    file: str | None = None
    """The word file, as given (relative to the runner's directory); ``None``: the course's own
    ``words_alpha.txt``, shipped with moocow (``wordlists.alpha``)."""
    minlen: int = 5
    """Shortest word."""
    maxlen: int = 15
    """Longest word."""

    @classmethod
    def from_spec(cls, spec: str) -> WordSource:
        """Read ``bacrunner:file=...,minlen=...,maxlen=...``, defaults filled in."""
        name, arguments = parse_spec(spec)
        if name != NAME:
            raise MoocowError(f"not a {NAME} spec: {spec!r}")
        values = bind(NAME, PARAMS, arguments)
        if values["file"] == "":  # left out, it is the course's list
            raise MoocowError(
                f"{spec}: file= needs a word file; leave it out for the shipped words_alpha.txt"
            )
        if values["minlen"] > values["maxlen"]:
            raise MoocowError(f"{spec}: minlen {values['minlen']} is more than maxlen {values['maxlen']}")
        return cls(**values)

    @property
    def spec(self) -> str:
        """The canonical spec."""
        return format_spec(NAME, asdict(self), PARAMS)

    def words(self) -> list[str]:
        """The acceptable words in file order, read as the course reads them (a fresh list each call).

        A folder, a binary file or one that is not UTF-8 (where the course would crash) is one line
        (``wordlists.files``, the reader of every word file); what the filter left out is said once.
        """
        if self.file is None:
            from moocow.wordlists.alpha import alpha_words

            return [word for word in alpha_words() if acceptable(word, self.minlen, self.maxlen)]
        kept, note = _read(word_file_text(self.file), self.file, self.minlen, self.maxlen)
        NOTES.say(note)
        return list(kept)


@lru_cache(maxsize=4)
def _read(text: str, named: str, minlen: int, maxlen: int) -> tuple[tuple[str, ...], str | None]:
    """The acceptable words of one version of a word file's text (the reader keeps one text object
    per version, so this is worked out once each), and the note on what the filter left out. Its
    lines as ``open(..., encoding="utf-8")`` iterates them: split at LF, CRLF and CR only. Repeats
    and case are kept, as the course keeps them."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    words = [word for word in (line.strip() for line in lines) if word]
    tally = WordTally(len(words))
    for word in words:
        if not minlen <= len(word) <= maxlen:
            tally.leave_out(f"not of {minlen} to {maxlen} characters", word)
        elif len(set(word)) != len(word):
            tally.leave_out("with a character twice", word)
    kept = tuple(word for word in words if acceptable(word, minlen, maxlen))
    return kept, tally.line(named, len(kept))


def draw_secrets(words: Sequence[str], seed: int, rounds: int) -> list[str]:
    """The course's secrets: ``random.Random(seed).choice(words)`` once per round."""
    rng = random.Random(seed)
    return [rng.choice(words) for _ in range(rounds)]


def count_bulls_and_cows(guess: str, secret: str) -> tuple[int, int]:
    """The course's scoring, verbatim: ``zip`` pairs the characters, so the longer string is cut short."""
    bulls, cows = 0, 0
    for c1, c2 in zip(guess, secret, strict=False):
        if c1 == c2:
            bulls += 1
        else:
            cows += 1 if c1 in secret else 0
    return (bulls, cows)


def header_line(seed: int | str) -> str:
    """The first line the course runner prints: ``seed`` is a seed's digits, or for a secret seed
    ``fingerprint:HEX`` (``seeds.fingerprint``), one word in the seed's place, so that a tool reading
    the word after ``seed=`` still reads one value (never a secret seed)."""
    return f"BACRunner Python with seed={seed}."


def round_line(secret: str, guesses: Sequence[str]) -> str:
    """``[secret]: guess guess ... `` exactly as printed, trailing space included."""
    return f"[{secret}]: " + "".join(f"{guess} " for guess in guesses)


def total_line(total: int, student_id: str, author: str) -> str:
    """The last line: the total, the student id and the author (control characters escaped, nothing else)."""
    return f"{total} {printable(student_id)} {printable(author)}"
