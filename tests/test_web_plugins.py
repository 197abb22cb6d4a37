"""Every page, for every kind of game a plugin can register, loaded either way: ``moocow --plugin
FILE serve`` and a package installed by pip (its entry point), through a real ``moocow serve``
whose job processes must load the plugins too. A crawler follows every link of every page from a
few starting addresses and requires each route of the app to be reached (a new page is covered
without touching this file) and no answer to be a 500 or show a Python object's text."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter, deque
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from moocow.web.app import create_app
from tests.test_plugins import JOTTO, MARKS, _builds_wheels_offline

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
FILES = [
    EXAMPLES / "jotto" / "moocow_jotto" / "__init__.py",
    EXAMPLES / "marks_mastermind" / "moocow_marks_mastermind" / "__init__.py",
    EXAMPLES / "higher_lower.py",
    EXAMPLES / "bagels.py",
    Path(__file__).parent / "web_plugins" / "odd.py",
]
BY_FILE = [
    "jotto",
    "marks_mastermind:pegs=2,colors=3",
    "higher_lower:n=12",
    "bagels:length=2",
    "fruit",
    "paint",
]
"""The games of ``FILES``: counts, marks, a kind of its own, guesses that are not secrets, emoji and
HTML's characters as pieces, marks on codes written as words."""
BY_PIP = ["jotto", "marks_mastermind:pegs=2,colors=3"]
STARTER = "import sys; from moocow.cli import main; sys.argv[0] = 'moocow'; main()"
PER_ROUTE = 2
"""Addresses visited per route and game: enough for every kind of link, few enough to be quick."""


def routes() -> dict[str, re.Pattern[str]]:
    """Every GET route of the app: its path, and the pattern a path is matched against."""
    app = create_app().app
    found = [route for route in app.routes if "GET" in (getattr(route, "methods", None) or ())]
    return {route.path: route.path_regex for route in found}


ROUTES = routes()


def route_of(path: str) -> str | None:
    return next((route for route, pattern in ROUTES.items() if pattern.match(path)), None)


@contextmanager
def served(loading: list[str], options: list[str], env: dict[str, str]) -> Iterator[httpx.Client]:
    """A real ``moocow LOADING serve OPTIONS --port 0``, and a client of it while it runs."""
    process = subprocess.Popen(
        [sys.executable, "-c", STARTER, *loading, "serve", *options, "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, **env},
    )
    try:
        assert process.stdout is not None
        address = re.search(r"http://[^/]+", process.stdout.readline())
        assert address is not None
        with httpx.Client(base_url=address.group(0), timeout=120) as web:
            yield web
    finally:
        process.terminate()
        process.wait(timeout=10)


def moocow(*arguments: str, env: dict[str, str]) -> None:
    """``moocow ARGUMENTS`` in a process of its own; it must succeed."""
    done = subprocess.run(
        [sys.executable, "-c", STARTER, *arguments], capture_output=True, text=True, env={**os.environ, **env}
    )
    assert done.returncode == 0, done.stderr


def played(folder: Path, loading: list[str], games: list[str], env: dict[str, str]) -> Path:
    """A tournament's results over ``games``, played with the plugins loaded."""
    path = folder / "results.jsonl"
    chosen = [argument for game in games for argument in ("-g", game)]
    moocow(
        *loading,
        "tournament",
        "-p",
        "first",
        "-p",
        "minmax",
        *chosen,
        "-r",
        "2",
        "--seed",
        "3",
        "--results",
        str(path),
        env=env,
    )
    return path


def finished(web: httpx.Client, path: str, game: str) -> None:
    """Wait for the evaluation or tree of ``game`` to end (its job runs in a worker process)."""
    for _ in range(300):
        data = web.get(path, params={"game": game, "s": "minmax"}).json()
        jobs = data.get("strategies") or [data.get("pending") or {"state": "done"}]
        if all(job["state"] in ("done", "failed") for job in jobs):
            assert all(job["state"] == "done" for job in jobs), (game, jobs)
            return
        time.sleep(0.1)
    pytest.fail(f"{path} for {game} still running: the job process did not load the plugin")


def crawl(web: httpx.Client, games: list[str], more: list[str]) -> Counter[str]:
    """Visit the pages of ``games`` (and ``more``) link by link, the first few of each route with
    their JSON twins; the routes reached."""
    for game in games:
        finished(web, "/evaluate.json", game)
        finished(web, "/tree.json", game)
    seeds = ["/", "/results", "/results/0", *more]
    for game in games:
        seeds += [f"/assist?game={game}", f"/play?game={game}", f"/evaluate?game={game}&s=minmax"]
        seeds += [f"/tree?game={game}&s=minmax"]
    queue, seen, reached = deque(seeds), set(seeds), Counter[str]()
    while queue:
        address = queue.popleft()
        route = route_of(address.partition("?")[0])
        if route is None or reached[route] >= PER_ROUTE * len(games):
            continue
        reached[route] += 1
        response = web.get(address, follow_redirects=True)
        assert response.status_code < 500, (address, response.text)
        assert "built-in method" not in response.text and "bound method" not in response.text, address
        if "json" in response.headers.get("content-type", ""):
            json.loads(response.text)
            continue
        path, _, query = str(response.url.raw_path.decode()).partition("?")
        if not path.endswith((".json", ".svg")) and path != "/" and reached[route] <= len(games):
            twin = f"{path}.json" + (f"?{query}" if query else "")
            reached[route_of(f"{path}.json") or "?"] += 1
            assert web.get(twin).status_code < 500, twin
        for link in re.findall(r'(?:href|src)="(/[^"]*)"', response.text):
            link = link.replace("&amp;", "&")
            if not link.startswith("/static") and link not in seen:
                seen.add(link)
                queue.append(link)
    return reached


def uploaded(web: httpx.Client, tree: Path) -> str:
    """A tree file sent as the first page's form sends it: where it is shown."""
    response = web.post("/tree", files={"file": ("tree.json", tree.read_bytes(), "application/json")})
    assert response.status_code == 303, response.text
    return response.headers["location"]


def check_every_route(reached: Counter[str]) -> None:
    missing = [route for route in ROUTES if not reached[route]]
    assert not missing, f"pages never reached with a plugin game: {missing}"


def installed(work: Path, *examples: Path) -> Path:
    """The example packages installed by one pip command into a folder of ``work``."""
    if importlib.util.find_spec("pip") is None:
        pytest.skip("pip is not available")
    sources = [shutil.copytree(example, work / example.name) for example in examples]  # build/ goes there
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(work / "site")]
    if _builds_wheels_offline():
        command += ["--no-build-isolation", "--no-index"]
    done = subprocess.run([*command, *map(str, sources)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return work / "site"


def test_every_page_works_for_plugin_games_loaded_from_files(tmp_path: Path) -> None:
    """``moocow --plugin FILE serve``: the examples and the odd games, every page, no 500."""
    loading = [argument for file in FILES for argument in ("--plugin", str(file))]
    env = {"MOOCOW_LOAD_PLUGINS": ""}
    results = played(tmp_path, loading, BY_FILE, env)
    tree = tmp_path / "paint.json"
    moocow(*loading, "tree", "paint", "--save", str(tree), env=env)
    with served(loading, ["--results", str(results), "--tree", str(tree)], env) as web:
        check_every_route(crawl(web, BY_FILE, [uploaded(web, tree), "/tree?file=0"]))


def test_every_page_works_for_plugin_games_installed_with_pip(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """The Jotto and marks packages installed by pip, found through their entry points."""
    site = installed(tmp_path_factory.mktemp("site"), JOTTO, MARKS)
    env = {"PYTHONPATH": str(site), "MOOCOW_LOAD_PLUGINS": "jotto,marks_mastermind"}
    results = played(tmp_path_factory.mktemp("results"), [], BY_PIP, env)
    with served([], ["--results", str(results)], env) as web:
        check_every_route(crawl(web, BY_PIP, []))
