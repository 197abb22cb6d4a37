"""Strategy trees, folded and unfolded node by node: a strategy's (computed in ``jobs``), a tree
file named on ``moocow serve --tree``, or one uploaded from the page. The node shown is named by
the answers that lead to it (``a=`` parameters), so each unfolding is a link; its answers are
listed with the secrets each leads to, each unfolded one level further.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass
from email.parser import BytesParser
from email.policy import HTTP
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from moocow.engine.errors import MoocowError, quoted
from moocow.engine.game import Game
from moocow.trees.files import (
    node_from_document,
    parse_tree_document,
    read_tree_document,
    tree_from_document,
    tree_to_dict,
)
from moocow.trees.svg import tree_to_svg
from moocow.web.compare import plan
from moocow.web.named import named_file
from moocow.web.offload import done
from moocow.web.pages import MAX_BODY, link, page, problem
from moocow.web.specs import cheap, web_game, web_strategy

PATH = "/tree"
UPLOADS = 16
"""Uploaded trees kept, the oldest forgotten first."""
DRAWN = 3
"""Guesses drawn in the picture of a node (deeper subtrees are folded)."""
MAX_DEPTH = 30
"""Answers a node's address may hold."""


@dataclass(frozen=True)
class Tree:
    """A checked tree in its canonical document form, and where it came from."""

    game: Game
    document: dict[str, Any]
    label: str
    params: list[tuple[str, str]]
    """What names it in a URL."""


def checked(document: dict[str, Any], where: str, params: list[tuple[str, str]]) -> Tree:
    """A document's tree checked for the game it names (a spec a page may use), made canonical."""
    named = document.get("game")
    if not isinstance(named, str):
        raise MoocowError(f'{where} does not say which game it plays (no "game")')
    game = web_game(named)
    saved = tree_from_document(document, game, where)
    return Tree(game, tree_to_dict(game, saved.root, saved.strategy), saved.strategy or where, params)


def vetted(request: Request, document: dict[str, Any]) -> Tree:
    """An uploaded tree, checked; first in a worker process when its game is not known to be
    cheap, so a tree naming a big game is refused without the server building it."""
    where, named = "the uploaded tree", document.get("game")
    if isinstance(named, str) and not cheap(named):
        request.app.state.workers.call(check_only, document, where)
    return checked(document, where, [])


def check_only(document: dict[str, Any], where: str) -> None:
    """``checked``, for a worker: the refusal, if any, is all the server needs."""
    checked(document, where, [])


def from_file(request: Request, number: int) -> Tree:
    """The ``number``-th ``--tree`` file, read again when it changed."""

    def read(path: Path) -> Tree:
        return checked(read_tree_document(path), path.name, [("file", str(number))])

    return named_file(request.app.state.trees, number, "tree file", read)[1]


def source(request: Request) -> Tree | dict[str, Any]:
    """The tree a URL names, or the job still computing it (its progress, as data)."""
    query = request.query_params
    if query.get("file") is not None:
        if not query["file"].isdigit():
            raise MoocowError(f"tree file {quoted(query['file'])} is not a number")
        return from_file(request, int(query["file"]))
    if query.get("upload") is not None:
        tree = request.app.state.uploads.get(query["upload"])
        if tree is None:
            raise MoocowError(
                "no such uploaded tree here (the server restarted, or forgot it): upload it again"
            )
        return tree
    named = query.get("game", "")
    spec, (strategy,) = done(request, named, plan, named, [web_strategy(query.get("s", "minmax"))])
    job = request.app.state.jobs.get(spec, strategy)
    if job.tree is None:
        return {**job.to_dict(), "game": spec}
    return Tree(web_game(spec), job.tree, strategy, [("game", spec), ("s", strategy)])


def node_at(tree: Tree, answers: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The node the answers lead to, and the trail from the root to it."""
    if len(answers) > MAX_DEPTH:
        raise MoocowError(f"more than {MAX_DEPTH} answers in one address")
    node, trail = tree.document["root"], []
    for number, answer in enumerate(answers):
        child = node.get("children", {}).get(answer)
        if child is None:
            raise MoocowError(f"no answer {quoted(answer)} to {node['guess']} in this tree")
        trail.append({"answer": answer, "guess": child["guess"], "link": to(tree, answers[: number + 1])})
        node = child
    return node, trail


def to(tree: Tree, answers: list[str], path: str = PATH) -> str:
    return link(path, [*tree.params, *(("a", answer) for answer in answers)])


def branch(tree: Tree, answers: list[str], answer: str, child: dict[str, Any], total: int) -> dict[str, Any]:
    return {
        "answer": answer,
        "guess": child["guess"],
        "size": child["size"],
        "share": round(child["size"] / total, 4),
        "win": "children" not in child,
        "link": to(tree, [*answers, answer]),
    }


def tree_page(request: Request) -> Response:
    """A node of a tree: its guess, its answers with their counts, each unfolded one level."""
    answers = request.query_params.getlist("a")
    try:
        found = source(request)
        if isinstance(found, dict):
            return page(
                request, "tree.html", {"page": "tree", "pending": found, "game": found["game"], "poll": 1}
            )
        node, trail = node_at(found, answers)
    except MoocowError as error:
        return problem(request, str(error), 400)
    children = node.get("children", {})
    shown = []
    for answer, child in children.items():
        entry = branch(found, answers, answer, child, node["size"])
        entry["below"] = [
            branch(found, [*answers, answer], deeper, grandchild, child["size"])
            for deeper, grandchild in child.get("children", {}).items()
        ]
        shown.append(entry)
    document = found.document
    data = {
        "page": "tree",
        "pending": None,
        "poll": None,
        "game": found.game.spec,
        "strategy": document.get("strategy", ""),
        "label": found.label,
        "secrets": document["secrets"],
        "total": document["total"],
        "worst": document["worst"],
        "root": to(found, []),
        "trail": trail,
        "guess": node["guess"],
        "size": node["size"],
        "wins_here": node["size"] - sum(child["size"] for child in children.values()),
        "children": shown,
        "picture": to(found, answers, PATH + ".svg"),
        "json": to(found, answers, PATH + ".json"),
    }
    return page(request, "tree.html", data)


def tree_picture(request: Request) -> Response:
    """The node's subtree drawn as SVG (``DRAWN`` guesses deep), as ``moocow tree --svg`` draws it."""
    try:
        found = source(request)
        if isinstance(found, dict):
            raise MoocowError("the tree is still being computed")
        node, _ = node_at(found, request.query_params.getlist("a"))
        drawn = tree_to_svg(found.game, node_from_document(found.game, node), DRAWN, found.label)
    except MoocowError as error:
        return problem(request, str(error), 400)
    return Response(drawn, media_type="image/svg+xml")


async def tree_upload(request: Request) -> Response:
    """A tree file sent from the page (a form's file field), checked, kept, and shown."""
    try:
        body = await bounded_body(request)
        data = uploaded_file(request.headers.get("content-type", ""), body)
        tree = await run_in_threadpool(vetted, request, parse_tree_document(data, "the uploaded file"))
    except MoocowError as error:
        return problem(request, str(error), 413 if "larger than" in str(error) else 400)
    key = hashlib.sha256(data).hexdigest()[:32]
    uploads: OrderedDict[str, Tree] = request.app.state.uploads
    uploads[key] = Tree(tree.game, tree.document, tree.label, [("upload", key)])
    uploads.move_to_end(key)
    while len(uploads) > UPLOADS:
        uploads.popitem(last=False)
    return RedirectResponse(link(PATH, {"upload": key}), 303)


async def bounded_body(request: Request) -> bytes:
    """The request's body, refused once past ``MAX_BODY`` whatever its headers said."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise MoocowError(f"the request is larger than {MAX_BODY} bytes")
    return bytes(body)


def uploaded_file(content_type: str, body: bytes) -> bytes:
    """The first file of a ``multipart/form-data`` body (read with the standard library)."""
    if not content_type.startswith("multipart/form-data"):
        raise MoocowError("send the tree as a form's file (multipart/form-data)")
    message = BytesParser(policy=HTTP).parsebytes(
        b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n" + body
    )
    for part in message.iter_parts():
        if part.get_filename() is not None or part.get_param("name", header="content-disposition") == "file":
            payload = part.get_payload(decode=True)
            if isinstance(payload, bytes):
                return payload
    raise MoocowError("the form holds no tree file")
