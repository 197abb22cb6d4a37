"""Feedback as people type it: counts in order, or counts labelled by what they count.

``2 1``, ``2,1`` and ``21`` give the counts in the order of the game's feedback fields. A count
may instead carry a label, read by the label and not by its place: the field's initial or its
name, singular or plural, in any case, so for Mastermind (black, white) ``0W2B``, ``2b 0w`` and
``2 black 0 white`` are all two black and no white. A labelled field left out counts 0 (``4B``
wins). The labels come from the game's ``feedback_fields``, so a plugin game reads its own.
Anything else is refused with a reason: an unknown label, a label given twice, a negative count,
labels on some counts only, a stray character.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from moocow.engine.errors import MoocowError, quoted

_TOKENS = re.compile(r"(?P<number>-?[0-9]+)|(?P<word>[A-Za-z]+)|(?P<gap>[\s,]+)|(?P<other>.)", re.DOTALL)
"""A count, a label, what may stand between them, or anything else (refused)."""
_LONGEST = 12
"""Digits read of a count; a longer one is more than any code has anyway."""


def labels(fields: Sequence[str]) -> dict[str, list[int]]:
    """Each label a count may carry (lower case) and the fields it may name, in order."""
    names: dict[str, list[int]] = {}
    for index, field in enumerate(fields):
        field = field.lower()
        forms = {field[:1], field, field[:-1] if field.endswith("s") and len(field) > 2 else field}
        for form in sorted(forms):
            names.setdefault(form, []).append(index)
    return names


def describe_labels(fields: Sequence[str]) -> str:
    """The labels for people: ``B (black), W (white)``."""
    return ", ".join(f"{field[:1].upper()} ({field})" for field in fields)


def read_counts(text: str, fields: Sequence[str], single_digits: bool) -> tuple[int, ...]:
    """One count per field from ``text``; ``single_digits`` lets ``21`` stand for ``2 1``.

    Raises ``MoocowError`` saying what is wrong; whether the counts are possible is the game's to say.
    """
    shown = quoted(text)
    names = ", ".join(fields)
    tokens = [(match.lastgroup, match.group()) for match in _TOKENS.finditer(text.strip())]
    for kind, value in tokens:
        if kind == "other":
            raise MoocowError(f"feedback {shown}: {value!r} is neither a count nor a label ({names})")
        if kind == "number" and value.startswith("-"):
            raise MoocowError(f"feedback {shown}: a count cannot be negative ({value})")
    items = [(kind, value) for kind, value in tokens if kind != "gap"]
    if not items:
        raise MoocowError(f"no feedback given: expected {_counts(len(fields))} ({names})")
    if any(kind == "word" for kind, _ in items):
        return _labelled(shown, items, fields)
    numbers = [_count(value) for _, value in items]
    if len(numbers) == 1 and len(fields) > 1 and single_digits and len(items[0][1]) == len(fields):
        numbers = [int(digit) for digit in items[0][1]]
    if len(numbers) != len(fields):
        raise MoocowError(f"feedback {shown} is malformed: expected {_counts(len(fields))} ({names})")
    return tuple(numbers)


def _labelled(shown: str, items: list[tuple[str | None, str]], fields: Sequence[str]) -> tuple[int, ...]:
    """Counts each followed by its label, in any order; the fields not named count 0."""
    pairs = list(zip(items[::2], items[1::2], strict=False))
    if len(items) % 2 or any(count[0] != "number" or label[0] != "word" for count, label in pairs):
        example = "".join(f"{len(fields) - place}{field[:1].upper()}" for place, field in enumerate(fields))
        raise MoocowError(
            f"feedback {shown}: write each count before its label ({example}), or give no labels"
        )
    known = labels(fields)
    counts: list[int | None] = [None] * len(fields)
    for (_, number), (_, label) in pairs:
        places = known.get(label.lower())
        if places is None:
            accepted = describe_labels(fields)
            raise MoocowError(f"feedback {shown}: {label!r} is not a count here (the counts are {accepted})")
        free = [place for place in places if counts[place] is None]
        if not free:
            raise MoocowError(f"feedback {shown}: {fields[places[-1]]} is given twice")
        counts[free[0]] = _count(number)
    return tuple(count or 0 for count in counts)


def _counts(number: int) -> str:
    return f"{number} count{'' if number == 1 else 's'}"


def _count(digits: str) -> int:
    """A count's value; beyond a dozen digits any value is too many, and ``int`` would refuse thousands."""
    return int(digits) if len(digits) <= _LONGEST else 10**_LONGEST
