"""The runner: tournaments, their results and grading, over the rounds ``moocow.referee`` plays.

``run_tournament(build_tournament({...}))`` and ``grade("bot.py")`` are the whole API; names are
loaded on first use, so that importing the package (a command's ``--help``) costs nothing of the
engine. The referee and the sandbox below it are rooms of their own (docs/design.md).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_NAMES = {
    "Failure": "moocow.sandbox.fouls",
    "Grade": "moocow.runner.grading",
    "Limits": "moocow.sandbox.limits",
    "PlayerSpec": "moocow.referee.players",
    "RoundResult": "moocow.runner.results",
    "Standing": "moocow.runner.leaderboard",
    "Tournament": "moocow.runner.tournament",
    "TournamentResult": "moocow.runner.tournament",
    "build_tournament": "moocow.runner.tournament",
    "grade": "moocow.runner.grading",
    "parse_player": "moocow.referee.players",
    "read_results": "moocow.runner.resultsfile",
    "run_tournament": "moocow.runner.tournament",
    "tournament_from": "moocow.runner.tournament",
}

__all__ = sorted(_NAMES)


def __getattr__(name: str) -> Any:
    if name in _NAMES:
        return getattr(import_module(_NAMES[name]), name)
    raise AttributeError(f"module 'moocow.runner' has no attribute {name!r}")
