"""Round results, and the JSON-lines file a tournament appends each one to the moment it is played.

The first line describes the tournament; every later line is one finished round, written and
flushed at once, so a tournament killed at any point loses at most the rounds being played. On
``--resume`` the description must match, every row must be a round this tournament could have
played, a torn last line is cut off, and the rounds found are not played again. With a key every
line is signed (``signing.py``) and a resumed file must verify line by line.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import math
import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from dataclasses import field as dataclass_field
from pathlib import Path
from typing import Any

from moocow.engine.errors import MoocowError
from moocow.engine.inputs import open_regular
from moocow.engine.table import FeedbackTable
from moocow.runner import signing
from moocow.runner.bacrunner import is_course_deck
from moocow.runner.decks import Deal, load_deck
from moocow.runner.files import check_output, create_private
from moocow.runner.fouls import Failure, Foul
from moocow.runner.rules import RuleInForce, read_course_guess, read_guess
from moocow.terminal import plural

FORMAT = "moocow-tournament"
"""The header's ``format`` value."""
FORMAT_VERSION = 1
"""Bumped when the file layout changes."""


@dataclass(frozen=True)
class RoundResult:
    """One round of one player in one tournament entry."""

    player: str
    """The player's name."""
    game: str
    """The entry's spec (the deck): a game spec or ``bacrunner:...``."""
    round: int
    """The round's number in the entry, from 0."""
    secret: str
    """The secret, as the game writes it."""
    guesses: tuple[str, ...]
    """The player's guesses, as the game writes them (in a course round: as the player sent them)."""
    solved: bool
    """Whether the last guess was the secret."""
    score: int
    """Guesses taken if solved, otherwise the mercy limit."""
    failure: str | None
    """The kind of failure (``mercy``, ``timeout``, ``crash``, ...) or ``None``."""
    reason: str | None
    """One line saying how the round was lost, or ``None``."""
    seconds: float
    """Time spent waiting for the player's guesses (a timing field: varies run to run)."""
    stderr: tuple[str, ...] = dataclass_field(default=(), compare=False, repr=False)
    """The last lines the player wrote to stderr in a lost round, for ``grade`` to show (students
    debug with ``print``); not written to the results file, whose rows are the referee's record."""

    TIMING_FIELDS = ("seconds",)
    UNWRITTEN_FIELDS = ("stderr",)
    """Fields the results file does not hold: the player's words, not the referee's record."""

    @property
    def key(self) -> tuple[str, str, int]:
        """Which round this is: player, entry, round number."""
        return (self.player, self.game, self.round)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the results file's row (``stderr`` is left out)."""
        data = {**asdict(self), "guesses": list(self.guesses)}
        for name in self.UNWRITTEN_FIELDS:
            del data[name]
        return data

    def without_timing(self) -> dict[str, Any]:
        """Everything that must be identical between two runs of the same tournament."""
        data = self.to_dict()
        for field in self.TIMING_FIELDS:
            del data[field]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundResult:
        """Read back what ``to_dict`` wrote."""
        return cls(**{**data, "guesses": tuple(data["guesses"])})


REFEREE = "referee"
"""The header's record of what protected the run (sandbox, limits): written, never compared on resume."""


def header(
    description: dict[str, Any], signed: bool = False, referee: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The first line of a results file (without its signature); ``signed`` files say so."""
    first = {"format": FORMAT, "version": FORMAT_VERSION, "tournament": description}
    first = {**first, "signed": True} if signed else first
    return {**first, REFEREE: referee} if referee is not None else first


class ResultsFile:
    """An append-only JSON-lines file of round results, created private (use as a context manager)."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        description: dict[str, Any],
        resume: bool,
        key: bytes | None = None,
        referee: dict[str, Any] | None = None,
    ) -> None:
        self.path = check_output(path, "results file")
        self.finished: list[RoundResult] = []
        """The rounds already in the file when resuming."""
        self._key = key
        first = header(description, signed=key is not None, referee=referee)
        with self._writing():
            self._file = os.fdopen(create_private(self.path), "a", encoding="utf-8")
        try:
            self._hold(path)
            written = os.fstat(self._file.fileno()).st_size
            if written and not resume:
                raise MoocowError(
                    f"results file {str(path)!r} exists: --resume finishes it, or choose another file"
                )
            if written:
                self.finished = read_results(self.path, first, key)
            else:
                self._write(first)
        except BaseException:
            with contextlib.suppress(OSError):  # a full disk fails the close too; the error said so
                self._file.close()
            raise

    def _hold(self, path: str | os.PathLike[str]) -> None:
        """Lock the file for this run alone: two runs on one file (a second ``--resume`` while the
        first still plays) wrote each other's rounds twice, or spliced their lines, both exiting 0."""
        try:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise MoocowError(
                f"results file {str(path)!r} is being written by another run: let it finish, or stop "
                "it and --resume"
            ) from None
        except OSError:  # a file system without locks: as before
            pass

    def append(self, result: RoundResult) -> None:
        """Write one finished round and flush it to the operating system at once."""
        self._write(result.to_dict())

    def _write(self, data: dict[str, Any]) -> None:
        row = data if self._key is None else signing.signed(data, self._key)
        with self._writing():
            self._file.write(json.dumps(row, ensure_ascii=False) + "\n")
            self._file.flush()

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """A file that cannot be written (a full disk) stops the run in one line: the rounds
        written so far stay, and ``--resume`` cuts a torn last line and plays the rest."""
        try:
            yield
        except OSError as error:
            raise MoocowError(
                f"cannot write the results file {str(self.path)!r}: {error.strerror or error} "
                "(the rounds written so far are kept: mend that, then --resume)"
            ) from None

    def close(self) -> None:
        """Close the file."""
        with self._writing():
            self._file.close()

    def __enter__(self) -> ResultsFile:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def recorded_seed(path: str | os.PathLike[str]) -> int | None:
    """The seed in a results file's header, if it has a readable one (its signature is checked on resume)."""
    try:
        with open_regular(path, "results file") as file:
            first = json.loads(file.readline(1 << 20).decode("utf-8"))
    except (OSError, ValueError, RecursionError):  # MoocowError too: the file is refused later
        return None
    tournament = first.get("tournament") if isinstance(first, dict) else None
    seed = tournament.get("seed") if isinstance(tournament, dict) else None
    problem = seed_problem(tournament)
    if problem is not None:
        raise MoocowError(f"results file {str(path)!r}: {problem}")
    return seed


def seed_problem(description: Any) -> str | None:
    """What is wrong with a header's seed, if it is there but not a whole number (``5.0``)."""
    seed = description.get("seed") if isinstance(description, dict) else None
    if seed is None or (isinstance(seed, int) and not isinstance(seed, bool)):
        return None
    return f"its seed is {_shown(seed)}, not a whole number"


def read_results(path: Path, expected_header: dict[str, Any], key: bytes | None = None) -> list[RoundResult]:
    """The rounds of a results file whose header is ``expected_header``, every row checked.

    The file is the runner's, but anyone who can write to it could append rounds: a resumed file
    is counted only if every row is a round this tournament could have played (``RowCheck``), and,
    with a key, only if every line carries a valid signature. A torn last line (the runner was
    killed mid-write) is cut off, once everything else has passed.
    """
    data = read_whole(path)
    lines, found, complete = complete_lines(path, data)
    found = _signature_checked(path, found, key)
    if isinstance(found, dict):
        _check_trust(path, found.get(REFEREE), expected_header.get(REFEREE))
        _check_players_unchanged(path, found.get("tournament"), expected_header["tournament"])
        # The rest of what protected an earlier run may differ (the level a machine allows): a record.
        found = {name: value for name, value in found.items() if name != REFEREE}
    expected_header = {name: value for name, value in expected_header.items() if name != REFEREE}
    if not _same_json(found, expected_header):
        raise MoocowError(
            f"results file {str(path)!r} belongs to another tournament "
            "(players, games, rounds, seed, mercy or limits differ)"
        )
    check = RowCheck(expected_header["tournament"])
    results = []
    for number, line in enumerate(lines[1:], 2):
        try:
            row = json_line(line)
            results.append(check(number, row if key is None else _verified(row, key)))
        except BadRow as error:
            raise MoocowError(f"results file {str(path)!r}, line {number}: {error}") from None
    if complete < len(data):
        with path.open("r+b") as torn:
            torn.truncate(complete)
    return results


def read_whole(path: str | os.PathLike[str]) -> bytes:
    """A results file's bytes; unreadable, or not a regular file, is one line."""
    try:
        with open_regular(path, "results file") as file:
            return file.read()
    except OSError as error:
        raise MoocowError(f"cannot read results file {str(path)!r}: {error.strerror}") from None


def complete_lines(path: Path, data: bytes) -> tuple[list[str], dict[str, Any], int]:
    """A results file's complete lines as text, its header read, and where the complete lines end (a
    torn last line is being written, or was cut by a kill); one line if it has no header."""
    complete = data.rfind(b"\n") + 1
    raw = data[:complete].split(b"\n")[:-1]
    lines = [line_text(path, number, line) for number, line in enumerate(raw, 1)]
    return lines, header_of(path, lines[0] if lines else None), complete


def header_of(path: str | os.PathLike[str], first: str | None) -> dict[str, Any]:
    """The header line's JSON object, or one line saying the file is not a results file."""
    try:
        found = json_line(first) if first is not None else None
    except BadRow:
        found = None
    if not isinstance(found, dict) or found.get("format") != FORMAT:
        raise MoocowError(f"results file {str(path)!r} is not a moocow results file (no header line)")
    return found


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


def _signature_checked(path: Path, found: Any, key: bytes | None) -> Any:
    """The header without its signature; a signed file needs the key, a key needs a signed file."""
    if not isinstance(found, dict):
        return found
    shown = str(path)
    if found.get("signed") is True and key is None:
        raise MoocowError(
            f"results file {shown!r} is signed: resuming it needs the key it was signed with "
            "(--key-file or MOOCOW_RESULTS_KEY)"
        )
    if key is None:
        return found
    if found.get("signed") is not True:
        raise MoocowError(f"results file {shown!r} is not signed: resume it without a key")
    try:
        return signing.verified(found, key)
    except ValueError as error:
        raise MoocowError(f"results file {shown!r}, line 1: {error}") from None


def _verified(row: Any, key: bytes) -> dict[str, Any]:
    """A row without its signature, once the signature holds."""
    if not isinstance(row, dict):
        raise BadRow(f"not a round result (a JSON object), but {_shown(row)}")
    try:
        return signing.verified(row, key)
    except ValueError as error:
        raise BadRow(str(error)) from None


class BadRow(ValueError):
    """A line that is not a round this tournament could have played; the message says why."""


KINDS: dict[str, tuple[type, ...]] = {
    "player": (str,),
    "game": (str,),
    "round": (int,),
    "secret": (str,),
    "guesses": (list,),
    "solved": (bool,),
    "score": (int,),
    "failure": (str, type(None)),
    "reason": (str, type(None)),
    "seconds": (int, float),
}
"""The JSON types of a row's fields: exactly the fields of ``RoundResult``."""
KIND_NAMES = {
    str: "a string",
    int: "a whole number",
    float: "a number",
    list: "a list",
    bool: "true or false",
}
FAILURES = tuple(str(failure) for failure in Failure)
"""The ``failure`` values a row may have."""


class RowCheck:
    """Checks result rows against the tournament a header describes: schema, ranges, scores, secrets.

    Each secret is compared with the one the seed deals for its round, so a row cannot name a
    secret of its own choosing; scores are recomputed from the guesses, and a round may appear once.
    """

    def __init__(self, description: dict[str, Any]) -> None:
        self.players = {player["name"] for player in description["players"]}
        self.rounds: int = description["rounds"]
        self.mercy: int = description["mercy"]
        self.deals = dealt(description)
        self.secrets = {game: tuple(deal.secret_text for deal in deals) for game, deals in self.deals.items()}
        self.seen: dict[tuple[str, str, int], int] = {}

    def __call__(self, number: int, row: Any) -> RoundResult:
        """The round on line ``number``, or ``BadRow``."""
        _check_schema(row)
        key = (row["player"], row["game"], row["round"])
        if row["player"] not in self.players:
            raise BadRow(f"unknown player {_shown(row['player'])} (not one of the header's players)")
        if row["game"] not in self.secrets:
            raise BadRow(f"unknown game {_shown(row['game'])} (not one of the header's games)")
        if not 0 <= row["round"] < self.rounds:
            raise BadRow(f"round {row['round']} is not between 0 and {self.rounds - 1}")
        if key in self.seen:
            where = f"{_shown(row['player'])} in {row['game']}"
            raise BadRow(f"round {row['round']} of {where} is on line {self.seen[key]} too")
        if row["secret"] != self.secrets[row["game"]][row["round"]]:
            raise BadRow(
                f"secret {_shown(row['secret'])} is not the one the seed deals for round {row['round']}"
            )
        self._check_score(row)
        self._check_guesses(row)
        self.seen[key] = number
        return RoundResult.from_dict(row)

    def _check_guesses(self, row: dict[str, Any]) -> None:
        """Each guess is one the referee accepts in that round, written as it writes it, and allowed by
        the game's rule after the answers before it (an invalid answer ends a round as ``invalid``
        and is not recorded as a guess)."""
        deal = self.deals[row["game"]][row["round"]]
        course = is_course_deck(row["game"])
        rule = None if course else RuleInForce.of(deal.game)
        for guess in row["guesses"]:
            try:
                played = read_course_guess(guess) if course else read_guess(deal.game, guess)
                if rule is not None and played.index is not None:
                    rule.check(played)
                    rule.answered(played, FeedbackTable.for_game(deal.game).value(played.index, deal.secret))
            except Foul as foul:
                raise BadRow(f"guess {_shown(guess)} could not have been played: {foul.reason}") from None
            if played.text != guess:
                raise BadRow(f"guess {_shown(guess)} is not written as the referee writes it")

    def _check_score(self, row: dict[str, Any]) -> None:
        """Score, guesses, solved and failure agree as the referee makes them agree."""
        guesses, secret, score, mercy = row["guesses"], row["secret"], row["score"], self.mercy
        if not 1 <= score <= mercy:
            raise BadRow(f"score {score} is not between 1 and {mercy}")
        if len(guesses) > mercy:
            raise BadRow(f"{len(guesses)} guesses, more than the mercy limit {mercy}")
        if secret in guesses[:-1]:
            raise BadRow(f"guess {guesses.index(secret) + 1} is the secret, but the round went on")
        solved = bool(guesses) and guesses[-1] == secret
        if row["solved"] != solved:
            last = "is" if solved else "is not"
            raise BadRow(f"solved is {_json_text(row['solved'])}, but the last guess {last} the secret")
        expected = len(guesses) if solved else mercy
        if score != expected:
            count = len(guesses)
            how = f"solved in {count} {plural(count, 'guess')}" if solved else "not solved: the mercy limit"
            raise BadRow(f"score {score} does not match its guesses ({how}: {expected})")
        if solved != (row["failure"] is None) or solved != (row["reason"] is None) or row["reason"] == "":
            raise BadRow("a failure and its reason are recorded exactly when a round is not solved")
        if row["failure"] is not None and row["failure"] not in FAILURES:
            raise BadRow(f"failure {_shown(row['failure'])} is not one of {', '.join(FAILURES)}")
        if (row["failure"] == Failure.MERCY) != (not solved and len(guesses) == mercy):
            raise BadRow(f"failure {_shown(row['failure'])} after {len(guesses)} of {mercy} guesses")
        if not math.isfinite(row["seconds"]) or row["seconds"] < 0:
            raise BadRow(f"seconds {row['seconds']} is not a time")


def dealt(description: dict[str, Any]) -> dict[str, list[Deal]]:
    """Every entry's rounds as the header's seed deals them (one deal per game)."""
    seed, rounds = description["seed"], description["rounds"]
    return {game: load_deck(game).deal(seed, rounds) for game in description["games"]}


def _check_schema(row: Any) -> None:
    """Exactly the fields of ``RoundResult``, each of its JSON type; guesses are strings."""
    if not isinstance(row, dict):
        raise BadRow(f"not a round result (a JSON object), but {_shown(row)}")
    missing = [name for name in KINDS if name not in row]
    if missing:
        raise BadRow(f"not a round result: no {missing[0]!r}")
    unknown = [name for name in row if name not in KINDS]
    if unknown:
        raise BadRow(f"not a round result: unknown field {_shown(unknown[0])}")
    for name, kinds in KINDS.items():
        value = row[name]
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            wanted = " or ".join("null" if kind is type(None) else KIND_NAMES[kind] for kind in kinds)
            raise BadRow(f"{name} must be {wanted}, not {_json_text(value)}")
    for number, guess in enumerate(row["guesses"], 1):
        if not isinstance(guess, str):
            raise BadRow(f"guess {number} must be a string, not {_json_text(guess)}")


def line_text(path: Path, number: int, line: bytes) -> str:
    """One line of the file as text, or one line saying it is not UTF-8."""
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as error:
        raise MoocowError(
            f"results file {str(path)!r}, line {number}: not UTF-8 text (byte {line[error.start]:#04x})"
        ) from None


def json_line(line: str) -> Any:
    """A line's JSON value; NaN and Infinity are not JSON, and neither is anything unreadable."""
    try:
        return json.loads(line, parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:
        raise BadRow(f"not JSON ({error})") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


SHOWN = 40
"""Characters of an offending value quoted in a refusal."""


def _shown(value: Any) -> str:
    """A value from the file, quoted and cut short for the one-line refusal."""
    text = repr(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


def _json_text(value: Any) -> str:
    """A value as JSON writes it, cut short."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."
