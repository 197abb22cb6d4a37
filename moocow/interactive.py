"""The two conversations with a person at the keyboard: the assistant and a game against the computer.

Each loop takes ``ask`` (prompt -> line, ``None`` at end of input) and ``say`` (one line out), so the
CLI binds them to the terminal and tests drive them with plain lists. Bad input is answered with one
line and the loop goes on; nothing a person types ends it except ``quit`` or the end of input.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from moocow.assistant import Assistant
from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.terminal import plural

Ask = Callable[[str], str | None]
Say = Callable[[str], None]

LIST_LIMIT = 20
"""The assistant lists the remaining codes when at most this many are left."""

ASSIST_HELP = (
    "Type the guess you made and the score it got, e.g. '{example} {feedback}'. "
    "Other commands: undo, list, history, help, quit."
)


def assist(assistant: Assistant, ask: Ask, say: Say) -> int:
    """Run the assistant until solved, ``quit`` or end of input; returns the number of entries."""
    game = assistant.game
    example = game.format_code(game.guesses[0])
    feedback = game.format_feedback(game.feedback(game.guesses[:1], game.secrets[-1:])[0, 0])
    say(f"moocow assistant for {game.spec}: {_count(assistant.remaining, game.code_noun)} are possible.")
    say(ASSIST_HELP.format(example=example, feedback=feedback))
    say(f"Suggested first guess: {assistant.suggestion()}")
    while not assistant.solved:
        line = ask(f"guess {len(assistant.position.history) + 1} and score> ")
        if line is None or line.strip().lower() in {"quit", "exit", "q"}:
            break
        _assist_command(assistant, line.strip(), say)
    if assistant.solved:
        entries = len(assistant.position.history)
        say(f"Solved in {entries} {plural(entries, 'guess')}.")
    return len(assistant.position.history)


def _assist_command(assistant: Assistant, line: str, say: Say) -> None:
    command = line.lower()
    if not line:
        return
    if command == "help":
        example = assistant.game.format_code(assistant.game.guesses[0])
        say(ASSIST_HELP.format(example=example, feedback="..."))
    elif command == "undo":
        say("Took back the last entry." if assistant.undo() else "Nothing to undo.")
        _report(assistant, say)
    elif command == "list":
        _list(assistant, say, limit=max(LIST_LIMIT, 200))
    elif command == "history":
        for number, (guess, feedback) in enumerate(assistant.history(), 1):
            say(f"{number}. {guess} {feedback}")
    else:
        guess, _, feedback = line.partition(" ")
        if not feedback.strip():
            say(f"error: expected a guess and its score, e.g. '{guess} 2' (type help)")
            return
        try:
            assistant.record(guess, feedback)
        except MoocowError as error:
            say(f"error: {error}; nothing recorded (undo takes back the previous entry)")
            return
        _report(assistant, say)


def _report(assistant: Assistant, say: Say) -> None:
    if assistant.solved:
        return
    remaining = assistant.remaining
    say(f"{_count(remaining, assistant.game.code_noun)} remain{'s' if remaining == 1 else ''}.")
    if remaining <= LIST_LIMIT:
        _list(assistant, say, limit=LIST_LIMIT)
    prefix = "It must be" if remaining == 1 else "Suggested next guess:"
    say(f"{prefix} {assistant.suggestion()}")


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def _list(assistant: Assistant, say: Say, limit: int) -> None:
    codes = assistant.possible_codes(limit)
    more = assistant.remaining - len(codes)
    say("  " + " ".join(codes) + (f" ... and {more:,} more" if more > 0 else ""))


def play(game: Game, seed: int | None, ask: Ask, say: Say) -> int | None:
    """You guess the computer's secret; returns the number of guesses, or ``None`` if you gave up."""
    secret = random.Random(seed).randrange(len(game.secrets))
    secret_code = game.secrets[secret : secret + 1]
    say(f"I have chosen a secret for {game.spec} ({len(game.secrets):,} are possible). 'quit' gives up.")
    guesses = 0
    while True:
        line = ask(f"guess {guesses + 1}> ")
        if line is None or line.strip().lower() in {"quit", "exit", "q"}:
            say(f"The secret was {game.format_code(game.secrets[secret])}.")
            return None
        try:
            guess = game.guess_index(line)
        except MoocowError as error:
            say(f"error: {error}")
            continue
        guesses += 1
        value = int(game.feedback(game.guesses[guess : guess + 1], secret_code)[0, 0])
        if value == game.win and (game.secret_guess_index[secret] == guess):
            say(f"Solved in {guesses} {plural(guesses, 'guess')}.")
            return guesses
        say(f"  {game.format_feedback(value)}")
