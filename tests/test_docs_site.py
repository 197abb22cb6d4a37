"""The manual builds as a site, offline and strictly, and asks nothing of the network to be read.

``mkdocs build --strict`` runs with no network where it can (as root, in a network namespace of its
own: CI's case), and fails on a broken link, a missing anchor, a page left out of the nav
and a docstring reference that does not resolve; the built pages must load no font, script or
style from elsewhere (Material fetches Google Fonts unless ``theme.font`` is false).
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urljoin

import pytest

ROOT = Path(__file__).resolve().parents[1]
_FETCHED = re.compile(r"<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)=\"(?:https?:)?//[^\"]*\"")


def readme_commands() -> dict[str, dict[str, str]]:
    """The README's ``mkdocs`` commands (``serve``, ``build``), each with the variables it sets."""
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    found = re.findall(r"`((?:[A-Z0-9_]+=\S+ )*)\.venv/bin/mkdocs (serve|build)`", readme)
    return {verb: dict(item.split("=", 1) for item in assigned.split()) for assigned, verb in found}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The site, built as the README builds it (its variables set), and what the build printed."""
    folder = tmp_path_factory.mktemp("site")
    inherited = {name: value for name, value in os.environ.items() if "MKDOCS_2" not in name}
    environment = {**inherited, **readme_commands()["build"]}
    offline = ["unshare", "--net"] if os.geteuid() == 0 and shutil.which("unshare") else []
    completed = subprocess.run(
        [*offline, sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(folder)],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    return folder, completed.stdout + completed.stderr


@pytest.fixture(scope="module")
def site(built: tuple[Path, str]) -> Path:
    return built[0]


def test_the_readme_builds_and_serves_the_site_without_the_themes_notice(built: tuple[Path, str]) -> None:
    """``mkdocs build`` and ``serve`` printed a notice of a dozen lines about MkDocs 2.0 before
    anything else; Material prints it unless ``NO_MKDOCS_2_WARNING`` is set, as the README's
    commands now set it."""
    commands = readme_commands()
    assert set(commands) == {"serve", "build"}
    assert all(variables.get("NO_MKDOCS_2_WARNING") for variables in commands.values()), commands
    assert "NO_MKDOCS_2_WARNING" not in built[1] and "end of life" not in built[1], built[1]


def test_every_page_of_docs_is_built(site: Path) -> None:
    """Each page of ``docs/`` is a page of the site (the nav lists them all: strict mode says so)."""
    pages = {page_folder(path.relative_to(ROOT / "docs")) for path in (ROOT / "docs").rglob("*.md")}
    assert pages <= {path.relative_to(site) for path in site.rglob("*.html")}


def test_the_api_page_shows_the_docstrings(site: Path) -> None:
    """The Python API page is built from the code: ``evaluate``'s, ``Game``'s and the feedback
    model's docstrings are on it."""
    from moocow.api import evaluate
    from moocow.engine.feedback import FeedbackModel
    from moocow.engine.game import Game

    html = (site / "api" / "index.html").read_text(encoding="utf-8")
    for documented in (evaluate, Game, FeedbackModel):
        first_line = (documented.__doc__ or "").strip().split("\n")[0]
        assert first_line and first_line.split("``")[0] in html, documented.__name__


def test_no_page_fetches_anything_from_the_network(site: Path) -> None:
    """Read offline, and no one is told a page was read: no font, script, style or picture from
    another host, and no analytics."""
    fetched = {page.name: _FETCHED.findall(page.read_text(encoding="utf-8")) for page in site.rglob("*.html")}
    assert {name: tags for name, tags in fetched.items() if tags} == {}
    assert not any("fonts.googleapis" in page.read_text(encoding="utf-8") for page in site.rglob("*.html"))


def page_folder(page: Path) -> Path:
    """Where the site puts a page of ``docs/``: ``api.md`` at ``api/index.html`` (``use_directory_urls``)."""
    return page.with_suffix("") / "index.html" if page.stem != "index" else page.with_suffix(".html")


class _Links(HTMLParser):
    """The ``href`` and ``src`` of a page's tags."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found += [value for name, value in attrs if name in ("href", "src") and value]


def internal_links(page: Path, site: Path) -> set[str]:
    """The site's own addresses a page links to, as a browser resolves them, without fragments."""
    parser = _Links()
    parser.feed(page.read_text(encoding="utf-8"))
    here = "/" + page.relative_to(site).as_posix()
    resolved = {urljoin(here, link) for link in parser.found}
    return {urldefrag(link)[0] for link in resolved if link.startswith("/") and not link.startswith("//")}


def test_every_internal_link_works_when_a_static_server_serves_the_site(site: Path) -> None:
    """With ``.html`` addresses, ``/api/`` (the address MkDocs sites use, and a reader types) was a
    404 from a plain static server. Served by ``python -m http.server``, every page's every link to
    the site, and every page's folder address, is found."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(site)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        _wait_for(base)
        pages = sorted(site.rglob("*.html"))
        links = set().union(*(internal_links(page, site) for page in pages)) | {"/api/", "/wordle/"}
        missing = sorted(link for link in links if _status(base + link) != 200)
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert len(links) > 50 and missing == [], missing


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


def _wait_for(url: str) -> None:
    """Until the server answers (it starts in well under a second)."""
    deadline = time.monotonic() + 20
    while True:
        try:
            _status(url)
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
