"""The course's word list, shipped inside the package: dwyl/english-words' ``words_alpha.txt``.

A fresh clone or install had no copy, so ``grade``, the README's examples and the course tests
needed a file from elsewhere. It is kept compressed, byte for byte (``data/words_alpha.md`` says
where it comes from and under what licence), and read as the course reads its copy:
``open(..., encoding="utf-8")``, universal newlines, so its CRLF ends are plain line ends and the
lines and their order are the file's.
"""

from __future__ import annotations

import gzip
from functools import cache
from pathlib import Path

ALPHA_FILE = Path(__file__).with_name("data") / "words_alpha.txt.gz"
"""The list, gzip-compressed."""
ALPHA_NAME = "words_alpha.txt"
"""What people call it: the course's name for its file."""


@cache
def alpha_words() -> tuple[str, ...]:
    """The non-blank lines of the list, stripped, in file order (read once per process)."""
    with gzip.open(ALPHA_FILE, "rt", encoding="utf-8") as lines:
        return tuple(word for word in (line.strip() for line in lines) if word)
