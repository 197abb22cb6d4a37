"""Whatever a URL holds, every page answers with a page or a one-line refusal: never a 500."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from moocow.cli import app
from tests.web_helpers import client

NASTY = [
    "",
    " ",
    "\x00",
    "é",
    "💥",
    "::",
    "=",
    "a" * 61,
    "-1",
    "9" * 30,
    "<b>x</b>",
    "1B2W:3",
    "mastermind:pegs=0",
    "bottles:n=1",
    "digits:length=0",
    "words:length=99",
    "mastermind:pegs=2,colors=2,pegs=3",
    "minmax:first=99",
    "random:seed=-3",
]
PAGES = {
    "/assist.json": ("game", "strategy", "m", "g", "guess", "score"),
    "/play.json": ("game", "t", "m", "g", "guess", "seed", "end"),
    "/evaluate.json": ("game", "s"),
    "/tree.json": ("game", "s", "a", "file", "upload"),
    "/tree.svg": ("game", "s", "a", "file", "upload"),
    "/results/0.json": ("x",),
    "/results/0/player.json": ("name",),
    "/results/0/round.json": ("player", "game", "round"),
}
BASE = {"game": "mastermind:pegs=2,colors=3", "strategy": "minmax", "s": "minmax"}


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("fuzz")
    results = folder / "results.jsonl"
    arguments = ["tournament", "-p", "first", "-g", "mastermind:pegs=2,colors=3", "-r", "2", "--seed", "3"]
    assert CliRunner().invoke(app, [*arguments, "--results", str(results)]).exit_code == 0
    tree = folder / "tree.json"
    assert CliRunner().invoke(app, ["tree", "mastermind:pegs=2,colors=3", "--save", str(tree)]).exit_code == 0
    return client(results=[Path(results)], trees=[tree])


@pytest.mark.parametrize("path", sorted(PAGES))
def test_no_value_in_any_parameter_makes_a_500(web, path: str) -> None:  # type: ignore[no-untyped-def]
    """Each parameter of each page, given each nasty value with the others sane: below 500, and a
    refusal is the JSON twin's one line."""
    for name in PAGES[path]:
        for value in NASTY:
            response = web.get(path, params={**BASE, name: value})
            assert response.status_code < 500, (path, name, value, response.text)
            if 400 <= response.status_code < 500 and path.endswith(".json"):
                message = response.json()["error"]
                assert message and "\n" not in message and "Traceback" not in message
