"""Rendering: every page is a template over plain data, and the same URL ending in ``.json`` is
that data itself (datasette's twins), so tests and scripts read what the page shows.

Templates are autoescaped by Jinja2: names and reasons in a results file come from students.
A person's mistake (``MoocowError``) is the CLI's one line on the page with status 400.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import jinja2
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from moocow.engine.feedback import MARK_NAMES

HERE = Path(__file__).parent
MAX_QUERY = 4096
"""Bytes a URL's query may have (a position of 40 entries takes well under half)."""
MAX_BODY = 1 << 20
"""Bytes a request body may have (the app refuses more at once; a tree's upload counts as it reads)."""
JSON = ".json"
"""The suffix that asks for a page's data instead of its HTML."""


class DataEnvironment(jinja2.Environment):
    """Jinja2, with ``data.name`` reading a dict's item before its attribute: a page's data is
    plain dicts, and ``b.clear`` once gave the method ``dict.clear`` instead of the link."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if isinstance(obj, dict) and attribute in obj:
            return obj[attribute]
        return super().getattr(obj, attribute)


@cache
def environment() -> jinja2.Environment:
    """The templates inside the package, autoescaped, loaded once."""
    env = DataEnvironment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["count"] = lambda number: f"{number:,}"
    env.filters["pieces"] = code_pieces
    env.filters["grid"] = piece_grid
    env.globals["mark_names"] = MARK_NAMES  # a mark read aloud by its name, as a tile is
    return env


def code_pieces(text: str, pieces: list[str]) -> list[str]:
    """A code's text cut into the game's pieces to show each as one (``10`` is one number, not two
    digits): the longest piece that starts the rest each time, else one character (a separator)."""
    cut: list[str] = []
    while text:
        part = max((piece for piece in pieces if text.startswith(piece)), key=len, default=text[0])
        cut.append(part)
        text = text[len(part) :]
    return cut


ROW = 7
"""Pieces a row at most, where there is room: seven bottles on one row."""


def piece_grid(count: int) -> str:
    """The columns of a grid of ``count`` pieces, as the style sheet reads them: ``--columns``, rows
    of at most ``ROW`` as even as they go (ten digits in two rows of five), and ``--fit-N``, as even
    when only N pieces of 44 px fit a row (a 320 px phone, 200% zoom: seven bottles in four and
    three rather than six and one). The page's width is the browser's to know, so each is given."""

    def even(most: int) -> int:
        rows = -(-count // max(1, most))
        return -(-count // rows)

    columns = even(ROW)
    fits = "; ".join(f"--fit-{most}: {even(min(most, columns))}" for most in range(ROW - 1, 0, -1))
    return f"--columns: {columns}; {fits}"


def wants_json(request: Request) -> bool:
    """Whether the URL is a page's JSON twin."""
    return request.url.path.endswith(JSON)


def twin_paths(path: str) -> tuple[str, str]:
    """A page's path and its JSON twin's."""
    return path, path + JSON


def link(path: str, params: dict[str, Any] | list[tuple[str, Any]] | None = None) -> str:
    """``path`` with its query, parameters left out when ``None`` or empty."""
    items = params.items() if isinstance(params, dict) else (params or [])
    kept = [(key, value) for key, value in items if value not in (None, "", [])]
    return f"{path}?{urlencode(kept, doseq=True)}" if kept else path


def page(request: Request, template: str, data: dict[str, Any], status: int = 200) -> Response:
    """The page ``template`` shows ``data`` in, or ``data`` as JSON for the twin."""
    if wants_json(request):
        return JSONResponse(data, status_code=status)
    html = environment().get_template(template).render(data=data, path=request.url.path)
    return HTMLResponse(html, status_code=status)


def problem(request: Request, message: str, status: int) -> Response:
    """A refusal: the one-line message on a page of its own, or ``{"error": message}`` for the twin."""
    return page(request, "error.html", {"error": message}, status)


@dataclass
class Reply:
    """A page's answer as plain data, so a worker process can work it out and the server show it:
    a template over ``data`` with ``status``, or a redirect."""

    template: str = "error.html"
    data: dict[str, Any] = field(default_factory=dict)
    status: int = 200
    redirect: str | None = None


def refusal(message: str, status: int = 400) -> Reply:
    """The one-line refusal, as a reply."""
    return Reply("error.html", {"error": message}, status)


def respond(request: Request, reply: Reply) -> Response:
    """The response a reply stands for."""
    if reply.redirect is not None:
        return RedirectResponse(reply.redirect, 303)
    return page(request, reply.template, reply.data, reply.status)
