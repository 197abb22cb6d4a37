"""The two conversations with a person at the keyboard: the assistant and a game against the computer.

Each loop takes ``ask`` (prompt -> line, ``None`` at end of input or Ctrl-C) and ``say`` (one line
out), so the CLI binds them to the terminal and tests drive them with plain lists. Bad input is
answered with one line and the loop goes on; nothing a person types ends it except ``quit`` or
the end of input.

A game whose feedback is a mark per letter (Wordle) shows each answer as coloured tiles when
``colour`` is set (the CLI sets it on a terminal that shows colour; ``say`` then also gets rich
``Text``), and as its letters (``GYBBB``) otherwise. Under a rule on guesses (hard mode) a guess
that breaks it is refused in one line saying why.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.play.assistant import Assistant
from moocow.play.opponent import Match, deal_secret
from moocow.play.table import (
    OutsideGuess,
    counted,
    feedback_example,
    guess_example,
    no_score,
    solved_in,
    split_entry,
)

if TYPE_CHECKING:
    from rich.text import Text

Ask = Callable[[str], str | None]
Say = Callable[["str | Text"], None]

LIST_MOST = 200
"""The most codes ``list`` shows."""
WIDTH = 78
"""Characters a line of listed codes may take."""
QUIT = frozenset({"quit", "exit", "q"})
"""What ends either conversation."""

ASSIST_HELP = (
    "Type the guess you made and the score it got, e.g. '{example} {feedback}'. "
    "Other commands: undo, list, history, help, quit."
)
PLAY_HELP = (
    "Type a guess, e.g. '{example}'; I answer with its score, e.g. '{feedback}'. "
    "Other commands: history, undo, help, quit (shows the secret)."
)


def assist(assistant: Assistant, ask: Ask, say: Say, colour: bool = False) -> int:
    """Run the assistant until solved, ``quit`` or end of input; returns the number of entries."""
    game = assistant.game
    shown = Shown(game, colour)
    say(f"moocow assistant for {game.spec}: {counted(assistant.remaining, game.code_noun)} are possible.")
    say(ASSIST_HELP.format(example=guess_example(game), feedback=feedback_example(game)))
    say(assistant.suggested(opening=True).line)  # a strategy unusable here ends the session
    while not assistant.solved:
        line = ask(f"guess {assistant.entries + 1} and score> ")
        if line is None or line.strip().lower() in QUIT:
            break
        _assist_command(assistant, line.strip(), ask, say, shown)
    if assistant.solved:
        say(solved_in(assistant.entries))
    return assistant.entries


def _assist_command(assistant: Assistant, line: str, ask: Ask, say: Say, shown: Shown) -> None:
    command = line.lower()
    game = assistant.game
    if not line:
        return
    if command == "help":
        _help(game, ASSIST_HELP, say)
    elif command == "undo":
        if not assistant.undo():
            say("Nothing to undo: no entry yet.")
            return
        say("Took back the last entry.")
        _report(assistant, say)
    elif command == "list":
        _list(assistant.possible_codes(LIST_MOST), assistant.remaining, say)
    elif command == "history":
        entries = assistant.recorded()
        for number, (guess, value) in enumerate(entries, 1):
            say(shown.entry(f"{number}. ", guess, value))
        if not entries:
            say("No entries yet.")
    else:
        guess, feedback = split_entry(line)
        if not feedback:
            say(f"error: {no_score(game)} (type help)")
            return
        if not _record(assistant, guess, feedback, ask, say):
            return
        if shown.colour and shown.tiled:
            say(shown.entry("  ", *assistant.recorded()[-1]))  # the marks as the game showed them
        warning = assistant.repeat_warning()
        if warning is not None:
            say(f"warning: {warning}")
        _report(assistant, say)


def _record(assistant: Assistant, guess: str, feedback: str, ask: Ask, say: Say) -> bool:
    """Record an entry, or say why not; a code outside the game's guesses (a word not in its
    list, played at a real table) is recorded as such if the person says so."""
    try:
        try:
            assistant.record(guess, feedback)
        except OutsideGuess as outside:
            answer = ask(f"{outside}. Record it anyway, as a guess outside the list? [y/N] ")
            if (answer or "").strip().lower() not in ("y", "yes"):
                say("Nothing recorded.")
                return False
            assistant.record_outside(outside.code, feedback)
    except MoocowError as error:
        earlier = " (if an earlier entry was mistyped, undo takes back the last one)"
        say(f"error: {error}; nothing recorded{earlier if assistant.entries else ''}")
        return False
    return True


def _report(assistant: Assistant, say: Say) -> None:
    if assistant.solved:
        return
    remaining = assistant.remaining
    say(f"{counted(remaining, assistant.game.code_noun)} remain{'s' if remaining == 1 else ''}.")
    if listed := assistant.listed():
        _list(listed, remaining, say)
    say(assistant.suggested().line)


def _list(codes: list[str], remaining: int, say: Say) -> None:
    """``codes`` in columns, and how many of the ``remaining`` they leave out."""
    for line in columns(codes):
        say(line)
    more = remaining - len(codes)
    if more > 0:
        say(f"  ... and {more:,} more")


def columns(codes: list[str], width: int = WIDTH) -> list[str]:
    """Codes in aligned columns, as many a line as fit in ``width``, indented by two."""
    if not codes:
        return []
    widest = max(len(code) for code in codes)
    across = max(1, (width - 2 + 1) // (widest + 1))
    return [
        "  " + " ".join(code.ljust(widest) for code in codes[start : start + across]).rstrip()
        for start in range(0, len(codes), across)
    ]


def _help(game: Game, text: str, say: Say) -> None:
    """What to type, with an example; for marks, how each mark is typed as well (asked for: the
    first lines of a session stay those of every game)."""
    say(text.format(example=guess_example(game), feedback=feedback_example(game)))
    if game.feedback_model.kind == "marks":
        say(f"Marks: {game.feedback_model.describe()}.")


def play(game: Game, seed: int | None, ask: Ask, say: Say, colour: bool = False) -> int | None:
    """You guess the computer's secret; returns the number of guesses, or ``None`` if you gave up.
    The game ends with its review: each guess beside the engine's choice."""
    match = Match(game, deal_secret(game, seed))
    shown = Shown(game, colour)
    say(f"I have chosen a secret for {game.spec} ({len(game.secrets):,} are possible). 'quit' gives up.")
    while True:
        line = ask(f"guess {len(match.played) + 1}> ")
        command = "quit" if line is None else line.strip().lower()
        if command in QUIT:
            say(f"The secret was {game.format_code(game.secrets[match.secret])}.")
            _review(game, match.played, say, shown, match.secret)
            return None
        if not command:
            say(f"Type a guess, e.g. '{guess_example(game)}', or help.")
        elif command == "help":
            _help(game, PLAY_HELP, say)
        elif command == "history":
            for number, (guess, value) in enumerate(match.played, 1):
                say(shown.entry(f"{number}. ", game.format_code(game.guesses[guess]), value))
            if not match.played:
                say("No guesses yet.")
        elif command == "undo":
            taken = match.undo()
            if taken is not None:
                say(f"Took back guess {len(match.played) + 1}, {shown.plain(*taken)}.")
            else:
                say("Nothing to undo.")
        else:
            assert line is not None
            try:
                value = match.play(game.guess_index(line))
            except MoocowError as error:
                say(f"error: {error}")
                continue
            warning = match.repeat_warning()
            if warning is not None:
                say(f"warning: {warning}")
            if match.solved:
                say(solved_in(len(match.played)))
                _review(game, match.played, say, shown, match.secret)
                return len(match.played)
            guess = match.played[-1][0]
            say(shown.entry("  ", game.format_code(game.guesses[guess]), value, echo=True))


class Shown:
    """A guess with its feedback as a line: coloured tiles for marks where ``colour`` is set, else
    the guess and the feedback as the game writes it (``salet BBYGB``)."""

    def __init__(self, game: Game, colour: bool) -> None:
        self.game = game
        self.colour = colour
        self.tiled = game.feedback_model.kind == "marks"

    def entry(self, prefix: str, guess: str, value: int, echo: bool = False) -> str | Text:
        """``prefix`` and the guess with its feedback; ``echo`` (play's answer) shows the feedback
        alone where there are no tiles, as the computer's answer always read."""
        if self.colour and self.tiled:
            from moocow.cli.terminal import tiles

            return tiles(guess, self.game.feedback_model.parts(value), prefix)
        feedback = self.game.format_feedback(value)
        return f"{prefix}{feedback}" if echo else f"{prefix}{guess} {feedback}"

    def plain(self, guess: int, value: int) -> str:
        """A guess index and its feedback, as the game writes them."""
        return f"{self.game.format_code(self.game.guesses[guess])} {self.game.format_feedback(value)}"


def _review(game: Game, played: list[tuple[int, int]], say: Say, shown: Shown, secret: int) -> None:
    """The game looked back on: each guess, its answer, the codes it left, the engine's choice and
    what that would have left, and the guesses the engine expects to need from there."""
    if not played:
        return
    from moocow.play.review import REVIEWER, review

    say(f"Review: each guess, what it left, and what {REVIEWER} would have played there.")
    steps = review(game, played, secret)
    width = max(len(step.guess) for step in steps)
    for number, step in enumerate(steps, 1):
        line = shown.entry(f"{number:>3}. ", step.guess.ljust(width), step.feedback)
        ruled_out = "" if step.possible else " (could not be the secret)"
        engine = step.engine if step.engine_left is None else f"{step.engine}, {step.engine_left:,} left"
        finish = (
            "" if step.expected is None or step.left == 1 else f"; about {step.expected:.1f} more to finish"
        )
        say(line + f"{ruled_out}: {step.left:,} left; {REVIEWER}: {engine}{finish}")
