"""Games built afresh, so a measured run pays for its code spaces and feedback table like a new process."""

from __future__ import annotations

from moocow.engine.game import Game
from moocow.plugins import load_game


def fresh_game(spec: str) -> Game:
    """A new instance of the game ``spec`` names (``load_game`` would hand back the cached one)."""
    cached = load_game(spec)
    return type(cached).from_arguments(cached.values)
