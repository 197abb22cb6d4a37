"""The game classes the plugins register, each checked, so a bad one costs a line and not the CLI.

The ``register_games`` hooks are called as every ``register_*`` hook is (``registration``): each
plugin on its own, in registration order, the first to register a name keeping it.
"""

from __future__ import annotations

from dataclasses import dataclass

import pluggy

from moocow.engine.game import Game
from moocow.plugins.registration import check_class, check_params, collect_registered


@dataclass(frozen=True)
class GameRegistry:
    """The games found, and one line for each class or plugin that was turned away."""

    classes: dict[str, type[Game]]
    """Game classes by name, sorted by name."""
    refused: tuple[tuple[str, str], ...]
    """The plugin and the ``plugin NAME: ...`` line of each class or hook turned away, in order."""

    @property
    def errors(self) -> tuple[str, ...]:
        """The lines of ``refused``."""
        return tuple(line for _, line in self.refused)

    def problems(self, plugin: str) -> list[str]:
        """The lines of ``plugin``'s classes and hook turned away."""
        return [line for owner, line in self.refused if owner == plugin]


def collect_games(manager: pluggy.PluginManager) -> GameRegistry:
    """Call every ``register_games`` implementation and keep the classes that pass the checks."""
    found = collect_registered(manager, "register_games", "game", checked_game_class)
    return GameRegistry(found.classes, found.refused)


def checked_game_class(cls: object) -> type[Game]:
    """``cls`` if it can be a game; otherwise ``TypeError`` saying why (not a ``Game``, no name, abstract)."""
    name, checked = check_class("game", cls, Game, "moocow.engine.game.Game")
    _check_feedback_fields(name, checked.feedback_fields)
    check_params("game", name, checked.params)
    return checked


def _check_feedback_fields(name: str, fields: object) -> None:
    """Feedback is typed and shown by its fields' names and initials (``2B1W``), so they must be
    words with different initials."""
    if not (
        isinstance(fields, tuple)
        and fields
        and all(isinstance(field, str) and field.isascii() and field.isalpha() for field in fields)
    ):
        raise TypeError(
            f"game {name!r}: feedback_fields must be a tuple of names of letters (has {fields!r})"
        )
    initials = [field[0].lower() for field in fields]
    if len(set(initials)) != len(initials):
        raise TypeError(f"game {name!r}: feedback_fields must begin with different letters (has {fields!r})")
