"""The JSON-lines file a tournament appends each round to the moment it is played, and its resume.

The first line describes the tournament; every later line is one finished round, written to the
operating system at once, so a tournament killed at any point loses at most the rounds being
played; a closing line, once every round is in, records how many there are. On ``--resume`` the
description must match, every row must be a round this tournament could have played, a torn last
line is cut off, and the rounds found are not played again. With a key the lines are a chain
(``chain.py``) and the chain's head is recorded beside the key after every line, so that a file
cut short is refused where an interrupted one resumes after its last line.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from moocow.engine.errors import MoocowError
from moocow.referee.protocol import Identity
from moocow.runner import chain, signing
from moocow.runner.files import check_output, create_private, one_name, same_file
from moocow.runner.reading import (
    Follower,
    Header,
    Lines,
    every_round,
    line_limit,
    open_results,
    read_header,
)
from moocow.runner.results import (
    FORMAT_VERSION,
    REFEREE,
    SEED_FINGERPRINT,
    RoundResult,
    header,
    identity_line,
)
from moocow.runner.rowcheck import RowCheck, _shown, seed_problem
from moocow.runner.seeds import SEED_VARIABLE


class ResultsFile:
    """An append-only JSON-lines file of round results, created private (use as a context manager).

    ``total`` is the number of rounds of the whole tournament: ``close`` writes the closing line
    once they are all in the file. ``key_file`` is where the key came from: its chain records are
    kept beside it (``chain.record_folders``). A path that can be led to another file (a link, a
    second name) is refused (``files.one_name``). ``seed`` is the run's seed, which a header that
    keeps it secret does not hold: the rounds found on resume are checked against it. Who each
    player says it is goes on a line of its own before its first round (a version-2 file's).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        description: dict[str, Any],
        resume: bool,
        key: bytes | None = None,
        referee: dict[str, Any] | None = None,
        key_file: str | os.PathLike[str] | None = None,
        seed: int | None = None,
    ) -> None:
        self.finished: list[RoundResult] = []
        """The rounds already in the file when resuming."""
        self.identities: dict[str, Identity] = {}
        """Who each player said it was, as the file records it (found on resume, or written)."""
        self._seed = seed
        self._key, self._folders = key, chain.record_folders(key_file)
        self._signer = chain.Signer(key) if key is not None else None
        self._version, self._chain, self._last, self._lines = FORMAT_VERSION, chain.new_chain_id(), "", 0
        self._closed = False
        self._head: chain.HeadRecord | None = None
        self._total = len(description["players"]) * len(description["games"]) * description["rounds"]
        first = header(description, signed=key is not None, referee=referee)
        found = one_name(path, "results file")
        self.path = check_output(path, "results file")
        with self._writing():
            self._fd = create_private(self.path)
        try:
            same_file(self._fd, found, path, "results file")
            self._hold(path)
            written = os.fstat(self._fd).st_size
            if written and not resume:
                raise MoocowError(
                    f"results file {str(path)!r} exists: --resume finishes it, or choose another file"
                )
            if written:
                self._resume(first, key_file)
            else:
                self._refuse_emptied(resume)
                self._start(first)
        except BaseException:
            self._release()
            raise

    def _resume(self, first: dict[str, Any], key_file: str | os.PathLike[str] | None) -> None:
        found = read_results(self.path, first, self._key, key_file, os.fstat(self._fd), self._seed)
        self.finished, self._lines, self._last, self._closed = (
            found.rounds,
            found.lines,
            found.last,
            found.closed,
        )
        self.identities = dict(found.identities)
        self._version = found.header.version
        if found.header.chained:
            self._chain = found.header.chain or ""
            self._head = chain.HeadRecord(self._folders, self._chain, self.path)

    def _refuse_emptied(self, resume: bool) -> None:
        """A signed file the runner wrote rounds to, emptied or removed since, is refused on resume:
        its rounds would all be played again."""
        if not resume or self._key is None:
            return
        known = chain.head_of_file(self._folders, self.path)
        if known is not None and known[1].lines > 1:
            raise MoocowError(
                f"results file {str(self.path)!r}, line 1: missing: the runner wrote {known[1].lines} lines "
                f"to this file (chain {known[0]}), and it is empty now: it was cut, not interrupted"
            )

    def _start(self, first: dict[str, Any]) -> None:
        if self._key is not None:
            first = {**first, chain.CHAIN: self._chain}
            self._head = chain.HeadRecord(self._folders, self._chain, self.path)
        self._write(first)

    def _hold(self, path: str | os.PathLike[str]) -> None:
        """Lock the file for this run alone: two runs on one file (a second ``--resume`` while the
        first still plays) wrote each other's rounds twice, or spliced their lines, both exiting 0."""
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise MoocowError(
                f"results file {str(path)!r} is being written by another run: let it finish, or stop "
                "it and --resume"
            ) from None
        except OSError:  # a file system without locks: as before
            pass

    def append(self, result: RoundResult) -> None:
        """Write one finished round to the operating system at once (one ``write``), after the line
        saying who its player is, the first time it says (a version-1 file has no such lines)."""
        who = result.identity
        if who is not None and result.player not in self.identities and self._version >= 2:
            self.identities[result.player] = who
            self._write(identity_line(result.player, who))
        text = result.row_text() if self._signer is not None and self._version >= 2 else None
        if text is None or self._signer is None:
            self._write(result.to_row() if self._version >= 2 else result.to_dict())
            return
        number = self._lines + 1
        line, self._last = chain.signed_object(text, self._signer, self._last, number, self._chain)
        self._put(line, number)

    def _write(self, data: dict[str, Any]) -> None:
        number = self._lines + 1
        if self._signer is not None and self._version >= 2:
            line, self._last = chain.signed_line(data, self._signer, self._last, number, self._chain)
        else:
            row = data if self._key is None else signing.signed(data, self._key)
            line = (chain.LINE.encode(row) + "\n").encode("utf-8")
        self._put(line, number)

    def _put(self, line: bytes, number: int) -> None:
        """Write line ``number`` whole, then record the chain's head."""
        try:  # not self._writing(): a context manager a round is a share of the round's bookkeeping
            written = os.write(self._fd, line)
            while written < len(line):  # a short write: the disk is full, and the next one says so
                written += os.write(self._fd, line[written:])
            if self._head is not None:
                self._head.write(number, self._last)
        except OSError as error:
            raise self._unwritable(error) from None
        self._lines = number

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """A file that cannot be written (a full disk) stops the run in one line: the rounds
        written so far stay, and ``--resume`` cuts a torn last line and plays the rest."""
        try:
            yield
        except OSError as error:
            raise self._unwritable(error) from None

    def _unwritable(self, error: OSError) -> MoocowError:
        return MoocowError(
            f"cannot write the results file {str(self.path)!r}: {error.strerror or error} "
            "(the rounds written so far are kept: mend that, then --resume)"
        )

    def close(self, rounds: int | None = None) -> None:
        """Close the file; a chained file with every round of the tournament in it (``rounds``) gets
        its closing line first: the number of rounds, and the chain's end."""
        try:
            if rounds == self._total and not self._closed and self._head is not None:
                self._write({"end": {"rounds": rounds}})
                self._closed = True
        finally:
            self._release()

    def _release(self) -> None:
        if self._head is not None:
            self._head.close()
            self._head = None
        with self._writing():
            os.close(self._fd)

    def __enter__(self) -> ResultsFile:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def recorded_seed(path: str | os.PathLike[str]) -> tuple[int | None, str | None]:
    """The seed in a results file's header, and the fingerprint that stands for a secret one, where
    it has a readable header (its signature is checked on resume)."""
    try:
        with open_results(path) as file:
            found, _ = read_header(path, file, None)
    except (OSError, MoocowError):  # the file is refused later, if it is resumed
        return None, None
    tournament = found.description
    problem = seed_problem(tournament)
    if problem is not None:
        raise MoocowError(f"results file {str(path)!r}: {problem}")
    if not isinstance(tournament, dict):
        return None, None
    return tournament.get("seed"), tournament.get(SEED_FINGERPRINT)


@dataclass
class Resumed:
    """What ``--resume`` goes on from: the rounds found and where the file's chain stands."""

    header: Header
    rounds: list[RoundResult]
    lines: int
    """Complete lines in the file, the header included."""
    last: str
    """The last line's signature (a chained file's), which the next line follows."""
    closed: bool
    identities: dict[str, Identity]
    """Who each player said it was, as the file records it."""


def read_results(
    path: str | os.PathLike[str],
    expected_header: dict[str, Any],
    key: bytes | None = None,
    key_file: str | os.PathLike[str] | None = None,
    held: os.stat_result | None = None,
    seed: int | None = None,
) -> Resumed:
    """The rounds of a results file whose header is ``expected_header``, every line checked, streamed.

    The file is the runner's, but anyone who can write to it could add, remove or move lines: a
    resumed file counts only if every row is a round this tournament could have played
    (``RowCheck``) and, with a key, every line holds its place in the chain and the file reaches
    the head recorded beside the key. The first problem is one line (``MoocowError``). A torn last
    line (the runner was killed mid-write) is cut off, once everything else has passed. ``held``
    is the file the runner holds open to append to: the file read must be that one. ``seed`` is
    the run's, for a header that keeps it secret (its fingerprint, matched by the header's check).
    """
    shown = str(path)
    with open_results(path) as file:
        same_file(file.fileno(), held, path, "results file")
        found, problem = read_header(path, file, key)
        if found.signed and key is None:
            raise MoocowError(
                f"results file {shown!r} is signed: resuming it needs the key it was signed with "
                "(--key-file or MOOCOW_RESULTS_KEY)"
            )
        if key is not None and not found.signed:
            raise MoocowError(f"results file {shown!r} is not signed: resume it without a key")
        if problem is not None:
            raise MoocowError(f"results file {shown!r}, line 1: {problem}")
        check_header(Path(path), found, expected_header)
        head = None
        if found.chained:
            folders = chain.record_folders(key_file)
            head = chain.read_head(folders, found.chain) if found.chain else None
            if head is None:
                raise MoocowError(
                    f"results file {shown!r} has no record of its chain here ({found.chain} in "
                    f"{str(folders[0])!r}, kept where its key is): whether lines were cut from its end "
                    "cannot be told; bring that record with the file, or start a new results file"
                )
        description = expected_header["tournament"]
        follower = Follower(found, key, RowCheck(description, seed), head.lines if head else None)
        lines = Lines(file, line_limit(description))
        rounds, count = every_round(path, follower, lines)
        short = follower.cut_short(head, count)
        if short is not None:
            raise MoocowError(f"results file {shown!r}, line {short[0]}: {short[1]}")
    if lines.torn:
        with open(path, "r+b") as torn:
            torn.truncate(lines.complete)
    return Resumed(found, rounds, count, follower.before, follower.closed_at is not None, follower.identities)


def check_header(path: Path, found: Header, expected: dict[str, Any]) -> None:
    """The file's header is the one this tournament writes (in the file's version), the record of
    what protected its run aside; players unchanged, and confined as they were."""
    data = found.data
    _check_trust(path, data.get(REFEREE), expected.get(REFEREE))
    _check_players_unchanged(path, data.get("tournament"), expected["tournament"])
    _check_secret_seed(path, data.get("tournament"), expected["tournament"])
    # The rest of what protected an earlier run may differ (the level a machine allows): a record.
    ignored = (REFEREE, chain.CHAIN)
    data = {name: value for name, value in data.items() if name not in ignored}
    wanted = {**expected, "version": found.version}
    wanted = {name: value for name, value in wanted.items() if name not in ignored}
    if not _same_json(data, wanted):
        raise MoocowError(
            f"results file {str(path)!r} belongs to another tournament "
            "(players, games, rounds, seed, mercy or limits differ)"
        )


def _same_json(found: Any, expected: Any) -> bool:
    """Equal as JSON, types included: Python takes ``5.0 == 5`` and ``true == 1``, and a header
    whose seed read ``5.0`` was resumed as seed 5."""
    return json.dumps(found, sort_keys=True) == json.dumps(expected, sort_keys=True)


def _check_players_unchanged(path: Path, found: Any, expected: dict[str, Any]) -> None:
    """A player whose files changed since its rounds were played does not resume: its rounds would
    be two programs' under one name."""
    listed = found.get("players") if isinstance(found, dict) else None
    then = (
        {p.get("name"): p.get("digest") for p in listed if isinstance(p, dict)}
        if isinstance(listed, list)
        else {}
    )
    for player in expected["players"]:
        if player["name"] in then and then[player["name"]] != player.get("digest"):
            raise MoocowError(
                f"results file {str(path)!r}: player {_shown(player['name'])} has changed since its rounds "
                "were played (its files differ, or what it is shown of them from this folder): finish it "
                "with the same files from the same folder, or start a new results file"
            )


def _check_secret_seed(path: Path, found: Any, expected: dict[str, Any]) -> None:
    """A file played on a secret seed is resumed with that seed, given again as it was kept: its
    header has only the fingerprint to tell it by."""
    then = found.get(SEED_FINGERPRINT) if isinstance(found, dict) else None
    now = expected.get(SEED_FINGERPRINT)
    if then is not None and now is not None and then != now:
        raise MoocowError(
            f"results file {str(path)!r} was played on another seed (fingerprint {_shown(then)}; the "
            f"seed given has {now}): give the seed it was played on (--seed-file, {SEED_VARIABLE} or "
            "the tournament file)"
        )


def _check_trust(path: Path, found: Any, expected: Any) -> None:
    """Rounds of players run unconfined (``--no-sandbox``) and sandboxed do not go in one file,
    whose header would misdescribe some of them; the level a machine allows may differ."""

    def unconfined(referee: Any) -> bool | None:
        sandbox = referee.get("sandbox") if isinstance(referee, dict) else None
        return sandbox.get("confinement") == "none" if isinstance(sandbox, dict) else None

    then, now = unconfined(found), unconfined(expected)
    if then is not None and now is not None and then != now:
        how = "unconfined (--no-sandbox)" if then else "sandboxed"
        raise MoocowError(f"results file {str(path)!r} was played with players {how}: resume it so")
