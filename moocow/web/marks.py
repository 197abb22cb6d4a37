"""Feedback on the pages: what a client needs to tell counts from marks, and Wordle's tiles.

The JSON gives each value as the game writes it (``feedback``) and as its ``parts`` (a count per
field, or a mark per position), with the model's ``kind`` once per page. At the table a marks game
is entered as the newspaper shows it: the guess's letters as tiles, each tapped to cycle grey,
yellow, green; the pattern being set rides in the URL as ``f=`` (its letters, ``BYG``), so the
back button and a shared link keep it, and it is recorded only if some remaining code gives it.
"""

from __future__ import annotations

from typing import Any

from moocow.engine.feedback import MARK_LETTERS, MARK_NAMES, Counts, Marks
from moocow.engine.game import Game
from moocow.engine.position import wins
from moocow.web.moves import Url

BUILT_IN = ("counts", "marks")
"""The kinds the pages draw themselves (a number pad, tiles); any other is a plugin's own."""


def model_data(game: Game) -> dict[str, Any]:
    """The feedback model as a client reads it: ``kind`` (``counts``, ``marks`` or a plugin's own),
    the counts' field names (none for marks), how a value is typed, and for a plugin's own kind its
    ``legend``: the names of its parts' values (``part_names``), so its scores are read in its words."""
    model = game.feedback_model
    own = model.kind not in BUILT_IN
    return {
        "kind": model.kind,
        "own_kind": own,
        "fields": list(game.feedback_fields) if model.kind == "counts" else [],
        "typed": model.describe(),
        "legend": list(model.part_names) if own else [],
        "example": model.format(model.values()[0]) if own else "",
    }


def feedback_data(game: Game, value: int) -> dict[str, Any]:
    """One value: as the game writes it, as its parts, and named (``label``, for the buttons)."""
    return {
        "feedback": game.format_feedback(value),
        "parts": list(game.feedback_model.parts(value)),
        "label": feedback_label(game, value),
    }


def feedback_label(game: Game, value: int) -> str:
    """A value in words: each count with its field (``1 bulls, 2 cows``), each part by the model's
    name for it (``green, grey``; a plugin's ``lower``), else as the game writes it."""
    model = game.feedback_model
    parts = model.parts(value)
    if isinstance(model, Counts):
        return ", ".join(f"{count} {field}" for count, field in zip(parts, model.fields, strict=True))
    names = model.part_names
    if names and all(0 <= part < len(names) for part in parts):
        return ", ".join(names[part] for part in parts)
    return game.format_feedback(value)


def has_tiles(game: Game) -> bool:
    """Whether the game's feedback is a mark per position, entered by tapping tiles."""
    return game.feedback_model.kind == "marks"


def read_pattern(game: Game, text: str | None) -> list[int]:
    """The marks of ``f=`` (every tile grey when absent), in any spelling the engine reads
    (``Marks.read``: ``GYB``, ``210``, ``-``, the shared squares): any pattern while it is being
    tapped (a lone yellow among greens is passed through on the way), one line when malformed."""
    if not (text or "").strip():
        return [0] * game.code_length
    model = game.feedback_model
    return list((model if isinstance(model, Marks) else Marks(game.code_length)).read(text or ""))


def tiles(game: Game, url: Url, guess: str, marks: list[int], left: dict[int, int]) -> dict[str, Any]:
    """The guess as tiles, each a link cycling its mark, and the pattern's fate: how many codes it
    leaves and the link recording it, or the one line saying no remaining code gives it. A code
    not written one character a place (a plugin's ``red-blue``) has its places numbered instead."""
    pattern = "".join(MARK_LETTERS[mark] for mark in marks)

    def cycled(place: int) -> str:
        turned = [*marks[:place], (marks[place] + 1) % len(MARK_LETTERS), *marks[place + 1 :]]
        return url.to(typed=guess, f="".join(MARK_LETTERS[mark] for mark in turned))

    letters = list(guess) if len(guess) == len(marks) else [str(place) for place in range(1, len(marks) + 1)]
    value = game.feedback_model.encode(marks)
    count = left.get(value, 0)
    shown = game.format_feedback(value) if value in game.feedback_model.possible else pattern
    entry = f"{guess}:{shown}"
    return {
        "pattern": pattern,
        "tiles": [
            {"letter": letter, "mark": mark, "name": MARK_NAMES[mark], "link": cycled(place)}
            for place, (letter, mark) in enumerate(zip(letters, marks, strict=True))
        ],
        "left": count,
        "win": wins(game, value),
        "record": url.to(moves=[*url.moves, entry]) if count else None,
        "refused": None if count else f"no remaining {game.code_noun} gives {pattern} to {guess}",
    }
