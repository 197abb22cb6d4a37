"""A real browser for the web tests: Debian's chromium driven by Playwright (never a browser
Playwright downloads), and ``moocow serve`` as a user starts it. Where either is missing the
tests that need them skip, saying why."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
"""A phone's viewport (CSS pixels)."""
CRASHING = "mastermind:pegs=3,colors=4"
"""The game the crashing player's rounds are replayed in."""
STARTER = "import sys; from moocow.cli import main; sys.argv[0] = 'moocow'; main()"


def need_browser() -> None:
    """Skip the calling test, saying why, where the browser cannot run."""
    if not Path(CHROMIUM).exists():
        pytest.skip("no chromium here (apt-get install chromium; .ci/run does it)")
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra has it)")


@contextmanager
def served(*arguments: str, plugins: Sequence[Path] = ()) -> Iterator[str]:
    """``moocow [--plugin FILE ...] serve --port 0 ARGUMENTS`` running; yields its address."""
    loading = [argument for file in plugins for argument in ("--plugin", str(file))]
    process = subprocess.Popen(
        [sys.executable, "-c", STARTER, *loading, "serve", "--port", "0", *arguments],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        yield process.stdout.readline().split(" on ")[1].split()[0]
    finally:
        process.terminate()
        process.wait(timeout=30)


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's chromium, launched once for a module's tests (each page gets a context of its own)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


def new_phone(
    browser: Any,
    width: int = PHONE["width"],
    height: int = PHONE["height"],
    dark: bool = False,
    script: bool = True,
) -> Any:
    """A page at a phone's size in a context of its own (``script=False``: JavaScript off)."""
    context = browser.new_context(
        viewport={"width": width, "height": height},
        device_scale_factor=1,
        is_mobile=True,
        has_touch=True,
        color_scheme="dark" if dark else "light",
        java_script_enabled=script,
    )
    return context.new_page()


def overflow(page: Any, tables: bool = True) -> list[str]:
    """What makes the page wider than its viewport, or scrolls sideways inside it: the document
    itself and every ``.scroll`` box (pictures meant to be panned are not ``.scroll``; with
    ``tables=False`` a table may pan in its box, as WCAG's reflow allows data tables). The page is
    measured against the screen's width (``clientWidth``), not ``innerWidth``: on a phone's viewport
    chromium widens ``innerWidth`` to the page's own width, and a page too wide passed unseen."""
    return page.evaluate(
        """tables => {
        const wide = [];
        const doc = document.documentElement;
        if (doc.scrollWidth > doc.clientWidth)
            wide.push(`the page: ${doc.scrollWidth} px in ${doc.clientWidth}`);
        for (const box of tables ? document.querySelectorAll('.scroll') : [])
            if (box.scrollWidth > box.clientWidth + 1)
                wide.push(`${box.firstElementChild.className}: ${box.scrollWidth} px in ${box.clientWidth}`);
        return wide;
    }""",
        tables,
    )


def crashing_tournament(folder: Path) -> tuple[str, Path]:
    """A small tournament's results in ``folder``: minmax, and a player that crashes named by its
    path (long, without a space to break it at); the player's path and the results file."""
    place = folder / "students" / "a-rather-long-folder-name" / "submission-0042"
    place.mkdir(parents=True)
    for level in [place, *place.parents][:4]:
        level.chmod(0o755)  # as root the sandbox runs players as another user
    player = place / "crashing_player_with_a_long_name.py"
    shutil.copy(Path(__file__).parent / "players" / "crash.py", player)
    results = place / "results.jsonl"
    arguments = ["tournament", "-p", "minmax", "-p", str(player), "-g", CRASHING, "-g", "bottles:n=4"]
    arguments += ["-r", "1", "--seed", "3", "--results", str(results)]
    subprocess.run([sys.executable, "-c", STARTER, *arguments], check=True, capture_output=True)
    return str(player), results


def every_page(player: str) -> dict[str, str]:
    """Every kind of page, as a visitor reaches it (small games, so that each answers at once)."""
    named = quote(player, safe="")
    shown = {
        "home": "",
        "results": "results",
        "leaderboard": "results/0",
        "crashed player": f"results/0/player?name={named}",
        "crashed round": "results/0/round?" + urlencode({"player": player, "game": CRASHING, "round": 0}),
        "tree": "tree?game=mastermind%3Apegs%3D3%2Ccolors%3D4&s=minmax",
        "tree node": "tree?game=mastermind%3Apegs%3D3%2Ccolors%3D4&s=minmax&a=0B1W",
        "compare": "evaluate?game=bottles%3An%3D5&s=minmax&s=first",
        "error": "assist?game=nothing",
        "seven bottles, scores": "assist?game=bottles%3An%3D7&m=ABCDEFG%3A1&g=ACBEDGF",
        "mastermind, scores": "assist?game=mastermind&m=1122%3A0B1W&g=3345",
        "wordle, tiles": "assist?game=wordle&m=salet%3ABBYGB&g=broil&f=GBYBG",
        "review": "play?game=bottles%3An%3D5&seed=5&m=ABCDE&m=BADCE&end=1",
    }
    for game in ("bottles:n=7", "mastermind", "digits", "words", "wordle"):
        shown[f"assist {game}"] = "assist?" + urlencode(
            {"game": game, **({"m": "salet:BBYGB"} if game == "wordle" else {})}
        )
        shown[f"play {game}"] = "play?" + urlencode({"game": game, "seed": 1})
    return shown


READY = {
    "tree": "document.querySelector('ul.branches')",
    "tree node": "document.querySelector('ul.branches')",
    "compare": "document.querySelector('svg.bars') && !document.querySelector('progress')",
}
"""Pages that wait for a computation: what shows it is done."""


def opened(page: Any, address: str, name: str, path: str) -> None:
    """``page`` at one of ``every_page``, waiting for what it computes."""
    page.goto(address + path)
    if name in READY:
        page.wait_for_function(READY[name], timeout=60_000)
        page.reload()
