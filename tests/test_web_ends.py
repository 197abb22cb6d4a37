"""The record of ended /play games: bounded, yet no visitor can end another's game (issue 45).

A flood of new-game-then-give-up from one client once filled the record, changed the key and so
ended every game in progress; now tokens expire by time, the record keeps only live tokens, and
game creation is capped per client and in all, so the memory is bounded with no key ever changed.
"""

from __future__ import annotations

import time

import pytest
from starlette.testclient import TestClient

from moocow import api
from moocow.play.opponent import deal_secret
from moocow.web import ends, tokens
from moocow.web.app import create_app
from tests.web_helpers import as_json

KEY = b"e" * 32


def visitors(*hosts: str) -> list[TestClient]:
    """Clients of one fresh app, each from its own address."""
    app = create_app(key=KEY)
    return [TestClient(app, follow_redirects=False, client=(host, 50000)) for host in hosts]


def flooders(count: int) -> list[str]:
    """``count`` addresses of one visitor (one address, or as many as a botnet has)."""
    return [f"10.1.{number // 250}.{number % 250}" for number in range(count)]


def started(web: TestClient, game: str, seed: int) -> str:
    response = web.get("/play", params={"game": game, "seed": seed})
    assert response.status_code == 303, response.text
    return str(response.headers["location"])


def flood(webs: list[TestClient], count: int) -> list[tuple[str, str]]:
    """New game then give up, ``count`` times over the clients ``webs`` in turn: the (page link,
    secret) of each game that was ended; a new game refused is one line, 429 or 503."""
    ended = []
    for seed in range(count):
        web = webs[seed % len(webs)]
        response = web.get("/play.json", params={"game": "mastermind", "seed": seed})
        if response.status_code != 303:
            assert response.status_code in (429, 503) and "\n" not in response.json()["error"]
            continue
        twin = str(response.headers["location"])
        ended.append((twin.replace(".json?", "?"), web.get(twin + "&end=1").json()["secret"]))
    return ended


@pytest.mark.parametrize("addresses", [1, 600])
def test_a_flood_of_ended_games_ends_no_other_visitors_game(
    monkeypatch: pytest.MonkeyPatch, addresses: int
) -> None:
    """A visitor tries to end more games than the cap, from one address or from many; another's
    game in progress plays on and is won. Past its share one address is refused new games, and
    a third visitor can still start one; many addresses fill the server, which then refuses new
    games but ends none."""
    monkeypatch.setattr(ends, "KEPT", 500)
    player, newcomer, *webs = visitors("10.0.0.2", "10.0.0.3", *flooders(addresses))
    game = api.load_game("bottles:n=5")
    secret = game.format_code(game.secrets[deal_secret(game, 3)])
    link = started(player, "bottles:n=5", 3)
    assert player.get(as_json(link) + "&m=ABCDE").status_code == 200
    ended = flood(webs, 600)
    moved = player.get(as_json(link) + "&m=ABCDE&m=BADCE")
    assert moved.status_code == 200, moved.text
    won = player.get(as_json(link) + f"&m=ABCDE&m=BADCE&m={secret}").json()
    assert won["solved"] and won["result"] == "Solved in 3 guesses."
    assert len(ended) == (ends.share() if addresses == 1 else 499) == len(player.app.state.ends) - 1
    fresh = newcomer.get("/play.json", params={"game": "mastermind"})
    assert fresh.status_code == (303 if addresses == 1 else 503)


@pytest.mark.parametrize("addresses", [1, 600])
def test_an_ended_token_is_still_refused_after_the_flood(
    monkeypatch: pytest.MonkeyPatch, addresses: int
) -> None:
    """No replay: the first and the last game given up in the flood are still over, in the page
    and its twin."""
    monkeypatch.setattr(ends, "KEPT", 500)
    webs = visitors(*flooders(addresses))
    ended = flood(webs, 600)
    for link, secret in (ended[0], ended[-1]):
        for path in (link, as_json(link)):
            response = webs[0].get(path + f"&m={secret}")
            assert (
                response.status_code == 400 and "this game is over: its token was given up" in response.text
            )


def test_games_are_capped_per_client_and_in_all(monkeypatch: pytest.MonkeyPatch) -> None:
    """A client past its share is refused new games (429) but plays those it has; past the cap in
    all, new games wait (503) and every game in progress goes on; time frees the room."""
    monkeypatch.setattr(ends, "KEPT", 40)
    now = [1_800_000_000.0]
    first, *fillers, late = visitors(*(f"10.0.1.{n}" for n in range(1, 22)))
    first.app.state.ends.clock = lambda: now[0]
    links = [started(first, "mastermind", seed) for seed in range(ends.share())]
    for params in ({"game": "mastermind"}, {"game": "mastermind", "t": ""}):
        refused = first.get("/play.json", params=params)
        assert refused.status_code == 429 and "games started from your address" in refused.json()["error"]
    assert first.get(as_json(links[0]) + "&m=1122").status_code == 200
    for web in fillers:
        for seed in range(ends.share()):
            started(web, "mastermind", seed)
    full = late.get("/play", params={"game": "mastermind"})  # room frees when the first hour is forgotten
    assert full.status_code == 503 and "try again in 74 hours" in full.text
    assert first.get(as_json(links[1]) + "&m=1122&end=1").json()["over"]
    now[0] += tokens.LIFE + 2 * ends.BUCKET
    started(late, "mastermind", 0)
    started(first, "mastermind", 0)


def test_a_game_lasts_its_life_then_its_token_expires() -> None:
    """A game left open overnight plays on; past its life its token is refused in one line, and
    its end is forgotten only once the token can no longer be played."""
    now = [1_800_000_000.0]
    (web,) = visitors("10.0.2.1")
    record = web.app.state.ends
    record.clock = lambda: now[0]
    open_tab, given_up = started(web, "mastermind", 1), started(web, "mastermind", 2)
    secret = web.get(as_json(given_up) + "&end=1").json()["secret"]
    now[0] += 20 * 3600
    assert web.get(as_json(open_tab) + "&m=1122").status_code == 200
    assert "this game is over" in web.get(as_json(given_up) + f"&m={secret}").json()["error"]
    now[0] += tokens.LIFE
    for link in (open_tab, given_up):
        response = web.get(as_json(link) + f"&m={secret}")
        assert response.status_code == 400 and "has expired" in response.json()["error"]
    started(web, "mastermind", 3)
    assert len(record) == 0


@pytest.mark.parametrize("shift", [-1, 1])
def test_a_token_with_its_start_time_changed_is_refused(shift: int) -> None:
    """The start time rides in the token beside the nonce, covered by the tag: editing it to
    lengthen a game's life is refused as any edited token is."""
    (web,) = visitors("10.0.3.1")
    token = tokens.seal(KEY, "mastermind", 5, int(time.time()) - 60)
    assert web.get("/play.json", params={"game": "mastermind", "t": token}).status_code == 200
    raw = tokens.decoded(token)
    assert raw is not None
    start = (tokens.issued(token) or 0) + shift
    moved = raw[: tokens.NONCE] + start.to_bytes(tokens.ISSUED, "big") + raw[tokens.NONCE + tokens.ISSUED :]
    response = web.get("/play.json", params={"game": "mastermind", "t": tokens.encoded(moved)})
    assert response.status_code == 400 and "was not made by this server" in response.json()["error"]


def test_an_address_counts_an_ipv6_subscriber_once() -> None:
    """New games count per address, an IPv6 one by its /64 (a subscriber's), so a visitor cannot
    take a fresh share from each address of its prefix; an IPv4-mapped address is its IPv4 one."""
    assert ends.address("2001:db8:1:2::1") == ends.address("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert ends.address("2001:db8:1:3::1") != ends.address("2001:db8:1:2::1")
    assert ends.address("::ffff:10.0.0.1") == ends.address("10.0.0.1") == "10.0.0.1"
    assert ends.address(None) == "" and ends.address("testclient") == "testclient"
