"""Play from a saved strategy tree: ``tree:PATH`` (or ``tree:path=PATH``) wherever a strategy goes.

The file is JSON or Selby's text format (``treefile.load_tree`` tells them apart by content).

The tree is read on the first decision, for the game being played, so one spec works in
``solve``, ``assist``, ``evaluate`` and the runner alike. A position the tree does not reach (a
person played another guess in ``assist``) is refused with a one-line reason.
"""

from __future__ import annotations

from typing import Any

from moocow.engine.errors import MoocowError
from moocow.engine.params import Param
from moocow.engine.position import Position
from moocow.engine.strategies import OPENING, Strategy
from moocow.engine.tree import Node
from moocow.trees.files import load_tree


class TreeStrategy(Strategy):
    name = "tree"
    summary = "play a saved strategy tree: tree:PATH (see moocow tree --save)"
    params = (Param("path", str, None, "the tree file to play (JSON, or Selby's text format)"), OPENING)

    def __init__(self, **values: Any) -> None:
        super().__init__(**values)
        if not self.values["path"]:
            raise MoocowError("tree: which tree file? write tree:PATH")
        if self.values["first"] is not None:
            raise MoocowError("tree: a saved tree fixes its own first guess; drop --first")
        self._roots: dict[str, Node] = {}

    def root_for(self, position: Position) -> Node:
        """The tree's root, read from the file once per game."""
        game = position.game
        root = self._roots.get(game.spec)
        if root is None:
            root = self._roots[game.spec] = load_tree(self.values["path"], game).root
        return root

    def decide(self, position: Position) -> int:
        """Follow the history down the tree; the node reached holds the guess."""
        node = self.root_for(position)
        game = position.game
        if position.outside:
            raise MoocowError(
                f"the tree {self.values['path']} covers the game's guesses only, not one outside them"
            )
        for guess, answer in position.history:
            child = node.children.get(answer)
            if guess != node.guess or child is None:
                played = game.format_code(game.guesses[guess])
                raise MoocowError(
                    f"the tree {self.values['path']} does not cover {played} "
                    f"answered {game.format_feedback(answer)} here"
                )
            node = child
        return node.guess

    def choose(self, position: Position) -> int:
        return self.decide(position)
