"""A Mastermind player in plain Python: the first code, in lexicographic order, that fits every answer.

The benchmark runs this one file both ways a student's player runs: as a module (moocow's
``next_guess`` interface, through the runner's adapter) and as a program speaking the line
protocol (``python first_fit.py``). Standard library only, like a student's file. It plays what
moocow's ``first`` strategy plays, so all three runner workloads play the same guesses.
"""

from __future__ import annotations

import itertools
import sys

COLOURS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

_game = ""
"""The game of the round being played."""
_seen = 0
"""How many answers of the round's history have been applied."""
_candidates: list[str] = []
"""The codes that fit every answer applied."""


def student_id() -> str:
    return "first-fit"


def author() -> str:
    return "moocow bench"


def all_codes(spec: str) -> list[str]:
    """Every code of a ``mastermind:pegs=P,colors=C`` spec, lexicographic."""
    _, _, text = spec.partition(":")
    values = dict(item.split("=", 1) for item in text.split(",") if "=" in item)
    pegs, colours = int(values.get("pegs", 4)), int(values.get("colors", 6))
    return ["".join(code) for code in itertools.product(COLOURS[:colours], repeat=pegs)]


def black_white(guess: str, code: str) -> tuple[int, int]:
    """Black pegs (right colour, right place) and white pegs (right colour elsewhere)."""
    black = sum(g == c for g, c in zip(guess, code, strict=True))
    common = sum(min(guess.count(colour), code.count(colour)) for colour in set(guess))
    return black, common - black


def next_guess(game: str, history: list[tuple[str, tuple[int, ...]]]) -> str:
    """moocow's module interface: the guess after ``history`` (each answer is applied once)."""
    global _game, _seen, _candidates
    if not history or game != _game:
        _game, _seen, _candidates = game, 0, all_codes(game)
    for guess, counts in history[_seen:]:
        _candidates = [code for code in _candidates if black_white(guess, code) == tuple(counts)]
    _seen = len(history)
    return _candidates[0]


def main() -> None:
    """The line protocol: handshake, then a guess for every ``game`` and ``feedback`` line."""
    sys.stdin.readline()
    print(f"moocow 1 {student_id()} {author()}", flush=True)
    game, history, last = "", [], ""
    while line := sys.stdin.readline():
        kind, *words = line.split()
        if kind == "quit":
            return
        if kind == "game":
            game, history = words[1], []
        else:
            history.append((last, tuple(int(word) for word in words)))
        last = next_guess(game, history)
        print(last, flush=True)


if __name__ == "__main__":
    main()
