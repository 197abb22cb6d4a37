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
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_FETCHED = re.compile(r"<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)=\"(?:https?:)?//[^\"]*\"")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("site")
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
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
    return folder


def test_every_page_of_docs_is_built(site: Path) -> None:
    """Each page of ``docs/`` is a page of the site (the nav lists them all: strict mode says so)."""
    pages = {path.relative_to(ROOT / "docs").with_suffix(".html") for path in (ROOT / "docs").rglob("*.md")}
    assert pages <= {path.relative_to(site) for path in site.rglob("*.html")}


def test_the_api_page_shows_the_docstrings(site: Path) -> None:
    """The Python API page is built from the code: ``evaluate``'s, ``Game``'s and the feedback
    model's docstrings are on it."""
    from moocow.api import evaluate
    from moocow.engine.feedback import FeedbackModel
    from moocow.engine.game import Game

    html = (site / "api.html").read_text(encoding="utf-8")
    for documented in (evaluate, Game, FeedbackModel):
        first_line = (documented.__doc__ or "").strip().split("\n")[0]
        assert first_line and first_line.split("``")[0] in html, documented.__name__


def test_no_page_fetches_anything_from_the_network(site: Path) -> None:
    """Read offline, and no one is told a page was read: no font, script, style or picture from
    another host, and no analytics."""
    fetched = {page.name: _FETCHED.findall(page.read_text(encoding="utf-8")) for page in site.rglob("*.html")}
    assert {name: tags for name, tags in fetched.items() if tags} == {}
    assert not any("fonts.googleapis" in page.read_text(encoding="utf-8") for page in site.rglob("*.html"))
