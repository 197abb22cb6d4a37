"""What runs in a worker process (``workers``): a page's work returned whole, or an evaluation
reporting its progress. Imported once by the fork server, so each process starts with the pages,
the engine and numpy loaded."""

from __future__ import annotations

import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from moocow import api
from moocow.engine.errors import MoocowError, one_line
from moocow.web import assist, compare, play, specs, trees  # noqa: F401 (loaded once, for every task)


def returned(function: Callable[..., Any], *args: Any) -> None:
    """Send ``function(*args[:-1])`` up the pipe (the last argument), or its one-line refusal, with
    what was learned of the games' costs on the way."""
    *arguments, pipe = args
    try:
        pipe.send(("result", (function(*arguments), specs.learned())))
    except MoocowError as error:
        pipe.send(("error", (str(error), specs.learned())))


class _Reporter:
    """The engine's progress, sent up the pipe (a task at a time, at most every 0.2 s)."""

    def __init__(self, pipe: Connection) -> None:
        self.pipe = pipe
        self.sent = 0.0

    def begin(self, what: str, total: float, unit: str) -> object:
        self.pipe.send(("begin", (what, float(total))))
        return what

    def update(self, handle: object, done: float) -> None:
        now = time.monotonic()
        if now - self.sent >= 0.2:
            self.sent = now
            self.pipe.send(("update", (str(handle), float(done))))

    def end(self, handle: object) -> None:
        self.pipe.send(("end", (str(handle), 0.0)))


def evaluate(game: str, strategy: str, pipe: Connection) -> None:
    """Evaluate, reporting progress, then send the result and the strategy's tree (as a tree
    file's document), or the refusal."""
    from moocow.engine.evaluation import evaluate_with_tree
    from moocow.engine.progress import reporting
    from moocow.trees.files import tree_to_dict

    try:
        loaded, chosen = api.load_game(game), api.load_strategy(strategy)
        with reporting(_Reporter(pipe)):
            result, root = evaluate_with_tree(loaded, chosen)
        document = tree_to_dict(loaded, root, chosen.spec)
        pipe.send(("result", {"evaluation": result.to_dict(), "tree": document}))
    except MoocowError as error:
        pipe.send(("error", (str(error), {})))
    except (MemoryError, OSError):  # the worker's limit, or the server gone: ``workers`` says which
        raise
    except Exception as error:  # a bug: one line on the page, like every refusal
        pipe.send(("error", (f"internal error: {one_line(error)}", {})))
