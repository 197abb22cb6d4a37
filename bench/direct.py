"""The bare way to referee a player: call it, or talk to it, in a loop, and score with Python.

The baseline of the runner's workloads: the same player and the same secrets as a tournament,
without the runner's isolation, limits, checks or results file, so the ratio is what refereeing
costs (or saves) per round.
"""

from __future__ import annotations

import importlib.util
import subprocess
from abc import ABC, abstractmethod
from pathlib import Path
from types import ModuleType
from typing import Any

from bench.baseline import bulls_and_cows
from moocow.plugins.symbols import SymbolGame

MERCY = 20
"""Most guesses per round, as in a tournament."""


class Driver(ABC):
    """Gets guesses from a player: the first of a round, then one per answer."""

    @abstractmethod
    def first(self, spec: str, length: int) -> str:
        """The first guess of a round of ``spec``."""

    @abstractmethod
    def next(self, counts: tuple[int, int]) -> str:
        """The guess after ``counts`` answered the last one."""

    @abstractmethod
    def close(self) -> None:
        """The rounds are over: release the player."""


class ModuleDriver(Driver):
    """A module with moocow's ``next_guess(game, history)``, imported into this process."""

    def __init__(self, path: Path) -> None:
        self.module = _import(path)
        self.spec = ""
        self.history: list[tuple[str, tuple[int, int]]] = []
        self.last = ""

    def first(self, spec: str, length: int) -> str:
        self.spec, self.history = spec, []
        self.last = self.module.next_guess(spec, self.history)
        return self.last

    def next(self, counts: tuple[int, int]) -> str:
        self.history.append((self.last, counts))
        self.last = self.module.next_guess(self.spec, self.history)
        return self.last

    def close(self) -> None:
        """Nothing to release: the module is dropped with the driver."""


class ProgramDriver(Driver):
    """A program speaking the line protocol on its stdin and stdout."""

    def __init__(self, argv: list[str], deck: str) -> None:
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self._ask(f"moocow 1 {deck}")

    def first(self, spec: str, length: int) -> str:
        return self._ask(f"game {length} {spec}")

    def next(self, counts: tuple[int, int]) -> str:
        return self._ask("feedback " + " ".join(map(str, counts)))

    def close(self) -> None:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write("quit\n")
        self.process.stdin.close()
        self.process.stdout.close()
        self.process.wait()

    def _ask(self, line: str) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return self.process.stdout.readline().strip()


def play_rounds(driver: Driver, game: SymbolGame, secrets: list[int]) -> list[int]:
    """Each secret's score in golf: guesses taken, or the mercy limit if not found."""
    symbol = {character: index for index, character in enumerate(game.alphabet)}
    scores = []
    for secret in secrets:
        target = tuple(game.secrets[secret].tolist())
        text = driver.first(game.spec, game.code_length)
        guesses = 1
        while (code := tuple(symbol[character] for character in text)) != target and guesses < MERCY:
            text = driver.next(bulls_and_cows(code, target))
            guesses += 1
        scores.append(guesses if code == target else MERCY)
    driver.close()
    return scores


def _import(path: Path) -> ModuleType:
    """Import a player file as a fresh module (its own state, like a new player process)."""
    spec = importlib.util.spec_from_file_location(f"bench_player_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module: Any = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
