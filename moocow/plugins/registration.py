"""Calling a ``register_*`` hook plugin by plugin, for games and strategies alike.

Each plugin's hook is called on its own, in registration order (built-ins, then entry points by
name, then ``--plugin`` files in the order given), rather than through pluggy's hook call, which
runs the last registered plugin first and stops at the first exception. So a plugin that raises
loses only its own classes, and when two plugins register one name the first keeps it: a
third-party plugin cannot silently replace a built-in game or strategy.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

import pluggy

from moocow.engine.errors import MoocowError, one_line
from moocow.engine.params import Param

NAME = re.compile(r"\w[\w.-]*")
"""What a game's or strategy's name may look like: it must survive the spec syntax ``name:key=value``."""

T = TypeVar("T")
K = TypeVar("K")
"""A class kind plugins register (a game, a strategy): what ``check_class`` checks a class is of."""


@dataclass(frozen=True)
class Registered(Generic[T]):
    """The classes a hook registered, who registered each, and a line for each one turned away."""

    classes: dict[str, type[T]]
    """Classes by name, sorted by name."""
    owners: dict[str, str]
    """Who registered each name: ``plugin NAME``, or what ``first`` was given as."""
    refused: tuple[tuple[str, str], ...]
    """The plugin and the ``plugin NAME: ...`` line of each class or hook turned away, in order."""

    @property
    def errors(self) -> tuple[str, ...]:
        """The lines of ``refused``."""
        return tuple(line for _, line in self.refused)


def collect_registered(
    manager: pluggy.PluginManager,
    hook: str,
    noun: str,
    check: Callable[[object], type[T]],
    first: Mapping[str, type[T]] | None = None,
    first_owner: str = "",
) -> Registered[T]:
    """Call every implementation of ``hook`` (``register_games``) and keep the classes ``check``
    passes (it raises ``TypeError`` saying why not). ``first`` holds names no plugin may take
    (the built-in strategies), registered by ``first_owner``."""
    classes: dict[str, type[T]] = dict(first or {})
    owners = dict.fromkeys(classes, first_owner)
    refused: list[tuple[str, str]] = []
    for impl in getattr(manager.hook, hook).get_hookimpls():
        plugin = impl.plugin_name
        offered: list[object] = []
        arguments = {"register": offered.append}
        try:
            impl.function(*(arguments[name] for name in impl.argnames))
        except (Exception, SystemExit) as error:  # nor may its sys.exit() end moocow
            refused.append((plugin, f"plugin {plugin} failed to register {noun}s: {one_line(error)}"))
            continue
        for candidate in offered:
            try:
                cls = check(candidate)
            except TypeError as problem:
                refused.append((plugin, f"plugin {plugin}: {problem}"))
                continue
            name = str(cls.name)  # type: ignore[attr-defined]  # check_class just made sure of it
            if classes.setdefault(name, cls) is cls:
                owners.setdefault(name, f"plugin {plugin}")
            else:
                ignored = f"plugin {plugin}: {noun} {name!r} ignored"
                refused.append((plugin, f"{ignored}: already registered by {owners[name]}"))
    return Registered(dict(sorted(classes.items())), owners, tuple(refused))


def check_name(noun: str, cls: type) -> str:
    """The class's ``name``, if specs can carry it; else ``TypeError``."""
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise TypeError(
            f"{noun} class {cls.__qualname__} needs a name of letters, digits, _.- (has {name!r})"
        )
    return name


def check_class(noun: str, cls: object, base: type[K], base_name: str) -> tuple[str, type[K]]:
    """The name of ``cls`` and ``cls`` itself if it is a concrete subclass of ``base`` with a name;
    otherwise ``TypeError`` saying why (``noun`` is ``game`` or ``strategy``)."""
    if not (isinstance(cls, type) and issubclass(cls, base)):
        raise TypeError(f"{cls!r} is not a subclass of {base_name}")
    name = check_name(noun, cls)
    if inspect.isabstract(cls):
        missing = ", ".join(sorted(getattr(cls, "__abstractmethods__", ())))
        raise TypeError(f"{noun} {name!r} ({cls.__qualname__}) does not implement {missing}")
    return name, cls


def check_params(noun: str, name: str, params: object) -> None:
    """Parameters of different names, each default a value the parameter itself accepts (a
    default is not checked when a spec leaves it out)."""
    if not (isinstance(params, tuple) and all(isinstance(param, Param) for param in params)):
        raise TypeError(
            f"{noun} {name!r}: params must be a tuple of moocow.engine.params.Param (has {params!r})"
        )
    names = [param.name for param in params]
    if len(set(names)) != len(names):
        raise TypeError(f"{noun} {name!r}: a parameter name is given twice ({', '.join(names)})")
    for param in params:
        if param.default is None:
            continue
        try:
            accepted = param.convert(param.default, name)
        except MoocowError as error:
            raise TypeError(
                f"{noun} {name!r}: the default of parameter {param.name} is refused: {error}"
            ) from None
        if accepted != param.default:
            raise TypeError(
                f"{noun} {name!r}: parameter {param.name} has a default of another type, {param.default!r}"
            )
