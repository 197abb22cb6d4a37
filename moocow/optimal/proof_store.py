"""A proof kept on disk: every set the exact search settled, so a stopped search resumes.

``moocow optimal GAME --store PATH`` writes each result of the search's upper levels to an SQLite
file as it is found, and a search started on the same file begins where the last one stopped.
SQLite because one file holds it all, a write is atomic, and a killed process (Ctrl-C, SIGKILL, a
crash) loses at most the result it was writing: the file is in write-ahead mode, so each commit
reaches the file without waiting for the disk.

What is kept, all of it in the game's own indices (the table fixes what an index means):

- **sets**: a candidate set with the guesses left, and its value: exact (with the guess and the
  tree that attain it) or a lower bound (every strategy for it needs at least that many);
- **guesses**: for a set being searched, each guess tried and the total of the parts it leaves:
  exact (with its tree) or a lower bound. These are the checkpoints inside a set: a set of seven
  bottles takes hours, and a stopped search keeps every guess it settled;
- **best**: the best complete strategy found, the bound proven, and the seconds spent in all.

Everything is checked on loading. The file must be a store of this game with these options and
this feedback table (a digest of it); every row carries a digest of its contents; every exact
value comes with a tree that is replayed against the table and must cost exactly that value;
every bound must be at least the counting bound. A store that fails is refused in one line, and
nothing is guessed back from it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import sqlite3
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np

from moocow.engine.errors import MoocowError
from moocow.engine.tree import Node

FORMAT = "moocow-proof-store"
VERSION = 1
SECONDS_EVERY = 1.0
"""Least time between two writes of the seconds spent: not one more write per result (a proof
keeps tens of thousands)."""
MOST_SECONDS = 1e10
"""More seconds than any proof has run (three centuries): a larger count is damage."""
NO_LIMIT = -1
"""How a search with no depth limit is written in the ``depth`` column."""

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sets (
    id INTEGER PRIMARY KEY,
    candidates BLOB NOT NULL,
    depth INTEGER NOT NULL,
    digest BLOB NOT NULL,
    UNIQUE (candidates, depth)
);
CREATE TABLE set_values (
    set_id INTEGER PRIMARY KEY REFERENCES sets (id),
    value INTEGER NOT NULL,
    guess INTEGER NOT NULL,
    tree BLOB,
    digest BLOB NOT NULL
);
CREATE TABLE guess_values (
    set_id INTEGER NOT NULL REFERENCES sets (id),
    guess INTEGER NOT NULL,
    value INTEGER NOT NULL,
    exact INTEGER NOT NULL,
    tree BLOB,
    digest BLOB NOT NULL,
    PRIMARY KEY (set_id, guess)
);
"""

KEEP_THE_STRONGER = (
    "WHERE {table}.tree IS NULL AND (excluded.tree IS NOT NULL OR excluded.value > {table}.value)"
)
"""A result replaces a stored one only when stronger: exact over a bound, a higher bound over a
lower one (the searching process and its workers may keep the same set)."""

SetKey = tuple[bytes, int | None]
"""A set as the search keys it: its candidates' bytes (ascending int32) and the guesses left."""


def set_key(candidates: np.ndarray, parts_depth: int | None) -> SetKey:
    """The key of a set whose parts have ``parts_depth`` guesses left."""
    return candidates.tobytes(), None if parts_depth is None else parts_depth + 1


@dataclass(frozen=True)
class SearchIdentity:
    """What a store's results are results of: a store of another search is refused."""

    game: str
    max_depth: int | None
    candidates_only: bool
    table_digest: str
    """sha256 of the feedback table, the winning answer and each secret's guess index."""

    def fields(self) -> dict[str, str]:
        return {
            "format": FORMAT,
            "version": str(VERSION),
            "game": self.game,
            "max_depth": "none" if self.max_depth is None else str(self.max_depth),
            "candidates_only": str(self.candidates_only).lower(),
            "table": self.table_digest,
        }


def table_digest(table: np.ndarray, guess_of: np.ndarray, win: int) -> str:
    """A digest of what the results' indices mean: the same game built another way gives another."""
    digest = hashlib.sha256()
    digest.update(np.ascontiguousarray(table).tobytes())
    digest.update(np.ascontiguousarray(guess_of, dtype=np.int64).tobytes())
    digest.update(str((table.shape, int(win))).encode())
    return digest.hexdigest()


@dataclass
class Stored:
    """A set's or a guess's result: exact (``tree`` attains it) or a lower bound (``tree`` is None)."""

    value: int
    tree: Node | None

    @property
    def exact(self) -> bool:
        return self.tree is not None


@dataclass(frozen=True)
class Best:
    """The best complete strategy found and the proven bound, across every run on the store."""

    total: int
    tree: Node
    lower: int
    seconds: float


Method = TypeVar("Method", bound=Callable[..., None])


def _written(method: Method) -> Method:
    """A write that fails (a full disk, a file taken away) is one line naming the store."""

    @functools.wraps(method)
    def write(self: ProofStore, *arguments: object) -> None:
        try:
            method(self, *arguments)
        except sqlite3.Error as error:
            raise MoocowError(f"cannot write the proof store {self.path}: {error}") from None

    return write  # type: ignore[return-value]  # functools.wraps types it as a wrapper, not a Method


class ProofStore:
    """An open store: its results in memory (checked), and each new result written through."""

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._connection = connection
        self._opener = self._connected = os.getpid()
        """The process that opened the store, and the one whose connection ``_connection`` is: a
        worker forked from the opener writes through a connection of its own."""
        self._inherited: list[sqlite3.Connection] = []
        self.sets: dict[SetKey, Stored] = {}
        self.guesses: dict[tuple[SetKey, int], Stored] = {}
        self.best: Best | None = None
        self._set_ids: dict[SetKey, int] = {}
        self._seconds_before = 0.0
        self._opened = time.monotonic()
        self._seconds_kept = -SECONDS_EVERY
        """When (``time.monotonic``) the seconds were last written."""

    @property
    def _db(self) -> sqlite3.Connection:
        """This process's connection: SQLite's must not cross a fork, so a forked worker opens its
        own (and leaves the inherited one alone: closing it could disturb the parent's)."""
        if os.getpid() != self._connected:
            self._inherited.append(self._connection)
            self._connection = _connect(self.path)
            self._connected = os.getpid()
        return self._connection

    # ------------------------------------------------------------------ opening
    @classmethod
    def open(cls, path: Path, identity: SearchIdentity, checker: TreeChecker) -> ProofStore:
        """Open (or create) the store at ``path``; one line if it is not a sound store of this search."""
        if path.is_dir() or not path.parent.is_dir():
            raise MoocowError(f"cannot keep a proof store at {path}: no such folder, or a folder itself")
        if path.exists() and not path.is_file():  # SQLite says only "disk I/O error" of /dev/null
            raise MoocowError(
                f"cannot keep a proof store at {path}: not a regular file (a device, pipe or socket); "
                "name a file"
            )
        try:
            store = cls(path, _connect(path))
            new = not _has_tables(store._db)
            if new and path.exists() and path.stat().st_size > 0:
                raise MoocowError(f"{path} is an SQLite file but not a moocow proof store")
            if not new:
                store._check_identity(identity)
                store._load(checker)
            store._db.execute("PRAGMA journal_mode=WAL")  # each commit safe from a killed process at once
            store._db.execute("PRAGMA synchronous=NORMAL")
            if new:
                store._db.executescript(SCHEMA)
                store._write_meta(identity.fields())
        except sqlite3.DatabaseError as error:
            raise MoocowError(f"{path} is not a sound moocow proof store: {error}") from None
        return store

    def _check_identity(self, identity: SearchIdentity) -> None:
        if self._db.execute("PRAGMA quick_check").fetchone() != ("ok",):
            raise MoocowError(f"{self.path} is damaged (SQLite's quick_check fails)")
        stored = dict(self._db.execute("SELECT key, value FROM meta"))
        wanted = identity.fields()
        if stored.get("format") != FORMAT:
            raise MoocowError(f"{self.path} is not a moocow proof store")
        if stored.get("version") != str(VERSION):
            raise MoocowError(
                f"{self.path} is a proof store of version {stored.get('version')}, not {VERSION}"
            )
        for key in ("game", "max_depth", "candidates_only"):
            if stored.get(key) != wanted[key]:
                raise MoocowError(
                    f"{self.path} is the store of another search ({key} {stored.get(key)}, not {wanted[key]})"
                )
        if stored.get("table") != wanted["table"]:
            raise MoocowError(f"{self.path} was made with another feedback table for {identity.game}")
        try:
            self._seconds_before = float(stored.get("seconds", "0"))
        except ValueError:
            self._seconds_before = math.nan
        if not 0 <= self._seconds_before < MOST_SECONDS:  # False for NaN
            raise MoocowError(f"{self.path} is damaged (its seconds are {stored.get('seconds')!r})")

    def _load(self, checker: TreeChecker) -> None:
        """Read every result, checking each (``checker`` replays trees and knows the counting bounds)."""
        keys: dict[int, SetKey] = {}
        for set_id, blob, depth, digest in self._db.execute("SELECT id, candidates, depth, digest FROM sets"):
            _check_digest(digest, blob, depth, where=f"set {set_id}", path=self.path)
            key = (_candidates(blob, self.path), None if depth == NO_LIMIT else depth)
            keys[set_id] = key
            self._set_ids[key] = set_id
        rows = self._db.execute("SELECT set_id, value, guess, tree, digest FROM set_values")
        for set_id, value, guess, tree, digest in rows:
            _check_digest(digest, set_id, value, guess, tree, where=f"set {set_id}", path=self.path)
            key = _known(keys, set_id, self.path)
            node = _tree(tree, self.path) if tree is not None else None
            if node is not None and node.guess != guess:
                raise MoocowError(f"{self.path}: set {set_id}'s tree does not start with its guess")
            self.sets[key] = checker.settled(key, value, node, self.path)
        rows = self._db.execute("SELECT set_id, guess, value, exact, tree, digest FROM guess_values")
        for set_id, guess, value, exact, tree, digest in rows:
            _check_digest(digest, set_id, guess, value, exact, tree, where=f"set {set_id}", path=self.path)
            key = _known(keys, set_id, self.path)
            node = _tree(tree, self.path) if exact else None
            if node is not None and node.guess != guess:
                raise MoocowError(f"{self.path}: a guess of set {set_id} has a tree of another guess")
            self.guesses[(key, guess)] = checker.settled(key, value, node, self.path, guess)
        self._load_best(checker)

    def _load_best(self, checker: TreeChecker) -> None:
        stored = dict(self._db.execute("SELECT key, value FROM meta WHERE key LIKE 'best%'"))
        if "best" not in stored and "best_digest" in stored:  # written together, or neither is
            raise MoocowError(f"{self.path} is damaged: the best's digest is kept without the best")
        if "best" not in stored:
            return
        _check_digest(
            stored.get("best_digest", "").encode(), stored["best"], where="the best", path=self.path
        )
        total, lower, tree = json.loads(stored["best"])
        node = _node(tree, self.path)
        checker.settled(checker.whole_game, total, node, self.path)
        if not lower <= total:
            raise MoocowError(f"{self.path}: the proven bound {lower} exceeds the best total {total}")
        self.best = Best(total, node, lower, self._seconds_before)

    # ------------------------------------------------------------------ writing
    @_written
    def put_set(self, key: SetKey, value: int, guess: int, tree: Node | None) -> None:
        """Keep a set's exact value (with its guess and tree) or a lower bound (``tree`` None)."""
        known = self.sets.get(key)
        if known is not None and (known.exact or (tree is None and known.value >= value)):
            return
        self.sets[key] = Stored(value, tree)
        set_id = self._set_id(key)
        blob = _tree_blob(tree)
        digest = row_digest(set_id, value, guess, blob)
        self._db.execute(
            "INSERT INTO set_values VALUES (?, ?, ?, ?, ?) ON CONFLICT (set_id) DO UPDATE SET "
            "value = excluded.value, guess = excluded.guess, tree = excluded.tree, digest = excluded.digest "
            + KEEP_THE_STRONGER.format(table="set_values"),
            (set_id, value, guess, blob, digest),
        )
        self.count_seconds()

    def guess_settled(self, candidates: np.ndarray, parts_depth: int | None, guess: int) -> Stored | None:
        """What is kept for the parts ``guess`` leaves of a set (``set_key``), if anything.

        Not a write: the write decorator's wrapper returns nothing, and once sat here by mistake
        (from 012165c), so that no guess kept was ever read back and a resumed proof searched
        every one of them again."""
        return self.guesses.get((set_key(candidates, parts_depth), guess))

    @_written
    def put_guess(
        self, candidates: np.ndarray, parts_depth: int | None, guess: int, value: int, tree: Node | None
    ) -> None:
        """Keep the total of the parts ``guess`` leaves of a set: exact (with its tree) or a bound."""
        key = set_key(candidates, parts_depth)
        known = self.guesses.get((key, guess))
        if known is not None and (known.exact or (tree is None and known.value >= value)):
            return
        self.guesses[(key, guess)] = Stored(value, tree)
        set_id = self._set_id(key)
        blob, exact = _tree_blob(tree), int(tree is not None)
        digest = row_digest(set_id, guess, value, exact, blob)
        self._db.execute(
            "INSERT INTO guess_values VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (set_id, guess) DO UPDATE SET "
            "value = excluded.value, exact = excluded.exact, tree = excluded.tree, digest = excluded.digest "
            + KEEP_THE_STRONGER.format(table="guess_values"),
            (set_id, guess, value, exact, blob, digest),
        )
        self.count_seconds()

    @_written
    def put_best(self, total: int, tree: Node, lower: int) -> None:
        """Keep the best strategy found and the bound proven (with the time spent so far)."""
        self.best = Best(total, tree, lower, self.seconds())
        text = json.dumps([total, lower, _encode(tree)], separators=(",", ":"))
        self._write_meta(
            {"best": text, "best_digest": row_digest(text).decode(), "seconds": f"{self.seconds():.1f}"}
        )

    @_written
    def count_seconds(self) -> None:
        """Keep the time spent as results come and while workers are waited for, so that a killed
        search still counts it: at most every ``SECONDS_EVERY``, and by the searching process
        alone (its workers' time is its)."""
        now = time.monotonic()
        if os.getpid() == self._opener and now - self._seconds_kept >= SECONDS_EVERY:
            self._seconds_kept = now
            self._write_meta({"seconds": f"{self.seconds():.1f}"})

    def seconds(self) -> float:
        """Seconds searched on this store, over every run."""
        return self._seconds_before + time.monotonic() - self._opened

    @_written
    def close(self) -> None:
        """Record the time spent and close the file."""
        self._write_meta({"seconds": f"{self.seconds():.1f}"})
        self._db.close()

    def _write_meta(self, values: dict[str, str]) -> None:
        """All of ``values`` or none. The connection commits each statement by itself unless a
        transaction is begun: a search killed between the best and its digest left a store
        refused as damaged (seen once in CI)."""
        with self._db:  # commits the transaction begun here, or rolls it back
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", values.items())

    def _set_id(self, key: SetKey) -> int:
        set_id = self._set_ids.get(key)
        if set_id is None:
            blob = zlib.compress(key[0])
            depth = NO_LIMIT if key[1] is None else key[1]
            self._db.execute(  # a worker process may have kept it first
                "INSERT INTO sets (candidates, depth, digest) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (blob, depth, row_digest(blob, depth)),
            )
            row = self._db.execute("SELECT id FROM sets WHERE candidates = ? AND depth = ?", (blob, depth))
            set_id = self._set_ids[key] = int(row.fetchone()[0])
        return set_id


class TreeChecker:
    """Checks a stored result against the game: trees replayed on the table, bounds against counting."""

    def __init__(
        self,
        table: np.ndarray,
        win: int,
        counting: Callable[[int | None], np.ndarray],
        max_depth: int | None,
    ) -> None:
        self.rows = table
        self.win = win
        self.counting = counting
        """Counting bounds of every set size, by guesses left (``Search.bounds``)."""
        self.whole_game: SetKey = (np.arange(len(table), dtype=np.int32).tobytes(), max_depth)

    def settled(
        self, key: SetKey, value: int, tree: Node | None, path: Path, guess: int | None = None
    ) -> Stored:
        """The result, if it is sound: an exact value its tree attains, a bound at least counting's."""
        candidates = np.frombuffer(key[0], dtype=np.int32)
        if len(candidates) == 0 or (np.diff(candidates) <= 0).any() or candidates[-1] >= len(self.rows):
            raise MoocowError(f"{path}: a stored set is not a set of this game's secrets")
        paid_here = len(candidates) if guess is not None else 0  # a guess's value leaves out its own guess
        if tree is not None:
            cost = self.cost(candidates, tree, key[1], path) - paid_here
            if cost != value:
                raise MoocowError(f"{path}: a stored tree costs {cost}, not the {value} stored with it")
        floor = int(self.counting(key[1])[len(candidates)]) - paid_here
        if value < floor:
            raise MoocowError(f"{path}: a stored value {value} is below what counting proves ({floor})")
        return Stored(value, tree)

    def cost(self, candidates: np.ndarray, root: Node, depth: int | None, path: Path) -> int:
        """The total of ``root`` over ``candidates`` within ``depth`` guesses, replayed on the table;
        one line if it does not play."""
        total = 0
        stack = [(root, candidates, 1)]
        while stack:
            node, here, level = stack.pop()
            if depth is not None and level > depth:
                raise MoocowError(f"{path}: a stored tree takes more than {depth} guesses")
            if node.size != len(here):
                raise MoocowError(
                    f"{path}: a stored tree does not play its set (a node of {node.size}, not {len(here)})"
                )
            total += len(here)
            answers = self.rows[here, node.guess]
            values = set(np.unique(answers).tolist()) - {self.win}
            if values != set(node.children):
                raise MoocowError(f"{path}: a stored tree does not play its set (its answers differ)")
            stack.extend(
                (child, here[answers == answer], level + 1) for answer, child in node.children.items()
            )
        return total


def _connect(path: Path) -> sqlite3.Connection:
    """A connection in autocommit mode that waits for another process's write (a worker's)."""
    return sqlite3.connect(path, isolation_level=None, timeout=600)


def _has_tables(connection: sqlite3.Connection) -> bool:
    return connection.execute("SELECT count(*) FROM sqlite_master WHERE name = 'meta'").fetchone()[0] > 0


def row_digest(*fields: object) -> bytes:
    """A digest of a row's fields, so a row damaged or edited by hand is caught on loading."""
    return hashlib.blake2b(repr(fields).encode(), digest_size=16).hexdigest().encode()


def _check_digest(digest: bytes, *fields: object, where: str, path: Path) -> None:
    if digest != row_digest(*fields):
        raise MoocowError(f"{path} is damaged ({where} does not match its digest)")


def _candidates(blob: bytes, path: Path) -> bytes:
    try:
        return zlib.decompress(blob)
    except zlib.error:
        raise MoocowError(f"{path} is damaged (a stored set does not decompress)") from None


def _known(keys: dict[int, SetKey], set_id: int, path: Path) -> SetKey:
    if set_id not in keys:
        raise MoocowError(f"{path} is damaged (a result of set {set_id}, which it does not hold)")
    return keys[set_id]


def _tree_blob(tree: Node | None) -> bytes | None:
    if tree is None:
        return None
    return zlib.compress(json.dumps(_encode(tree), separators=(",", ":")).encode())


def _tree(blob: bytes, path: Path) -> Node:
    try:
        return _node(json.loads(zlib.decompress(blob)), path)
    except (zlib.error, ValueError):
        raise MoocowError(f"{path} is damaged (a stored tree does not read)") from None


def _encode(node: Node) -> list:
    """A tree as nested lists: ``[guess, size, [[answer, child], ...]]``."""
    return [node.guess, node.size, [[answer, _encode(child)] for answer, child in node.children.items()]]


def _node(data: object, path: Path) -> Node:
    try:
        guess, size, children = cast(list[Any], data)  # a malformed tree raises here, and is refused
        node = Node(int(guess), int(size))
        for answer, child in children:
            node.children[int(answer)] = _node(child, path)
    except (TypeError, ValueError):
        raise MoocowError(f"{path} is damaged (a stored tree is not a tree)") from None
    return node
