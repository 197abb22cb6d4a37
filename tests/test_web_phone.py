"""Every page at a phone's width, in one chromium and one server for the module: nothing wider than
the screen at 360 and 390 px (a crashed player named by a long path, the leaderboard, a round, the
tree, the comparison, the assistant and a game for each game, a review, the first page), and the
details that make a page usable at a table: long names cut whole on hover, counts on the
histogram, pieces that keep their place, a number pad for scores, the bottles' labels, a tree's
picture at a readable size, and the back button undoing guesses, not taps, without JavaScript."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import (
    READY,
    crashing_tournament,
    every_page,
    new_phone,
    opened,
    overflow,
    served,
)

WIDTHS = (360, 390)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """A small tournament's results, with a player that crashes named by a long path."""
    return crashing_tournament(tmp_path_factory.mktemp("phone"))


@pytest.fixture(scope="module")
def player(played: tuple[str, Path]) -> str:
    return played[0]


@pytest.fixture(scope="module")
def address(played: tuple[str, Path]) -> Iterator[str]:
    """``moocow serve`` over the tournament's results."""
    with served("--results", str(played[1])) as served_at:
        yield served_at


@pytest.mark.parametrize("width", WIDTHS)
def test_no_page_is_wider_than_a_phone(browser: Any, address: str, player: str, width: int) -> None:
    page = new_phone(browser, width=width)
    wide = {}
    for name, path in every_page(player).items():
        opened(page, address, name, path)
        if overflow(page):
            wide[name] = overflow(page)
    assert not wide


def test_a_long_name_is_cut_and_whole_on_hover_and_a_tap_away(
    browser: Any, address: str, player: str
) -> None:
    """The leaderboard keeps its numbers on screen: the path is cut in its middle (its file name
    kept), whole in its title, and its link opens the player's page, which shows it whole."""
    page = new_phone(browser, width=360)
    page.goto(address + "results/0")
    name = page.locator("table.standings a.cut", has_text=".py").first
    assert name.get_attribute("title") == player
    assert name.inner_text() != player and "py" in name.locator(".tail").inner_text()
    assert (
        page.evaluate("(a => a.scrollWidth > a.clientWidth)(document.querySelector('a.cut .head'))") is False
    )
    cut = page.locator("a.cut .head", has_text="/").first
    assert cut.evaluate("head => head.scrollWidth > head.clientWidth")  # shortened, with its ellipsis
    for cell in page.locator("table.standings td.n:visible").all():
        box = cell.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 360
    name.click()
    page.wait_for_url("**/player?**")
    assert page.locator("h1").inner_text() == player and not overflow(page)


def test_the_histogram_shows_counts_and_a_bar_of_one_secret(browser: Any, address: str) -> None:
    """Each bar says its count, in order, and a bar of one secret is drawn tall enough to see."""
    page = new_phone(browser, width=360)
    path = "evaluate?game=bottles%3An%3D5&s=minmax&s=first"
    page.goto(address + path)
    page.wait_for_function(READY["compare"], timeout=60_000)
    page.reload()
    data = page.request.get(address + path.replace("evaluate?", "evaluate.json?")).json()
    counts = [count for job in data["strategies"] for count in job["result"]["histogram"] if count]
    assert [t.text_content() for t in page.locator("svg.bars text.count").all()] == [
        f"{count:,}" for count in counts
    ]
    assert 1 in counts  # the first guess finds one secret
    heights = [
        box["height"] for box in (bar.bounding_box() for bar in page.locator("svg.bars rect").all()) if box
    ]
    assert len(heights) == len(counts) and min(heights) >= 1.9


def piece_boxes(page: Any) -> list[tuple[float, float]]:
    return [
        (box["x"], box["y"]) for box in (tap.bounding_box() for tap in page.locator("nav.pieces .tap").all())
    ]


def test_pieces_keep_their_place_as_they_are_tapped(browser: Any, address: str) -> None:
    """Seven bottles on one row at 360 px, 44 px each; a tapped bottle is dimmed where it was and
    no other piece moves."""
    from playwright.sync_api import expect

    page = new_phone(browser, width=360)
    page.goto(address + "assist?game=bottles%3An%3D7")
    page.wait_for_function("window.htmx")
    before = piece_boxes(page)
    assert len(before) == 7 and len({y for _, y in before}) == 1
    assert all(
        box and box["width"] >= 44 for box in (tap.bounding_box() for tap in page.locator("a.tap").all())
    )
    for typed in ("D", "DA"):
        page.locator(f'a.tap[data-piece="{typed[-1]}"]').click()
        expect(page.locator(".slots")).to_have_attribute("data-typed", typed)
        assert piece_boxes(page) == before
    assert page.locator("nav.pieces .tap.off").all_inner_texts() == ["A", "D"]
    assert not overflow(page)


def test_the_score_takes_a_number_pad_and_bottles_say_how_to_label_them(browser: Any, address: str) -> None:
    """A count is typed on the number pad (and ``12`` is 1B2W); Wordle's marks on letters; the
    bottles' page tells a newcomer to label the real bottles A to G."""
    page = new_phone(browser, width=360)
    page.goto(address + "assist?game=mastermind")
    score = page.locator('input[name="score"]')
    assert score.get_attribute("inputmode") == "numeric" and score.get_attribute("pattern")
    page.get_by_text("Type it instead").click()
    page.get_by_role("textbox", name="Guess").fill("1122")
    score.fill("12")
    page.get_by_role("button", name="Record").click()
    page.wait_for_selector(".history li")
    assert page.locator(".history li").get_attribute("data-guess") == "1122"
    assert "1B2W" in page.locator(".history li").inner_text()
    page.goto(address + "assist?game=wordle&m=salet%3ABBYGB")
    assert page.locator('input[name="score"]').get_attribute("inputmode") == "text"
    page.goto(address + "play?game=digits&seed=1")
    assert page.locator('input[name="guess"]').get_attribute("inputmode") == "numeric"
    page.goto(address + "assist?game=bottles%3An%3D7")
    assert "label your real bottles A to G" in page.locator("p.labels").inner_text()


def test_the_trees_root_picture_is_drawn_at_its_own_size(browser: Any, address: str) -> None:
    """The root's picture is not shrunk to the phone's width (its 12 px text would be unreadable):
    it keeps its size in a frame that pans, and the page stays as wide as the phone."""
    page = new_phone(browser, width=360)
    page.goto(address + "tree?game=mastermind%3Apegs%3D3%2Ccolors%3D4&s=minmax")
    page.wait_for_function(READY["tree"], timeout=60_000)
    page.reload()
    page.wait_for_function(
        "(i => i && i.complete && i.naturalWidth > 0)(document.querySelector('img.picture'))"
    )
    drawn = page.locator("img.picture").evaluate("i => [i.naturalWidth, i.getBoundingClientRect().width]")
    assert drawn[0] > 360 and drawn[1] == drawn[0]
    assert not overflow(page)


def history_length(page: Any) -> int:
    return int(page.evaluate("history.length"))


def test_without_javascript_the_back_button_undoes_guesses(browser: Any, address: str) -> None:
    """Without JavaScript a guess is picked place by place in one form and sent whole: against
    the computer each guess is one step of the history, at the table a guess and its score two,
    and Wordle's marks, picked letter by letter, one; whatever the taps, the back button goes
    back a guess."""
    page = new_phone(browser, width=360, script=False)
    for path in ("play?game=bottles%3An%3D7&seed=1", "play?game=words&seed=1", "assist?game=digits"):
        page.goto(address + path)  # rows of radio pieces, or lists of letters: as wide as the phone
        assert page.locator("form.picker").is_visible() and not overflow(page)
    page.goto(address + "play?game=bottles%3An%3D5&seed=5")
    start = history_length(page)
    assert page.locator("nav.pieces").is_hidden() and page.locator("form.picker").is_visible()
    assert not overflow(page)
    for number, guess in enumerate(("EDCBA", "BADCE"), 1):
        for place, piece in enumerate(guess):
            page.locator(f'input[name="p{place}"][value="{piece}"]').check(force=True)
        page.locator("form.picker button").click()
        page.wait_for_selector(f".history li >> nth={number - 1}")
        assert history_length(page) == start + number
    page.go_back()
    assert page.locator(".history li").count() == 1
    assert page.locator(".history li").get_attribute("data-guess") == "EDCBA"
    page.goto(address + "assist?game=bottles%3An%3D5")
    start = history_length(page)
    for place, piece in enumerate("ABCDE"):
        page.locator(f'input[name="p{place}"][value="{piece}"]').check(force=True)
    page.locator("form.picker button").click()
    page.locator("a.score").first.click()
    page.wait_for_selector(".history li")
    assert page.locator(".history li").count() == 1 and history_length(page) == start + 2
    page.go_back()
    page.go_back()
    assert page.locator(".history li").count() == 0 and "g=" not in page.url
    position = "assist?game=wordle&m=salet%3ABBYGB&g=broil"
    pattern = page.request.get(address + position.replace("assist?", "assist.json?")).json()["answers"][0][
        "feedback"
    ]
    page.goto(address + position)
    start = history_length(page)
    assert page.locator("nav.tiles").is_hidden() and not overflow(page)
    for place, mark in enumerate(pattern):
        page.locator(f'input[name="f{place}"][value="{mark}"]').check(force=True)
    page.locator("form.marks-picker button").click()
    page.wait_for_selector(".history li >> nth=1")  # the page after the form, however long it takes
    assert page.locator(".history li").count() == 2 and history_length(page) == start + 1
    assert page.locator(".history li").last.get_attribute("data-guess") == "broil"
    assert pattern in page.locator(".history li").last.inner_text()


def test_the_tap_that_plays_a_guess_is_a_step_of_the_history(browser: Any, address: str) -> None:
    """With htmx the taps replace the address, but the last piece, which plays the guess against
    the computer, adds it: the back button undoes that guess instead of leaving the game."""
    from playwright.sync_api import expect

    page = new_phone(browser, width=360)
    page.goto(address + "play?game=bottles%3An%3D5&seed=5")
    page.wait_for_function("window.htmx")
    for number, guess in enumerate(("EDCBA", "BADCE"), 1):
        for count, piece in enumerate(guess, 1):
            page.locator(f'a.tap[data-piece="{piece}"]').click()
            if count < len(guess):  # each tap's page is in before the next tap
                expect(page.locator(".slots")).to_have_attribute("data-typed", guess[:count])
        expect(page.locator(".history li")).to_have_count(number)
    page.go_back()
    expect(page.locator(".history li")).to_have_count(1)
    expect(page.locator(".history li").first).to_have_attribute("data-guess", "EDCBA")
