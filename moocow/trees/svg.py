"""A strategy tree drawn as SVG, for slides and papers, with nothing to install (no Graphviz).

The layout is the plain one for trees read left to right: the root at the left, one column per
guess, each leaf on a row of its own and each node level with the middle of its subtree's rows.
Every node shows its guess and how many secrets reach it; every edge, the answer that leads
there. Below ``depth`` a subtree is folded into its root, marked with the secrets it holds.
A game with a mark per position (Wordle) has each mark of an answer in its colour; the text stays
the same width, so the layout holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from moocow.engine.game import Game
from moocow.engine.tree import Node

ROW = 18
"""Height of a row, in SVG units (pixels at 100 %)."""
MARGIN = 8
FONT = 12
CHARACTER = FONT * 0.62
"""Width of a monospace character."""
GAP = 36
"""Room between a label and the next column, for the edge."""
MARK_COLOURS = ("#787c7e", "#c9b458", "#6aaa64")
"""Grey, yellow and green, as the newspaper draws Wordle's tiles."""


@dataclass(frozen=True)
class Placed:
    """A node where it is drawn."""

    label: str
    answer: str
    value: int | None
    """The answer's feedback value (``None`` at the root)."""
    level: int
    y: float
    leaf: bool
    folded: bool
    parent: int | None


def layout(game: Game, root: Node, depth: int | None = None) -> list[Placed]:
    """Every node drawn (down to ``depth`` guesses), in depth-first order, with its place."""
    placed: list[Placed] = []
    rows = 0

    def place(node: Node, value: int | None, level: int, parent: int | None) -> float:
        nonlocal rows
        folded = bool(node.children) and depth is not None and level >= depth
        label = f"{game.format_code(game.guesses[node.guess])} ({node.size:,})"
        answer = "" if value is None else game.format_feedback(value)
        index = len(placed)
        placed.append(Placed(label, answer, value, level, 0.0, not node.children, folded, parent))
        y: float
        if not node.children or folded:
            y = rows * ROW
            rows += 1
        else:
            ys = [place(child, value, level + 1, index) for value, child in sorted(node.children.items())]
            y = (ys[0] + ys[-1]) / 2
        placed[index] = Placed(label, answer, value, level, y, not node.children, folded, parent)
        return y

    place(root, None, 1, None)
    return placed


def tree_to_svg(game: Game, root: Node, depth: int | None = None, title: str = "") -> str:
    """The tree as a standalone SVG document (``depth``: guesses drawn, the rest folded)."""
    placed = layout(game, root, depth)
    column = max(len(node.answer) + 1 + len(node.label) for node in placed) * CHARACTER + 2 + GAP

    def x(node: Placed) -> float:
        return MARGIN + GAP / 2 + (node.level - 1) * column

    width = max(x(node) for node in placed) + column
    height = max(node.y for node in placed) + ROW + 2 * MARGIN
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}" font-family="monospace" font-size="{FONT}">',
        f"<title>{escape(title or game.spec)}</title>",
        '<g fill="none" stroke="#888" stroke-width="1">',
    ]
    for node in placed:
        if node.parent is not None:
            above = placed[node.parent]
            x1, y1 = x(above) + _width(above) + 4, above.y + MARGIN + ROW / 2
            x2, y2 = x(node) - 4, node.y + MARGIN + ROW / 2
            bend = (x2 - x1) / 2
            curve = f"C{x1 + bend:.1f},{y1:.1f} {x2 - bend:.1f},{y2:.1f} {x2:.1f},{y2:.1f}"
            parts.append(f'<path d="M{x1:.1f},{y1:.1f} {curve}"/>')
    parts.append('</g><g fill="currentColor">')
    for node in placed:
        left, base = x(node), node.y + MARGIN + ROW * 0.7
        answer = f"{_answer(game, node)} " if node.answer else ""
        weight = ' font-weight="bold"' if node.leaf else ""
        more = " +" if node.folded else ""
        label = f"<tspan{weight}>{escape(node.label + more)}</tspan>"
        parts.append(f'<text x="{left:.1f}" y="{base:.1f}">{answer}{label}</text>')
    parts.append("</g></svg>")
    return "\n".join(parts) + "\n"


def _width(node: Placed) -> float:
    """How wide a node's text is drawn."""
    answer = len(node.answer) + 1 if node.answer else 0
    return (answer + len(node.label) + (2 if node.folded else 0)) * CHARACTER


def _answer(game: Game, node: Placed) -> str:
    """The answer leading to a node: grey text, or each mark in its colour where the text has a
    letter per mark."""
    model = game.feedback_model
    marks = model.parts(node.value) if model.kind == "marks" and node.value is not None else ()
    if len(marks) != len(node.answer):
        return f'<tspan fill="#888">{escape(node.answer)}</tspan>'
    letters = zip(node.answer, marks, strict=True)
    return "".join(f'<tspan fill="{MARK_COLOURS[mark]}">{escape(letter)}</tspan>' for letter, mark in letters)
