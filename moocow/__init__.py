"""moocow: play, solve and referee code-breaking games.

The Python API mirrors the command line, one call each: ``moocow.evaluate("mastermind",
"minmax", first="1122")``, ``moocow.solve("bottles:n=7", "GFEDCBA")``, ``moocow.load_game(spec)``.
A plugin imports everything it needs from here too (``from moocow import Game, hookimpl``).
Names are loaded on first use, so a player process that imports a small part of the package does
not pay for the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what type checkers and IDEs see; at run time ``__getattr__`` loads each name
    from moocow.api import (
        GameInfo,
        Playout,
        StrategyInfo,
        assistant,
        describe_games,
        describe_strategies,
        evaluate,
        evaluation_cost,
        load_game,
        load_plugin_file,
        load_strategy,
        plugin_errors,
        solve,
    )
    from moocow.engine.errors import MoocowError, quoted
    from moocow.engine.evaluation import Evaluation
    from moocow.engine.feedback import Counts, FeedbackModel, Marks
    from moocow.engine.game import Codes, Game
    from moocow.engine.guess_rule import GuessRule
    from moocow.engine.params import Param
    from moocow.engine.position import Position
    from moocow.engine.strategies import Strategy
    from moocow.plugins.hookspecs import hookimpl
    from moocow.plugins.symbols import SymbolGame

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
    "Codes": "moocow.engine.game",
    "Counts": "moocow.engine.feedback",
    "Evaluation": "moocow.engine.evaluation",
    "FeedbackModel": "moocow.engine.feedback",
    "Game": "moocow.engine.game",
    "GuessRule": "moocow.engine.guess_rule",
    "Marks": "moocow.engine.feedback",
    "MoocowError": "moocow.engine.errors",
    "Param": "moocow.engine.params",
    "Position": "moocow.engine.position",
    "Strategy": "moocow.engine.strategies",
    "SymbolGame": "moocow.plugins.symbols",
    "hookimpl": "moocow.plugins.hookspecs",
    "quoted": "moocow.engine.errors",
}
"""What a plugin needs, by the module that defines it: a plugin imports nothing deeper."""

__all__ = [  # a literal, so type checkers read it: a test holds it to _API, _ENGINE and the imports above
    "Codes",
    "Counts",
    "Evaluation",
    "FeedbackModel",
    "Game",
    "GameInfo",
    "GuessRule",
    "Marks",
    "MoocowError",
    "Param",
    "Playout",
    "Position",
    "Strategy",
    "StrategyInfo",
    "SymbolGame",
    "assistant",
    "describe_games",
    "describe_strategies",
    "evaluate",
    "evaluation_cost",
    "hookimpl",
    "load_game",
    "load_plugin_file",
    "load_strategy",
    "plugin_errors",
    "quoted",
    "solve",
]


def __getattr__(name: str) -> Any:
    from importlib import import_module

    if name in _API:
        return getattr(import_module("moocow.api"), name)
    if name in _ENGINE:
        return getattr(import_module(_ENGINE[name]), name)
    raise AttributeError(f"module 'moocow' has no attribute {name!r}")
