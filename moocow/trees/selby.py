"""Strategy trees in Alex Selby's text format, the one his Wordle solver publishes.

``wordle.cpp -p FILE`` (github.com/alex1770/wordle) writes one line per answer: each guess on the
way to it, followed by its answer and the guess number, the last answer the win::

    salet BBBBB1 courd BBBBB2 nymph BBBBY3 whiff GGGGG4
                                BGYYB3 pygmy GGGGG4
                                GGGGG3

A line shares its start with the line above; that start is written as spaces of the same width
(his default "hollow" style; his "full" style repeats it, and both are read). The third line
above is NYMPH's own win. Answers follow one another in the order of their text (B, G, Y), as he
writes them, so a tree read and written again comes out byte for byte.

The format is offered for every game whose codes and answers are written as one word without
spaces (all of moocow's: ``1122 1B0W1 3456 4B0W2`` for Mastermind, ``ABC 12 BCA 32`` for the
bottles); the guess number glued after the answer is always the one expected, so an answer that
ends in a digit reads back unambiguously. Writing a tree of a game whose text has spaces is
refused. The file names no game: reading it checks every line against the game it is read for
(every guess is a guess, every answer is what the guess scores, each secret ends one line, two
lines agree where they share a start, hard mode's rule holds).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from moocow.engine.errors import MoocowError, quoted
from moocow.engine.game import Game
from moocow.engine.position import wins
from moocow.engine.tree import Node

IMPOSSIBLE = "IMPOSSIBLE"
"""What his solver writes when no tree meets the bound it was given."""


def is_selby_text(data: bytes) -> bool:
    """Whether a tree file's bytes are text rather than JSON (which starts with ``{`` or ``[``)."""
    start = data.lstrip()[:1]
    return start not in (b"{", b"[")


# ---------------------------------------------------------------------------------- writing
def selby_text(game: Game, root: Node) -> str:
    """The tree as Selby's text: one line per secret, in the hollow style."""
    return "".join(line + "\n" for line in _lines(game, root, "", 1))


def _lines(game: Game, node: Node, before: str, number: int) -> Iterator[str]:
    """Lines of the secrets below ``node``; ``before`` is the line's start up to the guess."""
    start = f"{before} {_word(game, node)} " if before else f"{_word(game, node)} "
    answers: list[tuple[str, Node | None]] = [
        (_answer(game, value), child) for value, child in node.children.items()
    ]
    if node.size > sum(child.size for child in node.children.values()):
        answers.append((_answer(game, game.win), None))
    for text, child in sorted(answers, key=lambda answer: answer[0]):
        here = f"{start}{text}{number}"
        if child is None:
            yield here
        else:
            yield from _lines(game, child, here, number + 1)
        start = " " * len(start)


def _word(game: Game, node: Node) -> str:
    return _one_word(game.format_code(game.guesses[node.guess]), "code", game)


def _answer(game: Game, value: int) -> str:
    return _one_word(game.format_feedback(value), "answer", game)


def _one_word(text: str, what: str, game: Game) -> str:
    if not text or len(text.split()) != 1 or text != text.strip():
        raise MoocowError(
            f"{game.spec} writes the {what} {quoted(text)} with spaces: Selby's text format needs "
            "one word each; save the tree as JSON (a name not ending in .tree)"
        )
    return text


# ---------------------------------------------------------------------------------- reading
class _Reader:
    """Builds the tree line by line, remembering the first line through each node for messages."""

    def __init__(self, game: Game, path: str) -> None:
        self.game, self.path = game, path
        self.root: Node | None = None
        self.first_line: dict[int, int] = {}
        """``id(node)`` to the first line through it."""
        self.ended: dict[int, int] = {}
        """Secret index to the line it ends."""
        self.secret_of = {int(guess): secret for secret, guess in enumerate(game.secret_guess_index)}

    def fail(self, number: int, why: str) -> MoocowError:
        return MoocowError(f"{self.path} line {number}: {why}")

    def read(self, text: str) -> Node:
        above = ""
        for number, line in enumerate(text.splitlines(), 1):
            line = line.rstrip()
            if not line:
                continue
            if line.strip() == IMPOSSIBLE:
                raise self.fail(number, "the solver found no tree within its bound (IMPOSSIBLE)")
            line = self.unfold(line, above, number)
            self.add(self.steps(line.split(), number), number)
            above = line
        if self.root is None:
            raise MoocowError(f"{self.path} holds no tree: no lines (neither JSON nor Selby's text)")
        self.check_every_secret_ends_a_line()
        return self.root

    def unfold(self, line: str, above: str, number: int) -> str:
        """The line with the start it shares with the line above written out."""
        indent = len(line) - len(line.lstrip(" "))
        if indent == 0:
            return line
        if indent >= len(above) or above[indent - 1] != " " or above[indent] == " ":
            raise self.fail(
                number, f"its {indent} leading spaces do not line up with a word of the line above"
            )
        return above[:indent] + line[indent:]

    def steps(self, words: list[str], number: int) -> list[tuple[int, int]]:
        """The line's (guess, answer) pairs, each read and checked against the game."""
        if len(words) % 2:
            raise self.fail(number, f"the guess {quoted(words[-1])} has no answer after it")
        steps = []
        for turn, (word, marked) in enumerate(zip(words[::2], words[1::2], strict=True), 1):
            if not marked.endswith(str(turn)) or len(marked) == len(str(turn)):
                raise self.fail(
                    number, f"{quoted(marked)} should be the answer to guess {turn} followed by {turn}"
                )
            try:
                guess = self.game.guess_index(word)
                answer = self.game.parse_feedback(marked[: -len(str(turn))])
            except MoocowError as error:
                raise self.fail(number, str(error)) from None
            won = wins(self.game, answer)
            if won != (turn == len(words) // 2):
                shown = self.game.format_feedback(answer)
                why = (
                    f"guess {turn} wins, yet the line goes on" if won else f"it ends without a win ({shown})"
                )
                raise self.fail(number, why)
            steps.append((guess, answer))
        return steps

    def add(self, steps: list[tuple[int, int]], number: int) -> None:
        """Put the line's path in the tree, checking it against the game and the lines before."""
        game = self.game
        secret = self.secret_of.get(steps[-1][0])
        if secret is None:
            raise self.fail(number, f"{self.code(steps[-1][0])} is not one of the secrets of {game.spec}")
        if secret in self.ended:
            raise self.fail(number, f"{self.code(steps[-1][0])} already ends line {self.ended[secret]}")
        self.ended[secret] = number
        self.check_scores(steps, secret, number)
        if self.root is None:
            self.root = self.new_node(steps[0][0], number, [])
        node = self.root
        for turn, (guess, answer) in enumerate(steps):
            if node.guess != guess:
                raise self.fail(
                    number,
                    f"guess {turn + 1} is {self.code(guess)} where line {self.first_line[id(node)]}, "
                    f"after the same answers, played {self.code(node.guess)}",
                )
            node.size += 1
            if turn + 1 < len(steps):
                child = node.children.get(answer)
                if child is None:
                    child = node.children[answer] = self.new_node(
                        steps[turn + 1][0], number, steps[: turn + 1]
                    )
                node = child

    def new_node(self, guess: int, number: int, before: list[tuple[int, int]]) -> Node:
        """A node first reached on line ``number``, its guess checked against the game's rule."""
        why = rule_breach(self.game, before, guess)
        if why is not None:
            raise self.fail(number, why)
        node = Node(guess, 0)
        self.first_line[id(node)] = number
        return node

    def check_scores(self, steps: list[tuple[int, int]], secret: int, number: int) -> None:
        """Each answer on the line is what its guess scores against the line's secret."""
        guesses = np.array([guess for guess, _ in steps])
        scored = self.game.feedback(self.game.guesses[guesses], self.game.secrets[[secret]])[:, 0]
        for (guess, answer), score in zip(steps, scored, strict=True):
            if answer != int(score):
                raise self.fail(
                    number,
                    f"{self.code(guess)} against {self.code(steps[-1][0])} scores "
                    f"{self.game.format_feedback(int(score))}, not {self.game.format_feedback(answer)}",
                )

    def check_every_secret_ends_a_line(self) -> None:
        missing = [secret for secret in range(len(self.game.secrets)) if secret not in self.ended]
        if missing:
            first = self.game.format_code(self.game.secrets[missing[0]])
            more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
            raise MoocowError(
                f"{self.path} does not cover every secret of {self.game.spec}: no line ends in {first}{more}"
            )

    def code(self, guess: int) -> str:
        return self.game.format_code(self.game.guesses[guess])


def read_selby_text(text: str, game: Game, path: str) -> Node:
    """The tree a text in Selby's format holds for ``game`` (``path`` names it in messages)."""
    return _Reader(game, path).read(text)


def rule_breach(game: Game, before: list[tuple[int, int]], guess: int) -> str | None:
    """Why the game's guess rule (hard mode) forbids ``guess`` after the (guess, answer) pairs
    ``before``; ``None`` if it allows it or the game has no rule."""
    rule = game.guess_rule
    if rule is None:
        return None
    for played, answer in before:
        why = rule.why_not(game.guesses[played], answer, game.guesses[guess])
        if why is not None:
            return f"{game.format_code(game.guesses[guess])} is not allowed in {rule.name}: {why}"
    return None
