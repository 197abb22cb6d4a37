"""A spec's game is made once per process and each plugin's ``register_games`` runs once, however
often the commands, the API and the web pages ask; a word file counts by where it is, not by how
the spec spells it."""

from __future__ import annotations

import sys
from collections import OrderedDict
from pathlib import Path
from typing import Any

import pytest

from moocow.engine.game import Game
from moocow.plugins import PLUGINS, game_classes, load_game, load_plugin_file, make_game, plugin_errors
from moocow.plugins.bottles import Bottles
from moocow.web import specs
from tests.web_helpers import client

COUNTED = """
from moocow.engine.params import Param
from moocow.plugins.bottles import Bottles
from moocow.plugins.hookspecs import hookimpl

CALLS = []


class Counted(Bottles):
    name = "counted"
    params = (Param("n", int, 4, "bottles", minimum=2, maximum=6),)


@hookimpl
def register_games(register):
    CALLS.append(1)
    register(Counted)
"""


def counted_module(game: Game) -> Any:
    return sys.modules[type(game).__module__]


def test_register_games_runs_once_across_many_loads(tmp_path: Path) -> None:
    """Many loads of several specs, and the listings, call the plugin's hook once; a plugin added
    later is found (the hooks are collected again), and the games made stay the same."""
    path = tmp_path / "counted.py"
    path.write_text(COUNTED)
    load_plugin_file(path)
    specs = ["counted", "counted:n=5", "bottles:n=4", "mastermind:pegs=2,colors=3"]
    games = [load_game(spec) for spec in specs]
    for _ in range(20):
        [load_game(spec) for spec in specs], [make_game(spec) for spec in specs]
        game_classes(), plugin_errors()
    assert counted_module(games[0]).CALLS == [1]
    assert [load_game(spec) for spec in specs] == [make_game(spec) for spec in specs] == games
    (tmp_path / "more.py").write_text(COUNTED.replace('"counted"', '"more"'))
    load_plugin_file(tmp_path / "more.py")
    assert "more" in game_classes() and load_game("counted") is games[0]


def test_specs_that_mean_one_game_give_one_instance() -> None:
    """``bottles`` and ``bottles:n=6``, spelt either way, are one game, made once."""
    game = make_game("bottles")
    assert make_game("bottles:n=6") is game is make_game(" bottles : n = 6 ") is load_game("bottles")
    assert make_game("bottles:n=7") is not game


def words_in(folder: Path, words: str) -> Path:
    folder.mkdir()
    (folder / "w.txt").write_text(words)
    return folder


@pytest.mark.parametrize("spec", ["words:file=w.txt", "wordle:answers=w.txt"])
def test_the_same_relative_file_from_two_folders_is_two_games(
    spec: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same spec naming a relative word file is another game from another folder (it once gave
    the first folder's game), and the same game from the same folder."""
    monkeypatch.chdir(words_in(tmp_path / "a", "crane\nslate\n"))
    first = load_game(spec)
    monkeypatch.chdir(words_in(tmp_path / "b", "about\nmoney\nhoney\n"))
    second = load_game(spec)
    assert len(second.secrets) == 3 and len(first.secrets) == 2
    assert load_game(spec) is second and make_game(spec) is second


def test_a_rewritten_word_file_is_another_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A word file rewritten (another size) makes another game, as the file's reader reads it anew."""
    monkeypatch.chdir(words_in(tmp_path / "a", "crane\nslate\n"))
    first = load_game("words:file=w.txt")
    Path("w.txt").write_text("about\nmoney\nhoney\n")
    assert len(load_game("words:file=w.txt").secrets) == 3 and len(first.secrets) == 2


def test_repeated_web_requests_make_the_game_at_most_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A page asks for its game several times a request (it once made it three or four times each);
    now the first request makes it, and the next ones make nothing."""
    made: list[str] = []
    original = Bottles.from_arguments.__func__  # type: ignore[attr-defined]

    def counting(cls: type[Bottles], arguments: Any) -> Game:
        made.append(cls.name)
        return original(cls, arguments)

    monkeypatch.setattr(Bottles, "from_arguments", classmethod(counting))
    monkeypatch.setattr(PLUGINS, "made", {}, raising=False)
    monkeypatch.setattr(PLUGINS, "games", {})
    monkeypatch.setattr(specs, "_known", OrderedDict({"bottles:n=4": 0.001}))  # cheap: worked out here
    web = client()
    for _ in range(3):
        response = web.get("/assist.json", params={"game": "bottles:n=4"})
        assert response.status_code == 200, response.text
    assert made == ["bottles"]
