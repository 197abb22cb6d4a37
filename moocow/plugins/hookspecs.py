"""The hooks a moocow plugin may implement."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from moocow.engine.game import Game
    from moocow.engine.strategies import Strategy

hookspec = pluggy.HookspecMarker("moocow")
hookimpl = pluggy.HookimplMarker("moocow")


@hookspec
def register_games(register: Callable[[type[Game]], None]) -> None:
    """Register game classes: call ``register(GameClass)`` once for each."""


@hookspec
def register_strategies(register: Callable[[type[Strategy]], None]) -> None:
    """Register strategy classes: call ``register(StrategyClass)`` once for each. A name a
    built-in strategy has is refused, so no plugin changes what ``minmax`` means."""
