"""Everything the command line does, one call each, for Python users and for the CLI itself.

Games and strategies are accepted as specs (``"bottles:n=7"``, ``"minmax:first=1122"``) or as
objects, so ``moocow.evaluate("mastermind", "minmax", first="1122")`` is the whole program.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import moocow.engine.solve
from moocow.engine import evaluation
from moocow.engine.cost import EvaluationCost
from moocow.engine.errors import MoocowError, one_line
from moocow.engine.evaluation import Evaluation
from moocow.engine.game import Game
from moocow.engine.params import Param
from moocow.engine.solve import secret_index
from moocow.engine.strategies import Strategy
from moocow.play.assistant import Assistant
from moocow.plugins import (
    BUILTIN_PLUGINS,
    game_classes,
    load_game,
    load_plugin_file,
    plugin_errors,
    strategy_registry,
)

__all__ = [
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
]


def load_strategy(spec: str | Strategy, **overrides: Any) -> Strategy:
    """A strategy from its spec, as ``strategy_registry.load_strategy(spec, **overrides)`` makes it,
    with one rule more for people who give a value twice: an override (``first="1122"``, the command
    line's ``--first``) may restate a value the spec gives itself but not contradict it, and an
    override of ``None`` is none (``evaluate(..., first=None)`` keeps the spec's own)."""
    given = {key: value for key, value in overrides.items() if value is not None}
    name, own = _given_values(spec)
    cls = strategy_registry.strategy_classes().get(name)
    params = {} if cls is None else {param.name: param for param in cls.params}
    for key, value in given.items():
        if own.get(key) is not None and key in params and _differ(params[key], name, own[key], value):
            flag = key.replace("_", "-")
            raise MoocowError(f"two values of {key}: {name}:{key}={own[key]} and --{flag} {value}; give one")
    return strategy_registry.load_strategy(spec, **given)


def _given_values(spec: str | Strategy) -> tuple[str, dict[str, Any]]:
    """A strategy's name and the values its spec gives itself (a built one's: those not at their
    default, since it no longer says which it was given)."""
    if isinstance(spec, Strategy):
        defaults = {param.name: param.default for param in spec.params}
        return spec.name, {key: value for key, value in spec.values.items() if value != defaults.get(key)}
    return strategy_registry.parse_strategy_spec(spec)


def _differ(param: Param, owner: str, own: Any, override: Any) -> bool:
    """Whether two values of one parameter mean different things (``true`` is ``True``, `` 1122`` is
    ``1122``)."""
    first, second = param.convert(own, owner), param.convert(override, owner)
    if isinstance(first, str) and isinstance(second, str):
        return first.strip() != second.strip()
    return bool(first != second)


SUGGESTION_BUDGET = 5.0
"""Modelled seconds a suggestion in ``solve`` and the assistant may take (``engine.cost``, whose
model is within a factor of 2 either way); ``None`` makes every decision exact."""


def evaluate(game: str | Game, strategy: str | Strategy = "minmax", first: str | None = None) -> Evaluation:
    """Play a strategy against every secret of a game."""
    return evaluation.evaluate(load_game(game), load_strategy(strategy, first=first))


def evaluation_cost(
    game: str | Game, strategy: str | Strategy = "minmax", first: str | None = None
) -> EvaluationCost:
    """What ``evaluate`` with the same arguments will cost, modelled from the sizes (nothing is run)."""
    return evaluation.estimate(load_game(game), load_strategy(strategy, first=first))


@dataclass(frozen=True)
class ShownStep:
    """One guess of a played-out game, as people write it."""

    guess: str
    """The code guessed."""
    feedback: str
    """The answer it got, e.g. ``1B2W``."""
    remaining: int
    """Secrets still possible after the answer."""
    was_candidate: bool
    """Whether the guess could have been the secret (minimax sometimes plays one that could not)."""
    note: str | None = None
    """Why the guess is a quick one (the decision cut to fit the budget), if it is."""


@dataclass(frozen=True)
class Playout:
    """A game played out against a known secret."""

    game: str
    """The game's canonical spec."""
    strategy: str
    """The strategy's canonical spec."""
    secret: str
    """The secret, as people write it."""
    steps: tuple[ShownStep, ...]
    """Every guess in order, the winning one last."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the specs, the secret, how many guesses and each step."""
        return {
            "game": self.game,
            "strategy": self.strategy,
            "secret": self.secret,
            "guesses": len(self.steps),
            "steps": [
                {key: value for key, value in asdict(step).items() if key != "note" or value is not None}
                for step in self.steps
            ],
        }


def solve(
    game: str | Game,
    secret: str,
    strategy: str | Strategy = "minmax",
    first: str | None = None,
    budget: float | None = SUGGESTION_BUDGET,
) -> Playout:
    """Watch a strategy find ``secret``; each decision within ``budget`` (see ``SUGGESTION_BUDGET``)."""
    loaded = load_game(game)
    chosen = load_strategy(strategy, first=first)
    chosen.budget = budget
    found = secret_index(loaded, secret)
    steps = moocow.engine.solve.solve(loaded, chosen, found)
    shown = tuple(
        ShownStep(
            loaded.format_code(loaded.guesses[step.guess]),
            loaded.format_feedback(step.feedback),
            step.remaining,
            step.was_candidate,
            None if step.note is None else str(step.note),
        )
        for step in steps
    )
    return Playout(loaded.spec, chosen.spec, loaded.format_code(loaded.secrets[found]), shown)


def assistant(
    game: str | Game, strategy: str | Strategy = "minmax", budget: float | None = SUGGESTION_BUDGET
) -> Assistant:
    """An assistant for playing at the table; each suggestion within ``budget`` (``SUGGESTION_BUDGET``)."""
    return Assistant.named(game, strategy, budget)


@dataclass(frozen=True)
class GameInfo:
    """A game at its default size, for listings."""

    name: str
    summary: str
    defaults: dict[str, Any]
    secrets: int | None
    guesses: int | None
    problem: str | None = None
    """Why the game cannot be built at its defaults (a plugin's bug), instead of its sizes."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``parameters`` maps each name to its default (``null``: none)."""
        data = {"name": self.name, "summary": self.summary, "parameters": self.defaults}
        return {**data, "secrets": self.secrets, "guesses": self.guesses, "problem": self.problem}


@dataclass(frozen=True)
class StrategyInfo:
    """A strategy, for listings."""

    name: str
    summary: str
    defaults: dict[str, Any]
    """Each parameter's default (``None``: none)."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``parameters`` maps each name to its default (``null``: none)."""
        return {"name": self.name, "summary": self.summary, "parameters": self.defaults}


def describe_games() -> list[GameInfo]:
    """Every registered game at its default parameters, with the sizes of its spaces. A game a
    plugin cannot build is listed with the reason: it costs its own row, never the listing. A
    plugin's game is loaded as every command loads it (``load_game``, its checks included), so the
    reason is the one those commands refuse it with; a built-in game, whose checks its tests make,
    is only built (checking Wordle's wins here would load numba for a listing)."""
    infos = []
    for name, cls in game_classes().items():
        try:
            game = cls() if cls.__module__ in BUILTIN_PLUGINS else load_game(name)
            sizes = len(game.secrets), len(game.guesses)
        except Exception as error:  # a plugin's own code, whatever it raises
            problem = str(error) if isinstance(error, MoocowError) else one_line(error)
            infos.append(GameInfo(name, str(cls.summary), {}, None, None, problem))
            continue
        infos.append(GameInfo(name, cls.summary, dict(game.values), *sizes))
    return infos


def describe_strategies() -> list[StrategyInfo]:
    """Every strategy, built-in or a plugin's: name, summary, parameters with defaults."""
    return [
        StrategyInfo(name, cls.summary, {param.name: param.default for param in cls.params})
        for name, cls in strategy_registry.strategy_classes().items()
    ]
