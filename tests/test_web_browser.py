"""The pages in a real browser at a phone's size: a seven-bottle game at the table played by
tapping, a game against the computer, a results file opened and a round replayed. One chromium
and one server serve the module (each test a page of its own); the widths of every page are
measured in ``test_web_phone``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from moocow import api
from moocow.cli import app
from moocow.engine.solve import secret_index
from moocow.play.opponent import deal_secret, scored
from tests.browser import PHONE, new_phone, served


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    with served() as served_at:
        yield served_at


def tap_guess(page, guess: str) -> None:  # type: ignore[no-untyped-def]
    """Tap each piece of ``guess``, waiting for the page to show it (the last tap's page is the
    caller's to wait for: the scores at the table, the computer's answer in a game)."""
    from playwright.sync_api import expect

    for count, piece in enumerate(guess, 1):
        page.locator(f'a.tap[data-piece="{piece}"]').click()
        if count < len(guess):
            expect(page.locator(".slots")).to_have_attribute("data-typed", guess[:count])


def fits_the_phone(page) -> None:  # type: ignore[no-untyped-def]
    """Nothing wider than the screen, and pieces big enough for a finger."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for box in [tap.bounding_box() for tap in page.locator("a.tap").all()]:
        assert box is not None and box["width"] >= 44 and box["height"] >= 44


def test_a_seven_bottle_game_at_the_table_by_tapping(browser: Any, address: str) -> None:
    """Pieces, score, undo (a button and the back button) and the win, by taps alone."""
    from playwright.sync_api import expect

    game = api.load_game("bottles:n=7")
    secret = 2024
    page = new_phone(browser)
    page.goto(address)
    page.get_by_role("link", name="bottles:n=7").first.click()
    expect(page.locator(".remaining")).to_contain_text("5,040 arrangements")
    fits_the_phone(page)
    undone = False
    entries = page.locator(".history li")
    for number in range(1, 11):
        guess = page.locator(".suggestion a").inner_text().split()[0]
        tap_guess(page, guess)
        value, solved = scored(game, secret, game.guess_index(guess))
        feedback = game.format_feedback(value)
        page.locator(f'a.score[data-feedback="{feedback}"]').click()
        expect(entries).to_have_count(number)
        if solved:
            break
        remaining = page.locator(".remaining strong").inner_text()
        if not undone:  # the back button undoes, forward redoes, then Undo and enter it again
            page.go_back()
            expect(entries).to_have_count(0)
            page.go_forward()
            expect(page.locator(".remaining strong")).to_have_text(remaining)
            page.get_by_role("link", name="Undo").click()
            expect(entries).to_have_count(0)
            tap_guess(page, guess)
            page.locator(f'a.score[data-feedback="{feedback}"]').click()
            expect(page.locator(".remaining strong")).to_have_text(remaining)
            undone = True
    expect(page.locator(".solved")).to_contain_text("Solved in")
    expect(entries.last).to_have_attribute("data-guess", game.format_code(game.secrets[secret]))


def test_a_game_against_the_computer(browser: Any, address: str) -> None:
    """A wrong guess gets its score, the right one wins, and the review compares with the engine."""
    from playwright.sync_api import expect

    game = api.load_game("bottles:n=5")
    secret = game.format_code(game.secrets[deal_secret(game, 5)])
    wrong = "EDCBA" if secret != "EDCBA" else "ABCDE"
    page = new_phone(browser)
    page.goto(address + "play?game=bottles%3An%3D5&seed=5")
    expect(page.locator(".remaining")).to_contain_text("I have chosen a secret")
    assert secret not in page.content().split("<main>")[1].split("<section")[0]
    page.get_by_text("Type it instead").click()  # a refusal is shown, with htmx as without
    page.get_by_role("textbox", name="Guess").fill("ABCDX")
    page.get_by_role("button", name="Guess").click()
    expect(page.locator(".error")).to_contain_text("error: ")
    tap_guess(page, wrong)
    expect(page.locator(".history li").first).to_have_attribute("data-guess", wrong)
    tap_guess(page, secret)
    expect(page.locator(".solved")).to_contain_text("Solved in 2 guesses")
    expect(page.locator("table.review tbody tr")).to_have_count(2)
    fits_the_phone(page)


def test_a_results_file_is_opened_and_a_round_replayed(browser: Any, tmp_path: Path) -> None:
    """From the first page to the leaderboard, a player's rounds and one round, step by step."""
    from playwright.sync_api import expect

    results = tmp_path / "results.jsonl"
    arguments = ["tournament", "-p", "minmax", "-p", "first", "-g", "mastermind", "-r", "2", "--seed", "7"]
    assert CliRunner().invoke(app, [*arguments, "--results", str(results)]).exit_code == 0
    with served("--results", str(results)) as address:
        page = new_phone(browser)
        page.goto(address)
        page.get_by_role("link", name="results.jsonl").click()
        expect(page.locator("h2").first).to_have_text("mastermind")  # one game: its table alone
        page.locator("table.standings a", has_text="first").first.click()
        expect(page.locator("h1")).to_have_text("first")
        page.get_by_role("link", name="replay").first.click()
        rows = page.locator("table.review tbody tr")
        expect(rows.first).to_be_visible()
        assert rows.count() >= 1 and "minmax" in page.locator("table.review thead").inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_tree_is_unfolded_node_by_node(browser: Any, address: str) -> None:
    """The tree page waits for the tree, then a tap unfolds an answer and another opens its node."""
    from playwright.sync_api import expect

    page = new_phone(browser)
    page.goto(address + "tree?game=mastermind%3Apegs%3D2%2Ccolors%3D4&s=minmax")
    expect(page.locator(".node")).to_contain_text("Play 12: 16 secrets here", timeout=60_000)
    branch = page.locator("ul.branches details").first
    branch.locator("summary").click()
    expect(branch.locator("ul.below li").first).to_be_visible()
    branch.get_by_role("link", name="Open 33").click()
    expect(page.locator(".trail")).to_contain_text("0B0W → 33")
    expect(page.locator(".node")).to_contain_text("Play 33: 4 secrets here")
    drawn = "(i => i && i.complete && i.naturalWidth > 0)(document.querySelector('img.picture'))"
    page.wait_for_function(drawn)  # the node's SVG picture loads as an image


def test_wordle_at_the_table_by_tapping_tiles(browser: Any, address: str) -> None:
    """The suggestion tapped in shows its letters as tiles; each tap cycles a tile's mark (grey,
    yellow, green) with htmx, and the pattern of the secret is recorded; the page fits a phone."""
    from playwright.sync_api import expect

    game = api.load_game("wordle:list=official")
    secret = game.secrets[secret_index(game, "cider")]
    page = new_phone(browser)
    page.goto(address + "assist?game=wordle%3Alist%3Dofficial")
    suggestion = page.locator(".suggestion a")
    expect(suggestion).to_be_visible(timeout=60_000)
    guess = suggestion.inner_text().split()[0]
    suggestion.click()
    tiles = page.locator("nav.tiles")
    expect(tiles).to_have_attribute("data-pattern", "B" * 5)
    tile = page.locator("a.tile").nth(2)
    for pattern, name in (("BBYBB", "yellow"), ("BBGBB", "green"), ("BBBBB", "grey")):
        tile.click()
        expect(tiles).to_have_attribute("data-pattern", pattern)
        expect(page.locator("a.tile").nth(2)).to_have_attribute("data-mark", name)
    value = int(game.feedback(game.guesses[game.guess_index(guess)][None, :], secret[None, :])[0, 0])
    for place, mark in enumerate(game.feedback_model.parts(value)):
        for _ in range(mark):
            before = tiles.get_attribute("data-pattern")
            page.locator("a.tile").nth(place).click()
            expect(tiles).not_to_have_attribute("data-pattern", before or "")
    expect(tiles).to_have_attribute("data-pattern", game.format_feedback(value))
    fits_the_phone(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator("#record").click()
    expect(page.locator(".history li")).to_have_count(1)
    page.locator(".suggestion a").click()
    expect(tiles).to_be_visible()
    page.locator("a.tile").nth(0).click()
    expect(tiles).to_have_attribute("data-pattern", "YBBBB")
