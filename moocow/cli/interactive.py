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
from moocow.engine.position import Position
from moocow.engine.wording import plural
from moocow.play.assistant import LIST_LIMIT, Assistant, OutsideGuess, marked
from moocow.play.opponent import deal_secret, scored

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
    say(f"moocow assistant for {game.spec}: {_count(assistant.remaining, game.code_noun)} are possible.")
    say(ASSIST_HELP.format(example=_example(game), feedback=_example_feedback(game)))
    say(f"Suggested first guess: {marked(assistant)}")  # a strategy unusable here ends the session
    while not assistant.solved:
        line = ask(f"guess {assistant.entries + 1} and score> ")
        if line is None or line.strip().lower() in QUIT:
            break
        _assist_command(assistant, line.strip(), ask, say, shown)
    entries = assistant.entries
    if assistant.solved:
        say(f"Solved in {entries} {plural(entries, 'guess')}.")
    return entries


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
        _list(assistant, say, limit=LIST_MOST)
    elif command == "history":
        entries = assistant.recorded()
        for number, (guess, value) in enumerate(entries, 1):
            say(shown.entry(f"{number}. ", guess, value))
        if not entries:
            say("No entries yet.")
    else:
        guess, _, feedback = _split_entry(line)
        if not feedback:
            example = f"{_example(game)} {_example_feedback(game)}"
            say(f"error: expected a guess and its score, e.g. '{example}' (type help)")
            return
        if not _record(assistant, guess, feedback, ask, say):
            return
        if shown.colour and shown.tiled:
            say(shown.entry("  ", *assistant.recorded()[-1]))  # the marks as the game showed them
        earlier = assistant.earlier_entry()
        if earlier is not None:
            say(f"warning: guess {earlier} was {guess.strip()} too; the same guess again tells nothing new")
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


def _split_entry(line: str) -> tuple[str, str, str]:
    """A guess and its score, split at the first run of whitespace: a space, several, or a tab."""
    parts = line.split(None, 1)
    return (parts[0], " ", parts[1].strip()) if len(parts) == 2 else (line, "", "")


def _report(assistant: Assistant, say: Say) -> None:
    if assistant.solved:
        return
    remaining = assistant.remaining
    say(f"{_count(remaining, assistant.game.code_noun)} remain{'s' if remaining == 1 else ''}.")
    if remaining <= LIST_LIMIT:
        _list(assistant, say, limit=LIST_LIMIT)
    _suggest(assistant, say, "It must be" if remaining == 1 else "Suggested next guess:")


def _suggest(assistant: Assistant, say: Say, prefix: str) -> None:
    """The strategy's suggestion; a strategy with none here (a tree left behind) says why."""
    try:
        say(f"{prefix} {marked(assistant)}")
    except MoocowError as error:
        say(f"No suggestion: {error}.")


def _count(number: int, noun: str) -> str:
    return f"{number:,} {plural(number, noun)}"


def _list(assistant: Assistant, say: Say, limit: int) -> None:
    codes = assistant.possible_codes(limit)
    for line in columns(codes):
        say(line)
    more = assistant.remaining - len(codes)
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
    say(text.format(example=_example(game), feedback=_example_feedback(game)))
    if game.feedback_model.kind == "marks":
        say(f"Marks: {game.feedback_model.describe()}.")


def _example(game: Game) -> str:
    return game.format_code(game.guesses[0])


def _example_feedback(game: Game) -> str:
    return game.format_feedback(game.score(0, len(game.secrets) - 1))


def play(game: Game, seed: int | None, ask: Ask, say: Say, colour: bool = False) -> int | None:
    """You guess the computer's secret; returns the number of guesses, or ``None`` if you gave up.
    The game ends with its review: each guess beside the engine's choice."""
    secret = deal_secret(game, seed)
    shown = Shown(game, colour)
    say(f"I have chosen a secret for {game.spec} ({len(game.secrets):,} are possible). 'quit' gives up.")
    played: list[tuple[int, int]] = []
    ruled = Ruled(game)
    while True:
        line = ask(f"guess {len(played) + 1}> ")
        command = "quit" if line is None else line.strip().lower()
        if command in QUIT:
            say(f"The secret was {game.format_code(game.secrets[secret])}.")
            _review(game, played, say, shown, secret)
            return None
        if not command:
            say(f"Type a guess, e.g. '{_example(game)}', or help.")
        elif command == "help":
            _help(game, PLAY_HELP, say)
        elif command == "history":
            for number, (guess, value) in enumerate(played, 1):
                say(shown.entry(f"{number}. ", game.format_code(game.guesses[guess]), value))
            if not played:
                say("No guesses yet.")
        elif command == "undo":
            if played:
                guess, value = played.pop()
                ruled.undo()
                say(f"Took back guess {len(played) + 1}, {shown.plain(guess, value)}.")
            else:
                say("Nothing to undo.")
        else:
            assert line is not None
            try:
                guess = game.guess_index(line)
                ruled.check(guess)
            except MoocowError as error:
                say(f"error: {error}")
                continue
            value, solved = scored(game, secret, guess)
            earlier = next((number for number, (made, _) in enumerate(played, 1) if made == guess), None)
            if earlier is not None:
                code = game.format_code(game.guesses[guess])
                say(f"warning: guess {earlier} was {code} too; the same guess again tells nothing new")
            played.append((guess, value))
            ruled.record(guess, value)
            if solved:
                say(f"Solved in {len(played)} {plural(len(played), 'guess')}.")
                _review(game, played, say, shown, secret)
                return len(played)
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


class Ruled:
    """The position a game with a rule on guesses (hard mode) needs to check each guess; for any
    other game nothing is kept (a big game's position would hold every code)."""

    def __init__(self, game: Game) -> None:
        self._positions = [Position.start(game)] if game.guess_rule is not None else []

    def check(self, guess: int) -> None:
        """Refuse, in one line saying why, a guess the rule forbids here."""
        if self._positions:
            self._positions[-1].check_legal(guess)

    def record(self, guess: int, value: int) -> None:
        if self._positions:
            self._positions.append(self._positions[-1].after(guess, value))

    def undo(self) -> None:
        if len(self._positions) > 1:
            self._positions.pop()


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
