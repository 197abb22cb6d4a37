"""The assistant's page through Starlette's TestClient: what ``moocow assist`` does, with the
position in the URL. Most checks read the JSON twin, which is the page's own data."""

from __future__ import annotations

import itertools
import re

import pytest

from moocow import api
from moocow.web import specs
from tests.web_helpers import as_json, client

SEVEN = "bottles:n=7"


def test_the_first_page_offers_every_game_and_its_twin_is_its_data() -> None:
    """The home page links the assistant and a game against the computer for each quick game."""
    web = client()
    page, data = web.get("/"), web.get("/index.json").json()
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert {game["name"] for game in data["games"]} >= {"bottles", "mastermind", "digits", "words"}
    assert "tree" not in data["strategies"]
    for quick in data["quick"]:
        assert quick["assist"] in page.text.replace("&amp;", "&")


def test_the_start_shows_the_count_the_suggestion_and_every_piece() -> None:
    """Before any entry: every code remains, the CLI's suggestion, one tap per bottle."""
    data = client().get("/assist.json", params={"game": SEVEN}).json()
    assistant = api.assistant(SEVEN)
    assert data["remaining"] == 5040 and data["remaining_text"] == "5,040 arrangements"
    assert data["suggestion"]["code"] == assistant.suggestion()
    assert [piece["piece"] for piece in data["board"]["pieces"]] == list("ABCDEFG")


def test_only_pieces_that_lead_to_a_guess_are_offered() -> None:
    """A bottle already placed cannot be tapped again; a whole guess offers no more pieces."""
    web = client()
    data = web.get("/assist.json", params={"game": SEVEN, "g": "CA"}).json()
    assert [piece["piece"] for piece in data["board"]["pieces"]] == list("BDEFG")
    whole = web.get("/assist.json", params={"game": SEVEN, "g": "CABDEFG"}).json()
    assert whole["board"]["pieces"] == [] and whole["answers"]


def test_the_scores_offered_are_those_some_code_gives_with_what_each_leaves() -> None:
    """Each score tapped leads to a position whose count is the one its label promised."""
    web = client()
    data = web.get("/assist.json", params={"game": "mastermind", "g": "1122"}).json()
    assert sum(answer["remaining"] for answer in data["answers"]) == 1296
    assert "3B1W" not in [answer["feedback"] for answer in data["answers"]]  # no code can get it
    for answer in data["answers"]:
        after = web.get(as_json(answer["link"])).json()
        assert (after["solved"] and answer["win"]) or after["remaining"] == answer["remaining"]


def test_a_whole_game_by_links_to_the_win_then_undo() -> None:
    """Following the suggestion and the right score finds any secret; undo steps back one entry."""
    game = api.load_game(SEVEN)
    secret = game.secrets[1234:1235]
    web = client()
    link = "/assist?game=bottles%3An%3D7"
    for _ in range(10):
        data = web.get(as_json(link)).json()
        if data["solved"]:
            break
        typed = web.get(as_json(data["suggestion"]["link"])).json()
        guess = game.guess_index(typed["board"]["typed"])
        shown = game.format_feedback(int(game.feedback(game.guesses[guess : guess + 1], secret)[0, 0]))
        link = next(answer["link"] for answer in typed["answers"] if answer["feedback"] == shown)
    assert data["solved"] and data["entries"][-1]["guess"] == game.format_code(secret[0])
    assert [entry["left"] for entry in data["entries"]][-1] == 1
    assert all(a["left"] >= b["left"] for a, b in itertools.pairwise(data["entries"]))
    back = web.get(as_json(data["undo"])).json()
    assert not back["solved"] and len(back["entries"]) == len(data["entries"]) - 1
    page = web.get(link)
    assert "Solved in" in page.text


def test_the_suggestion_is_marked_not_possible_where_it_cannot_be_the_secret() -> None:
    """Minimax may suggest a code that cannot be the secret: the page marks it as the CLI does."""
    assistant = api.assistant("mastermind")
    for feedback in ("0 0", "0 1", "1 0", "0 2", "1 1", "2 0"):
        assistant.record("1122", feedback)
        if not assistant.suggestion_is_possible():
            break
        assistant.undo()
    assert not assistant.suggestion_is_possible()
    shown = assistant.history()[0]
    data = client().get("/assist.json", params={"game": "mastermind", "m": f"{shown[0]}:{shown[1]}"}).json()
    assert data["suggestion"]["possible"] is False and "(not possible)" in data["suggestion"]["text"]


def test_a_short_list_of_codes_is_shown() -> None:
    """When few codes remain they are listed, as the CLI lists them."""
    data = client().get("/assist.json", params={"game": "bottles:n=4", "m": ["ABCD:0"]}).json()
    assert data["remaining"] == 9 and len(data["codes"]) == 9 and "BADC" in data["codes"]


def test_a_big_game_answers_at_once_with_the_quick_note(monkeypatch: pytest.MonkeyPatch) -> None:
    """Over the budget the suggestion is the CLI's quick one, its note shown beside it."""
    monkeypatch.setattr(specs, "BUDGET", 1e-9)
    data = client().get("/assist.json", params={"game": "mastermind", "m": "1122:0B0W"}).json()
    shown = data["suggestion"]
    assert "quick suggestion:" in shown["note"] and "quick suggestion:" in shown["text"]


def test_a_typed_entry_is_recorded_at_its_canonical_address() -> None:
    """A typed guess and score redirect to the position's URL; a guess alone waits for its score."""
    web = client()
    both = web.get("/assist", params={"game": "mastermind", "guess": "1 1 2 2", "score": "1 0"})
    assert both.status_code == 303 and both.headers["location"].endswith("m=1122%3A1B0W")
    one_box = web.get("/assist", params={"game": "mastermind", "guess": "1122 1 0"})
    assert one_box.headers["location"] == both.headers["location"]
    alone = web.get("/assist", params={"game": "mastermind", "guess": "1122"})
    assert alone.status_code == 303 and alone.headers["location"].endswith("g=1122")


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"game": "mastermind", "guess": "1129", "score": "1 0"}, "'9'"),
        ({"game": "mastermind", "guess": "1122", "score": "3 1"}, "feedback '3 1' is impossible"),
        ({"game": "mastermind", "m": "1122:3B1W"}, "entry 1: feedback"),
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": "words:file=/etc/passwd"}, "names a file"),
        ({"game": "mastermind", "strategy": "tree:/etc/passwd"}, "reads a file"),
        ({"game": "mastermind", "strategy": "nosuch"}, "unknown strategy"),
        ({"game": "mastermind", "m": ["1122:0B0W"] * 41}, "more than 40 entries"),
        ({"game": "bottles:n=7", "g": "AA"}, "is not the start of a guess"),
        ({}, "no game given"),
    ],
)
def test_bad_input_is_the_cli_line_with_status_400(params: dict[str, object], message: str) -> None:
    """A bad guess, impossible feedback, an unknown game: the one line, status 400, no traceback."""
    web = client()
    page, data = web.get("/assist", params=params), web.get("/assist.json", params=params)
    assert page.status_code == 400 and data.status_code == 400
    assert message in data.json()["error"]
    assert "error: " in page.text and "Traceback" not in page.text


def test_a_refused_entry_keeps_the_position() -> None:
    """Impossible feedback typed after entries shows the same position, with the error."""
    params = {"game": "mastermind", "m": "1122:1B0W", "guess": "3456", "score": "4 0"}
    data = client().get("/assist.json", params=params).json()
    assert "is impossible" in data["error"] and len(data["entries"]) == 1 and data["remaining"] == 256


def test_oversized_requests_and_other_methods_are_refused() -> None:
    """An overlong URL is 414, a large body 413, a POST 405, an unknown page 404, each one line."""
    web = client()
    assert web.get("/assist", params={"game": "x" * 5000}).status_code == 414
    assert web.request("GET", "/", content=b"x" * (2 << 20)).status_code == 413
    assert web.post("/assist", data={"game": "mastermind"}).status_code == 405
    missing = web.get("/nowhere.json")
    assert missing.status_code == 404 and missing.json() == {"error": "no such page"}


def test_what_a_url_says_is_escaped() -> None:
    """Text from the URL shown on the page is escaped by the templates."""
    page = client().get("/assist", params={"game": "<script>alert(1)</script>"})
    assert page.status_code == 400 and "<script>alert" not in page.text and "&lt;script&gt;" in page.text


def test_htmx_is_served_from_the_package_with_its_licence() -> None:
    """No request leaves the machine: htmx and the style sheet come from the server itself."""
    web = client()
    page = web.get("/assist", params={"game": SEVEN}).text
    assert '<script src="/static/htmx.min.js"' in page and "https://" not in page
    assert web.get("/static/htmx.min.js").status_code == 200
    assert (
        "0BSD" in web.get("/static/htmx.LICENSE.txt").text
        or "Zero-Clause BSD" in web.get("/static/htmx.LICENSE.txt").text
    )


@pytest.mark.parametrize("path", ["/assist", "/play"])
def test_the_clear_link_clears_the_guess_being_tapped(path: str) -> None:
    """It read ``href="<built-in method clear of dict ...>"``: a template's ``b.clear`` found
    ``dict.clear`` before the link. No page shows a Python object's text."""
    web = client()
    start = web.get(path, params={"game": "mastermind"})
    page = web.get(start.headers["location"] if path == "/play" else start.url.path + "?game=mastermind")
    tapped = web.get(re.findall(r'href="([^"]+)"[^>]*aria-label="add 1"', page.text)[0].replace("&amp;", "&"))
    clear = re.findall(r'href="([^"]*)"[^>]*>clear</a>', tapped.text)
    assert len(clear) == 1 and clear[0].startswith(path + "?game=mastermind")
    cleared = web.get(clear[0].replace("&amp;", "&"))
    assert cleared.status_code == 200 and 'data-typed=""' in cleared.text
    assert "built-in method" not in tapped.text and "bound method" not in tapped.text


def test_a_solved_game_lists_nothing_still_possible() -> None:
    """Once the secret is found the page said "Still possible" above the one code it was."""
    web = client()
    params = {"game": "bottles:n=3", "m": ["ABC:0", "BCA:3"]}
    data, page = web.get("/assist.json", params=params).json(), web.get("/assist", params=params)
    assert data["solved"] and data["codes"] == []
    assert "Solved in 2 guesses" in page.text and "Still possible" not in page.text


def test_an_entry_a_link_cannot_play_keeps_every_other_entry() -> None:
    """A shared link with an impossible entry offered only "Start again": the page shows the entries
    before it, a link dropping that entry alone (the ones after it kept), and the entry's guess
    tapped in, its scores offered, and the entry in the typed form to be corrected."""
    web = client()
    moves = ["1122:1B0W", "3456:4B0W", "1344:0B1W"]
    params = {"game": "mastermind", "m": moves}
    refused = web.get("/assist.json", params=params)
    data = refused.json()
    assert refused.status_code == 400 and data["error"].startswith("entry 2: feedback 4B0W")
    assert [entry["guess"] for entry in data["entries"]] == ["1122"] and data["board"]["typed"] == "3456"
    assert data["answers"] and data["stuck"]["entry"] == "3456:4B0W"
    dropped = web.get(as_json(data["stuck"]["drop"])).json()
    assert [entry["guess"] for entry in dropped["entries"]] == ["1122", "1344"]
    page = web.get("/assist", params=params).text
    assert "Drop entry 2 (3456:4B0W)" in page and "Start again" not in page
    assert 'name="guess" value="3456"' in page and 'name="score" value="4B0W"' in page
    won = {"game": "bottles:n=3", "m": ["ABC:3", "ACB:1"]}  # an entry after the win
    after_win = web.get("/assist.json", params=won).json()
    assert after_win["solved"] and "Drop the entries after the win" in web.get("/assist", params=won).text
    assert [entry["guess"] for entry in web.get(as_json(after_win["stuck"]["drop"])).json()["entries"]] == [
        "ABC"
    ]


def test_the_icon_is_served_from_the_package() -> None:
    """``/favicon.ico``, which every browser asks for, was a 404 on every page."""
    web = client()
    icon = web.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/x-icon"
    assert icon.content[:4] == b"\0\0\1\0" and b"\x89PNG" in icon.content  # an ICO holding a PNG
    drawn = web.get("/static/favicon.svg")
    assert drawn.status_code == 200 and drawn.text.startswith("<svg")
    page = web.get("/assist", params={"game": SEVEN}).text
    assert 'rel="icon" href="/favicon.ico"' in page and 'rel="icon" href="/static/favicon.svg"' in page
