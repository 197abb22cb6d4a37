"""Compiled code a strategy needs is built before any clock runs, not inside a round."""

from __future__ import annotations

from typing import Any

import pytest

from moocow.engine import opening, strategies
from moocow.runner import build_tournament, run_tournament


def test_the_relabellings_are_ready_before_the_first_guess(monkeypatch: pytest.MonkeyPatch) -> None:
    """minmax on Bulls and Cows drops guesses alike by symmetry from its second guess on, through
    compiled relabellings whose first build on a machine took tens of seconds inside a round (a
    fresh install's tournament showed minmax at 17.8 ms a guess there, the others at 0.1)."""
    happened: list[str] = []
    warm, later = opening.warm_up_relabellings, strategies.later_guesses

    def warming(*args: Any) -> None:
        happened.append("warm-up")
        warm(*args)

    def deciding(*args: Any) -> Any:
        happened.append("decision")
        return later(*args)

    monkeypatch.setattr(opening, "warm_up_relabellings", warming)
    monkeypatch.setattr(strategies, "later_guesses", deciding)
    tournament = build_tournament({"players": ["minmax"], "games": ["digits"], "rounds": 2, "seed": 5})
    run_tournament(tournament)
    assert "decision" in happened and happened[0] == "warm-up"
