"""Player text in what people read later: escaped, cut short, and Gradescope's file kept bounded.

A course guess may be any printable line of up to 64 KiB, and a player's id, author and crash
message are its own too: copied whole into Gradescope's ``results.json``, one player made a 52 MB
file, with HTML that Gradescope rendered. So whatever is written there is plain text (Gradescope's
``text`` format, never rendered), a guess keeps ``GUESS_SHOWN`` characters and other player text
``TEXT_SHOWN``, and the whole file is kept under ``MOST_BYTES``. The course log printed by
``grade`` is not cut: it must stay the course runner's, byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from moocow.engine.wording import printable

GUESS_SHOWN = 200
"""Characters of a guess written (a course guess may be any printable line of 64 KiB)."""
TEXT_SHOWN = 300
"""Characters of any other player text written: its id, author, a lost round's reason."""
MOST_BYTES = 1_000_000
"""The most ``results.json`` may hold (PrairieLearn caps its own at 1 MB)."""
TEXT = "text"
"""Gradescope's plain-text format: shown as written, never rendered as HTML or Markdown."""
PLAIN = {"output_format": TEXT, "test_output_format": TEXT, "test_name_format": TEXT}
"""The top-level fields of ``results.json`` that make every output and test name plain text."""
CUT_MARK = "\n... (cut: results.json is kept under 1 MB)"
"""What ends an output ``bounded`` had to shorten."""


def cut(text: str, most: int = TEXT_SHOWN) -> str:
    """Player text as written: control characters escaped, at most ``most`` characters kept."""
    shown = printable(text)
    return shown if len(shown) <= most else f"{shown[:most]}... ({len(shown) - most:,} more characters)"


def shown_each(guesses: Sequence[str]) -> list[str]:
    """A round's guesses as written: each cut to ``GUESS_SHOWN`` characters."""
    return [cut(guess, GUESS_SHOWN) for guess in guesses]


def bounded(results: dict[str, Any], most: int = MOST_BYTES) -> dict[str, Any]:
    """``results`` cut to at most ``most`` bytes of JSON: the longest output is halved until it fits."""
    while len(json.dumps(results).encode("utf-8")) > most:
        holders = [results, *results.get("tests", [])]
        longest = max(holders, key=lambda holder: len(holder.get("output", "")))
        kept = longest.get("output", "").removesuffix(CUT_MARK)
        if not kept:
            break  # nothing left to cut: the rest is the file's own structure
        longest["output"] = kept[: len(kept) // 2] + CUT_MARK
    return results
