"""The hooks a moocow plugin may implement."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from moocow.engine.game import Game

hookspec = pluggy.HookspecMarker("moocow")
hookimpl = pluggy.HookimplMarker("moocow")


@hookspec
def register_games(register: Callable[[type[Game]], None]) -> None:
    """Register game classes: call ``register(GameClass)`` once for each."""
