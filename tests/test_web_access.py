"""Pages everyone can use, checked in a real chromium on every kind of page (the first page, the
assistant and a game for each built-in game and a plugin's, the tournament's results, a tree, a
comparison, an error): axe-core (bundled by ``axe-playwright-python``) finds no critical or serious
fault at 390 px, light or dark; every page reflows, with no sideways scroll, on a 320 px phone and
at 200% zoom; every page has one ``<h1>``; every link, button and field is a target of at least
44 x 44 px, as docs/web.md promises; and a Wordle entry is read aloud in words, not as ``BBYGB``.

200% zoom is emulated as a browser zooms: the window keeps its size, so the page is laid out in
half as many CSS pixels, each drawn with twice the device pixels (a 1280 px window at 200% is a
640 px viewport at a device scale of 2; the 390 px phone the pages are made for is 195 px). At
195 px a data table may pan inside its own box, as WCAG's reflow (1.4.10) allows two-dimensional
content; nothing else may, and at 320 px nothing at all."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import (
    PHONE,
    crashing_tournament,
    every_page,
    new_phone,
    opened,
    overflow,
    served,
)

PLUGIN = Path(__file__).resolve().parent.parent / "examples" / "bagels.py"
"""A plugin's example game, loaded as ``moocow --plugin FILE serve`` loads it."""
SERIOUS = ("critical", "serious")
TAP = 44
"""CSS pixels a target has at least, each way (docs/web.md; WCAG 2.5.5)."""
ZOOMED = {"a 1280 px window": (640, False), "a 390 px phone": (195, True)}
"""200% zoom: the CSS width each window is laid out in, and whether it is a phone."""
TARGETS = (
    "a[href], button, summary, select, input:not([type=hidden]):not([type=radio]),"
    " label:has(> input[type=radio])"
)
"""What a finger taps: a radio button is hidden in its label, which is the target."""


@pytest.fixture(scope="module")
def player(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """A small tournament's results, with a player that crashes named by a long path."""
    return crashing_tournament(tmp_path_factory.mktemp("access"))


@pytest.fixture(scope="module")
def address(player: tuple[str, Path]) -> Iterator[str]:
    """``moocow --plugin bagels.py serve`` over the tournament's results."""
    with served("--results", str(player[1]), plugins=[PLUGIN]) as served_at:
        yield served_at


@pytest.fixture(scope="module")
def pages(player: tuple[str, Path]) -> dict[str, str]:
    """Every kind of page, a plugin's game and an entry that cannot be played included."""
    return {
        **every_page(player[0]),
        "assist bagels": "assist?game=bagels",
        "play bagels": "play?game=bagels&seed=1",
        "an impossible entry": "assist?game=mastermind&m=1122%3A1B0W&m=3456%3A4B0W",
    }


def each_page(browser: Any, address: str, pages: dict[str, str], **context: Any) -> Iterator[tuple[str, Any]]:
    """Each page opened in a context of its own (``context``: the viewport and what else differs)."""
    for name, path in pages.items():
        made = browser.new_context(**{"viewport": PHONE, "is_mobile": True, "has_touch": True, **context})
        try:
            page = made.new_page()
            opened(page, address, name, path)
            yield name, page
        finally:
            made.close()


def axe_faults(page: Any) -> list[str]:
    """axe-core's critical and serious violations on the page, each with the elements it names."""
    reason = "axe-playwright-python is not installed (the test extra has it)"
    Axe = pytest.importorskip("axe_playwright_python.sync_playwright", reason=reason).Axe

    found = Axe().run(page).response["violations"]
    return [
        f"{fault['id']} ({fault['impact']}): {[node['target'] for node in fault['nodes']][:3]}"
        for fault in found
        if fault["impact"] in SERIOUS
    ]


def small_targets(page: Any) -> list[str]:
    """Every target on screen narrower or lower than ``TAP`` px, with its size."""
    return page.evaluate(
        """([selector, least]) => [...document.querySelectorAll(selector)]
        .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
        .map(e => [e, e.getBoundingClientRect()])
        .filter(([e, box]) => box.width < least - 0.5 || box.height < least - 0.5)
        .map(([e, box]) => `${e.tagName.toLowerCase()} "${e.textContent.trim().slice(0, 30)}": `
            + `${Math.round(box.width)} x ${Math.round(box.height)}`)""",
        [TARGETS, TAP],
    )


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_axe_finds_no_critical_or_serious_fault(
    browser: Any, address: str, pages: dict[str, str], dark: bool
) -> None:
    scheme = "dark" if dark else "light"
    faults = {
        name: axe_faults(page) for name, page in each_page(browser, address, pages, color_scheme=scheme)
    }
    assert not {name: found for name, found in faults.items() if found}


@pytest.mark.parametrize("script", [True, False], ids=["htmx", "no JavaScript"])
def test_every_page_has_one_h1_and_targets_of_44_px(
    browser: Any, address: str, pages: dict[str, str], script: bool
) -> None:
    """Without JavaScript the pieces are forms of radio buttons and lists: those count too."""
    headings, small = {}, {}
    for name, page in each_page(browser, address, pages, java_script_enabled=script):
        headings[name] = page.locator("h1").count()
        small[name] = small_targets(page)
    not_one = {name: count for name, count in headings.items() if count != 1}
    assert (not_one, {name: found for name, found in small.items() if found}) == ({}, {})


@pytest.mark.parametrize("script", [True, False], ids=["htmx", "no JavaScript"])
def test_every_page_reflows_on_a_320_px_phone(
    browser: Any, address: str, pages: dict[str, str], script: bool
) -> None:
    """Seven bottles and Wordle's letters, in rows of seven 44 px pieces, took 332 px: at 320 px
    the page scrolled sideways. Nothing may, not even a table in its box."""
    narrow = {"viewport": {"width": 320, "height": 640}, "java_script_enabled": script}
    wide = {name: overflow(page) for name, page in each_page(browser, address, pages, **narrow)}
    assert {name: found for name, found in wide.items() if found} == {}


@pytest.mark.parametrize("window", list(ZOOMED))
def test_every_page_reflows_at_200_percent_zoom(
    browser: Any, address: str, pages: dict[str, str], window: str
) -> None:
    width, phone = ZOOMED[window]
    zoomed = {"viewport": {"width": width, "height": 420}, "device_scale_factor": 2, "is_mobile": phone}
    wide = {
        name: overflow(page, tables=not phone) for name, page in each_page(browser, address, pages, **zoomed)
    }
    assert {name: found for name, found in wide.items() if found} == {}


def test_pieces_stay_44_px_in_even_rows_where_seven_do_not_fit(browser: Any, address: str) -> None:
    """At 320 px seven bottles are four and three, each at least 44 px, not six and one."""
    page = new_phone(browser, width=320)
    page.goto(address + "assist?game=bottles%3An%3D7")
    boxes = [tap.bounding_box() for tap in page.locator("nav.pieces .tap").all()]
    rows = sorted({round(box["y"]) for box in boxes if box})
    assert [sum(1 for box in boxes if box and round(box["y"]) == row) for row in rows] == [4, 3]
    assert all(box and box["width"] >= TAP and box["height"] >= TAP for box in boxes)


def test_a_wordle_entry_is_read_in_words(browser: Any, address: str) -> None:
    """A history entry read aloud was ``aries YBBYB``: each letter is read with its mark's name, as
    the tiles being tapped are; a count, ``0B1W``, is read as its fields."""
    page = new_phone(browser)
    page.goto(address + "assist?game=wordle&m=salet%3ABBYGB")
    named = "salet: s grey, a grey, l yellow, e green, t grey"
    assert page.get_by_role("link", name=named, exact=True).count() == 1
    page.goto(address + "play?game=wordle&seed=1")
    page.goto(page.url + "&m=salet")
    assert (
        page.locator(".history li")
        .get_by_role("img", name=re.compile(r"^salet: s (grey|yellow|green), "))
        .count()
    )
    page.goto(address + "assist?game=mastermind&m=1122%3A0B1W")
    assert page.get_by_role("link", name="1 1 2 2 0 black, 1 white", exact=True).count() == 1
