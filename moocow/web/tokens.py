"""The computer's secret in a URL, which the player must not be able to read or change.

The token is ``nonce | issued | secret XOR pad | tag``: the pad is HMAC-SHA256 of the nonce under
the server's key (a pseudo-random function, so the index is hidden), ``issued`` the second the game
started, in clear, and the tag an HMAC over the game's spec, the nonce, the start and the hidden
index (so a token cannot be edited, made younger, nor moved to another game). A token lives
``LIFE`` from its start, so the record of ended games (``ends``) need only keep the living ones.
The key is made when the server starts and never leaves it: a restart ends the games in play.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets

from moocow.engine.errors import MoocowError

NONCE = 16
"""Random bytes that make two tokens of one secret differ."""
ISSUED = 4
"""Bytes of the start, in Unix seconds (until 2106)."""
SIZE = 4
"""Bytes of the hidden index: the engine builds at most 5,000,000 codes."""
TAG = 16
"""Bytes of the tag."""
LIFE = 3 * 24 * 3600
"""Seconds a game lasts from its start: a tab left open over a weekend still plays."""
REFUSED = "this game's token was not made by this server (changed, or the server restarted): start a new game"
EXPIRED = (
    f"this game's token has expired (a game lasts {LIFE // 86400} days from its start): start a new game"
)


def _pad(key: bytes, nonce: bytes) -> bytes:
    return hmac.new(key, b"pad" + nonce, hashlib.sha256).digest()[:SIZE]


def _tag(key: bytes, spec: str, sealed: bytes) -> bytes:
    """The HMAC over the spec and the token's nonce, start and hidden index."""
    message = b"tag" + spec.encode("utf-8") + b"\0" + sealed
    return hmac.new(key, message, hashlib.sha256).digest()[:TAG]


def seal(key: bytes, spec: str, secret: int, started: int) -> str:
    """A token hiding ``secret`` (an index of the secrets of the game ``spec``), started at ``started``."""
    nonce = secrets.token_bytes(NONCE)
    hidden = bytes(a ^ b for a, b in zip(secret.to_bytes(SIZE, "big"), _pad(key, nonce), strict=True))
    sealed = nonce + started.to_bytes(ISSUED, "big") + hidden
    return encoded(sealed + _tag(key, spec, sealed))


def unseal(key: bytes, spec: str, token: str, count: int, now: int) -> int:
    """The secret a token hides, if this server made it for this game and it has not expired at
    ``now``; else a one-line refusal."""
    raw = decoded(token)
    if raw is None:
        raise MoocowError(REFUSED)
    sealed, tag = raw[:-TAG], raw[-TAG:]
    if not hmac.compare_digest(tag, _tag(key, spec, sealed)):
        raise MoocowError(REFUSED)
    nonce, hidden = sealed[:NONCE], sealed[NONCE + ISSUED :]
    secret = int.from_bytes(bytes(a ^ b for a, b in zip(hidden, _pad(key, nonce), strict=True)), "big")
    if not 0 <= secret < count:
        raise MoocowError(REFUSED)
    if now - _start(raw) > LIFE:
        raise MoocowError(EXPIRED)
    return secret


def issued(token: str) -> int | None:
    """When a token's game started, read without checking its tag (``None``: not a token)."""
    raw = decoded(token)
    return None if raw is None else _start(raw)


def _start(raw: bytes) -> int:
    return int.from_bytes(raw[NONCE : NONCE + ISSUED], "big")


def encoded(raw: bytes) -> str:
    """Bytes as a token's text: URL-safe base64 without padding."""
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decoded(token: str) -> bytes | None:
    """A token's bytes, if it has a token's length (``None``: it cannot be one)."""
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (binascii.Error, ValueError):
        return None
    return raw if len(raw) == NONCE + ISSUED + SIZE + TAG else None
