"""The game as the exact search reads it: its feedback table as one array, and what follows from it.

Apart from the search (``search.Search``, which is one of these) because it is set up once per
game and read by both levels of the search: the Python levels and the compiled kernel
(``kernel_search.KernelSearch`` copies these arrays for it). Every pair of the table is checked
here, before any search relies on a win identifying its secret.
"""

from __future__ import annotations

import numpy as np

from moocow.engine.checks import check_wins
from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.engine.symmetry import GuessClasses
from moocow.engine.table import FeedbackTable
from moocow.optimal.bounds import level_bounds
from moocow.optimal.partition import answers_present, split_parts


class SearchArrays:
    """One game's table, answers, guess classes and counting bounds, as the exact search reads them."""

    def __init__(self, game: Game, max_depth: int | None, candidates_only: bool) -> None:
        table = FeedbackTable.for_game(game)
        if not table.in_memory:
            raise MoocowError(f"{game.spec} is too large for the exact search (its table does not fit)")
        secrets = np.arange(table.secret_count, dtype=np.int32)
        self.game = game
        self.max_depth = max_depth
        """The most guesses a strategy may take (``None``: no limit)."""
        self.candidates_only = candidates_only
        """Whether only the candidates left may be guessed."""
        self.rows = table.rows(secrets)
        """The whole feedback table, ``[secret, guess]``."""
        self.guess_of = game.secret_guess_index.astype(np.int32)
        """The guess index of each secret (the guess that wins on it)."""
        self._all_guesses = np.arange(self.rows.shape[1], dtype=np.int32)
        self.win = game.win
        present = answers_present(self.rows)
        present[self.win] = False
        self.answers = np.flatnonzero(present).astype(np.uint8)
        """The non-winning answers any guess can get."""
        self.answer_limit = int(self.rows.max()) + 1
        self._check_win_identifies_secret()
        self.classes = GuessClasses(game)
        """The guesses alike under the relabellings that fix the guesses played."""
        self._bounds: dict[int | None, np.ndarray] = {}

    def _check_win_identifies_secret(self) -> None:
        """Every pair, not the sample ``load_game`` checks: a proof rests on it."""
        check_wins(self.game, self.rows, np.arange(len(self.rows)))

    def bounds(self, depth: int | None) -> np.ndarray:
        """Counting bounds for sets of every size with ``depth`` guesses left."""
        if depth not in self._bounds:
            self._bounds[depth] = level_bounds(len(self.rows), len(self.answers), depth)
        return self._bounds[depth]

    def parts(self, candidates: np.ndarray, guess: int) -> list[np.ndarray]:
        """The non-winning parts ``guess`` splits the candidates into, largest first."""
        return split_parts(candidates, self.rows[candidates, guess], self.win)

    def _allowed(self, candidates: np.ndarray) -> np.ndarray:
        """The guesses allowed with these candidates left."""
        if self.candidates_only:
            return self.guess_of[candidates]
        return self._all_guesses
