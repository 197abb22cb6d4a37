"""A real browser for the web tests: Debian's chromium driven by Playwright (never a browser
Playwright downloads), and ``moocow serve`` as a user starts it. Where either is missing the
tests that need them skip, saying why."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
"""A phone's viewport (CSS pixels)."""
STARTER = "import sys; from moocow.cli import main; sys.argv[0] = 'moocow'; main()"


def need_browser() -> None:
    """Skip the calling test, saying why, where the browser cannot run."""
    if not Path(CHROMIUM).exists():
        pytest.skip("no chromium here (apt-get install chromium; .ci/run does it)")
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the test extra has it)")


@contextmanager
def served(*arguments: str) -> Iterator[str]:
    """``moocow serve --port 0 ARGUMENTS`` running; yields its address."""
    process = subprocess.Popen(
        [sys.executable, "-c", STARTER, "serve", "--port", "0", *arguments], stdout=subprocess.PIPE, text=True
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


@contextmanager
def phone(width: int = PHONE["width"], height: int = PHONE["height"], dark: bool = False) -> Iterator[Any]:
    """A page in chromium at a phone's size."""
    with chromium() as browser:
        yield new_phone(browser, width, height, dark)


def overflow(page: Any) -> list[str]:
    """What makes the page wider than its viewport, or scrolls sideways inside it: the document
    itself and every ``.scroll`` box (pictures meant to be panned are not ``.scroll``)."""
    return page.evaluate(
        """() => {
        const wide = [];
        const doc = document.documentElement;
        if (doc.scrollWidth > innerWidth) wide.push(`the page: ${doc.scrollWidth} px in ${innerWidth}`);
        for (const box of document.querySelectorAll('.scroll'))
            if (box.scrollWidth > box.clientWidth + 1)
                wide.push(`${box.firstElementChild.className}: ${box.scrollWidth} px in ${box.clientWidth}`);
        return wide;
    }"""
    )
