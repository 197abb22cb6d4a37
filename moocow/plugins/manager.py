"""moocow's plugin manager: built-in games, entry points and local files, each loaded on its own.

One broken plugin must not take the CLI down (a known complaint about llm), so every plugin is
imported and registered inside its own ``try``: a failure becomes one line in ``errors`` and the
other plugins keep working.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import pluggy

from moocow.engine.errors import MoocowError, one_line
from moocow.plugins import hookspecs

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

BUILTIN_PLUGINS = (
    "moocow.plugins.bottles",
    "moocow.plugins.digits",
    "moocow.plugins.mastermind",
    "moocow.plugins.wordle",
    "moocow.plugins.words",
)
"""The built-in games: ordinary plugin modules, registered first and like any other."""

ENTRY_POINT_GROUP = "moocow"
"""The entry-point group third-party packages declare (``[project.entry-points.moocow]``)."""

LOAD_PLUGINS_VARIABLE = "MOOCOW_LOAD_PLUGINS"
"""Unset: load every entry point; empty: none; ``a,b``: only those names. Built-ins always load."""


class PluginManager(pluggy.PluginManager):
    """pluggy's manager with moocow's hooks, plus one line for each plugin that failed to load."""

    def __init__(self) -> None:
        super().__init__("moocow")
        self.add_hookspecs(hookspecs)
        self.errors: list[str] = []
        """``plugin NAME failed to load: Type: message``, in the order plugins were tried."""

    def load_modules(self, names: Iterable[str]) -> None:
        """Import and register modules by dotted name (the built-ins)."""
        for name in names:
            self._load(name, name, functools.partial(importlib.import_module, name))
        self.check()

    def load_entry_points(self, selection: frozenset[str] | None = None) -> None:
        """Register the ``moocow`` entry points, by name order, only those in ``selection`` if given."""
        found = [] if selection == frozenset() else entry_points(group=ENTRY_POINT_GROUP)
        found = sorted(found, key=lambda point: point.name)
        for point in found:
            if selection is None or point.name in selection:
                self._load(point.name, point.name, point.load)
        for name in sorted((selection or frozenset()) - {point.name for point in found}):
            self.errors.append(
                f"plugin {name} failed to load: no such entry point (named in {LOAD_PLUGINS_VARIABLE})"
            )
        self.check()

    def load_file(self, path: str | os.PathLike[str]) -> str | None:
        """Import a ``.py`` file as a plugin; loading the same file twice does nothing.

        A missing file raises ``MoocowError`` (the person typed the path); a file that fails to
        import, or has no hook, is recorded like any broken plugin, and its line returned.
        """
        file = Path(path)
        if file.is_dir():
            raise MoocowError(f"plugin file {str(path)!r} is a folder: name the module's .py file")
        if not file.is_file():
            raise MoocowError(f"plugin file {str(path)!r} not found")
        name = str(file.resolve())
        if self.has_plugin(name):
            return None
        before = len(self.errors)
        self._load(str(path), name, lambda: import_file(file))
        self.check()
        return self.errors[before] if len(self.errors) > before else None

    def check(self) -> None:
        """Run ``check_pending`` and unregister, with a recorded error, each plugin it rejects.

        ``check_pending`` catches a ``@hookimpl`` whose name moocow does not define (a misspelled
        hook); it stops at the first such plugin, so loop until none is left.
        """
        while True:
            try:
                self.check_pending()
                return
            except pluggy.PluginValidationError as error:
                plugin = error.plugin
                name = self.get_name(plugin) or repr(plugin)
                callers = self.get_hookcallers(plugin) or []
                unknown = ", ".join(caller.name for caller in callers if not caller.has_spec())
                self.unregister(plugin)
                hooks = known_hooks(self)
                self.errors.append(
                    f"plugin {name} failed to load: unknown hook {unknown} (moocow's hooks: {hooks})"
                )

    def _load(self, label: str, name: str, load: Callable[[], object]) -> None:
        """Register what ``load`` returns under ``name``; record a failure under ``label``."""
        try:
            plugin = load()
            self.register(plugin, name)
        except (Exception, SystemExit) as error:  # a plugin's sys.exit() once ended moocow silently
            self.errors.append(f"plugin {label} failed to load: {one_line(error)}")
            return
        if not self.get_hookcallers(plugin):
            self.unregister(plugin)
            self.errors.append(
                f"plugin {label} failed to load: no @hookimpl function (moocow's hooks: {known_hooks(self)})"
            )


def entry_points(group: str) -> Sequence[EntryPoint]:
    """The installed entry points of ``group``, by ``importlib.metadata``.

    Importing it is a noticeable share of a short command (``bench/process.py`` times whole commands),
    and most machines have no moocow plugin installed. So the installed distributions'
    ``entry_points.txt`` files are first read for the group's header, and ``importlib.metadata`` is
    asked only if one has it, or if some path holds distributions this reading cannot see into (a
    zip or an egg).
    """
    if not _may_declare(group):
        return ()
    from importlib.metadata import entry_points as installed

    return installed(group=group)


def _may_declare(group: str) -> bool:
    """Whether a distribution on ``sys.path`` may declare entry points of ``group``."""
    header = f"[{group}]"
    for entry in sys.path:
        folder = Path(entry or ".")
        if folder.is_file() or (folder.suffix == ".egg" and folder.is_dir()):
            return True  # a zip or an egg: importlib.metadata looks inside
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            if name.endswith((".dist-info", ".egg-info")):
                try:
                    text = (folder / name / "entry_points.txt").read_text(encoding="utf-8", errors="replace")
                except OSError:
                    continue
                if header in text:
                    return True
    return False


def build_plugin_manager(environ: Mapping[str, str] | None = None) -> PluginManager:
    """A fresh manager: the built-ins, then the entry points that ``MOOCOW_LOAD_PLUGINS`` allows."""
    manager = PluginManager()
    manager.load_modules(BUILTIN_PLUGINS)
    environ = os.environ if environ is None else environ
    manager.load_entry_points(selected_plugins(environ.get(LOAD_PLUGINS_VARIABLE)))
    return manager


def selected_plugins(value: str | None) -> frozenset[str] | None:
    """Read ``MOOCOW_LOAD_PLUGINS``: ``None`` (unset) means all, otherwise the names listed."""
    if value is None:
        return None
    return frozenset(filter(None, (name.strip() for name in value.split(","))))


def import_file(file: Path) -> ModuleType:
    """Import a Python file as a module kept in ``sys.modules`` (dataclasses and pickle look it up there)."""
    stem = re.sub(r"\W", "_", file.parent.name if file.stem == "__init__" else file.stem)
    module_name = f"moocow_plugin_{stem}"
    suffix = 1
    while module_name in sys.modules:
        suffix += 1
        module_name = f"moocow_plugin_{stem}_{suffix}"
    spec = importlib.util.spec_from_file_location(module_name, file)
    if spec is None or spec.loader is None:
        raise ImportError(f"{file} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    return module


def known_hooks(manager: pluggy.PluginManager) -> str:
    """The hooks moocow defines, for messages about plugins that implement none of them."""
    callers = (getattr(manager.hook, name) for name in sorted(vars(manager.hook)) if not name.startswith("_"))
    return ", ".join(caller.name for caller in callers if caller.has_spec())
