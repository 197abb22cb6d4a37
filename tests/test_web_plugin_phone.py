"""Every example game tappable on the phone page: loaded from its file as ``moocow --plugin FILE
serve`` loads it, each game of ``examples/`` (found by its ``register_games`` hook, so a new one is
covered without touching this file) is played at the table at 360 and 390 px in a real chromium:
its pieces shown and tapped into a guess, the guess's score tapped on a button labelled in the
feedback's own words, and the JSON twin saying the board is tappable with its pieces. A game with
no pieces to tap (``paint``: its pieces are words) says to type the guess."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest

from tests.browser import STARTER, new_phone, overflow

ROOT = Path(__file__).resolve().parent.parent
ODD = Path(__file__).parent / "web_plugins" / "odd.py"
WIDTHS = (360, 390)
SHOTS = Path(os.environ.get("MOOCOW_SCREENSHOTS", "/tmp/moocow-plugin-phone"))
"""Where each game's page is photographed once its guess is in (for a person to look at)."""


def game_files() -> dict[str, Path]:
    """Every game of ``examples/``, by name: each plugin file or package whose hook registers one."""
    files = [*ROOT.glob("examples/*.py"), *ROOT.glob("examples/*/*/__init__.py")]
    games = {}
    for file in sorted(files):
        if "def register_games" not in file.read_text():
            continue
        spec = importlib.util.spec_from_file_location(f"_example_{file.parent.name}_{file.stem}", file)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        registered: list[Any] = []
        module.register_games(registered.append)
        games.update({game.name: file for game in registered})
    return games


EXAMPLES = game_files()


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    """``moocow --plugin FILE ... serve`` with every example and the odd games, no installed ones."""
    loading = [argument for file in {*EXAMPLES.values(), ODD} for argument in ("--plugin", str(file))]
    process = subprocess.Popen(
        [sys.executable, "-c", STARTER, *loading, "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "MOOCOW_LOAD_PLUGINS": ""},
    )
    try:
        assert process.stdout is not None
        found = re.search(r"http://[^/\s]+/?", process.stdout.readline())
        assert found is not None
        yield found.group(0).rstrip("/") + "/"
    finally:
        process.terminate()
        process.wait(timeout=30)


def twin(address: str, **params: str) -> dict[str, Any]:
    """The assistant's JSON twin at ``params``."""
    return httpx.get(f"{address}assist.json?{urlencode(params)}", timeout=120).json()


def test_every_example_game_is_found() -> None:
    assert {"bagels", "higher_lower", "jotto", "marks_mastermind"} <= set(EXAMPLES)


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_the_json_twin_says_every_example_game_is_tappable(address: str, game: str) -> None:
    data = twin(address, game=game)
    board = data["board"]
    assert board["tappable"] is True and board["all"], board
    assert {piece["piece"] for piece in board["pieces"]} <= set(board["all"])
    assert all(0 < len(piece) <= 3 for piece in board["all"])
    if data["own_kind"]:
        assert data["legend"], "a kind of its own names its parts"


def labelled(label: str | None) -> bool:
    """Whether a button's name says its score in words (``lower: 3 left``, ``1 fermi, 0 pico``)."""
    return bool(label) and re.search(r"[a-z]{3}", (label or "").split(":")[0]) is not None


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_every_example_game_is_played_by_taps(browser: Any, address: str, game: str, width: int) -> None:
    """Pieces tapped into a guess (the first piece offered each time), its score tapped on a
    button labelled in words, the entry in the history; nothing wider than the phone."""
    from playwright.sync_api import expect

    page = new_phone(browser, width=width)
    page.goto(f"{address}assist?{urlencode({'game': game})}")
    page.wait_for_function("window.htmx")
    length = twin(address, game=game)["board"]["length"]
    assert page.locator("nav.pieces a.tap").count() > 0 and page.locator(".untappable").count() == 0
    typed = ""
    for _ in range(length):
        tap = page.locator("nav.pieces a.tap").first
        box = tap.bounding_box()
        assert box is not None and box["width"] >= 40 and box["x"] + box["width"] <= width
        typed += tap.get_attribute("data-piece") or ""
        tap.click()
        expect(page.locator(".slots")).to_have_attribute("data-typed", typed)
    data = twin(address, game=game, g=typed)
    assert data["board"]["tappable"] is True and data["answers"]
    every = page.locator("details.typed summary", has_text="Every pattern")
    if every.count():  # marks: the tiles come first, every pattern's button under them
        every.click()
    scores = page.locator("a.score")
    expect(scores.first).to_be_visible()
    names = [score.get_attribute("aria-label") for score in scores.all()]
    assert all(map(labelled, names)), names
    if data["own_kind"]:
        legend = page.locator(".legend .names li")
        assert legend.all_inner_texts() == data["legend"]
    assert not overflow(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{game}-{width}.png"), full_page=True)
    chosen = next(answer for answer in data["answers"] if not answer["win"])
    page.locator(f'a.score[data-feedback="{chosen["feedback"]}"]').click()
    expect(page.locator(".history li")).to_have_count(1)
    expect(page.locator(".history li").first).to_have_attribute("data-guess", typed)
    assert chosen["feedback"] in page.locator(".history li").first.inner_text()


def test_a_game_with_nothing_to_tap_says_to_type_the_guess(browser: Any, address: str) -> None:
    """``paint``'s pieces are words: no keys, a visible hint, and the typing form open."""
    assert twin(address, game="paint")["board"]["tappable"] is False
    page = new_phone(browser, width=360)
    page.goto(address + "assist?game=paint")
    hint = page.locator(".untappable")
    assert hint.is_visible() and "Type it instead" in hint.inner_text()
    assert page.locator('input[name="guess"]').is_visible() and not overflow(page)


def test_declared_pieces_may_be_words_between_separators() -> None:
    """``paint`` declaring its paints as pieces gets keys; ``red-blue`` is two of them."""
    from moocow.play.pieces import keyboard, next_pieces

    spec = importlib.util.spec_from_file_location("_odd_games", ODD)
    assert spec is not None and spec.loader is not None
    odd = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(odd)
    assert keyboard(odd.Paint()) is None  # words longer than a derived key

    class Painted(odd.Paint):  # type: ignore[name-defined,misc]
        def pieces(self) -> tuple[str, ...]:
            return odd.PAINTS

    board = keyboard(Painted())
    assert board is not None and board.separator == "-" and board.split("red-blue") == ["red", "blue"]
    assert next_pieces(Painted(), "red") == ["red", "blue", "green"]
