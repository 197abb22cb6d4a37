"""Checks a game plugin's author calls from their own tests: ``check_game(spec, rule)``.

The engine checks a plugin's answers as it uses them (shapes, ranges, the win on a sample), but
it cannot know what the feedback *should* be. The author can, in a few lines of plain Python:
``rule(guess, secret)`` gives the feedback of one pair, as the game types it. These checks hold the
game's vectorised ``feedback`` to that rule, check the win and determinism, and run every command
on a tiny instance. Each failure is an ``AssertionError`` naming the pair or the command, what was
expected and what the game did; nothing here needs pytest. ``import moocow`` does not load this.
"""

from __future__ import annotations

import os

from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.testing.commands import check_commands, registered
from moocow.testing.pairs import (
    SAMPLE_PAIRS,
    Rule,
    check_determinism,
    check_feedback,
    check_win,
)

__all__ = [
    "Rule",
    "check_commands",
    "check_determinism",
    "check_feedback",
    "check_game",
    "check_win",
    "registered",
]


def check_game(
    game: str | Game,
    rule: Rule,
    *,
    tiny: str | None = None,
    plugin: str | os.PathLike[str] | None = None,
    pairs: int = SAMPLE_PAIRS,
    seed: int = 0,
    commands: bool = True,
) -> None:
    """Check ``game`` (a spec, or an instance) against ``rule`` on every pair of a small game or
    ``pairs`` seeded pairs of a large one; check its win and determinism; then, with ``commands``,
    run every command on ``tiny`` (a spec; by default the game's own, which must then have at most
    ``commands.TINY_SECRETS`` secrets). ``plugin`` is a ``.py`` plugin file to load first."""
    from moocow.plugins import load_game, load_plugin_file

    try:
        if plugin is not None:
            load_plugin_file(plugin, strict=True)
        loaded = load_game(game)  # moocow's own checks first: the win, the symmetries claimed
    except MoocowError as error:
        raise AssertionError(f"moocow refuses the game: {error}") from None
    check_feedback(loaded, rule, pairs, seed)
    check_win(loaded, pairs, seed)
    check_determinism(loaded, pairs, seed)
    if tiny is not None:  # the tiny instance is held to the rule too, on every pair
        try:
            small = load_game(tiny)
        except MoocowError as error:
            raise AssertionError(f"moocow refuses the game: {error}") from None
        check_feedback(small, rule, pairs, seed)
    if commands:
        check_commands(tiny or loaded.spec, plugin)
