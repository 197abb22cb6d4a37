"""Strategy trees people can keep: a documented JSON file, a readable print and Graphviz export.

A tree is saved as JSON, or in Alex Selby's text format when the file name ends in ``.tree``
(``selbytree``); reading tells the two apart by their content, whatever the name.

The file format (``moocow-tree``, version 1) is plain JSON written in the game's own notation,
so a tree can be read, diffed and edited by hand and does not depend on the engine's indices::

    {
      "format": "moocow-tree",
      "version": 1,
      "game": "mastermind",            # the game spec the tree plays
      "strategy": "minmax",            # what built it (free text, for people)
      "secrets": 1296,                 # secrets the root covers
      "total": 5801,                   # guesses over all secrets, the winning ones included
      "worst": 5,                      # the most guesses any secret takes
      "root": {
        "guess": "1122",               # the code played at this node, as people type it
        "size": 1296,                  # secrets that reach this node
        "children": {                  # one subtree per non-winning answer, keyed by the
          "0B0W": {"guess": "3456", "size": 256, "children": {...}},   # answer as people write it
          ...
        }
      }
    }

A node whose children hold one secret fewer than its size wins with its own guess, which must be
a secret (where guesses and secrets differ, as in Wordle, a node's guess may be no secret, and its
children then hold all its secrets); a node without children is such a win. The statistics are
redundant (they follow from the nodes) and are checked on loading, which catches a file edited
inconsistently, as is the game's guess rule (hard mode) at every node.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.engine.inputs import open_regular
from moocow.engine.position import wins
from moocow.engine.tree import Node
from moocow.trees.selby import is_selby_text, read_selby_text, rule_breach, selby_text

FORMAT = "moocow-tree"
"""The ``format`` field of every tree file."""
VERSION = 1
"""The version this module writes and reads."""


@dataclass(frozen=True)
class TreeStats:
    """What a tree costs, read off its nodes."""

    secrets: int
    """Secrets the root covers."""
    total: int
    """Guesses over all secrets, the winning ones included."""
    worst: int
    """The most guesses any secret takes."""
    histogram: tuple[int, ...]
    """``histogram[k - 1]``: how many secrets take ``k`` guesses."""


def walk(root: Node) -> Iterator[tuple[Node, int]]:
    """Every node with its depth (the root has depth 1), parents before children."""
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        yield node, depth
        stack.extend((child, depth + 1) for child in node.children.values())


def tree_stats(root: Node) -> TreeStats:
    """Statistics of a tree: each secret pays one guess at every node it passes through."""
    counts: dict[int, int] = {}
    for node, depth in walk(root):
        won_here = node.size - sum(child.size for child in node.children.values())
        if won_here:
            counts[depth] = counts.get(depth, 0) + won_here
    worst = max(counts)
    histogram = tuple(counts.get(depth, 0) for depth in range(1, worst + 1))
    total = sum(depth * count for depth, count in counts.items())
    return TreeStats(root.size, total, worst, histogram)


def tree_to_dict(game: Game, root: Node, strategy: str) -> dict[str, Any]:
    """The JSON-ready document of a tree (see the module docstring)."""
    stats = tree_stats(root)
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game.spec,
        "strategy": strategy,
        "secrets": stats.secrets,
        "total": stats.total,
        "worst": stats.worst,
        "root": _node_to_dict(game, root),
    }


def _node_to_dict(game: Game, node: Node) -> dict[str, Any]:
    shown: dict[str, Any] = {"guess": game.format_code(game.guesses[node.guess]), "size": node.size}
    if node.children:
        shown["children"] = {
            game.format_feedback(value): _node_to_dict(game, child)
            for value, child in sorted(node.children.items())
        }
    return shown


SELBY_SUFFIX = ".tree"
"""A saved tree whose name ends so is written in Selby's text format, any other as JSON."""


def save_tree(path: str | os.PathLike[str], game: Game, root: Node, strategy: str) -> None:
    """Write a tree file, in Selby's text format if its name ends in ``.tree`` (the strategy's
    name is then not kept), else as JSON; the parent folder must exist."""
    if Path(path).suffix == SELBY_SUFFIX:
        text = selby_text(game, root)
    else:
        text = json.dumps(tree_to_dict(game, root, strategy), indent=1) + "\n"
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise MoocowError(f"cannot write tree {path}: {error.strerror or error}") from None


@dataclass(frozen=True)
class SavedTree:
    """A tree read from a file, with what the file says about it."""

    game: str
    """Spec of the game the tree plays."""
    strategy: str
    """What built the tree."""
    root: Node
    """The tree itself, in the game's indices."""


def read_tree_document(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The JSON document of a tree file, its format and version checked."""
    return parse_tree_document(_read_bytes(path), str(path))


def _read_bytes(path: str | os.PathLike[str]) -> bytes:
    try:
        with open_regular(path, "tree file") as file:
            return file.read()
    except OSError as error:
        raise MoocowError(f"cannot read tree {path}: {error.strerror or error}") from None


def parse_tree_document(data: bytes, path: str) -> dict[str, Any]:
    """The JSON document of a tree file's bytes, format and version checked (``path`` names it)."""
    if is_selby_text(data) and data.strip():
        raise MoocowError(
            f"{path} is not JSON: it looks like a tree in Selby's text format, which names no game "
            "(play it with --strategy tree:FILE on a command that names the game)"
        )
    try:
        document = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise MoocowError(f"{path} is not a tree file: not UTF-8 text (byte {error.start})") from None
    except json.JSONDecodeError as error:
        raise MoocowError(f"{path} is not JSON: {error.msg} at line {error.lineno}") from None
    except RecursionError:
        raise MoocowError(f"{path} is not a tree file: its JSON is nested too deeply") from None
    except ValueError:  # json refuses numbers of thousands of digits
        raise MoocowError(f"{path} is not a tree file: it holds a number too long to read") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise MoocowError(f'{path} is not a moocow tree file (no "format": "{FORMAT}")')
    if type(document.get("version")) is not int or document.get("version") != VERSION:  # not true, not 1.0
        raise MoocowError(f"{path}: tree format version {_shown(document.get('version'))} is not {VERSION}")
    return document


def load_tree(path: str | os.PathLike[str], game: Game) -> SavedTree:
    """Read a tree file for ``game``, JSON or Selby's text (told apart by the content); a file for
    another game or an inconsistent tree is refused."""
    data = _read_bytes(path)
    if not is_selby_text(data):
        return tree_from_document(parse_tree_document(data, str(path)), game, str(path))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise MoocowError(f"{path} is not a tree file: not UTF-8 text (byte {error.start})") from None
    return SavedTree(game.spec, "", read_selby_text(text, game, str(path)))


def tree_from_document(document: dict[str, Any], game: Game, path: str) -> SavedTree:
    """The tree a checked document holds for ``game`` (``path`` names it in messages)."""
    named = document.get("game")
    if named is None:
        raise MoocowError(
            f'{path} does not say which game it plays: no "game" key (e.g. "game": "{game.spec}")'
        )
    if not isinstance(named, str):
        raise MoocowError(f'{path}: "game" must be a game spec in quotes, not {_shown(named)}')
    if named != game.spec:
        raise MoocowError(f"{path} is a tree for {named}, not for {game.spec}")
    try:
        root = _node_from_dict(game, document.get("root"), "root")
    except MoocowError as error:
        raise MoocowError(f"{path}: {error}") from None
    except RecursionError:
        raise MoocowError(f"{path}: the tree is nested too deeply to be a strategy tree") from None
    _check_rule(game, root, [], path)
    stats = tree_stats(root)
    claimed = (document.get("secrets"), document.get("total"), document.get("worst"))
    if claimed != (stats.secrets, stats.total, stats.worst) or any(
        type(count) is not int for count in claimed
    ):
        raise MoocowError(
            f"{path}: the file says secrets/total/worst {claimed}, its nodes give "
            f"{(stats.secrets, stats.total, stats.worst)}"
        )
    return SavedTree(game.spec, str(document.get("strategy", "")), root)


def node_from_document(game: Game, shown: Any) -> Node:
    """A node of a tree file's document (already read as JSON) and its subtree, checked as on loading."""
    return _node_from_dict(game, shown, "node")


def _node_from_dict(game: Game, shown: Any, where: str) -> Node:
    """One node and its subtree, every field's type checked; ``where`` names it in messages."""
    if not isinstance(shown, dict):
        raise MoocowError(f"{where}: a node must be a JSON object, not {_shown(shown)}")
    guess, size, children = shown.get("guess"), shown.get("size"), shown.get("children", {})
    if not isinstance(guess, str):
        raise MoocowError(f'{where}: "guess" must be a code in quotes, not {_shown(guess)}')
    if not isinstance(size, int) or isinstance(size, bool) or size < 1:
        raise MoocowError(f'{where}: "size" must be a whole number of secrets, 1 or more, not {_shown(size)}')
    if not isinstance(children, dict):
        raise MoocowError(f'{where}: "children" must be an object keyed by answer, not {_shown(children)}')
    where = f"{where} {guess}"
    try:
        node = Node(game.guess_index(guess), size)
    except MoocowError as error:
        raise MoocowError(f"{where}: {error}") from None
    for answer, child in children.items():
        try:
            value = game.parse_feedback(answer)
        except MoocowError as error:
            raise MoocowError(f"{where}: {error}") from None
        if wins(game, value):
            raise MoocowError(f"{where}: the winning answer {answer} cannot have a subtree")
        if value in node.children:
            raise MoocowError(f"{where}: the answer {answer} has two subtrees")
        node.children[value] = _node_from_dict(game, child, f"{where} > {answer}")
    below = sum(child.size for child in node.children.values())
    if below not in (node.size, node.size - 1):
        raise MoocowError(f"{where}: its children do not add up to its size {node.size}")
    if below < node.size and not _is_secret(game, node.guess):
        raise MoocowError(f"{where}: {guess} wins here by its size, yet it is not one of the secrets")
    return node


def _is_secret(game: Game, guess: int) -> bool:
    """Whether a guess is one of the secrets (always, where the guesses are the secrets)."""
    return game.guesses is game.secrets or bool(np.any(game.secret_guess_index == guess))


def _check_rule(game: Game, node: Node, before: list[tuple[int, int]], path: str) -> None:
    """Every guess of the tree is allowed by the game's rule (hard mode) after the answers above it."""
    if game.guess_rule is None:
        return
    why = rule_breach(game, before, node.guess)
    if why is not None:
        answers = " > ".join(game.format_feedback(answer) for _, answer in before)
        raise MoocowError(f"{path}: after {answers}: {why}" if before else f"{path}: {why}")
    for answer, child in node.children.items():
        _check_rule(game, child, [*before, (node.guess, answer)], path)


def _shown(value: Any) -> str:
    """A JSON value in a message: short, whatever the file holds."""
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def format_tree(game: Game, root: Node, max_depth: int | None = None) -> str:
    """The tree as indented text: ``answer -> guess (secrets)``, one node a line."""
    return "\n".join(_format_lines(game, root, max_depth))


def _format_lines(game: Game, node: Node, max_depth: int | None, depth: int = 1) -> Iterator[str]:
    """Depth-first lines below ``node`` (recursion is shallow: one level per guess)."""
    if depth == 1:
        yield f"{game.format_code(game.guesses[node.guess])} ({node.size})"
    if max_depth is not None and depth >= max_depth:
        return
    for value, child in sorted(node.children.items()):
        code = game.format_code(game.guesses[child.guess])
        won = "" if child.children else "  win"
        yield f"{'  ' * depth}{game.format_feedback(value)} -> {code} ({child.size}){won}"
        yield from _format_lines(game, child, max_depth, depth + 1)


def tree_to_dot(game: Game, root: Node, name: str = "strategy") -> str:
    """Graphviz DOT text: one box per guess (code and secrets), edges labelled with the answer."""
    lines = [f"digraph {json.dumps(name)} {{", "  node [shape=box, fontname=monospace];"]
    numbers: dict[int, int] = {}
    for node, _ in walk(root):
        number = numbers.setdefault(id(node), len(numbers))
        label = f"{game.format_code(game.guesses[node.guess])}\\n{node.size}"
        style = "" if node.children else ", style=rounded"
        lines.append(f'  n{number} [label="{label}"{style}];')
        for value, child in sorted(node.children.items()):
            child_number = numbers.setdefault(id(child), len(numbers))
            lines.append(f'  n{number} -> n{child_number} [label="{game.format_feedback(value)}"];')
    lines.append("}")
    return "\n".join(lines) + "\n"
