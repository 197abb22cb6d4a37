"""Games and strategies named in a URL: the library's specs, less what could open a file.

Only the files named on ``moocow serve``'s command line are opened, so a spec from a page may
not name one: a game parameter that takes free text (``words:file=PATH``) and the ``tree``
strategy (``tree:PATH``) are refused in one line. A parameter with fixed choices is no path.
"""

from __future__ import annotations

from moocow import api
from moocow.assistant import Assistant
from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.engine.params import parse_spec
from moocow.engine.registry import parse_strategy_spec
from moocow.plugins import game_classes

MAX_SPEC = 200
"""Characters a spec in a URL may have."""
BUDGET = api.SUGGESTION_BUDGET
"""Modelled seconds a suggestion may take: the CLI's, so a big game answers at once, quickly and
saying so, as ``moocow assist`` does."""
FILE_STRATEGIES = frozenset({"tree"})
"""Strategies whose spec names a file."""


def web_game(spec: str) -> Game:
    """The game ``spec`` names, refused if it names a file or is not a game."""
    text = _short(spec, "game")
    name, arguments = parse_spec(text)
    cls = game_classes().get(name)
    if cls is not None:
        kinds = {param.name: param for param in cls.params}
        for key in arguments:
            param = kinds.get(key)
            if param is not None and param.type is str and param.choices is None:
                raise MoocowError(f"{name}: parameter {key} names a file, which the web page does not open")
    return api.load_game(text)


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
