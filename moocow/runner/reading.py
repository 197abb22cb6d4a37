"""Reading a results file back, one line at a time: its header, then each line's verdict.

``--resume`` (``read_results``), ``verify`` and the results viewer all read through here. The file
is streamed: no line is read longer than the longest the runner writes in that tournament
(``results.most_row_bytes``), so a file of any size is read in little memory, and a line too long
is one problem, like a line that is not JSON. A signed version-2 file's lines are followed as a
chain (``chain.py``): a line missing, moved, repeated or from another file is named, and so is a
file that ends before the line the runner recorded writing last.
"""

from __future__ import annotations

import hmac
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from moocow.engine.errors import MoocowError
from moocow.engine.inputs import open_regular
from moocow.referee.protocol import Identity
from moocow.runner import chain, signing
from moocow.runner.chain import Head
from moocow.runner.results import (
    FORMAT,
    IDENTITY,
    IDENTITY_FIELDS,
    VERSIONS,
    RoundResult,
    most_row_bytes,
)
from moocow.runner.rowcheck import BadRow, RowCheck, _shown, _whole, json_line
from moocow.runner.shown import TEXT_SHOWN

HEADER_BYTES = 16 << 20
"""The longest header read: a tournament of thousands of players, each with its digest."""
MOST_LINE = 1 << 30
"""The longest line read whatever the header's mercy limit says (a header of mercy 10^400 asked
``readline`` for more than a C size)."""
SEEN_CHARACTERS = 16
"""Characters of each signature remembered, to name the line a repeated one repeats."""


@dataclass
class Header:
    """A results file's first line, read and, with a key, verified."""

    data: dict[str, Any]
    """The header without its signature and chain fields."""
    version: int
    signed: bool
    chain: str | None = None
    """The chain id of a signed version-2 file."""
    signature: str = ""
    """The header's signature: where a version-2 chain starts."""

    @property
    def chained(self) -> bool:
        """Whether its lines are a chain (a signed version-2 file)."""
        return self.signed and self.version >= 2

    @property
    def description(self) -> Any:
        return self.data.get("tournament")


def open_results(path: str | os.PathLike[str]) -> IO[bytes]:
    """The results file, opened to be read; unreadable or not a regular file is one line."""
    return open_regular(path, "results file")


def read_header(
    path: str | os.PathLike[str], file: IO[bytes], key: bytes | None
) -> tuple[Header, str | None]:
    """The header of the open file, and what is wrong with its signature if anything (``None``: it
    holds, or there is no key); a file without a moocow header is one line (``MoocowError``)."""
    first = file.readline(HEADER_BYTES + 1)
    complete = first.endswith(b"\n")
    body, sign = chain.split_line(first.rstrip(b"\n"))
    try:
        found = json_line(body.decode("utf-8")) if complete else None
    except (BadRow, UnicodeDecodeError):
        found = None
    if not isinstance(found, dict) or found.get("format") != FORMAT:
        raise MoocowError(f"results file {str(path)!r} is not a moocow results file (no header line)")
    version = found.get("version")
    if version not in VERSIONS or isinstance(version, bool):
        raise MoocowError(
            f"results file {str(path)!r} is of version {_shown(version)}, which this moocow does not read"
        )
    signed = found.get("signed") is True
    if version == 1:  # signed alone: its hmac is a field like any other
        found = json_line(first.decode("utf-8"))
        unsigned = {name: value for name, value in found.items() if name != signing.FIELD}
        return Header(unsigned, 1, signed), _v1_header_problem(found, key)
    number, chain_id = found.pop(chain.NUMBER, None), found.get(chain.CHAIN)
    header = Header(found, version, signed, chain_id if isinstance(chain_id, str) else None, sign or "")
    if key is None or not signed:
        return header, None
    if sign is None or number != 1 or header.chain is None:
        return header, "not signed (no hmac): forged, or written without the key"
    if not hmac.compare_digest(sign, chain.signature(key, "", body)):
        return header, "its hmac does not match: the row was changed, forged, or signed with another key"
    return header, None


def _v1_header_problem(found: dict[str, Any], key: bytes | None) -> str | None:
    if key is None or found.get("signed") is not True:
        return None
    try:
        signing.verified(found, key)
    except ValueError as error:
        return str(error)
    return None


@dataclass
class Lines:
    """A file's complete lines from where its header ends, each at most ``limit`` bytes; a longer
    one comes as ``None`` and is skipped to its end. ``complete`` is where the last complete line
    ends, ``torn`` whether bytes without an end of line follow it."""

    file: IO[bytes]
    limit: int
    complete: int = 0
    torn: bool = False

    def __iter__(self) -> Iterator[tuple[int, bytes | None]]:
        self.complete = self.file.tell()
        number = 1
        while line := self.file.readline(self.limit + 2):
            if not line.endswith(b"\n") and len(line) <= self.limit + 1:
                self.torn = True  # the end of the file: a line being written, or cut by a kill
                return
            number += 1
            if not line.endswith(b"\n"):
                if not self._skipped():
                    return
                yield number, None
            else:
                yield number, line[:-1]
            self.complete = self.file.tell()

    def _skipped(self) -> bool:
        """Past the rest of an overlong line: whether it had an end."""
        while rest := self.file.readline(1 << 20):
            if rest.endswith(b"\n"):
                return True
        self.torn = True
        return False


def line_limit(description: Any) -> int:
    """The longest line of a round the runner writes in the tournament ``description`` describes."""
    try:
        names = max(
            len(json.dumps(player["name"], ensure_ascii=False).encode()) for player in description["players"]
        )
        names += max(len(json.dumps(game, ensure_ascii=False).encode()) for game in description["games"])
        return min(most_row_bytes(description["mercy"], names), MOST_LINE)
    except (KeyError, TypeError, ValueError, OverflowError):
        return most_row_bytes(20)


@dataclass
class Follower:
    """Each line after the header, checked in order: its place in the chain (a signed version-2
    file with its key), then the round it records (``RowCheck``), or the closing line."""

    header: Header
    key: bytes | None
    check: RowCheck | None
    watch: int | None = None
    """A line number whose signature ``watched`` keeps (the recorded head's)."""
    watched: str | None = None
    watched_at: int = 1
    """The line of the file that holds it."""
    expected: int = 2
    """The number the next line of the chain was written with."""
    before: str = ""
    rows: int = 0
    """Lines read after the header, sound or not, the closing line aside."""
    closed_at: int | None = None
    seen: dict[str, int] = field(default_factory=dict)
    identities: dict[str, Identity] = field(default_factory=dict)
    """Who each player said it was, from the lines that record it (``results.identity_line``)."""

    def __post_init__(self) -> None:
        self._signer = chain.Signer(self.key) if self.key is not None else None
        """The key's HMAC state, made once for the file's lines (as the writer's ``Signer``)."""
        self.before = self.header.signature
        if self.watch == 1:
            self.watched = self.header.signature

    def line(self, number: int, raw: bytes | None) -> RoundResult | None:
        """The round on line ``number`` (``None`` for the closing line), or ``BadRow`` saying why not."""
        if self.closed_at is not None:
            raise BadRow(f"follows the closing line (line {self.closed_at}): the file was closed there")
        if raw is None:
            self.rows += 1
            raise BadRow("longer than any line the runner writes in this tournament")
        if self.header.version == 1:
            self.rows += 1
            return self._round(number, self._v1_row(raw))
        body, sign = chain.split_line(raw)
        row = _object(json_line(_text(body)))
        written: Any
        chain_id: Any
        written, chain_id = (
            (row.pop(chain.NUMBER, None), row.pop(chain.CHAIN, None)) if self.header.signed else (None, None)
        )
        ending, naming = set(row) == {"end"}, set(row) == {IDENTITY}
        self.rows += not (ending or naming)
        followed = self.header.signed and self.key is not None
        if followed:
            self._follow(number, written, chain_id, body, sign)
        if ending:
            self._close(number, row["end"], written - 2 - len(self.identities) if followed else self.rows)
            return None
        if naming:
            self._identity(row[IDENTITY])
            return None
        return self._round(number, row)

    def _identity(self, named: Any) -> None:
        """A line recording who a player said it was: a player of the header, once, its text bounded."""
        if not isinstance(named, dict) or set(named) != set(IDENTITY_FIELDS):
            raise BadRow(f"an identity line records {', '.join(IDENTITY_FIELDS)}, not {_shown(named)}")
        player = named["player"]
        if not all(isinstance(named[name], str) for name in IDENTITY_FIELDS):
            raise BadRow(f"an identity's {', '.join(IDENTITY_FIELDS)} are strings, not {_shown(named)}")
        if self.check is not None and player not in self.check.players:
            raise BadRow(f"identity of unknown player {_shown(player)} (not one of the header's players)")
        if player in self.identities:
            raise BadRow(f"identity of {_shown(player)} is recorded twice")
        if max(len(named["student_id"]), len(named["author"])) > TEXT_SHOWN:
            raise BadRow(f"identity of {_shown(player)} is longer than the runner writes ({TEXT_SHOWN})")
        self.identities[player] = Identity(named["student_id"], named["author"])

    def _v1_row(self, raw: bytes) -> dict[str, Any]:
        row = json_line(_text(raw))
        if self.header.signed and isinstance(row, dict):
            if self.key is None:
                return {name: value for name, value in row.items() if name != signing.FIELD}
            try:
                return signing.verified(row, self.key)
            except ValueError as error:
                raise BadRow(str(error)) from None
        return row

    def _round(self, number: int, row: Any) -> RoundResult | None:
        return None if self.check is None else self.check(number, row)

    def _follow(self, number: int, written: Any, chain_id: Any, body: bytes, sign: str | None) -> None:
        """The line's place in the chain; after a line that is not where it belongs, the chain goes
        on from it, so that one line removed is one problem, not one for every line after it."""
        assert self._signer is not None  # a signed file read with its key
        if sign is None:
            raise BadRow("not signed (no hmac): forged, or written without the key")
        if sign[:SEEN_CHARACTERS] in self.seen:
            raise BadRow(f"repeats line {self.seen[sign[:SEEN_CHARACTERS]]}")
        if chain_id is None and written is None:
            raise BadRow(
                "carries no line number nor chain: forged, or not from a chained file (no hmac holds)"
            )
        if chain_id != self.header.chain:
            raise BadRow(
                f"comes from another results file (its chain is {_shown(chain_id)}, not {self.header.chain})"
            )
        if not _whole(written):
            raise BadRow("carries no line number: it is not a line of a chained file")
        if written < self.expected:
            raise BadRow(f"was written as line {written}: moved here from there")
        problem = None
        if written > self.expected:
            one = written == self.expected + 1
            gap = f"line {self.expected} is" if one else f"lines {self.expected} to {written - 1} are"
            problem = f"{gap} missing before it (removed, or moved further down)"
        elif not hmac.compare_digest(sign, self._signer(self.before, body)):
            problem = "its hmac does not match: the row was changed, forged, or signed with another key"
        self.seen[sign[:SEEN_CHARACTERS]] = number
        self.before, self.expected = sign, written + 1
        if written == self.watch:
            self.watched, self.watched_at = sign, number
        if problem is not None:
            raise BadRow(problem)

    def _close(self, number: int, end: Any, above: int) -> None:
        """The closing line: the rounds above it, as the chain numbers them where it is followed
        (a line removed or repeated is said once, where the chain breaks)."""
        self.closed_at = number
        rounds = end.get("rounds") if isinstance(end, dict) else None
        if not isinstance(end, dict) or set(end) != {"rounds"} or not _whole(rounds):
            raise BadRow(f"a closing line records the number of rounds, not {_shown(end)}")
        if rounds != above:
            raise BadRow(f"closes the file after {rounds} rounds, but {above} rounds are above it")

    def cut_short(self, head: Head | None, lines: int) -> tuple[int, str] | None:
        """The line and problem of a file that ends before the recorded head, or whose line there
        is not the one the runner wrote (a file cut off, or put back from an older copy)."""
        if head is None:
            return None
        if head.lines > lines:
            what = f"line {head.lines}" if head.lines == lines + 1 else f"lines {lines + 1} to {head.lines}"
            what = "every line after the header" if lines == 1 else what
            return lines + 1, (
                f"missing: the runner wrote {head.lines} lines, and the file ends at line {lines}: "
                f"{what} cut off (an interrupted run ends at or after its last recorded line)"
            )
        if self.watched is not None and not hmac.compare_digest(self.watched, head.signature):
            return self.watched_at, (
                f"not the line the runner recorded writing as line {head.lines}: the file was replaced"
            )
        return None


def _text(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadRow(f"not UTF-8 text (byte {raw[error.start]:#04x})") from None


def _object(row: Any) -> dict[str, Any]:
    if not isinstance(row, dict):
        raise BadRow(f"not a round result (a JSON object), but {_shown(row)}")
    return row


def every_round(
    path: str | os.PathLike[str], follower: Follower, lines: Lines
) -> tuple[list[RoundResult], int]:
    """Every round of the file's lines and how many lines there are, the header included; the
    first problem refuses the file in one line naming it (``MoocowError``)."""
    rounds, count = [], 1
    for number, raw in lines:
        count = number
        try:
            played = follower.line(number, raw)
        except BadRow as error:
            raise MoocowError(f"results file {str(path)!r}, line {number}: {error}") from None
        if played is not None:
            rounds.append(played)
    return rounds, count
