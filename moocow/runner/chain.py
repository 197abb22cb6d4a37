"""The signed lines of a results file as a chain, and the record of its head kept beside the key.

Signed one by one (version 1), a line could be removed, moved, repeated or taken from another
file of the same key and every line still verified: deleting a player's lost rounds and resuming
replayed exactly them. In version 2 each signed line carries its number and the file's chain id
(a random id the header holds), and its ``hmac`` is HMAC-SHA256 over the signature of the line
before, a newline, and the line's own bytes up to the signature: the header starts the chain, a
closing line ends it.

A chain alone cannot tell a file cut short from a run that was interrupted, since both end with a
sound line. So the runner keeps, beside the key and as private as it (``KEY.chains/ID``, or the
user's state folder for a key from the environment), the number of lines it has written and the
signature of the last: a file that ends before that line was cut, and is refused. The record
names the file by its path as given (made absolute) and as resolved: a folder link repointed at
an empty folder leads the one elsewhere, not the other (the results file itself is never a link).
"""

from __future__ import annotations

import hmac
import json
import os
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any

from moocow.engine.errors import MoocowError

FIELD = "hmac"
"""The field that carries a line's signature, last on the line."""
NUMBER = "line"
"""The field that carries a signed line's number in its file, from 1 (the header)."""
CHAIN = "chain"
"""The field that carries the file's chain id, on every signed line."""
SUFFIX = re.compile(rb', "hmac": "([0-9a-f]{64})"\}$')
"""How a signed version-2 line ends: its signature, last."""
ID_BYTES = 8
"""Random bytes of a chain id (hex in the file): tells one file of a key from another."""
LINE = json.JSONEncoder(ensure_ascii=False)
"""How a line's JSON is written (made once: ``json.dumps`` with an option makes an encoder a call)."""
json_text: Callable[[str], str] = encode_basestring
"""A string as ``LINE`` writes it: quoted, escaped, non-ASCII kept (``json``'s own function)."""
_NUMBER_KEY, _CHAIN_KEY = json_text(NUMBER), json_text(CHAIN)
STATE_VARIABLE = "XDG_STATE_HOME"
"""Where a key from the environment has its chain records (``$XDG_STATE_HOME/moocow/chains``)."""


def new_chain_id() -> str:
    """A fresh chain id for a new file."""
    return secrets.token_hex(ID_BYTES)


def signature(key: bytes, before: str, body: bytes) -> str:
    """The signature of a line whose bytes up to its signature are ``body`` (closed with ``}``),
    after the line signed ``before`` ("" for the header)."""
    return Signer(key)(before, body)


class Signer:
    """``signature`` under one key, for a file's lines one after another: the key's HMAC state is
        made once and copied for each line (keying HMAC anew was a large share of a line's signing, part
    of the bookkeeping ``bench/tournament.py`` measures)."""

    def __init__(self, key: bytes) -> None:
        self._keyed = hmac.new(key, digestmod="sha256")

    def __call__(self, before: str, body: bytes) -> str:
        mac = self._keyed.copy()
        mac.update(before.encode("ascii") + b"\n" + body)
        return mac.hexdigest()


def signed_line(
    data: dict[str, Any], key: bytes | Signer, before: str, number: int, chain: str
) -> tuple[bytes, str]:
    """``data`` as a signed line of the chain (newline included), and its signature."""
    signer = key if isinstance(key, Signer) else Signer(key)
    return _signed(LINE.encode({**data, NUMBER: number, CHAIN: chain}).encode("utf-8"), signer, before)


def signed_object(text: str, signer: Signer, before: str, number: int, chain: str) -> tuple[bytes, str]:
    """A JSON object written as ``LINE`` writes it (``text``), with neither a line number nor a chain
    field, as ``signed_line`` signs it: a round's row encoded without a dict (``RoundResult.row_text``)."""
    body = f"{text[:-1]}, {_NUMBER_KEY}: {number}, {_CHAIN_KEY}: {json_text(chain)}}}".encode()
    return _signed(body, signer, before)


def _signed(body: bytes, signer: Signer, before: str) -> tuple[bytes, str]:
    sign = signer(before, body)
    return body[:-1] + b', "hmac": "' + sign.encode("ascii") + b'"}\n', sign


def split_line(line: bytes) -> tuple[bytes, str | None]:
    """A version-2 line's body (what its signature covers) and its signature, if it has one."""
    found = SUFFIX.search(line)
    if found is None:
        return line, None
    return line[: found.start()] + b"}", found.group(1).decode("ascii")


def state_folder() -> Path:
    """The user's own folder of chain records, for keys that are not in a file."""
    base = os.environ.get(STATE_VARIABLE) or str(Path.home() / ".local" / "state")
    return Path(base) / "moocow" / "chains"


def record_folders(key_file: str | os.PathLike[str] | None) -> tuple[Path, ...]:
    """Where a key's chain records are kept, first choice first: beside its file, where it has
    one (``KEY.chains``), else, or where that folder cannot be written, the user's state folder."""
    if key_file is None:
        return (state_folder(),)
    path = Path(os.path.abspath(key_file))
    return (path.with_name(path.name + ".chains"), state_folder())


@dataclass(frozen=True)
class Head:
    """What the runner last wrote to a chain: how many lines, the last one's signature, and where."""

    lines: int
    signature: str
    paths: tuple[str, ...]
    """The results file's path as given (absolute) and as resolved, once if they are one."""


def paths_of(results: Path) -> tuple[str, ...]:
    """The names a record keeps for the file at ``results``: either one finds the record."""
    return tuple(dict.fromkeys((os.path.abspath(results), str(results.resolve()))))


class HeadRecord:
    """The record of one chain's head, rewritten in place after every line the runner writes."""

    def __init__(self, folders: tuple[Path, ...], chain: str, results: Path) -> None:
        self.path = self._made(folders, chain)
        self._where, self._size = json.dumps(list(paths_of(results))), -1
        try:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except OSError as error:
            raise MoocowError(
                f"cannot keep the chain record {str(self.path)!r}: {error.strerror or error}"
            ) from None

    @staticmethod
    def _made(folders: tuple[Path, ...], chain: str) -> Path:
        """The record's path in the first folder that is, or can be made, private to this user."""
        problems = []
        for folder in folders:
            try:
                folder.mkdir(mode=0o700, parents=True, exist_ok=True)
                if folder.stat().st_uid != os.geteuid() or folder.stat().st_mode & 0o077:
                    raise PermissionError(0, "not a folder of this user's alone")
                return folder / chain
            except OSError as error:
                problems.append(f"{str(folder)!r}: {error.strerror or error}")
        raise MoocowError(f"cannot keep the results file's chain record: {'; '.join(problems)}")

    def write(self, lines: int, last: str) -> None:
        """Record that ``lines`` lines are written, the last signed ``last`` (one write, in place);
        the first write of a run cuts what a longer record left after it (a resume under a shorter
        path kept the old path's tail, and the record then named no file)."""
        text = f"{lines:012d} {last}\n{self._where}\n".encode()
        os.pwrite(self._fd, text, 0)
        if len(text) != self._size:
            os.ftruncate(self._fd, len(text))
            self._size = len(text)

    def close(self) -> None:
        """Close the record (it stays: a file cut later is told by it)."""
        os.close(self._fd)


def read_head(folders: tuple[Path, ...], chain: str) -> Head | None:
    """The recorded head of ``chain``, if any folder holds its record."""
    for folder in folders:
        try:
            text = (folder / chain).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        head = _parsed(text)
        if head is not None:
            return head
    return None


def head_of_file(folders: tuple[Path, ...], results: Path) -> tuple[str, Head] | None:
    """A chain the runner wrote into the file at ``results`` and its head, if one is recorded under
    either of its paths (``paths_of``): a file emptied or removed since is told by it."""
    where = set(paths_of(results))
    for folder in folders:
        try:
            names = sorted(entry.name for entry in os.scandir(folder) if entry.is_file(follow_symlinks=False))
        except OSError:
            continue
        for name in names:
            head = read_head((folder,), name)
            if head is not None and where.intersection(head.paths):
                return name, head
    return None


def _parsed(text: str) -> Head | None:
    first, _, rest = text.partition("\n")
    number, _, last = first.partition(" ")
    if not number.isdigit() or not re.fullmatch(r"[0-9a-f]{64}", last):
        return None
    return Head(int(number), last, _paths(rest))


def _paths(text: str) -> tuple[str, ...]:
    """The paths of a record: a JSON list on its second line, or the one raw path an earlier
    version wrote there."""
    try:
        found = json.loads(text.partition("\n")[0])
    except ValueError:
        found = None
    if isinstance(found, list) and found and all(isinstance(path, str) for path in found):
        return tuple(found)
    return (text.rstrip("\n"),)
