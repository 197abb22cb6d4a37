"""Take the screenshots in docs/ at a phone's width: ``.venv/bin/python docs/screenshots.py``
(or only those named: ``docs/screenshots.py web-wordle.png``).

It starts ``moocow serve`` on a results file made by a small tournament and photographs each kind
of page with Debian's chromium (as the browser tests drive it).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.browser import need_browser, phone, served

HERE = Path(__file__).resolve().parent
SEVEN = "assist?game=bottles%3An%3D7"
SHOTS = {
    "web-assistant.png": SEVEN + "&m=ABCDEFG%3A1&m=ACBEDGF%3A2&g=ADCGEFB",
    "web-play-review.png": None,
    "web-results.png": "results/0",
    "web-round.png": "results/0/round?player=first&game=mastermind&round=1",
    "web-compare.png": "evaluate?game=bottles%3An%3D7&s=minmax&s=entropy&s=first",
    "web-tree.png": "tree?game=mastermind&s=minmax&a=1B1W",
    "web-wordle.png": "assist?game=wordle%3Alist%3Dofficial&m=salet%3ABBYGB&g=broil&f=GBYBG",
}
WAIT = {
    "web-compare.png": "document.querySelector('svg.bars') && !document.querySelector('progress')",
    "web-tree.png": "document.querySelector('ul.branches')",
}
"""Pages that poll until a computation ends: what shows it has."""


def main() -> None:
    need_browser()
    wanted = set(sys.argv[1:]) or set(SHOTS)
    with tempfile.TemporaryDirectory() as folder:
        results = Path(folder) / "course.jsonl"
        tournament = ["tournament", "-p", "minmax", "-p", "entropy", "-p", "first", "-p", "random"]
        tournament += ["-g", "mastermind", "-g", "bottles:n=5", "-r", "4", "--seed", "7", "--mercy", "6"]
        starter = "import sys; from moocow.cli import main; sys.argv[0] = 'moocow'; main()"
        subprocess.run([sys.executable, "-c", starter, *tournament, "--results", str(results)], check=True)
        with served("--results", str(results)) as address:
            for dark in (False, True):
                with phone(dark=dark) as page:
                    for name, path in SHOTS.items():
                        if name not in wanted:
                            continue
                        if path is None:
                            page.goto(address + "play?game=bottles%3An%3D5&seed=5")
                            page.goto(page.url + "&m=ABCDE&m=BADCE&end=1")
                        else:
                            page.goto(address + path)
                        if name in WAIT:
                            page.wait_for_function(WAIT[name], timeout=120_000)
                            page.reload()
                        if name == "web-tree.png":
                            page.locator("details").first.evaluate("d => d.open = true")
                        shown = name.replace(".png", "-dark.png") if dark else name
                        if dark and name != "web-assistant.png":
                            continue
                        page.screenshot(path=str(HERE / shown))


if __name__ == "__main__":
    main()
