"""Games and strategies named in a URL: the library's specs, less what could open a file, and
what a page's work on each game costs.

Only the files named on ``moocow serve``'s command line are opened, so a spec from a page may
not name one: a game parameter that takes free text (``words:file=PATH``) and the ``tree``
strategy (``tree:PATH``) are refused in one line. A parameter with fixed choices is no path.

A game is built in the server only once the cost model has put a page's work on it under
``INLINE_SECONDS``: until then (and for ever, past it) its pages are worked out in a worker
process (``workers``), which reports the cost it found here (``learned``, ``learn``). The
server's memory is so never spent on building a big game.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from moocow import api
from moocow.engine.cost import BUILD_NS, scoring_seconds
from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.engine.params import parse_spec
from moocow.engine.table import FeedbackTable
from moocow.play.assistant import Assistant
from moocow.plugins import game_classes, make_game
from moocow.plugins.strategy_registry import parse_strategy_spec

MAX_SPEC = 200
"""Characters a spec in a URL may have."""
BUDGET = api.SUGGESTION_BUDGET
"""Modelled seconds a suggestion may take: the CLI's, so a big game answers at once, quickly and
saying so, as ``moocow assist`` does."""
FILE_STRATEGIES = frozenset({"tree"})
"""Strategies whose spec names a file."""
INLINE_SECONDS = 0.5
"""Modelled seconds of a page's work on a game (``page_seconds``) up to which the server does it
itself; past it, or not known yet, a worker process does."""
KNOWN = 1024
"""Games whose cost (or refusal) is remembered, the oldest forgotten first."""

_known: OrderedDict[str, float | str] = OrderedDict()
"""Each game's cost (modelled seconds) or refusal, by canonical spec."""
_known_lock = threading.Lock()


def web_game(spec: str) -> Game:
    """The game ``spec`` names, built, refused if it names a file or is not a game; its cost is
    remembered (``cheap``)."""
    game = made_game(spec)
    try:
        loaded = api.load_game(game.spec)
    except MoocowError as error:
        learn({game.spec: str(error)})
        raise
    learn({game.spec: page_seconds(loaded)})
    return loaded


def made_game(spec: str) -> Game:
    """The game ``spec`` names, made but not built (cheap whatever its size), refused if it names
    a file, is not a game, or is known to be refused once built."""
    text = _short(spec, "game")
    name, arguments = parse_spec(text)
    cls = game_classes().get(name)
    if cls is not None:
        kinds = {param.name: param for param in cls.params}
        for key in arguments:
            param = kinds.get(key)
            if param is not None and param.free_text:
                raise MoocowError(f"{name}: parameter {key} names a file, which the web page does not open")
    game = make_game(text)
    refusal = _known.get(game.spec)
    if isinstance(refusal, str):
        raise MoocowError(refusal)
    return game


def cheap(spec: str) -> bool:
    """Whether the server may build the game ``spec`` names and work on it itself: its cost is
    known and under ``INLINE_SECONDS``, or it is refused before anything is built."""
    try:
        game = made_game(spec)
    except MoocowError:
        return True  # the refusal is one line, nothing built
    cost = _known.get(game.spec)
    return isinstance(cost, float) and cost <= INLINE_SECONDS


def page_seconds(game: Game) -> float:
    """Modelled seconds of the most a page asks of a game: its feedback table built (when held)
    and one decision over every code, cut to the suggestion's budget."""
    table = FeedbackTable.for_game(game)
    built = table.secret_count * table.guess_count * BUILD_NS * 1e-9 if table.in_memory else 0.0
    return built + min(BUDGET, scoring_seconds(table, table.secret_count, table.guess_count))


def learn(costs: dict[str, float | str]) -> None:
    """Remember games' costs or refusals (from this process or a worker's)."""
    with _known_lock:
        for spec, cost in costs.items():
            _known[spec] = cost
            _known.move_to_end(spec)
        while len(_known) > KNOWN:
            _known.popitem(last=False)


def learned() -> dict[str, float | str]:
    """Every cost and refusal known here, for the server when this is a worker."""
    with _known_lock:
        return dict(_known)


def web_strategy(spec: str) -> str:
    """A strategy spec checked for what the web page allows; loading it is the library's job."""
    text = _short(spec, "strategy")
    name, _ = parse_strategy_spec(text)
    if name in FILE_STRATEGIES:
        raise MoocowError(f"strategy {name!r} reads a file, which the web page does not open")
    return text


def web_assistant(game: Game, strategy: str) -> Assistant:
    """The CLI's assistant (its suggestion budget included) for a checked strategy."""
    return api.assistant(game, web_strategy(strategy), BUDGET)


def _short(spec: str, what: str) -> str:
    text = spec.strip()
    if not text:
        raise MoocowError(f"no {what} given (e.g. bottles:n=7)" if what == "game" else f"no {what} given")
    if len(text) > MAX_SPEC:
        raise MoocowError(f"the {what} spec is longer than {MAX_SPEC} characters")
    return text
