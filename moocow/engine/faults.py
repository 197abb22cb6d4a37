"""A game plugin's own methods, wrapped so that whatever they raise is one line naming the game.

A plugin supplies more than its feedback: its feedback model's ``format`` and ``parse``, its guess
rule, its move distance. Any of them may raise anywhere the engine calls it (a model whose
``format`` raised on its own win value ended ``solve`` in a traceback), so each one a plugin's
class defines is wrapped as the class is defined, once, rather than at every call site. A
``MoocowError`` passes through: it is the method's own one-line answer (``parse`` refusing text).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterable
from functools import cached_property
from typing import Any

from moocow.engine.errors import MoocowError, one_line

OWNER = "_moocow_owner"
"""The attribute naming the game a feedback model or guess rule was handed over by, or the plugin
that registered a strategy."""


def owner_of(part: object) -> str:
    """The name a fault of ``part`` (a game, its feedback model or its guess rule, a plugin's
    strategy) is told under: the name it was given (``OWNER``), else its spec, else its class."""
    given = getattr(part, OWNER, None)
    if given is not None:  # a plugin's strategy: named with its plugin (``strategy_registry``)
        return str(given)
    if hasattr(type(part), "spec"):  # a game: its spec, as every other message about it
        try:
            return str(part.spec)  # type: ignore[attr-defined]  # hasattr just said it has one
        except Exception:  # a plugin's own parameters that cannot be written
            return type(part).__name__
    return f"{type(part).__module__}.{type(part).__qualname__}"


def owned(part: Any, game: object) -> Any:
    """``part`` (what a game handed over: its model, its rule), told it belongs to ``game`` unless it
    already knows (a model kept on the class serves every setting of its game)."""
    if part is not None and getattr(part, OWNER, None) is None:
        with contextlib.suppress(AttributeError, TypeError):  # slots, frozen: named by its class
            setattr(part, OWNER, owner_of(game))
    return part


def guarded(method: Callable[..., Any], what: str) -> Callable[..., Any]:
    """``method`` of a plugin's class, anything it raises but a ``MoocowError`` made one line:
    ``GAME: its WHAT failed: Type: message``."""

    @functools.wraps(method)
    def call(self: object, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except UnownedFault as fault:  # a model failing as its game makes it: named by the game
            if not _knows_owner(self):
                raise
            raise MoocowError(f"{owner_of(self)}: its {fault.what} failed: {fault.problem}") from None
        except (MoocowError, MemoryError):  # out of memory is the machine's limit, not the game's bug
            raise
        except Exception as error:
            unowned = UnownedFault(owner_of(self), what, one_line(error))
            if not _knows_owner(self):
                raise unowned from None
            raise MoocowError(str(unowned)) from None

    call.is_checked = True  # type: ignore[attr-defined]  # a mark on a function object
    return call


class UnownedFault(MoocowError):
    """A fault of a model or rule not yet handed over (one raising in its own constructor): named
    by its class until the game making it names it instead."""

    def __init__(self, owner: str, what: str, problem: str) -> None:
        super().__init__(f"{owner}: its {what} failed: {problem}")
        self.what, self.problem = what, problem


def _knows_owner(part: object) -> bool:
    """Whether ``part`` is a game, or a model or rule a game has handed over."""
    return hasattr(type(part), "spec") or getattr(part, OWNER, None) is not None


def guard_own_methods(cls: type, names: Iterable[str], prefix: str = "") -> None:
    """Wrap each of ``names`` that ``cls`` itself defines (a function, a property or a cached
    property); a property's value that is a model or a rule is told its game (``owned``)."""
    for name in names:
        own = cls.__dict__.get(name)
        what = prefix + name
        if getattr(own, "is_checked", False):
            continue
        if isinstance(own, property) and own.fget is not None:
            setattr(cls, name, property(_owning(guarded(own.fget, what)), own.fset, own.fdel, own.__doc__))
        elif isinstance(own, cached_property):
            wrapped = cached_property(_owning(guarded(own.func, what)))
            wrapped.__set_name__(cls, name)
            setattr(cls, name, wrapped)
        elif callable(own) and not isinstance(own, staticmethod | classmethod | type):
            setattr(cls, name, guarded(own, what))


def _owning(getter: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A property's getter whose value learns whose it is."""

    @functools.wraps(getter)
    def get(self: Any) -> Any:
        return owned(getter(self), self)

    return get
