"""Text for every layer that writes to a person, from one place below all of them.

- ``plural``: the engine's errors, the runner's reports, the terminal and the web say "1 guess"
  and "2 guesses" the same way.
- ``printable``: player-controlled text made safe to print, so no character can move the cursor
  or rewrite a terminal. Names, ids, authors and crash reasons come from students; a ``\\r`` or an
  ANSI escape in them could overwrite the totals a terminal shows, so every character that is not
  printable is written as ``repr`` writes it (``\\r``, ``\\x1b``, ``\\u2028``); ordinary text,
  accented letters and other scripts included, is left exactly as it is, so an honest player's
  course log does not change.

Plain standard library: the course runner's functions use it.
"""

from __future__ import annotations

import unicodedata

ESCAPED = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Categories escaped: controls, format characters (bidi overrides), surrogates, line/paragraph separators."""


def plural(count: int, word: str) -> str:
    """``word`` as ``count`` of it reads: 1 guess, 2 guesses; 1 secret, 0 secrets."""
    if count == 1:
        return word
    return word + ("es" if word.endswith("s") else "s")


def printable(text: str) -> str:
    """``text`` with every control, format or separator character escaped as ``repr`` would."""
    if text.isprintable():
        return text
    return "".join(_escaped(char) if unicodedata.category(char) in ESCAPED else char for char in text)


def _escaped(char: str) -> str:
    """``\\r``, ``\\x1b``, ``\\u2028``: the escape ``repr`` uses for one character."""
    return char.encode("unicode_escape", errors="backslashreplace").decode("ascii")
