"""Wordle on the web pages: the guess as tiles tapped to cycle grey, yellow, green; only patterns
some remaining answer gives are recorded; hard mode refused in one line; a game against the
computer to the end and its review; the JSON tells marks from counts."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from moocow import api
from moocow.cli import app
from moocow.play.opponent import deal_secret
from moocow.plugins import load_plugin_file
from tests.test_web_fuzz import NASTY
from tests.web_helpers import as_json, client

OFFICIAL = "wordle:list=official"
HARD = "wordle:list=official,hard=true"
JOTTO = Path(__file__).parents[1] / "examples" / "jotto" / "moocow_jotto" / "__init__.py"


def tap(web, link: str, place: int, times: int = 1) -> dict:  # type: ignore[no-untyped-def]
    """Follow the link of tile ``place`` ``times`` times; the page's data after."""
    data = web.get(as_json(link)).json()
    for _ in range(times):
        data = web.get(as_json(data["tiles"]["tiles"][place]["link"])).json()
    return data


def test_a_whole_guess_is_tiles_each_tap_cycling_its_mark() -> None:
    """Every tile starts grey; a tap turns it yellow, then green, then grey again; the pattern
    tapped is recorded with the count it promised."""
    web = client()
    link = f"/assist?game={OFFICIAL}&g=salet"
    start = web.get(as_json(link)).json()
    assert start["kind"] == "marks" and start["fields"] == []
    assert [tile["name"] for tile in start["tiles"]["tiles"]] == ["grey"] * 5
    assert [tile["letter"] for tile in start["tiles"]["tiles"]] == list("salet")
    assert [tap(web, link, 2, times)["tiles"]["tiles"][2]["name"] for times in (1, 2, 3)] == [
        "yellow",
        "green",
        "grey",
    ]
    turned = web.get(as_json(tap(web, link, 3, 2)["tiles"]["tiles"][2]["link"])).json()["tiles"]
    assert turned["pattern"] == "BBYGB" and turned["left"] > 0
    assert web.get(tap(web, link, 0)["json"]).json()["tiles"]["pattern"] == "YBBBB"  # its twin keeps it
    after = web.get(as_json(turned["record"])).json()
    assert after["remaining"] == turned["left"] and after["entries"][0]["feedback"] == "BBYGB"
    assert after["entries"][0]["parts"] == [0, 0, 1, 2, 0]
    expected = api.assistant(OFFICIAL)
    expected.record("salet", "BBYGB")
    assert after["remaining"] == expected.remaining


def test_the_json_gives_parts_and_kind_for_marks_and_for_counts() -> None:
    """A client tells marks from counts by ``kind``; each score offered carries its parts."""
    web = client()
    marks = web.get("/assist.json", params={"game": OFFICIAL, "g": "salet"}).json()
    assert all(len(answer["parts"]) == 5 and set(answer["parts"]) <= {0, 1, 2} for answer in marks["answers"])
    assert sum(answer["remaining"] for answer in marks["answers"]) == 2315
    counts = web.get("/assist.json", params={"game": "mastermind", "g": "1122"}).json()
    assert counts["kind"] == "counts" and counts["fields"] == ["black", "white"] and counts["tiles"] is None
    assert {tuple(answer["parts"]) for answer in counts["answers"]} >= {(0, 0), (1, 1), (4, 0)}


def test_a_pattern_no_remaining_word_gives_is_refused_in_one_line() -> None:
    """Tapped: the page says so, with no link to record it; typed: 400 and the CLI's line."""
    web = client()
    impossible = web.get("/assist", params={"game": OFFICIAL, "g": "salet", "f": "GGGGY"})
    assert impossible.status_code == 200 and "no remaining word gives GGGGY to salet" in impossible.text
    data = web.get("/assist.json", params={"game": OFFICIAL, "g": "salet", "f": "GGGGG"}).json()
    assert data["tiles"]["record"] is None and data["tiles"]["refused"]  # salet is no answer
    for params in (
        {"game": OFFICIAL, "m": "salet:GGGGG"},
        {"game": OFFICIAL, "m": "salet:BBBBB", "guess": "salet", "score": "GGGGG"},
        {"game": OFFICIAL, "g": "salet", "f": "GGQGG"},
    ):
        page, json = web.get("/assist", params=params), web.get("/assist.json", params=params)
        assert page.status_code == json.status_code == 400 and "Traceback" not in page.text
        assert "\n" not in json.json()["error"]


@pytest.mark.parametrize("typed", [{"g": "crane"}, {"guess": "crane", "score": "BBBBB"}])
def test_hard_mode_refuses_a_guess_that_drops_a_revealed_letter(typed: dict[str, str]) -> None:
    """After SALET got BBYGB, CRANE drops the green E: refused, saying why; the suggestion and
    the pieces offered are legal guesses only."""
    web = client()
    response = web.get("/assist.json", params={"game": HARD, "m": "salet:BBYGB", **typed})
    assert response.status_code == 400
    refusal = "crane is not allowed in hard mode: letter 4 must be E (salet was green there)"
    assert response.json()["error"] == refusal
    data = web.get("/assist.json", params={"game": HARD, "m": "salet:BBYGB", "g": "l"}).json()
    assistant = api.assistant(HARD)
    position = assistant.record("salet", "BBYGB")
    assert position.allowed is not None
    assert position.allowed[assistant.game.guess_index(data["suggestion"]["code"])]
    offered = [piece["piece"] for piece in data["board"]["pieces"]]
    assert offered and all(
        any(word.startswith("l" + piece) for word in legal_words(assistant)) for piece in offered
    )
    assert len(offered) < len({word[1] for word in api.load_game(OFFICIAL).words if word[0] == "l"})


def legal_words(assistant) -> list[str]:  # type: ignore[no-untyped-def]
    game = assistant.game
    return [game.format_code(game.guesses[index]) for index in assistant.position.legal_guesses]


def test_a_game_against_the_computer_to_the_end_with_its_review() -> None:
    """Guesses get marks with their parts; the win shows the secret and the review, in tiles."""
    web = client(key=b"w" * 32)
    game = api.load_game(OFFICIAL)
    secret = game.format_code(game.secrets[deal_secret(game, 4)])
    link = web.get("/play", params={"game": OFFICIAL, "seed": 4}).headers["location"]
    link = web.get(link + "&guess=salet").headers["location"]
    middle = web.get(as_json(link)).json()
    assert middle["kind"] == "marks" and len(middle["entries"][0]["parts"]) == 5
    done = web.get(as_json(web.get(link + f"&guess={secret}").headers["location"])).json()
    assert done["solved"] and done["secret"] == secret and done["result"] == "Solved in 2 guesses."
    assert [step["guess"] for step in done["review"]] == ["salet", secret]
    assert done["review"][-1]["parts"] == [2] * 5 and done["review"][0]["engine"].startswith("arise")
    page = web.get(web.get(link + f"&guess={secret}").headers["location"]).text
    assert "Review" in page and 'class="tile small mark-2"' in page


def test_a_hard_game_against_the_computer_refuses_an_illegal_guess() -> None:
    """Typed or in the URL, a guess breaking hard mode is one line, 400."""
    web = client(key=b"w" * 32)
    game = api.load_game(HARD)
    seed = next(seed for seed in range(50) if "e" in game.format_code(game.secrets[deal_secret(game, seed)]))
    link = web.get("/play", params={"game": HARD, "seed": seed}).headers["location"]
    link = web.get(link + "&guess=salet").headers["location"]
    typed = web.get(as_json(link) + "&guess=bumpy")
    assert typed.status_code == 400 and "is not allowed in hard mode" in typed.json()["error"]
    in_url = web.get(as_json(link) + "&m=bumpy")
    assert in_url.status_code == 400 and in_url.json()["error"].startswith("guess 2: bumpy is not allowed")


def test_a_plugin_game_whose_pieces_are_not_letters_has_no_500() -> None:
    """Jotto from ``examples/`` has no alphabet: the piece palette must not divide by it."""
    load_plugin_file(JOTTO)
    web = client()
    for path, params in (("/assist", {"m": "about:1"}), ("/play", {"seed": "1"})):
        response = web.get(path, params={"game": "jotto", **params}, follow_redirects=True)
        assert response.status_code == 200, response.text[:300]


def test_the_first_page_offers_wordle_at_a_tap() -> None:
    """Wordle is among the games the first page offers, at the table and against the computer."""
    quick = {game["game"]: game for game in client().get("/index.json").json()["quick"]}
    wordle = quick["wordle"]
    assert wordle["assist"] == "/assist?game=wordle" and wordle["play"] == "/play?game=wordle"


@pytest.mark.parametrize("name", ["f", "g", "m", "guess", "score"])
def test_no_value_of_a_wordle_parameter_makes_a_500(name: str) -> None:
    """The marks being tapped, the guess and the entries, each given hostile values: below 500,
    and a refusal is one line."""
    web = client()
    for value in [*NASTY, "GGGGY", "ggggg", "\U0001f7e9" * 5, "BBYGB" * 13, "salet:", ":BBYGB"]:
        params = {"game": "wordle", "g": "salet", "f": "BBYGB", name: value}
        response = web.get("/assist.json", params=params)
        assert response.status_code < 500, (name, value, response.text)
        if response.status_code >= 400:
            assert "\n" not in response.json()["error"]


def test_a_wordle_round_of_a_tournament_is_replayed_in_tiles(tmp_path: Path) -> None:
    """The results page's round replay gives the kind, each guess's parts, and tiles."""
    results = tmp_path / "results.jsonl"
    arguments = ["tournament", "-p", "minmax", "-g", "wordle", "-r", "2", "--seed", "3"]
    assert CliRunner().invoke(app, [*arguments, "--results", str(results)]).exit_code == 0
    web = client(results=[results])
    params = {"player": "minmax", "game": "wordle", "round": "1"}  # rounds count from 0
    data = web.get("/results/0/round.json", params=params).json()
    assert data["kind"] == "marks" and data["steps"][-1]["parts"] == [2] * 5
    assert 'class="tile small mark-2"' in web.get("/results/0/round", params=params).text
