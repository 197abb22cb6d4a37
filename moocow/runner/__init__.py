"""The runner: seeded rounds, players refereed in their own processes, tournaments and grading.

``run_tournament(build_tournament({...}))`` and ``grade("bot.py")`` are the whole API; names are
loaded on first use, because the adapter that runs Python players imports this package inside
the player's process and must not pay for the engine there.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_NAMES = {
    "Failure": "moocow.runner.fouls",
    "Grade": "moocow.runner.grading",
    "Limits": "moocow.runner.limits",
    "PlayerSpec": "moocow.runner.players",
    "RoundResult": "moocow.runner.results",
    "Standing": "moocow.runner.leaderboard",
    "Tournament": "moocow.runner.tournament",
    "TournamentResult": "moocow.runner.tournament",
    "build_tournament": "moocow.runner.tournament",
    "grade": "moocow.runner.grading",
    "parse_player": "moocow.runner.players",
    "read_results": "moocow.runner.resultsfile",
    "run_tournament": "moocow.runner.tournament",
    "tournament_from": "moocow.runner.tournament",
}

__all__ = sorted(_NAMES)


def __getattr__(name: str) -> Any:
    if name in _NAMES:
        return getattr(import_module(_NAMES[name]), name)
    raise AttributeError(f"module 'moocow.runner' has no attribute {name!r}")
