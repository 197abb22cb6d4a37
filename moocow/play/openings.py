"""First suggestions kept between sessions: the assistant's opening on a big game is the same every
time, and finding it is most of the wait before the first prompt.

On Wordle's official lists minmax scores 12,972 guesses against 2,315 answers before it can say
``arise``; ``moocow assist`` then asks again in every new process. The process keeps each opening
it found (the web page makes an assistant per request), and one that took long is written to the
user's cache, keyed by everything it depends on: the game's spec and its codes, the strategy's
spec and budget, and the engine's sources (an edit to any of them finds the opening afresh).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
import threading
from collections import OrderedDict
from pathlib import Path

from moocow.engine.game import Game
from moocow.engine.strategies import Strategy
from moocow.trees.follow import TreeStrategy

KEPT = 64
"""Openings the process keeps."""
SLOW = 0.5
"""Seconds from which an opening is worth writing to the cache."""
WRITTEN = 200
"""Openings the cache file keeps (the newest)."""
PACKAGE = Path(__file__).resolve().parent
SOURCES = ("engine", "plugins")
"""The folders whose code decides an opening: the strategies, the games, their scoring."""

LISTED = 200_000
"""Codes up to which the key holds the codes themselves: lists of words, read from packages that
may change. Larger games are made from their spec alone (hashing all their codes is slow)."""

Decision = tuple[int, str | None]
"""A guess index, and why it is a quick one (``None``: it is not)."""

_kept: OrderedDict[str, Decision] = OrderedDict()
_lock = threading.Lock()
"""The web server answers requests on several threads."""


def opening_key(game: Game, strategy: Strategy) -> str:
    """What an opening depends on, as one digest."""
    digest = hashlib.sha256()
    for part in (game.spec, strategy.spec, repr(strategy.budget), _sources_stamp()):
        digest.update(part.encode() + b"\0")
    if len(game.secrets) + len(game.guesses) <= LISTED:
        digest.update(game.secrets.tobytes())  # a list read from a package may change
        digest.update(game.guesses.tobytes())
    return digest.hexdigest()


def known_opening(key: str) -> Decision | None:
    """The opening found for ``key`` in this process or, slow to find, in an earlier one."""
    with _lock:
        if key in _kept:
            _kept.move_to_end(key)
            return _kept[key]
    found = _read().get(key)
    if found is None:
        return None
    decision = (int(found[0]), None if found[1] is None else str(found[1]))
    _keep(key, decision)
    return decision


def remember_opening(key: str, decision: Decision, seconds: float, lasting: bool) -> None:
    """Keep an opening for this process, and in the cache if it took ``SLOW`` seconds or more and
    is ``lasting`` (``built_in``: a plugin's code is not in the key)."""
    _keep(key, decision)
    if seconds < SLOW or not lasting:
        return
    path = cache_file()
    if path is None:
        return
    written = _read()
    written.pop(key, None)
    written[key] = decision
    newest = dict(list(written.items())[-WRITTEN:])
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".openings-")
        with os.fdopen(handle, "w") as file:
            json.dump(newest, file)
        os.replace(temporary, path)  # whole or not at all: two sessions may write at once
    except OSError:
        pass  # a cache that cannot be written only costs the wait next time


def built_in(game: Game, strategy: Strategy) -> bool:
    """Whether the game and the strategy are moocow's own, whose code the key's stamp covers, and
    the strategy reads no file (a saved tree may be edited; the key holds its path only)."""
    own = all(type(thing).__module__.startswith("moocow.") for thing in (game, strategy))
    return own and not isinstance(strategy, TreeStrategy)


def cache_file() -> Path | None:
    """``$XDG_CACHE_HOME/moocow/openings.json`` (``~/.cache`` by default); ``None`` without a home."""
    base = os.environ.get("XDG_CACHE_HOME")
    try:
        root = Path(base) if base else Path.home() / ".cache"
    except RuntimeError:
        return None
    return root / "moocow" / "openings.json"


def _keep(key: str, decision: Decision) -> None:
    with _lock:
        _kept[key] = decision
        while len(_kept) > KEPT:
            _kept.popitem(last=False)


def _read() -> dict[str, tuple[int, object]]:
    """The cache file's openings; a missing or damaged file is an empty cache."""
    path = cache_file()
    try:
        data = json.loads(path.read_text()) if path is not None else {}
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {
        key: (value[0], value[1])
        for key, value in data.items()
        if isinstance(value, list) and len(value) == 2 and isinstance(value[0], int)
    }


@functools.cache
def _sources_stamp() -> str:
    """A digest of the sources that decide every opening."""
    digest = hashlib.sha256()
    for folder in SOURCES:
        for path in sorted((PACKAGE / folder).glob("*.py")):
            digest.update(f"{folder}/{path.name}".encode() + path.read_bytes())
    return digest.hexdigest()
