"""Which games exist, found through pluggy plugins, and building one from its spec.

Every game, built-in or not, comes from a plugin's ``register_games`` hook. The process keeps one
plugin manager, built on first use, the games its plugins register (each hook called once), and
one instance of each game (``PLUGINS``); tests start from a clean manager with ``reset_plugins``,
after setting ``MOOCOW_LOAD_PLUGINS=""`` so that plugins installed on the machine stay out.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from moocow.engine.checks import (
    check_feedback_model,
    check_symmetries,
    check_winning_answer,
    checked_length,
)
from moocow.engine.errors import MoocowError, one_line
from moocow.engine.game import Game
from moocow.engine.params import parse_spec
from moocow.plugins.game_keys import game_key, spec_key
from moocow.plugins.game_registry import GameRegistry, collect_games
from moocow.plugins.hookspecs import hookimpl, hookspec
from moocow.plugins.manager import (
    BUILTIN_PLUGINS,
    ENTRY_POINT_GROUP,
    LOAD_PLUGINS_VARIABLE,
    PluginManager,
    build_plugin_manager,
)

__all__ = [
    "BUILTIN_PLUGINS",
    "ENTRY_POINT_GROUP",
    "LOAD_PLUGINS_VARIABLE",
    "PLUGINS",
    "PluginManager",
    "ProcessPlugins",
    "build_plugin_manager",
    "game_classes",
    "get_plugin_manager",
    "hookimpl",
    "hookspec",
    "load_game",
    "load_plugin_file",
    "local_plugin_files",
    "make_game",
    "plugin_errors",
    "reset_plugins",
]

T = TypeVar("T")


class ProcessPlugins:
    """This process's plugin manager and its games, one of each per process: the command line, the
    runner, the API and the web server all see the same plugins and the same game instances.

    The manager is built on first use (reading the entry points costs a short command's time) and
    grows with each ``--plugin`` file. Its plugins' games are collected once, and again only when a
    plugin is added (a web page asks for them several times a request). A game is made once, kept by
    its class and spec (``game_keys``), so its code spaces and feedback table are built once per
    process, whoever asks for it. ``reset`` starts over with another manager: each test, and a web
    worker loading the server's plugins."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._manager: PluginManager | None = None
        self._collected_lock = threading.RLock()  # a plugin's hook may itself ask for the games
        self._collected: dict[str, tuple[tuple[object, ...], Any]] = {}
        """By hook: what was collected, keyed by the manager and the hook's implementations."""
        self.made: dict[tuple[type[Game], str], Game] = {}
        """Every game made, by class and key: the spec as written and the game's canonical spec
        both lead to the one instance."""
        self.games: dict[tuple[type[Game], str], Game] = {}
        """Games loaded (checked), by class and canonical key: one instance, so one feedback table."""

    @property
    def manager(self) -> PluginManager:
        """The plugin manager, built once: built-ins plus the allowed entry points."""
        with self._lock:
            if self._manager is None:
                self._manager = build_plugin_manager()
            return self._manager

    def collected(self, hook: str, collect: Callable[[PluginManager], T]) -> T:
        """``collect(manager)``, which calls the ``register_*`` ``hook`` of each plugin, run once:
        again only when the hook's implementations change (a plugin added, another manager)."""
        manager = self.manager
        key = (manager, *(impl.function for impl in getattr(manager.hook, hook).get_hookimpls()))
        with self._collected_lock:
            kept = self._collected.get(hook)
            if kept is None or kept[0] != key:
                kept = self._collected[hook] = (key, collect(manager))
            found: T = kept[1]
            return found

    def registry(self) -> GameRegistry:
        """The games the plugins register, each ``register_games`` called once."""
        return self.collected("register_games", collect_games)

    def reset(self, manager: PluginManager | None = None) -> None:
        """Use ``manager`` from now on, or with ``None`` build a fresh one on next use. The games
        made are kept: a game's key holds its class, so another manager's game is another key."""
        with self._lock:
            self._manager = manager
            self._collected.clear()


MADE_KEYS = 4096
"""Spellings of specs kept beside the games' own canonical specs (``PLUGINS.made``)."""

PLUGINS = ProcessPlugins()
"""The process's plugins (``get_plugin_manager``, ``reset_plugins``, ``load_game``)."""


def get_plugin_manager() -> PluginManager:
    """The process's plugin manager, built once: built-ins plus the allowed entry points."""
    return PLUGINS.manager


def reset_plugins(manager: PluginManager | None = None) -> None:
    """Use ``manager`` from now on, or with ``None`` build a fresh one on next use (for tests)."""
    PLUGINS.reset(manager)


def load_plugin_file(path: str | os.PathLike[str], strict: bool = False) -> None:
    """Load a local ``.py`` plugin (``--plugin PATH``); a missing file raises ``MoocowError``.

    A file that fails to load (not Python, no hook, its import raised) is recorded as a broken
    plugin (``plugin_errors``); ``strict`` raises ``MoocowError`` instead: a file a person named
    on the command line did not do what they asked, and a warning scrolled past unread. So does,
    then, a game or strategy it registers that is turned away (its name a built-in's, say), the
    file left out: one rule for both kinds."""
    manager = get_plugin_manager()
    problem = manager.load_file(path)
    if strict and problem is not None:
        manager.errors.remove(problem)
        raise MoocowError(problem)
    if strict and manager.has_plugin(name := str(Path(path).resolve())):
        from moocow.plugins.strategy_registry import strategy_problems

        refused = [*PLUGINS.registry().problems(name), *strategy_problems(name)]
        if refused:
            manager.unregister(name=name)
            raise MoocowError(refused[0])


def local_plugin_files() -> list[str]:
    """The ``--plugin`` files loaded in this process (registered under their absolute paths)."""
    names = (name for name, _ in get_plugin_manager().list_name_plugin())
    return sorted(name for name in names if name.endswith(".py") and os.path.isabs(name))


def game_classes() -> dict[str, type[Game]]:
    """Every registered game class by name, sorted by name; the first plugin to claim a name keeps it."""
    return PLUGINS.registry().classes


def plugin_errors() -> list[str]:
    """One line per plugin that failed to load and per game or strategy class that was turned away."""
    from moocow.plugins.strategy_registry import strategy_problems

    manager = get_plugin_manager()
    return [*manager.errors, *PLUGINS.registry().errors, *strategy_problems()]


def load_game(spec: str | Game) -> Game:
    """The game a spec such as ``bottles:n=7`` names (a ``Game`` is returned as it is).

    Specs that mean the same game (``bottles`` and ``bottles:n=6``) give the same instance, so its
    code spaces and feedback table are built once per process.
    """
    if isinstance(spec, Game):
        check_feedback_model(spec)
        check_winning_answer(spec)
        check_symmetries(spec)
        return spec
    game = make_game(spec)
    game = PLUGINS.games.setdefault((type(game), game_key(game)), game)
    check_winning_answer(game)
    check_symmetries(game)
    return game


def make_game(spec: str) -> Game:
    """The game a spec names, made but not built: its spaces wait for first use, so this is cheap
    whatever the game's size (the web server asks a game's canonical spec before building it).

    Made once per process and shared: specs that mean the same game, from the same folder when
    they name a file, give the same instance (so a game must not change after ``__init__``)."""
    name, arguments = parse_spec(spec)
    classes = game_classes()
    if name not in classes:
        raise MoocowError(f"unknown game {name!r} (known: {', '.join(classes) or 'none'})")
    cls = classes[name]
    key = (cls, spec_key(name, arguments, cls.params))
    game = PLUGINS.made.get(key)
    if game is None:
        game = _new_game(cls, name, arguments)
        game = PLUGINS.made.setdefault((type(game), game_key(game)), game)
        if len(PLUGINS.made) < MADE_KEYS:  # a page's spec is a stranger's text: not every spelling is kept
            PLUGINS.made[key] = game
    return game


def _new_game(cls: type[Game], name: str, arguments: dict[str, str]) -> Game:
    """A game made by its class from a spec's arguments, checked: a plugin's fault is one line."""
    try:  # a plugin's own constructor
        game = cls.from_arguments(arguments)
        game.spec  # noqa: B018 (a plugin's own parameters, formatted)
    except MoocowError:
        raise
    except Exception as error:
        raise MoocowError(f"{name}: the game could not be made: {one_line(error)}") from None
    checked_length(game)
    check_feedback_model(game)
    return game
