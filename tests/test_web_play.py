"""A game against the computer on the web: the secret sealed in the URL, the review at the end."""

from __future__ import annotations

import base64
import time

import pytest

from moocow import api
from moocow.play.opponent import deal_secret
from moocow.web import tokens
from tests.web_helpers import as_json, client

KEY = b"k" * 32


def started(web, game: str = "bottles:n=5", seed: int = 3) -> str:  # type: ignore[no-untyped-def]
    """The sealed URL a new game redirects to."""
    response = web.get("/play", params={"game": game, "seed": seed})
    assert response.status_code == 303
    return response.headers["location"]


def test_a_whole_game_ends_in_the_win_and_a_review() -> None:
    """Tapping pieces plays the guess when it is whole; the win shows the review with the engine."""
    web = client(key=KEY)
    game = api.load_game("bottles:n=5")
    secret = game.format_code(game.secrets[deal_secret(game, 3)])
    link = started(web)
    for guess in ("ABCDE", "BADCE", secret):
        for _ in guess:
            data = web.get(as_json(link)).json()
            piece = next(
                p for p in data["board"]["pieces"] if p["piece"] == guess[len(data["board"]["typed"])]
            )
            link = piece["link"]
        data = web.get(as_json(link)).json()
        if data["solved"]:
            break
    assert data["solved"] and data["secret"] == secret and data["result"].startswith("Solved in")
    review = data["review"]
    assert review[-1]["guess"] == secret and review[-1]["left"] == 1
    assert review[0]["engine"] == api.assistant("bottles:n=5").suggestion()
    assert "Review" in web.get(link).text


def test_the_secret_is_not_in_the_page_nor_readable_from_the_token() -> None:
    """Before the end the page's data has no secret, and the token does not carry its index in clear."""
    web = client(key=KEY)
    game = api.load_game("mastermind")
    secret = deal_secret(game, 7)
    link = started(web, "mastermind", 7)
    data = web.get(as_json(link)).json()
    assert "secret" not in data and "review" not in data
    token = data["token"]
    raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    assert secret.to_bytes(4, "big") not in raw
    assert started(web, "mastermind", 7) != link  # a fresh nonce: the same secret, another token


@pytest.mark.parametrize("attack", ["flip", "other game", "other key", "garbage"])
def test_a_token_changed_or_moved_is_refused(attack: str) -> None:
    """An edited token, one moved to another game, or made under another key: 400, one line."""
    web = client(key=KEY)
    token = tokens.seal(KEY, "mastermind", 5, int(time.time()))
    game = "mastermind"
    if attack == "flip":
        token = token[:24] + ("A" if token[24] != "A" else "B") + token[25:]
    elif attack == "other game":
        game = "digits"
    elif attack == "other key":
        token = tokens.seal(b"x" * 32, "mastermind", 5, int(time.time()))
    else:
        token = "%%%"
    response = web.get("/play.json", params={"game": game, "t": token})
    assert response.status_code == 400 and "was not made by this server" in response.json()["error"]


def test_giving_up_shows_the_secret_and_the_review() -> None:
    """``end=1`` ends the game: the secret and the review of the guesses made."""
    web = client(key=KEY)
    link = started(web, "mastermind", 1)
    data = web.get(as_json(link) + "&m=1122&end=1").json()
    assert data["over"] and not data["solved"] and len(data["secret"]) == 4
    assert data["review"][0]["guess"] == "1122" and data["review"][0]["engine"].startswith("1122")


def test_a_typed_guess_is_played_and_bad_guesses_are_one_line() -> None:
    """A typed guess redirects to the URL holding it; a bad one is 400 with the game's message."""
    web = client(key=KEY)
    link = started(web, "mastermind", 1)
    typed = web.get(link + "&guess=1+2+3+4")
    assert typed.status_code == 303 and typed.headers["location"].endswith("m=1234")
    bad = web.get(as_json(link) + "&guess=12345")
    assert bad.status_code == 400 and "error" in bad.json()
    wrong = web.get(as_json(link) + "&m=9999")
    assert wrong.status_code == 400 and wrong.json()["error"].startswith("guess 1:")
    secret = web.get(as_json(link) + "&end=1").json()["secret"]
    after = web.get(as_json(link) + f"&m={secret}&m={secret}")
    assert after.status_code == 400 and "found the secret" in after.json()["error"]


def test_the_same_seed_deals_the_same_secret() -> None:
    """``seed`` deals as ``moocow play --seed`` does."""
    web = client(key=KEY)
    game = api.load_game("digits")
    first = web.get(as_json(started(web, "digits", 11)) + "&end=1").json()["secret"]
    assert first == game.format_code(game.secrets[deal_secret(game, 11)])
    assert web.get("/play", params={"game": "digits", "seed": "-1"}).status_code == 400


def test_a_given_up_token_is_refused_for_further_guesses() -> None:
    """``end=1`` showed the secret, and the same token with that secret then read "Solved in 1
    guess": an ended game now shows its end and nothing else, in the page and in its twin."""
    web = client(key=KEY)
    link = started(web, "mastermind", 1)
    secret = web.get(as_json(link) + "&m=1122&end=1").json()["secret"]
    for moves in ([secret], ["1122", secret], [], ["1122", "3456"]):
        query = "".join(f"&m={move}" for move in moves)
        for path in (link, as_json(link)):
            response = web.get(path + query)
            assert response.status_code == 400
            assert "this game is over: its token was given up" in response.text
    typo = web.get(as_json(link) + "&m=3456&guess=99999")  # a bad typed guess shows no score either
    assert typo.status_code == 400 and "this game is over" in typo.json()["error"]
    again = web.get(as_json(link) + "&m=1122")
    assert again.status_code == 303 and again.headers["location"].endswith("end=1")
    assert web.get(again.headers["location"]).json()["secret"] == secret


def test_a_solved_token_is_not_played_again() -> None:
    """A won game cannot be replayed shorter, nor backed up from and played on."""
    web = client(key=KEY)
    link = started(web, "bottles:n=5", 3)
    game = api.load_game("bottles:n=5")
    secret = game.format_code(game.secrets[deal_secret(game, 3)])
    won = web.get(as_json(link) + f"&m=ABCDE&m={secret}").json()
    assert won["solved"] and won["result"] == "Solved in 2 guesses."
    assert web.get(as_json(link) + f"&m=abcde&m={secret.lower()}").json()["solved"]  # the same guesses
    for moves in ([secret], ["ABCDE"], ["ABCDE", "BADCE"]):
        replayed = web.get(as_json(link) + "".join(f"&m={move}" for move in moves))
        assert replayed.status_code == 400 and "its token was solved" in replayed.json()["error"]


def test_the_review_judges_each_guess_against_the_engine() -> None:
    """As WordleBot does: what the engine's choice would have left against the same secret, and the
    guesses the engine needs on average from the position each guess left: the assistant's
    suggestions followed from there against each code still possible, one code at a time."""
    spec = "mastermind:pegs=3,colors=4"
    web = client(key=KEY)
    game = api.load_game(spec)
    secret = deal_secret(game, 5)
    link = started(web, spec, 5)
    rows = web.get(as_json(link) + "&m=123&m=444&end=1").json()["review"]
    entries: list[str] = []
    for row in rows:
        before = api.assistant(spec)
        for entry in entries:
            before.record(*entry.split(":"))
        engine = game.guess_index(before.suggestion())
        value = int(game.feedback(game.guesses[[engine]], game.secrets[[secret]])[0, 0])
        assert row["engine_left"] == len(before.position.after(engine, value).candidates)
        entries.append(f"{row['guess']}:{row['feedback']}")
        after = api.assistant(spec)
        for entry in entries:
            after.record(*entry.split(":"))
        counts = [guesses_to_find(spec, entries, code) for code in after.possible_codes(len(game.secrets))]
        assert row["expected"] == round(sum(counts) / len(counts), 2), (row, counts)
    page = web.get(link + "&m=123&m=444&end=1").text
    assert "engine left" in page and "to finish" in page


def guesses_to_find(spec: str, entries: list[str], code: str) -> int:
    """Guesses the assistant's suggestions take, after ``entries``, to find ``code``."""
    assistant = api.assistant(spec)
    for entry in entries:
        assistant.record(*entry.split(":"))
    game, count = assistant.game, 0
    secret = game.secrets[[game.guess_index(code)]]
    while not assistant.solved:
        guess = assistant.suggestion()
        value = int(game.feedback(game.guesses[[game.guess_index(guess)]], secret)[0, 0])
        assistant.record(guess, game.format_feedback(value))
        count += 1
    return count
