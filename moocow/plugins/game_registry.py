"""The game classes the plugins register, each checked, so a bad one costs a line and not the CLI.

Each plugin's ``register_games`` is called on its own, in registration order (built-ins, then
entry points by name, then ``--plugin`` files in the order given), rather than through pluggy's
hook call, which runs the last registered plugin first and stops at the first exception. So a
plugin that raises loses only its own games, and when two plugins register the same game name
the first registered keeps it: a third-party plugin cannot silently replace a built-in game.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass

import pluggy

from moocow.engine.errors import MoocowError, one_line
from moocow.engine.game import Game
from moocow.engine.params import Param

GAME_NAME = re.compile(r"\w[\w.-]*")
"""What a game name may look like: it must survive the spec syntax ``name:key=value,...``."""


@dataclass(frozen=True)
class GameRegistry:
    """The games found, and one line for each class or plugin that was turned away."""

    classes: dict[str, type[Game]]
    """Game classes by name, sorted by name."""
    errors: tuple[str, ...]
    """``plugin NAME: ...`` lines, in registration order."""


def collect_games(manager: pluggy.PluginManager) -> GameRegistry:
    """Call every ``register_games`` implementation and keep the classes that pass the checks."""
    classes: dict[str, type[Game]] = {}
    owners: dict[str, str] = {}
    errors: list[str] = []
    for impl in manager.hook.register_games.get_hookimpls():
        plugin = impl.plugin_name
        offered: list[object] = []
        arguments = {"register": offered.append}
        try:
            impl.function(*(arguments[name] for name in impl.argnames))
        except (Exception, SystemExit) as error:  # nor may its sys.exit() end moocow
            errors.append(f"plugin {plugin} failed to register games: {one_line(error)}")
            continue
        for candidate in offered:
            try:
                cls = checked_game_class(candidate)
            except TypeError as problem:
                errors.append(f"plugin {plugin}: {problem}")
                continue
            if classes.setdefault(cls.name, cls) is cls:
                owners.setdefault(cls.name, plugin)
            else:
                ignored = f"plugin {plugin}: game {cls.name!r} ignored"
                errors.append(f"{ignored}: already registered by plugin {owners[cls.name]}")
    return GameRegistry(dict(sorted(classes.items())), tuple(errors))


def checked_game_class(cls: object) -> type[Game]:
    """``cls`` if it can be a game; otherwise ``TypeError`` saying why (not a ``Game``, no name, abstract)."""
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise TypeError(f"{cls!r} is not a subclass of moocow.engine.game.Game")
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not GAME_NAME.fullmatch(name):
        raise TypeError(f"game class {cls.__qualname__} needs a name of letters, digits, _.- (has {name!r})")
    if inspect.isabstract(cls):
        missing = ", ".join(sorted(cls.__abstractmethods__))
        raise TypeError(f"game {name!r} ({cls.__qualname__}) does not implement {missing}")
    _check_feedback_fields(name, cls.feedback_fields)
    _check_params(name, cls.params)
    return cls


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


def _check_params(name: str, params: object) -> None:
    """Parameters of different names, each default a value the parameter itself accepts (a
    default is not checked when a spec leaves it out)."""
    if not (isinstance(params, tuple) and all(isinstance(param, Param) for param in params)):
        raise TypeError(
            f"game {name!r}: params must be a tuple of moocow.engine.params.Param (has {params!r})"
        )
    names = [param.name for param in params]
    if len(set(names)) != len(names):
        raise TypeError(f"game {name!r}: a parameter name is given twice ({', '.join(names)})")
    for param in params:
        if param.default is None:
            continue
        try:
            accepted = param.convert(param.default, name)
        except MoocowError as error:
            raise TypeError(
                f"game {name!r}: the default of parameter {param.name} is refused: {error}"
            ) from None
        if accepted != param.default:
            raise TypeError(
                f"game {name!r}: parameter {param.name} has a default of another type, {param.default!r}"
            )
