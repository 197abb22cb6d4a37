"""The computer's secret in a URL, which the player must not be able to read or change.

The token is ``nonce | secret XOR pad | tag``: the pad is HMAC-SHA256 of the nonce under the
server's key (a pseudo-random function, so the index is hidden), the tag an HMAC over the game's
spec, the nonce and the hidden index (so a token cannot be edited, nor moved to another game).
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
SIZE = 4
"""Bytes of the hidden index: the engine builds at most 5,000,000 codes."""
TAG = 16
"""Bytes of the tag."""
REFUSED = "this game's token was not made by this server (changed, or the server restarted): start a new game"


def _pad(key: bytes, nonce: bytes) -> bytes:
    return hmac.new(key, b"pad" + nonce, hashlib.sha256).digest()[:SIZE]


def _tag(key: bytes, spec: str, nonce: bytes, hidden: bytes) -> bytes:
    message = b"tag" + spec.encode("utf-8") + b"\0" + nonce + hidden
    return hmac.new(key, message, hashlib.sha256).digest()[:TAG]


def seal(key: bytes, spec: str, secret: int) -> str:
    """A token hiding ``secret`` (an index of the secrets of the game ``spec``)."""
    nonce = secrets.token_bytes(NONCE)
    hidden = bytes(a ^ b for a, b in zip(secret.to_bytes(SIZE, "big"), _pad(key, nonce), strict=True))
    return (
        base64.urlsafe_b64encode(nonce + hidden + _tag(key, spec, nonce, hidden)).decode("ascii").rstrip("=")
    )


def unseal(key: bytes, spec: str, token: str, count: int) -> int:
    """The secret a token hides, if this server made it for this game; else a one-line refusal."""
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (binascii.Error, ValueError):
        raise MoocowError(REFUSED) from None
    if len(raw) != NONCE + SIZE + TAG:
        raise MoocowError(REFUSED)
    nonce, hidden, tag = raw[:NONCE], raw[NONCE : NONCE + SIZE], raw[NONCE + SIZE :]
    if not hmac.compare_digest(tag, _tag(key, spec, nonce, hidden)):
        raise MoocowError(REFUSED)
    secret = int.from_bytes(bytes(a ^ b for a, b in zip(hidden, _pad(key, nonce), strict=True)), "big")
    if not 0 <= secret < count:
        raise MoocowError(REFUSED)
    return secret
