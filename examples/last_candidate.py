"""A strategy plugin: the naive ``first`` strategy played backwards, the last code still possible
(``moocow --plugin examples/last_candidate.py evaluate mastermind -s last``)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from moocow import Param, Position, Strategy, hookimpl


class LastCandidate(Strategy):
    """Guess the last code still possible in the game's order; ``skip`` passes over that many more
    from the end (counting round), so two settings of one strategy can meet in a tournament."""

    name = "last"
    summary = "the last remaining candidate in the game's order (first, backwards)"
    params = (Param("skip", int, 0, "candidates to pass over from the end", minimum=0),)

    def choose(self, position: Position) -> int:
        candidates = np.sort(position.candidate_guesses)
        return int(candidates[-1 - self.values["skip"] % len(candidates)])


@hookimpl
def register_strategies(register: Callable[[type[Strategy]], None]) -> None:
    register(LastCandidate)
