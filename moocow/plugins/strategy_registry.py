"""The strategies by name, built-in and from plugins, and the one parser of strategy specs.

Kept apart from the strategies themselves so that a strategy built on others (``tree``) is
registered like any other, with no import cycle; the CLI, the API, the web page and the runner
(its workers, Dask's, the web's, which load the same plugin files again) all read specs through
``parse_strategy_spec`` and ``load_strategy`` here, so a name means the same everywhere, a
plugin's strategy included.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pluggy

from moocow.engine.errors import MoocowError
from moocow.engine.faults import OWNER, guard_own_methods
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
from moocow.plugins import PLUGINS
from moocow.plugins.registration import Registered, check_class, check_params, collect_registered
from moocow.trees.follow import TreeStrategy

BUILTIN_STRATEGIES: dict[str, type[Strategy]] = {
    cls.name: cls for cls in (Minmax, Expected, Entropy, Parts, FirstCandidate, RandomCandidate, TreeStrategy)
}
"""The built-in strategies by name: no plugin may register one of these names."""

BUILTIN = "moocow (a built-in strategy)"
"""Who registered a built-in strategy, in the line refusing a plugin's strategy of its name."""

BARE: dict[str, str] = {TreeStrategy.name: "path"}
"""The parameter a strategy's spec may give without its key: ``tree:PATH`` is ``tree:path=PATH``."""

PLUGIN_METHODS = ("__init__", "decide", "choose", "choose_noted", "choose_from_pair", "depends_on_last_guess")
"""A plugin strategy's methods whose faults are one line naming it and its plugin (``engine.faults``)."""


def registered_strategies() -> Registered[Strategy]:
    """Every strategy, built-in and from the process's plugins, with who registered each and a
    line for each a plugin offered that was turned away; each ``register_strategies`` runs once,
    however often a name is looked up (each page, each seat)."""
    return PLUGINS.collected("register_strategies", collect_strategies)


def collect_strategies(manager: pluggy.PluginManager) -> Registered[Strategy]:
    """Call every ``register_strategies`` and keep the classes that pass the checks and take no
    built-in's name; the plugins' are guarded (``guard_plugin_strategy``) and listed after moocow's."""
    found = collect_registered(
        manager, "register_strategies", "strategy", checked_strategy_class, BUILTIN_STRATEGIES, BUILTIN
    )
    for name, cls in found.classes.items():
        if found.owners[name] != BUILTIN:
            guard_plugin_strategy(cls, f"strategy {name} ({found.owners[name]})")
    # moocow's own first, in their order (minmax, the default, heads every list)
    return replace(found, classes={**BUILTIN_STRATEGIES, **found.classes})


def strategy_classes() -> dict[str, type[Strategy]]:
    """Every strategy class by name: the built-ins, then the plugins' by name."""
    return registered_strategies().classes


def is_builtin(strategy: Strategy) -> bool:
    """Whether ``strategy`` is one of moocow's own, whose faults are moocow's bugs, not a plugin's."""
    return type(strategy) in BUILTIN_STRATEGIES.values()


def strategy_problems(plugin: str | None = None) -> list[str]:
    """One line per strategy class or ``register_strategies`` hook turned away (``plugin``'s only)."""
    return [line for owner, line in registered_strategies().refused if plugin in (None, owner)]


def checked_strategy_class(cls: object) -> type[Strategy]:
    """``cls`` if it can be a strategy; otherwise ``TypeError`` saying why (not a ``Strategy``, no
    name, no ``choose``, a summary that is not one line, parameters that cannot work)."""
    name, checked = check_class("strategy", cls, Strategy, "moocow.Strategy")
    summary = checked.summary
    if not isinstance(summary, str) or not summary.strip() or "\n" in summary:
        raise TypeError(f"strategy {name!r} needs a summary of one line (has {summary!r})")
    check_params("strategy", name, checked.params)
    return checked


def guard_plugin_strategy(cls: type[Strategy], owner: str) -> None:
    """Make whatever the plugin's own methods raise (its classes', not moocow's it inherits) one
    line: ``strategy NAME (plugin FILE): its choose failed: Type: message``."""
    for klass in cls.__mro__:
        if isinstance(klass, type) and issubclass(klass, Strategy) and not _is_moocows(klass):
            guard_own_methods(klass, PLUGIN_METHODS)
    if OWNER not in cls.__dict__:
        setattr(cls, OWNER, owner)


def _is_moocows(cls: type) -> bool:
    return cls.__module__ == "moocow" or cls.__module__.startswith("moocow.")


def parse_strategy_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split a strategy spec into its name and raw arguments (``tree:PATH`` gives ``path``).

    Only the syntax is read: whether the name is a strategy is for the caller to ask.
    """
    return parse_spec(spec, BARE)


def load_strategy(spec: str | Strategy, **overrides: Any) -> Strategy:
    """A strategy from its spec (``minmax``, ``random:seed=3``, ``minmax:first=1122``, ``tree:PATH``,
    a plugin's ``NAME:key=value``).

    ``overrides`` set or replace parameters, e.g. ``first="1122"`` from a command-line option.
    """
    if isinstance(spec, Strategy):
        return type(spec)(**{**spec.values, **overrides}) if overrides else spec
    name, arguments = parse_strategy_spec(spec)
    classes = strategy_classes()
    cls = classes.get(name)
    if cls is None:
        raise MoocowError(f"unknown strategy {name!r} (known: {', '.join(classes)})")
    return cls(**{**arguments, **overrides})
