"""Is this row a round the tournament could have played? The checks ``--resume``, ``verify`` and
the results viewer make of every row of a results file.

The file is the runner's, but anyone who can write to it could add rounds: a row counts only if
it has exactly the fields of a round, a player and a game of the header, the secret the seed
deals for its round, guesses the referee accepts, a score those guesses make, and appears once.
Every problem is one line (``BadRow``), never a traceback: a number too big for a float included.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, TypeGuard

from moocow.engine.errors import MoocowError
from moocow.engine.wording import plural
from moocow.referee.bacrunner import is_course_deck
from moocow.referee.decks import Deal, load_deck
from moocow.referee.rules import RuleInForce, read_course_guess, read_guess
from moocow.runner.results import CUT_FIELDS, SEED_FINGERPRINT, RoundResult
from moocow.runner.shown import GUESS_SHOWN
from moocow.sandbox.fouls import Failure, Foul

MOST_ROUNDS = 1_000_000
"""Rounds per player and game at most: every round's secret is dealt before the first is played."""
DIGEST = re.compile(r"[0-9a-f]{64}")
"""A SHA-256 digest as a cut guess records it."""
FINGERPRINT_TEXT = re.compile(r"[0-9a-f]{1,64}")
"""A seed's fingerprint as a header records it (``seeds.fingerprint``): hexadecimal digits."""


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
    A header whose seed is secret (``results.SEED_FINGERPRINT``) has no seed: given ``seed`` (the
    run's own, which the caller has matched with the fingerprint) the secrets are checked as
    ever; without it each secret is only one its entry can deal (``secrets_checked`` says which).
    """

    def __init__(self, description: dict[str, Any], seed: int | None = None) -> None:
        problem = description_problem(description)
        if problem is not None:
            raise BadRow(problem)
        self.players = {player["name"] for player in description["players"]}
        self.rounds: int = description["rounds"]
        self.mercy: int = description["mercy"]
        self.most_guess = _line_bytes(description)
        self.seed: int | None = description.get("seed", seed)
        self.deals = dealt(description, self.seed) if self.seed is not None else None
        self.secrets = (
            {game: tuple(deal.secret_text for deal in deals) for game, deals in self.deals.items()}
            if self.deals is not None
            else {game: () for game in description["games"]}
        )
        self.seen: dict[tuple[str, str, int], int] = {}

    @property
    def secrets_checked(self) -> bool:
        """Whether each secret is checked against the seed (the seed is known), not only against its deck."""
        return self.deals is not None

    def deal(self, game: str, number: int, secret: str) -> Deal:
        """Round ``number`` of entry ``game`` as dealt: by the seed, or, where it is secret, by the
        round's own secret (``MoocowError`` if the entry never deals it)."""
        if self.deals is not None:
            return self.deals[game][number]
        return load_deck(game).dealt_as(secret)

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
        deal = self._dealt(row)
        self._check_score(row)
        self._check_guesses(row, deal)
        self.seen[key] = number
        return RoundResult.from_row(row)

    def _dealt(self, row: dict[str, Any]) -> Deal:
        """The row's round as dealt; its secret is the seed's, or with the seed secret, its deck's."""
        if self.deals is not None:
            if row["secret"] != self.secrets[row["game"]][row["round"]]:
                raise BadRow(
                    f"secret {_shown(row['secret'])} is not the one the seed deals for round {row['round']}"
                )
            return self.deals[row["game"]][row["round"]]
        try:
            return load_deck(row["game"]).dealt_as(row["secret"])
        except MoocowError:
            raise BadRow(f"secret {_shown(row['secret'])} is not one that {row['game']} deals") from None

    def _check_guesses(self, row: dict[str, Any], deal: Deal) -> None:
        """Each guess is one the referee accepts in that round, written as it writes it, and allowed by
        the game's rule after the answers before it (an invalid answer ends a round as ``invalid``
        and is not recorded as a guess)."""
        course = is_course_deck(row["game"])
        rule = None if course else RuleInForce.of(deal.game)
        for guess in row["guesses"]:
            if isinstance(guess, dict):
                self._check_cut(guess, course)
                continue
            try:
                played = read_course_guess(guess) if course else read_guess(deal.game, guess)
                if rule is not None and played.index is not None:
                    rule.check(played)
                    rule.answered(played, deal.game.score(played.index, deal.secret))
            except Foul as foul:
                raise BadRow(f"guess {_shown(guess)} could not have been played: {foul.reason}") from None
            if played.text != guess:
                raise BadRow(f"guess {_shown(guess)} is not written as the referee writes it")

    def _check_cut(self, guess: dict[str, Any], course: bool) -> None:
        """A course guess too long to store whole: its first characters, its length, its digest."""
        shown = _json_text(guess)
        if not course:
            raise BadRow(f"guess {shown} is cut, but only a course round's guesses are")
        if set(guess) != set(CUT_FIELDS):
            raise BadRow(f"cut guess {shown} must have exactly the fields {', '.join(CUT_FIELDS)}")
        kept, length, digest = guess["cut"], guess["length"], guess["sha256"]
        if (
            not isinstance(kept, str)
            or len(kept) != GUESS_SHOWN
            or not kept.isprintable()
            or kept != kept.lstrip()
        ):
            raise BadRow(f"cut guess {shown} does not keep the first {GUESS_SHOWN} characters of a guess")
        if not _whole(length) or not GUESS_SHOWN < length <= self.most_guess:
            raise BadRow(f"cut guess {shown}: its length is not from {GUESS_SHOWN + 1} to {self.most_guess}")
        if not isinstance(digest, str) or not DIGEST.fullmatch(digest):
            raise BadRow(f"cut guess {shown}: its sha256 is not 64 hexadecimal digits")

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
        if not _time(row["seconds"]):
            raise BadRow(f"seconds {_json_text(row['seconds'])} is not a time")


def dealt(description: dict[str, Any], seed: int) -> dict[str, list[Deal]]:
    """Every entry's rounds as ``seed`` deals them (one deal per game)."""
    rounds = description["rounds"]
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
        if not isinstance(guess, str | dict):
            raise BadRow(f"guess {number} must be a string, not {_json_text(guess)}")


def _whole(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _time(value: Any) -> bool:
    """Whether a number is a time in seconds: finite, not negative, within a float (a 400-digit
    whole number made ``math.isfinite`` raise ``OverflowError``)."""
    try:
        return math.isfinite(value) and value >= 0
    except OverflowError:
        return False


def _line_bytes(description: dict[str, Any]) -> int:
    """The longest line a player could send: the header's ``line_bytes`` limit."""
    limits = description.get("limits")
    most = limits.get("line_bytes") if isinstance(limits, dict) else None
    return most if _whole(most) and most > 0 else 1 << 16


def description_problem(description: Any) -> str | None:
    """What keeps a header's description from being a tournament's, if anything: read from a file
    nobody vouches for (``verify``, the viewer), a header of 10^400 rounds would be dealt."""
    if not isinstance(description, dict):
        return "the header does not describe a tournament"
    players, games = description.get("players"), description.get("games")
    if not isinstance(players, list) or not all(
        isinstance(player, dict) and isinstance(player.get("name"), str) for player in players
    ):
        return "the header's players are not a list of named players"
    if not isinstance(games, list) or not all(isinstance(game, str) for game in games):
        return "the header's games are not a list of specs"
    for name, most in (("rounds", MOST_ROUNDS), ("mercy", None)):
        value = description.get(name)
        if not _whole(value) or value < 1 or (most is not None and value > most):
            bound = "" if most is None else f" to {most:,}"
            return f"the header's {name} is {_json_text(value)}, not a whole number from 1{bound}"
    return seed_problem(description)


def seed_problem(description: Any) -> str | None:
    """What is wrong with a header's seed, if it is there but not a whole number (``5.0``), or with
    the fingerprint that stands for a secret one, if that is not one."""
    seed = description.get("seed") if isinstance(description, dict) else None
    recorded = description.get(SEED_FINGERPRINT) if isinstance(description, dict) else None
    if recorded is not None and not (isinstance(recorded, str) and FINGERPRINT_TEXT.fullmatch(recorded)):
        return f"its {SEED_FINGERPRINT} is {_shown(recorded)}, not a seed's fingerprint"
    if seed is None or _whole(seed):
        return None
    return f"its seed is {_shown(seed)}, not a whole number"


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
