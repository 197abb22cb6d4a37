"""HMAC signatures on what the runner writes, so that a forged or edited row is refused.

A results file lives where the runner writes, and anyone who can write there could append rounds.
With a key (``--key-file PATH``, the tournament file's ``key_file``, or ``MOOCOW_RESULTS_KEY``)
every row carries ``"hmac"``: HMAC-SHA256 over the row's canonical JSON without that field. Rows
are checked with ``hmac.compare_digest``. The key itself is never written or printed.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from moocow.engine.errors import MoocowError
from moocow.engine.inputs import open_regular

FIELD = "hmac"
"""The field that carries a row's signature."""
KEY_VARIABLE = "MOOCOW_RESULTS_KEY"
"""The environment variable that may hold the key (UTF-8 text)."""
KEY_BYTES = 1 << 16
"""Most bytes read from a key file: a key is short, and a big file is a mistake."""


def canonical(row: Mapping[str, Any]) -> bytes:
    """The bytes a signature covers: sorted keys, no spaces, UTF-8, without the signature itself."""
    unsigned = {name: value for name, value in row.items() if name != FIELD}
    return json.dumps(unsigned, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def signature(row: Mapping[str, Any], key: bytes) -> str:
    """HMAC-SHA256 of the row's canonical JSON, in hex."""
    return hmac.new(key, canonical(row), hashlib.sha256).hexdigest()


def signed(row: Mapping[str, Any], key: bytes) -> dict[str, Any]:
    """The row with its signature added."""
    return {**row, FIELD: signature(row, key)}


def verified(row: Mapping[str, Any], key: bytes) -> dict[str, Any]:
    """The row without its signature, or ``ValueError`` saying why the signature does not hold."""
    claimed = row.get(FIELD)
    if not isinstance(claimed, str):
        raise ValueError("not signed (no hmac): forged, or written without the key")
    if not hmac.compare_digest(claimed.encode("utf-8", "replace"), signature(row, key).encode("ascii")):
        raise ValueError("its hmac does not match: the row was changed, forged, or signed with another key")
    return {name: value for name, value in row.items() if name != FIELD}


def read_key(path: str | os.PathLike[str]) -> bytes:
    """The key in a file, surrounding whitespace (a final newline) removed; missing or empty is one line."""
    shown = str(path)
    try:
        with open_regular(path, "key file") as file:
            key = file.read(KEY_BYTES + 1).strip()
    except OSError as error:
        raise MoocowError(f"cannot read key file {shown!r}: {error.strerror or error}") from None
    if not key:
        raise MoocowError(f"key file {shown!r} is empty")
    if len(key) > KEY_BYTES:
        raise MoocowError(f"key file {shown!r} is over {KEY_BYTES} bytes: is it the right file?")
    return key


def choose_key(key_file: str | os.PathLike[str] | None, configured: Any = None) -> bytes | None:
    """The key: ``--key-file``, else the tournament file's ``key_file``, else the environment, or none."""
    if key_file is not None:
        return read_key(key_file)
    if configured is not None:
        if not isinstance(configured, str) or not configured:
            raise MoocowError(f"key_file must be a file name, not {configured!r}")
        return read_key(Path(configured))
    text = os.environ.get(KEY_VARIABLE)
    if text is None:
        return None
    if not text.strip():
        raise MoocowError(f"{KEY_VARIABLE} is set but empty: give a key, or unset it")
    return text.strip().encode("utf-8", "surrogateescape")
