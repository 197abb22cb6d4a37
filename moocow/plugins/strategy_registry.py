"""The strategies by name, and the one parser of strategy specs.

Kept apart from the strategies themselves so that a strategy built on others (``tree``) is
registered like any other, with no import cycle; the CLI, the API and the runner all read specs
through ``parse_strategy_spec`` and ``load_strategy`` here, so ``tree:PATH`` means the same
everywhere.
"""

from __future__ import annotations

from typing import Any

from moocow.engine.errors import MoocowError
from moocow.engine.params import parse_spec
from moocow.engine.strategies import (
    Entropy,
    Expected,
    FirstCandidate,
    Minmax,
    Parts,
    RandomCandidate,
    Strategy,
)
from moocow.trees.follow import TreeStrategy

STRATEGIES: dict[str, type[Strategy]] = {
    cls.name: cls for cls in (Minmax, Expected, Entropy, Parts, FirstCandidate, RandomCandidate, TreeStrategy)
}
"""The built-in strategies by name."""

BARE: dict[str, str] = {TreeStrategy.name: "path"}
"""The parameter a strategy's spec may give without its key: ``tree:PATH`` is ``tree:path=PATH``."""


def parse_strategy_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split a strategy spec into its name and raw arguments (``tree:PATH`` gives ``path``).

    Only the syntax is read: whether the name is a strategy is for the caller to ask.
    """
    return parse_spec(spec, BARE)


def load_strategy(spec: str | Strategy, **overrides: Any) -> Strategy:
    """A strategy from its spec (``minmax``, ``random:seed=3``, ``minmax:first=1122``, ``tree:PATH``).

    ``overrides`` set or replace parameters, e.g. ``first="1122"`` from a command-line option.
    """
    if isinstance(spec, Strategy):
        return type(spec)(**{**spec.values, **overrides}) if overrides else spec
    name, arguments = parse_strategy_spec(spec)
    cls = STRATEGIES.get(name)
    if cls is None:
        known = ", ".join(sorted(STRATEGIES))
        raise MoocowError(f"unknown strategy {name!r} (known: {known})")
    return cls(**{**arguments, **overrides})
