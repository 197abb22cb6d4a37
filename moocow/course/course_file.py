"""The course file: what an autograder plays, what it grades, what students see and when.

One TOML file whose ``[gradescope]`` table holds it all, whatever platform grades it (the table's
name is Gradescope's, the first platform; docs/gradescope.md shows every key). Files it names (a
word file, a game's ``file=``) are relative to the course file's folder, so the same course reads
the same on the instructor's machine and where it is graded, where each such file is shipped
beside the course under its own name (``package``).
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from moocow.engine.errors import MoocowError
from moocow.engine.inputs import open_regular
from moocow.engine.seeds import checked_seed
from moocow.referee import bacrunner
from moocow.referee.specfiles import renamed_files, spec_files
from moocow.sandbox.limits import Limits

VISIBILITIES = ("visible", "after_due_date", "after_published", "hidden")
"""Gradescope's visibility values, from always shown to never."""
SECRET_UNTIL_DUE = ("after_due_date", "hidden")
"""The visibilities a graded round's details may have: shown no sooner than the due date."""
COLUMNS = ("total", "failed", "points", "worst")
"""Leaderboard columns a course may ask for (``results.LEADERBOARD`` names and orders them)."""
SCHEMES = ("solved", "scale")
"""How the golf total becomes points: a point per solved round, or a scale between two totals."""
SECONDS = 540
"""The default time budget of a submission's rounds: a minute under Gradescope's default timeout of
10 minutes, past which Gradescope stops the autograder and the submission has no results at all."""
TABLE = "gradescope"
"""The course file's table."""
KEYS = (
    "words", "min_length", "max_length", "games", "rounds", "practice_rounds", "practice_seed", "mercy",
    "files", "player", "points", "visibility", "leaderboard", "submissions", "limits", "seconds",
)  # fmt: skip
"""The keys the table may have."""


@dataclass(frozen=True)
class Points:
    """How the graded golf total becomes points."""

    scheme: str = "solved"
    """``solved``: a point per graded round solved; ``scale``: ``max`` at ``full_at`` or better,
    0 at ``zero_at`` or worse, a straight line between."""
    max: float = 0.0
    """Full marks (``scale``; ``solved`` gives the number of graded rounds)."""
    full_at: str | int = "minmax"
    """A total, or a built-in strategy whose total on the same graded deck earns full marks."""
    zero_at: str | int = "mercy"
    """A total, a built-in strategy, or ``mercy`` (every round lost): this total or worse earns 0."""


@dataclass(frozen=True)
class Visibility:
    """When students see each part of the results (Gradescope's values)."""

    practice: str = "visible"
    """The practice rounds, in full: secrets, guesses, reasons."""
    score: str = "visible"
    """The graded total, counts and points (no secret, no guess)."""
    details: str = "after_due_date"
    """Each graded round: secret, guesses, reason. Never before the due date."""


@dataclass(frozen=True)
class SubmissionLimit:
    """At most ``most`` graded submissions in any ``hours`` before a submission."""

    most: int
    """Graded submissions allowed in the period."""
    hours: float = 24.0
    """The period, in hours."""


@dataclass(frozen=True)
class Course:
    """Everything a platform's ``build`` ships and its grader grades by."""

    decks: tuple[str, ...]
    """The decks played: ``bacrunner:...`` for the course's words, or game specs."""
    rounds: int = bacrunner.ROUNDS
    """Graded rounds per deck, on the secret seed."""
    practice_rounds: int = 5
    """Practice rounds per deck, on ``practice_seed``, shown in full."""
    practice_seed: int = bacrunner.SEED
    """The public seed of the practice rounds."""
    mercy: int = bacrunner.MERCY
    """Most guesses per round; a lost round scores this."""
    files: tuple[str, ...] = ("bacplayer.py",)
    """File names a submission must have."""
    player: str = "bacplayer.py"
    """The player, as run in the submission's folder (a ``.py`` file or a command line)."""
    points: Points = field(default_factory=Points)
    """How the graded total becomes points."""
    visibility: Visibility = field(default_factory=Visibility)
    """When students see each part."""
    leaderboard: tuple[str, ...] = ("total", "failed")
    """Leaderboard columns, in order (none: no leaderboard)."""
    submissions: SubmissionLimit | None = None
    """At most so many graded submissions per period, or no limit."""
    limits: Limits = field(default_factory=Limits)
    """Limits on the student's player."""
    seconds: int = SECONDS
    """Wall-clock seconds all the rounds of a submission may take together (see ``SECONDS``)."""

    def deck_files(self) -> list[str]:
        """The files the decks read (word files), as the specs name them."""
        return [path for deck in self.decks for path in spec_files(deck)]

    def with_files(self, rename: Callable[[str], str]) -> Course:
        """The same course with each deck's files renamed (made absolute, or put beside the course)."""
        return replace(self, decks=tuple(renamed_files(deck, rename) for deck in self.decks))

    def to_toml(self) -> str:
        """The course as a course file (what the zip holds); read back by ``read_course`` unchanged."""
        points = self.points
        lines = [
            f"[{TABLE}]",
            f"games = {_toml(list(self.decks))}",
            f"rounds = {self.rounds}",
            f"practice_rounds = {self.practice_rounds}",
            f"practice_seed = {self.practice_seed}",
            f"mercy = {self.mercy}",
            f"files = {_toml(list(self.files))}",
            f"player = {_toml(self.player)}",
            f"leaderboard = {_toml(list(self.leaderboard))}",
            f"seconds = {self.seconds}",
            "",
            f"[{TABLE}.points]",
            f"scheme = {_toml(points.scheme)}",
            f"max = {points.max!r}",
            f"full_at = {_toml(points.full_at)}",
            f"zero_at = {_toml(points.zero_at)}",
            "",
            f"[{TABLE}.visibility]",
            *(f"{part} = {_toml(value)}" for part, value in vars(self.visibility).items()),
            "",
            f"[{TABLE}.limits]",
            *(f"{name} = {_toml(value)}" for name, value in self.limits.to_dict().items()),
        ]
        if self.submissions is not None:
            lines += ["", f"[{TABLE}.submissions]", f"most = {self.submissions.most}"]
            lines.append(f"hours = {self.submissions.hours!r}")
        return "\n".join(lines) + "\n"


def deck_label(deck: str) -> str:
    """A deck as students read it: its file by name, not by the grading machine's path."""
    return renamed_files(deck, lambda path: Path(path).name)


def _toml(value: Any) -> str:
    """A TOML value: JSON's strings, numbers, booleans and arrays of strings are TOML's too."""
    return json.dumps(value, ensure_ascii=False)


def read_course(path: str | Path) -> Course:
    """The course in a course file, its deck files made absolute against the file's folder."""
    shown = str(path)
    try:
        with open_regular(path, "course file") as file:
            data = tomllib.loads(file.read().decode("utf-8"))
    except UnicodeDecodeError:
        raise MoocowError(f"course file {shown!r} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise MoocowError(f"course file {shown!r} is not valid TOML: {error}") from None
    except OSError as error:
        raise MoocowError(f"cannot read course file {shown!r}: {error.strerror or error}") from None
    table = data.get(TABLE)
    if not isinstance(table, dict):
        raise MoocowError(f"course file {shown!r} has no [{TABLE}] table (see docs/gradescope.md)")
    folder = Path(path).resolve().parent
    return course_from(table, shown).with_files(lambda name: str(folder / name))


def course_from(table: Mapping[str, Any], where: str = "the course") -> Course:
    """A course from the ``[gradescope]`` table's keys (or the build command's options)."""
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        raise MoocowError(f"{where}: unknown key {unknown[0]!r} in [{TABLE}] (known: {', '.join(KEYS)})")
    games = _strings(table, "games", where)
    words = table.get("words")
    if words is not None and not (isinstance(words, str) and words):
        raise MoocowError(f"{where}: words must be a file name, not {words!r}")
    decks = list(games)
    if words is not None or not games:  # no file: the course's words_alpha.txt, shipped with moocow
        limits = {
            "minlen": _whole(table, "min_length", 5, where),
            "maxlen": _whole(table, "max_length", 15, where),
        }
        decks.insert(0, bacrunner.WordSource(words, **limits).spec)
        bacrunner.WordSource.from_spec(decks[0])  # its limits are checked here, not at grading
    files = tuple(_strings(table, "files", where)) or ("bacplayer.py",)
    player = table.get("player", files[0])
    if not isinstance(player, str) or not player.strip():
        raise MoocowError(f"{where}: player must be a file name or a command line, not {player!r}")
    for name in files:
        if Path(name).name != name or name in (".", ".."):
            raise MoocowError(f"{where}: files are names in the submission's folder, not paths: {name!r}")
    columns = tuple(_strings(table, "leaderboard", where, ["total", "failed"]))
    for column in columns:
        if column not in COLUMNS:
            raise MoocowError(f"{where}: unknown leaderboard column {column!r} (known: {', '.join(COLUMNS)})")
    visibility = _visibility(_table(table, "visibility", where), where)
    if columns and visibility.score != "visible":
        raise MoocowError(
            f"{where}: a leaderboard shows the graded totals at once, where the score is shown "
            f"{visibility.score}: set leaderboard = [] (or the score's visibility to visible)"
        )
    return Course(
        decks=tuple(decks),
        rounds=_whole(table, "rounds", bacrunner.ROUNDS, where, least=1),
        practice_rounds=_whole(table, "practice_rounds", 5, where),
        practice_seed=checked_seed(_whole(table, "practice_seed", bacrunner.SEED, where), "practice_seed"),
        mercy=_whole(table, "mercy", bacrunner.MERCY, where, least=1),
        files=files,
        player=player,
        points=_points(_table(table, "points", where), where),
        visibility=visibility,
        leaderboard=columns,
        submissions=_submissions(table.get("submissions"), where),
        limits=Limits.from_mapping(_table(table, "limits", where)),
        seconds=_whole(table, "seconds", SECONDS, where, least=1),
    )


def chosen_course(course: Path | None, options: dict[str, object]) -> Course:
    """The course file, or the build options (not both): what every ``build`` command (Gradescope's,
    PrairieLearn's, Classroom's) takes; a course made from options names its files absolutely."""
    given = {key: value for key, value in options.items() if value is not None}
    if course is not None and given:
        raise MoocowError("give the course file or the options --words, --game, --rounds, --mercy, not both")
    if course is not None:
        return read_course(course)
    return course_from(given, "the options").with_files(lambda name: str(Path(name).absolute()))


def _table(table: Mapping[str, Any], key: str, where: str) -> dict[str, Any]:
    value = table.get(key, {})
    if not isinstance(value, dict):
        raise MoocowError(f"{where}: [{TABLE}.{key}] must be a table, not {value!r}")
    return value


def _strings(table: Mapping[str, Any], key: str, where: str, default: Sequence[str] = ()) -> list[str]:
    value = table.get(key, list(default))
    if not isinstance(value, list) or not all(isinstance(item, str) and item.strip() for item in value):
        raise MoocowError(f"{where}: {key} must be a list of names, not {value!r}")
    return [item.strip() for item in value]


def _whole(table: Mapping[str, Any], key: str, default: int, where: str, least: int = 0) -> int:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise MoocowError(f"{where}: {key} must be a whole number of at least {least}, not {value!r}")
    return value


def _known_only(
    table: Mapping[str, Any], known: Iterable[str], section: str, where: str, noun: str = "key"
) -> None:
    """One line naming a key of ``[gradescope.SECTION]`` that is not ``known``, and the known ones."""
    unknown = sorted(set(table) - set(known))
    if unknown:
        raise MoocowError(
            f"{where}: unknown {noun} {unknown[0]!r} in [{TABLE}.{section}] (known: {', '.join(known)})"
        )


def _points(table: Mapping[str, Any], where: str) -> Points:
    _known_only(table, vars(Points()), "points", where)
    points = Points(**table)
    if points.scheme not in SCHEMES:
        raise MoocowError(
            f"{where}: points scheme must be one of {', '.join(SCHEMES)}, not {points.scheme!r}"
        )
    if isinstance(points.max, bool) or not isinstance(points.max, int | float) or points.max < 0:
        raise MoocowError(f"{where}: points max must be a number of at least 0, not {points.max!r}")
    if points.scheme == "scale" and points.max <= 0:
        raise MoocowError(f"{where}: the scale scheme needs max, the points for full marks")
    for name in ("full_at", "zero_at"):
        mark = getattr(points, name)
        if isinstance(mark, bool) or not isinstance(mark, int | str) or mark == "":
            raise MoocowError(f"{where}: points {name} must be a total or a strategy, not {mark!r}")
    return points


def _visibility(table: Mapping[str, Any], where: str) -> Visibility:
    _known_only(table, vars(Visibility()), "visibility", where, "part")
    for part, value in table.items():
        if value not in VISIBILITIES:
            raise MoocowError(
                f"{where}: visibility {value!r} of {part} is not one of {', '.join(VISIBILITIES)}"
            )
    visibility = Visibility(**table)
    if visibility.details not in SECRET_UNTIL_DUE:
        raise MoocowError(
            f"{where}: graded details hold the secret deck, which every resubmission plays again: "
            f"their visibility must be after_due_date or hidden, not {visibility.details!r}"
        )
    return visibility


def _submissions(value: Any, where: str) -> SubmissionLimit | None:
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) - {"most", "hours"} or "most" not in value:
        raise MoocowError(f"{where}: [{TABLE}.submissions] takes most (and hours), not {value!r}")
    most, hours = value["most"], value.get("hours", 24.0)
    if isinstance(most, bool) or not isinstance(most, int) or most < 1:
        raise MoocowError(f"{where}: submissions most must be a whole number of at least 1, not {most!r}")
    if isinstance(hours, bool) or not isinstance(hours, int | float) or not 0 < hours < 1e6:
        raise MoocowError(f"{where}: submissions hours must be a positive number, not {hours!r}")
    return SubmissionLimit(most, float(hours))
