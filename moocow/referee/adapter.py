"""``python -m moocow.referee.adapter PLAYER.py``: a Python module player in its own process.

Runs in the player's process, never in the runner's: the module can read, patch or break
anything here and still never see a secret, which only the runner holds. Two interfaces:

- the course's, unchanged: ``initialize_wordlist(words)`` once, ``guess(n, guesses_so_far)``
  with ``(guess, bulls, cows)`` tuples (``(guess, *counts)`` for other games), ``student_id()``,
  ``author()``;
- moocow's, for any game: ``next_guess(game, history)`` with ``history`` a list of
  ``(guess, counts)``, ``game`` the round's spec; optional ``start(deck)`` once per process and
  the same optional ``student_id()`` and ``author()``.

In a game whose feedback is not counts (Wordle's marks) the counts' place holds the feedback's
text, as the game writes it: ``(guess, "GYBBB")`` in both interfaces. The adapter speaks the least
protocol version the deck needs, so a count game's calls are exactly what they always were.

The module's ``print`` output goes to stderr (the protocol keeps stdout to itself) and its
``input()`` reads nothing. An exception in the module ends the process with its traceback on
stderr, which the runner records as a crash.
"""

from __future__ import annotations

import importlib.util
import io
import os
import sys
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any, TextIO

from moocow.referee import protocol

FeedbackAsGiven = tuple[int, ...] | str
"""Feedback as the module gets it: counts, or the text of feedback that is not counts."""
PLUGIN_FILES_VARIABLE = "MOOCOW_PLUGIN_FILES"
"""The runner's ``--plugin`` files, separated by ``os.pathsep``: loaded here so their games are known."""


class ModulePlayer(ABC):
    """Keeps the round's history and asks the module for guesses; subclasses name the calls."""

    def __init__(self, module: Any) -> None:
        self.module = module
        """The player's module (anything with its functions will do)."""
        self.history: list[Any] = []
        self.spec = ""
        self.length = 0
        self.last = ""

    def setup(self, deck: str) -> protocol.Identity:
        """Once per process, before the first round."""
        return protocol.Identity(self._named("student_id"), self._named("author"))

    def first_guess(self, spec: str, length: int) -> str:
        """The first guess of a round."""
        self.spec, self.length, self.history = spec, length, []
        return self._asked()

    def next_guess(self, feedback: FeedbackAsGiven) -> str:
        """The guess after ``feedback`` (counts, or the text of marks) answered the last one."""
        self.history.append(self.entry(self.last, feedback))
        return self._asked()

    @abstractmethod
    def entry(self, guess: str, feedback: FeedbackAsGiven) -> Any:
        """One element of the history the module is given."""

    @abstractmethod
    def ask(self) -> object:
        """Call the module for a guess (checked to be one line of text by the caller)."""

    def _asked(self) -> str:
        guess = self.ask()
        if not isinstance(guess, str):
            raise TypeError(f"a guess must be a str, not {type(guess).__name__}: {guess!r}")
        if "\n" in guess or "\r" in guess:
            raise ValueError(f"a guess must be one line: {guess!r}")
        self.last = guess
        return guess

    def _named(self, function: str) -> str:
        named = getattr(self.module, function, None)
        return " ".join(str(named()).split()) if callable(named) else ""


class CoursePlayer(ModulePlayer):
    """The course interface: the word list once, then ``guess(n, guesses_so_far)``."""

    def setup(self, deck: str) -> protocol.Identity:
        self.module.initialize_wordlist(word_list(deck))
        return super().setup(deck)

    def entry(self, guess: str, feedback: FeedbackAsGiven) -> tuple[Any, ...]:
        """``(guess, bulls, cows)``; ``(guess, "GYBBB")`` where the feedback is text."""
        return (guess, feedback) if isinstance(feedback, str) else (guess, *feedback)

    def ask(self) -> object:
        # The same list every call, appended to, as the course runner does.
        return self.module.guess(self.length, self.history)


class MoocowPlayer(ModulePlayer):
    """moocow's interface: ``next_guess(game, history)``, any game."""

    def setup(self, deck: str) -> protocol.Identity:
        start = getattr(self.module, "start", None)
        if callable(start):
            start(deck)
        return super().setup(deck)

    def entry(self, guess: str, feedback: FeedbackAsGiven) -> tuple[str, FeedbackAsGiven]:
        """``(guess, counts)``, or ``(guess, "GYBBB")`` where the feedback is text."""
        return (guess, feedback)

    def ask(self) -> object:
        return self.module.next_guess(self.spec, list(self.history))


def word_list(deck: str) -> list[str]:
    """The words a course player is given: the course's list, or every guess of another game.

    Imported here, not above: a player of moocow's interface needs neither, and would pay for both
    at its start."""
    from moocow.referee import bacrunner

    if bacrunner.is_course_deck(deck):
        return bacrunner.WordSource.from_spec(deck).words()
    from moocow.plugins import load_game

    game = load_game(deck)
    return [game.format_code(code) for code in game.guesses]


def load_player(path: Path) -> ModulePlayer:
    """Import the module from its file (its folder importable) and pick its interface."""
    sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    if callable(getattr(module, "next_guess", None)):
        return MoocowPlayer(module)
    if callable(getattr(module, "guess", None)) and callable(getattr(module, "initialize_wordlist", None)):
        return CoursePlayer(module)
    raise TypeError(
        f"{path.name} defines neither next_guess(game, history) nor the course's guess and "
        "initialize_wordlist"
    )


def take_protocol_channel() -> tuple[TextIO, TextIO]:
    """Keep stdin and stdout for the protocol; the module's prints go to stderr, its input() gets EOF.

    ``sys.stdout`` is made line-buffered, as ``sys.stderr`` is: opened on a pipe, it held a
    student's ``print`` lines until 8 KiB had gathered, so the runner, which kills the player once
    the session ends, saw them late, cut in the middle of a line, or never."""
    incoming = os.fdopen(os.dup(0), "r", encoding="utf-8", newline="\n")
    outgoing = os.fdopen(os.dup(1), "w", encoding="utf-8", newline="\n", buffering=1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(line_buffering=True)
    return incoming, outgoing


def serve(player_file: Path, incoming: TextIO, outgoing: TextIO) -> None:
    """Answer the runner until ``quit`` or the end of input."""
    hello = protocol.read_hello(incoming.readline())
    version = hello.least  # counts where the deck gives counts: a course module's calls are unchanged
    player = load_player(player_file)
    outgoing.write(protocol.reply_hello(player.setup(hello.deck), version) + "\n")
    for line in incoming:
        message = protocol.read_message(line, version)
        if message.kind == protocol.QUIT:
            return
        if message.kind == "game":
            guess = player.first_guess(message.spec, message.length)
        else:
            guess = player.next_guess(message.counts if version == protocol.COUNTS else message.text)
        outgoing.write(guess + "\n")


def load_runner_plugins() -> None:
    """Load the games of the runner's ``--plugin`` files, so that ``moocow.load_game`` knows them here."""
    files = [path for path in os.environ.get(PLUGIN_FILES_VARIABLE, "").split(os.pathsep) if path]
    if files:
        from moocow.plugins import load_plugin_file

        for path in files:
            load_plugin_file(path)


def main() -> None:
    """The adapter's entry point."""
    if len(sys.argv) != 2:
        sys.exit("usage: python -m moocow.referee.adapter PLAYER.py")
    load_runner_plugins()
    incoming, outgoing = take_protocol_channel()
    try:
        serve(Path(sys.argv[1]).resolve(), incoming, outgoing)
    except Exception as error:  # the module's, mostly: its traceback, as the student needs it
        sys.stderr.write(player_traceback(error))
        sys.exit(1)


def player_traceback(error: BaseException) -> str:
    """The traceback from the first frame that is neither the adapter's nor the import machinery's:
    the student reads the last lines of stderr a round keeps (``stderr_tail.ROUND_LINES``), and the
    adapter's seven frames took most of them. Raised by the adapter itself (a guess that is not a
    str), it is the one line saying why."""
    import traceback

    frames = error.__traceback__
    while frames is not None and _not_the_players(frames.tb_frame.f_code.co_filename):
        frames = frames.tb_next
    return "".join(traceback.format_exception(type(error), error, frames))


def _not_the_players(filename: str) -> bool:
    return filename == __file__ or filename.startswith("<frozen ")


if __name__ == "__main__":
    main()
