"""moocow: play, solve and referee code-breaking games.

The Python API mirrors the command line, one call each: ``moocow.evaluate("mastermind",
"minmax", first="1122")``, ``moocow.solve("bottles:n=7", "GFEDCBA")``, ``moocow.load_game(spec)``.
Names are loaded on first use, so a player process that imports a small part of the package does
not pay for the engine.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

_API = {
    "GameInfo",
    "Playout",
    "StrategyInfo",
    "assistant",
    "describe_games",
    "describe_strategies",
    "evaluate",
    "evaluation_cost",
    "load_game",
    "load_plugin_file",
    "load_strategy",
    "plugin_errors",
    "solve",
}
_ENGINE = {
    "Evaluation": "moocow.engine.evaluation",
    "Game": "moocow.engine.game",
    "MoocowError": "moocow.engine.errors",
    "Param": "moocow.engine.params",
    "Position": "moocow.engine.position",
    "Strategy": "moocow.engine.strategies",
}

__all__ = sorted(_API | set(_ENGINE))


def __getattr__(name: str) -> Any:
    from importlib import import_module

    if name in _API:
        return getattr(import_module("moocow.api"), name)
    if name in _ENGINE:
        return getattr(import_module(_ENGINE[name]), name)
    raise AttributeError(f"module 'moocow' has no attribute {name!r}")
