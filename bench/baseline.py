"""The straightforward pure-Python player of the seed notes, made to take moocow's decisions.

It is ``get_score`` / ``filter_candidates`` / ``minimax_guess`` from
``bottle-game-minimax-notes``: loop over every guess, loop over every candidate, score with a
Python function, count the answers in a dict. Two changes make its results comparable:

- ties are broken like moocow (smallest cost, then remaining candidates, then the lowest guess
  index; the notes keep the last tied candidate), and the other heuristics are the same formulas;
- like the notes it opens with a fixed guess, which the caller passes (moocow's own opening).

Every secret is played from scratch (no cache of decided positions): that is how the notes play.
Codes are tuples of ints in the game's canonical order; only ``random`` touches numpy, to draw
from the same seeded generator as moocow so that the choices agree.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from moocow.engine.game import Game

Code = tuple[int, ...]
Scorer = Callable[[Code, Code], int]
Cost = Callable[[dict[int, int]], float]


def positional_score(guess: Code, secret: Code) -> int:
    """The notes' ``get_score``: how many positions match (the bottle game's feedback)."""
    return sum(1 for g, s in zip(guess, secret, strict=True) if g == s)


def bulls_cows_score(guess: Code, secret: Code) -> int:
    """Bulls and cows packed as moocow packs them: ``bulls * (L + 1) + cows`` is ``bulls * L + common``."""
    bulls = sum(1 for g, s in zip(guess, secret, strict=True) if g == s)
    common = sum(min(guess.count(symbol), secret.count(symbol)) for symbol in set(guess))
    return bulls * len(guess) + common


def bulls_and_cows(guess: Code, secret: Code) -> tuple[int, int]:
    """Bulls and cows (Mastermind's black and white pegs) as two counts, for a referee."""
    bulls, cows = divmod(bulls_cows_score(guess, secret), len(guess) + 1)
    return bulls, cows


def worst_case(counts: dict[int, int]) -> float:
    """Knuth's minimax, as in the notes: the largest part."""
    return max(counts.values())


def expected_size(counts: dict[int, int]) -> float:
    """Irving: sum of squared part sizes."""
    return sum(size * size for size in counts.values())


def entropy_cost(counts: dict[int, int]) -> float:
    """Neuwirth: ``sum n log2 n``, added smallest first (moocow's order, so float ties agree)."""
    total = 0.0
    for size in sorted(counts.values()):
        total += size * math.log2(size)
    return total


def parts_cost(counts: dict[int, int]) -> float:
    """Kooi: the number of distinct answers, negated."""
    return -len(counts)


HEURISTICS: dict[str, Cost] = {
    "minmax": worst_case,
    "expected": expected_size,
    "entropy": entropy_cost,
    "parts": parts_cost,
}
"""The built-in heuristic strategies the baseline can play."""

SCORERS: dict[str, Scorer] = {"bottles": positional_score}
"""Python scorers by game name; every other built-in game is scored as bulls and cows."""


@dataclass(frozen=True)
class NotesPlayer:
    """One game's codes and one strategy, played the notes' way."""

    secrets: Sequence[Code]
    """The secret space, in the game's canonical order."""
    guesses: Sequence[Code]
    """The guess space, in the game's canonical order."""
    secret_guess: Sequence[int]
    """For each secret, its index among the guesses."""
    score: Scorer
    """The Python feedback function."""
    strategy: str
    """``minmax``, ``expected``, ``entropy``, ``parts``, ``first`` or ``random``."""
    seed: int = 0
    """Seed of ``random``."""

    @classmethod
    def for_game(cls, game: Game, strategy: str, seed: int = 0) -> NotesPlayer:
        """The baseline for a moocow game: same codes, same order, a Python scorer."""
        if strategy not in (*HEURISTICS, "first", "random"):
            raise ValueError(f"the baseline has no strategy {strategy!r}")
        return cls(
            secrets=[tuple(code) for code in game.secrets.tolist()],
            guesses=[tuple(code) for code in game.guesses.tolist()],
            secret_guess=game.secret_guess_index.tolist(),
            score=SCORERS.get(game.name, bulls_cows_score),
            strategy=strategy,
            seed=seed,
        )

    def play(self, secret: int, opening: int) -> int:
        """Guesses taken to find secret number ``secret`` from scratch, opening with guess ``opening``."""
        target = self.secrets[secret]
        codes = list(self.secrets)
        indices = list(range(len(codes)))
        guess = opening
        rounds = 0
        while True:
            rounds += 1
            code = self.guesses[guess]
            if code == target:
                return rounds
            indices, codes = self.keep(indices, codes, guess, self.score(code, target))
            guess = self.choose(indices, codes)

    def keep(
        self, indices: list[int], codes: list[Code], guess: int, answer: int
    ) -> tuple[list[int], list[Code]]:
        """The notes' ``filter_candidates``: the candidates that would answer ``guess`` with ``answer``."""
        code = self.guesses[guess]
        kept = [(i, c) for i, c in zip(indices, codes, strict=True) if self.score(code, c) == answer]
        return [i for i, _ in kept], [c for _, c in kept]

    def choose(self, indices: list[int], codes: list[Code]) -> int:
        """The next guess index for the candidates (secret indices ``indices``, codes ``codes``)."""
        candidate_guesses = [self.secret_guess[i] for i in indices]
        if self.strategy == "first":
            return min(candidate_guesses)
        if self.strategy == "random":
            return self._random_choice(indices, candidate_guesses)
        return self._minimax_guess(codes, set(candidate_guesses), HEURISTICS[self.strategy])

    def _minimax_guess(self, candidates: list[Code], candidate_guesses: set[int], cost: Cost) -> int:
        """The notes' ``minimax_guess``, with moocow's tie rule and any heuristic cost."""
        best_guess, best_key = -1, (math.inf, True)
        for index, guess in enumerate(self.guesses):
            score_counts: dict[int, int] = {}
            for candidate in candidates:
                answer = self.score(guess, candidate)
                score_counts[answer] = score_counts.get(answer, 0) + 1
            key = (cost(score_counts), index not in candidate_guesses)
            if key < best_key:
                best_guess, best_key = index, key
        return best_guess

    def _random_choice(self, indices: list[int], candidate_guesses: list[int]) -> int:
        """moocow's seeded draw: the generator is seeded by a hash of the candidate set."""
        if len(indices) == 1:
            return candidate_guesses[0]
        key = hashlib.blake2b(b"".join(i.to_bytes(8, "little") for i in indices), digest_size=16).digest()
        generator = np.random.default_rng([self.seed, int.from_bytes(key[:8], "little")])
        return int(generator.choice(np.array(candidate_guesses, dtype=np.int64)))
