"""Strategy trees on the web and as SVG: a node at a time with counts per branch, from a strategy,
a file named on the command line or an upload; ``moocow tree --svg`` without Graphviz."""

from __future__ import annotations

import json
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moocow import api
from moocow.cli import app
from moocow.engine.evaluation import evaluate_with_tree
from moocow.plugins.strategy_registry import load_strategy
from moocow.trees.svg import tree_to_svg
from tests.web_helpers import client

SMALL = "mastermind:pegs=2,colors=4"


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    """A tree file as ``moocow tree --save`` writes it."""
    path = tmp_path / "tree.json"
    assert CliRunner().invoke(app, ["tree", SMALL, "--save", str(path)]).exit_code == 0
    return path


def test_a_node_lists_its_answers_with_counts_unfolded_one_level(saved: Path) -> None:
    """At the root: the guess, each answer with its next guess and secrets, and one level below."""
    web = client(trees=[saved])
    data = web.get("/tree.json", params={"file": "0"}).json()
    assert data["guess"] == "12" and data["size"] == 16 and data["worst"] == 4
    assert sum(child["size"] for child in data["children"]) + data["wins_here"] == 16
    first = data["children"][0]
    assert sum(below["size"] for below in first["below"]) in (first["size"], first["size"] - 1)
    deeper = web.get("/tree.json", params={"file": "0", "a": first["answer"]}).json()
    assert deeper["guess"] == first["guess"] and deeper["trail"][0]["answer"] == first["answer"]
    page = web.get("/tree", params={"file": "0"}).text
    assert "<details>" in page and first["link"].replace("&", "&amp;") in page


def test_a_strategys_tree_is_built_away_from_the_request_then_shown() -> None:
    """The first answer shows progress; polled, the tree is the strategy's own."""
    web = client()
    params = {"game": SMALL, "s": "minmax"}
    data = web.get("/tree.json", params=params).json()
    for _ in range(600):
        if data["pending"] is None:
            break
        time.sleep(0.2)
        data = web.get("/tree.json", params=params).json()
    evaluation = api.evaluate(SMALL, "minmax")
    assert data["total"] == evaluation.total and data["worst"] == evaluation.worst


def test_an_uploaded_tree_is_checked_kept_and_shown(saved: Path) -> None:
    """A form's file goes to its own address; a broken or oversized one is refused in one line."""
    web = client()
    sent = web.post("/tree", files={"file": ("tree.json", saved.read_bytes(), "application/json")})
    assert sent.status_code == 303
    assert web.get(sent.headers["location"].replace("/tree?", "/tree.json?")).json()["secrets"] == 16
    document = json.loads(saved.read_text())
    document["total"] += 1
    forged = web.post("/tree", files={"file": ("t.json", json.dumps(document).encode(), "application/json")})
    assert forged.status_code == 400 and "its nodes give" in forged.text
    document["game"] = "words:file=/etc/passwd"
    named = web.post("/tree", files={"file": ("t.json", json.dumps(document).encode(), "application/json")})
    assert named.status_code == 400 and "names a file" in named.text
    huge = web.post("/tree", files={"file": ("t.json", b" " * (2 << 20), "application/json")})
    assert huge.status_code == 413
    assert web.post("/tree", content=b"{}", headers={"content-type": "application/json"}).status_code == 400
    assert web.get("/tree.json", params={"upload": "0" * 32}).status_code == 400


def test_bad_addresses_are_one_line(saved: Path) -> None:
    """An answer the node does not have, a file not named, a strategy past the cost limit."""
    web = client(trees=[saved])
    assert "no answer '9B9W'" in web.get("/tree.json", params={"file": "0", "a": "9B9W"}).json()["error"]
    assert web.get("/tree.json", params={"file": "1"}).status_code == 400
    assert "would take about" in web.get("/tree.json", params={"game": "bottles:n=8"}).json()["error"]


def test_the_picture_of_a_node_is_svg(saved: Path) -> None:
    """The page's picture: SVG of the node's subtree, each node's guess and count."""
    response = client(trees=[saved]).get("/tree.svg", params={"file": "0", "a": "1B0W"})
    assert response.headers["content-type"].startswith("image/svg+xml")
    drawn = ElementTree.fromstring(response.text)
    texts = ["".join(text.itertext()) for text in drawn.iter("{http://www.w3.org/2000/svg}text")]
    assert texts[0] == "13 (6)" and len(texts) == 1 + 3 + 2  # the node, its three answers, two more


def test_svg_draws_every_node_once_and_folds_below_its_depth() -> None:
    """Whole: one label per node, leaves in bold; folded: subtrees marked with +."""
    game = api.load_game(SMALL)
    _, root = evaluate_with_tree(game, load_strategy("minmax"))
    whole = ElementTree.fromstring(tree_to_svg(game, root))
    svg = "{http://www.w3.org/2000/svg}"
    texts = list(whole.iter(f"{svg}text"))
    nodes = 1 + sum(1 for _ in _descendants(root))
    assert len(texts) == nodes and len(list(whole.iter(f"{svg}path"))) == nodes - 1
    folded = tree_to_svg(game, root, depth=2)
    assert folded.count("<text") == 1 + len(root.children) and " +</tspan>" in folded


def _descendants(node):  # type: ignore[no-untyped-def]
    for child in node.children.values():
        yield child
        yield from _descendants(child)


def test_moocow_tree_writes_svg(tmp_path: Path) -> None:
    """``moocow tree GAME --svg FILE`` draws the tree; the same file twice is refused first."""
    drawing = tmp_path / "tree.svg"
    result = CliRunner().invoke(app, ["tree", SMALL, "--svg", str(drawing)])
    assert result.exit_code == 0 and f"SVG drawing written to {drawing}" in result.stdout
    assert ElementTree.parse(drawing).getroot().tag == "{http://www.w3.org/2000/svg}svg"
    same = CliRunner().invoke(app, ["tree", SMALL, "--svg", str(drawing), "--save", str(drawing)])
    assert same.exit_code == 2 and "--save and --svg both name" in same.stderr
