"""Helpers for the web tests: a client on a fresh app, and the JSON twin of a page's link."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from moocow.web.app import create_app


def client(**options: Any) -> TestClient:
    """A client of a fresh app; redirects are not followed, so tests see them."""
    return TestClient(create_app(**options), follow_redirects=False)


def as_json(link: str) -> str:
    """The JSON twin of a page's link."""
    path, _, query = link.partition("?")
    return f"{path}.json" + (f"?{query}" if query else "")
