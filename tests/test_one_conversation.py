"""One conversation at the table (issue 48): the terminal (``moocow assist``, ``moocow play``) and
the page (``/assist``, ``/play``) show the same game, held in ``moocow.play``. Typed the same
entries, they say the same count, list, suggestion, warning, refusal and win, and they split
``GUESS SCORE`` by one rule (a tab as a space)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl

import pytest

from moocow import api
from moocow.cli.interactive import Ask, Say, assist, play
from moocow.engine.game import Game
from moocow.play.opponent import deal_secret
from moocow.play.table import split_entry
from tests.web_helpers import client

SECRETS = {"bottles": "DBFACE", "mastermind": "3415", "wordle:list=official": "focal"}
"""A secret of each game the entries are scored against."""
GUESSES = {
    "bottles": ["ABCDEF", "ABCDEF", "BACDEF", "DBFACE"],
    "mastermind": ["1122", "3456", "1122", "3415"],
    "wordle:list=official": ["salet", "crony", "salet", "focal"],
}
"""The guesses made, one repeated."""


def typed_lines(game: Game, secret: str, guesses: list[str]) -> list[str]:
    """Each guess with its true score, typed as people type (after a tab, every other one; marks
    spelled 2/1/0), with a mistyped score and a malformed guess among them."""
    target = game.guess_index(secret)
    secret_index = int((game.secret_guess_index == target).nonzero()[0][0])
    lines = []
    for number, guess in enumerate(guesses):
        value = game.score(game.guess_index(guess), secret_index)
        written = game.format_feedback(value)
        if game.feedback_model.kind == "marks" and number % 2:
            written = written.translate(str.maketrans("BYG", "012"))
        lines.append(guess + ("\t" if number % 2 else " ") + written)
        if number == 1:
            lines += [
                f"{guess} {'GGGGY' if game.feedback_model.kind == 'marks' else '9'}",
                f"{guess}{guess} 0",
            ]
    return lines


def conversation(run: Callable[[Ask, Say], object], lines: list[str]) -> tuple[list[str], list[list[str]]]:
    """What a conversation on the terminal says before the first prompt, and after each line typed."""
    said: list[list[str]] = [[]]
    typed = iter(lines)

    def ask(prompt: str) -> str | None:
        said.append([])
        return next(typed, None)

    run(ask, lambda line: said[-1].append(str(line)))
    return said[0], said[1 : len(lines) + 1]


def terminal(spec: str, lines: list[str]) -> tuple[list[str], list[list[str]]]:
    """What ``moocow assist`` says before the first prompt, and after each line typed."""
    return conversation(lambda ask, say: assist(api.assistant(spec), ask, say), lines)


def page(spec: str, lines: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The assistant's page at the start, and after each line typed in its one box: the position
    it leads to, or the refusal."""
    web = client()
    start = web.get("/assist.json", params={"game": spec}).json()
    moves: list[str] = []
    shown = []
    for line in lines:
        response = web.get("/assist.json", params={"game": spec, "m": moves, "guess": line})
        if response.status_code == 303:
            data = web.get(response.headers["location"]).json()
            moves = data["moves"]
            shown.append(data)
        else:
            assert response.status_code == 400, response.text
            shown.append({"error": response.json()["error"]})
    return start, shown


@pytest.mark.parametrize("spec", list(SECRETS))
def test_the_terminal_and_the_page_say_the_same_for_the_same_entries(spec: str) -> None:
    """Entry by entry: the same refusal, count, codes listed, warning, suggestion and win."""
    game = api.load_game(spec)
    lines = typed_lines(game, SECRETS[spec], GUESSES[spec])
    opening, said = terminal(spec, lines)
    start, shown = page(spec, lines)
    assert opening[-1] == f"Suggested first guess: {start['suggestion']['text']}"
    refused = 0
    for line, out, data in zip(lines, said, shown, strict=True):
        if "error" in data:
            refused += 1
            assert out == [out[0]] and out[0].startswith(f"error: {data['error']}; nothing recorded"), line
            continue
        warnings = [text.removeprefix("warning: ") for text in out if text.startswith("warning: ")]
        assert warnings == ([data["warning"]] if data["warning"] else []), line
        if data["solved"]:
            assert out[-1] == data["result"] == f"Solved in {len(data['entries'])} guesses."
            continue
        remain = "remains" if data["remaining"] == 1 else "remain"
        assert f"{data['remaining_text']} {remain}." in out, line
        listed = [code for text in out if text.startswith("  ") for code in text.split()]
        assert listed == data["codes"], line
        suggestion = data["suggestion"]
        assert out[-1] == (
            f"{suggestion['prefix']} {suggestion['text']}" if suggestion["code"] else suggestion["text"]
        )
    assert refused == 2 and shown[-1]["solved"] and any(data.get("warning") for data in shown)


def test_a_tab_splits_a_guess_from_its_score_on_both() -> None:
    """``1122<tab>1 0`` is the guess 1122 and the score 1B0W on the terminal and on the page alike
    (the page split at a space only, and refused it as a guess ``1122<tab>1``)."""
    assert (
        split_entry("1122\t1 0")
        == split_entry("1122 1 0")
        == split_entry("  1122 \t 1 0 ")
        == ("1122", "1 0")
    )
    assert split_entry("1122") == ("1122", "")
    response = client().get("/assist", params={"game": "mastermind", "guess": "1122\t1 0"})
    assert response.status_code == 303 and response.headers["location"].endswith("m=1122%3A1B0W")
    _, said = terminal("mastermind", ["1122\t1 0", "history"])
    assert said[1] == ["1. 1122 1B0W"]


@pytest.mark.parametrize("spec", ["mastermind", "wordle:list=official,hard=true"])
def test_a_game_against_the_computer_answers_and_refuses_alike(spec: str) -> None:
    """``moocow play`` and ``/play`` with the same secret: the same answers, the same warning on a
    repeated guess, the same refusal of a guess hard mode forbids."""
    game = api.load_game(spec)
    secret = deal_secret(game, 5)
    guesses = (
        ["1122", "3456", "1122"] if game.feedback_model.kind == "counts" else ["salet", "crane", "salet"]
    )
    _, said = conversation(lambda ask, say: play(game, 5, ask, say), [*guesses, "history"])
    web = client()
    path, _, query = (
        web.get("/play.json", params={"game": spec, "seed": 5}).headers["location"].partition("?")
    )
    sealed = dict(parse_qsl(query))
    moves: list[str] = []
    refused = 0
    for guess, out in zip(guesses, said, strict=False):
        response = web.get(path, params={**sealed, "m": moves, "guess": guess})
        if response.status_code == 400:
            assert out == [f"error: {response.json()['error']}"]
            refused += 1
            continue
        data = web.get(response.headers["location"]).json()
        moves = data["moves"]
        warnings = [text.removeprefix("warning: ") for text in out if text.startswith("warning: ")]
        assert warnings == ([data["warning"]] if data["warning"] else [])
        assert out[-1].strip() == data["entries"][-1]["feedback"] or data["solved"]
    history = said[len(guesses)]
    assert history == [
        f"{number}. {entry['guess']} {entry['feedback']}" for number, entry in enumerate(data["entries"], 1)
    ]
    assert (
        refused == (game.guess_rule is not None)
        and data["warning"] == "guess 1 was " + guesses[0] + " too; the same guess again tells nothing new"
    )
    assert data["entries"][0]["guess"] == guesses[0] and game.format_code(game.secrets[secret]) not in guesses


@pytest.mark.parametrize("spelled", ["GGBGG", "ggbgg", "22022", "GG-GG", "g,g,.,g,g"])
def test_the_page_reads_tapped_marks_in_every_spelling_the_terminal_takes(spelled: str) -> None:
    """``f=`` is read by the engine's reader of marks (``Marks.read``), as a typed score is: the
    page knew ``BYG`` alone, and refused ``22022``, which the terminal reads as GGBGG."""
    data = client().get("/assist.json", params={"game": "wordle", "g": "salet", "f": spelled}).json()
    assert data["tiles"]["pattern"] == "GGBGG"
    refused = client().get("/assist.json", params={"game": "wordle", "g": "salet", "f": "GGQGG"})
    assert refused.status_code == 400 and "'Q' is not a mark" in refused.json()["error"]
