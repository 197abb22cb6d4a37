"""Take the screenshots in docs/ at a phone's width (390 px): ``.venv/bin/python -m tests.screenshots``
(or only those named: ``-m tests.screenshots web-wordle.png every``).

``every`` is a picture of each kind of page (``tests.browser.every_page``, the pages the browser
tests measure) in docs/screenshots/, linked from docs/web.md; the others are the pictures the docs
show beside their text. ``moocow serve`` runs on two small tournaments' results (one with a
player that crashes, named by a long path) and Debian's chromium photographs each page as the
browser tests drive it.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from tests import browser as web

DOCS = Path(__file__).resolve().parent.parent / "docs"
EVERY = DOCS / "screenshots"
SEVEN = "assist?game=bottles%3An%3D7"
SHOTS = {
    "web-assistant.png": SEVEN + "&m=ABCDEFG%3A1&m=ACBEDGF%3A2&g=ADCGEFB",
    "web-play-review.png": "play?game=bottles%3An%3D5&seed=5",
    "web-results.png": "results/1",
    "web-round.png": "results/1/round?player=first&game=mastermind&round=1",
    "web-compare.png": "evaluate?game=bottles%3An%3D7&s=minmax&s=entropy&s=first",
    "web-tree.png": "tree?game=mastermind&s=minmax&a=1B1W",
    "web-wordle.png": "assist?game=wordle%3Alist%3Dofficial&m=salet%3ABBYGB&g=broil&f=GBYBG",
}
WAIT = {
    "web-compare.png": "document.querySelector('svg.bars') && !document.querySelector('progress')",
    "web-tree.png": "document.querySelector('ul.branches')",
}
"""Pages that poll until a computation ends: what shows it has."""


def file_name(name: str) -> str:
    """A page's name as a file's: ``assist bottles:n=7`` is ``assist-bottles-n-7.png``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") + ".png"


def named_shot(page: Any, address: str, name: str, dark: bool) -> None:
    page.goto(address + SHOTS[name])
    if name == "web-play-review.png":
        page.goto(page.url + "&m=ABCDE&m=BADCE&end=1")
    if name in WAIT:
        page.wait_for_function(WAIT[name], timeout=120_000)
        page.reload()
    if name == "web-tree.png":
        page.locator("details").first.evaluate("d => d.open = true")
    page.screenshot(path=str(DOCS / (name.replace(".png", "-dark.png") if dark else name)))


def every_shot(browser: Any, address: str, player: str) -> None:
    """A picture of each kind of page; the old ones are replaced, so none is left stale."""
    EVERY.mkdir(exist_ok=True)
    for old in EVERY.glob("*.png"):
        old.unlink()
    page = web.new_phone(browser)
    for name, path in web.every_page(player).items():
        web.opened(page, address, name, path)
        page.screenshot(path=str(EVERY / file_name(name)))


def main() -> None:
    web.need_browser()
    wanted = set(sys.argv[1:]) or {*SHOTS, "every"}
    with tempfile.TemporaryDirectory() as folder:
        Path(folder).chmod(0o755)
        player, crashing = web.crashing_tournament(Path(folder))
        course = Path(folder) / "course.jsonl"
        tournament = ["tournament", "-p", "minmax", "-p", "entropy", "-p", "first", "-p", "random"]
        tournament += ["-g", "mastermind", "-g", "bottles:n=5", "-r", "4", "--seed", "7", "--mercy", "6"]
        subprocess.run(
            [sys.executable, "-c", web.STARTER, *tournament, "--results", str(course)],
            check=True,
            capture_output=True,
        )
        with (
            web.served("--results", str(crashing), "--results", str(course)) as address,
            web.chromium() as browser,
        ):
            if "every" in wanted:
                every_shot(browser, address, player)
            for dark in (False, True):
                page = web.new_phone(browser, dark=dark)
                for name in SHOTS:
                    if name in wanted and (not dark or name == "web-assistant.png"):
                        named_shot(page, address, name, dark)


if __name__ == "__main__":
    main()
