"""A plugin imports only ``moocow``: everything it needs is at the package's top, loaded on first
use, seen by type checkers, and the examples hold themselves to it."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import moocow
from moocow.plugins import get_plugin_manager, hookspecs

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").rglob("*.py"))
PLUGIN_NAMES = (
    "Codes",
    "Counts",
    "FeedbackModel",
    "Game",
    "GuessRule",
    "Marks",
    "MoocowError",
    "Param",
    "Position",
    "Strategy",
    "SymbolGame",
    "hookimpl",
    "quoted",
)
"""What the examples and the guide use, and the issue asks for."""


def deep_imports(path: Path) -> list[str]:
    """The imports of ``moocow.x`` in a file, as ``line: module``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.level == 0:
            modules = [node.module or ""]
        elif isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        else:
            continue
        found += [f"{node.lineno}: {module}" for module in modules if module.startswith("moocow.")]
    return found


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: str(path.relative_to(ROOT)))
def test_examples_import_nothing_deeper_than_moocow(path: Path) -> None:
    """A plugin written from the examples needs only ``import moocow`` or ``from moocow import``."""
    assert EXAMPLES
    assert deep_imports(path) == []


def test_a_plugin_finds_what_it_needs_at_the_top() -> None:
    """Each name is the object its own module defines, so ``isinstance`` and subclasses agree."""
    for name in PLUGIN_NAMES:
        assert name in moocow.__all__, name
        module = importlib.import_module(moocow._ENGINE[name])
        assert getattr(moocow, name) is getattr(module, name), name


def test_the_top_hookimpl_is_the_one_the_manager_reads() -> None:
    """``moocow.hookimpl`` marks hooks of the project the plugin manager runs, ``moocow``."""
    assert moocow.hookimpl is hookspecs.hookimpl
    assert moocow.hookimpl.project_name == get_plugin_manager().project_name == "moocow"


def test_type_checkers_see_every_name_the_package_exports() -> None:
    """``__all__`` (a literal, which checkers read), the lazy names and the ``TYPE_CHECKING`` imports
    are the same set, and each of those imports names the module ``__getattr__`` loads it from."""
    tree = ast.parse(Path(moocow.__file__).read_text())
    checking = next(
        node
        for node in tree.body
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
    )
    imported = {
        alias.name: node.module
        for node in checking.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert set(moocow.__all__) == set(imported) == moocow._API | set(moocow._ENGINE)
    assert {name: module for name, module in imported.items() if name in moocow._ENGINE} == moocow._ENGINE
    assert all(imported[name] == "moocow.api" for name in moocow._API)
