"""A tournament: every player plays the same seeded rounds of every entry; results go to a file as they come.

Built from options or a TOML file (the same keys), checked before the first round (unknown games,
missing player files, bad openings are one-line errors), then played serially or by workers,
optionally resuming a results file. Everything that decides the results is in the file's header,
so a resumed tournament is the same tournament.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Protocol

from moocow.engine.errors import MoocowError
from moocow.engine.inputs import open_regular
from moocow.engine.seeds import checked_seed
from moocow.engine.strategies import check_opening
from moocow.engine.wording import printable
from moocow.plugins.strategy_registry import load_strategy
from moocow.referee.decks import GameDeck, load_deck
from moocow.referee.players import PlayerKind, PlayerSpec, parse_player
from moocow.referee.protocol import Identity
from moocow.referee.seats import check_confinement
from moocow.runner.fingerprint import player_digest
from moocow.runner.leaderboard import Standing, standings
from moocow.runner.results import SEED_FINGERPRINT, RoundResult
from moocow.runner.resultsfile import ResultsFile, recorded_seed
from moocow.runner.rowcheck import MOST_ROUNDS
from moocow.runner.secrecy import check_private
from moocow.runner.seeds import SEED_VARIABLE, Seed, Source, choose_seed, fingerprint, shown_seed
from moocow.runner.session import SessionPlan, compiled_engine_game
from moocow.runner.signing import choose_key
from moocow.runner.workers import run_sessions
from moocow.sandbox.limits import Limits
from moocow.sandbox.mounts import check_one_name
from moocow.sandbox.report import referee_record
from moocow.sandbox.sandbox import (
    SandboxPolicy,
    sandbox_policy,
)

SETTINGS = (
    "players", "games", "rounds", "seed", "mercy", "limits", "workers", "scheduler", "key_file", "sandbox",
)  # fmt: skip
"""The keys a tournament file may have (``workers``, ``scheduler``, ``key_file``, ``sandbox``: how it
is run, not what)."""


@dataclass(frozen=True)
class Tournament:
    """Who plays what: everything that decides the results (not how many workers play it)."""

    players: tuple[PlayerSpec, ...]
    """The players, in the order results are listed."""
    games: tuple[str, ...]
    """The entries' canonical specs: games, or ``bacrunner:...`` course decks."""
    rounds: int = 10
    """Rounds per player and entry."""
    seed: int = 0
    """Seed of the secrets (the same secrets for every player)."""
    mercy: int = 20
    """Most guesses per round; a lost round scores this."""
    limits: Limits = field(default_factory=Limits)
    """Limits for players outside the engine."""
    sandbox: SandboxPolicy = field(default_factory=SandboxPolicy)
    """How players outside the engine are confined (recorded as the header's ``referee``, not compared)."""
    secret_seed: bool = False
    """Whether the seed is secret (``Seed.secret``): the header, the summary and ``to_dict`` then
    hold its fingerprint alone (``seeds.fingerprint``), and a resume is given the seed again."""

    @property
    def shown_seed(self) -> str:
        """The seed as outputs show it: ``seed 42``, or ``seed fingerprint 1a2b3c4d`` if it is secret."""
        return f"seed {shown_seed(self.seed, self.secret_seed)}"

    def referee(self) -> dict[str, Any]:
        """What protects the run from its players, for the record: the sandbox and the limits in force."""
        outside = any(player.kind is not PlayerKind.STRATEGY for player in self.players)
        return referee_record(self.sandbox if outside else None, self.limits)

    def on_cluster(self) -> Tournament:
        """This tournament as a Dask cluster plays it: players outside the engine at the level
        chosen here, which travels with each session (``SandboxPolicy.on_cluster``)."""
        if all(player.kind is PlayerKind.STRATEGY for player in self.players):
            return self
        return replace(self, sandbox=self.sandbox.on_cluster())

    def describe(self) -> dict[str, Any]:
        """The results file's header: a resumed tournament must match it."""
        return {
            "players": [self._identified(player) for player in self.players],
            "games": list(self.games),
            "rounds": self.rounds,
            **({SEED_FINGERPRINT: fingerprint(self.seed)} if self.secret_seed else {"seed": self.seed}),
            "mercy": self.mercy,
            "limits": self.limits.to_dict(),
        }

    def _identified(self, player: PlayerSpec) -> dict[str, Any]:
        """The player's name and spec, and the digest of its files where it has any."""
        digest = player_digest(player, self.sandbox.hidden)
        return player.to_dict() if digest is None else {**player.to_dict(), "digest": digest}

    def plans(self, finished: Iterable[tuple[str, str, int]] = ()) -> list[SessionPlan]:
        """One session per player and entry, with only the rounds not yet finished."""
        done = set(finished)
        plans = []
        for player in self.players:
            for game in self.games:
                to_play = tuple(r for r in range(self.rounds) if (player.name, game, r) not in done)
                if to_play:
                    plans.append(
                        SessionPlan(
                            player,
                            game,
                            self.seed,
                            self.rounds,
                            self.mercy,
                            self.limits,
                            to_play,
                            self.sandbox,
                        )
                    )
        return plans

    def order(self, result: RoundResult) -> tuple[int, int, int]:
        """Sort key of a result: player, entry, round, in the order the tournament lists them."""
        players, games = self._places
        return (players[result.player], games[result.game], result.round)

    @cached_property
    def _places(self) -> tuple[dict[str, int], dict[str, int]]:
        """Each player's and entry's place in the lists, looked up once (not a list scan a round)."""
        players = {player.name: place for place, player in enumerate(self.players)}
        return players, {game: place for place, game in enumerate(self.games)}


def build_tournament(settings: Mapping[str, Any]) -> Tournament:
    """A checked tournament from settings (TOML keys): unknown games or players fail here, in one line."""
    unknown = sorted(set(settings) - set(SETTINGS))
    if unknown:
        raise MoocowError(f"unknown tournament setting {unknown[0]!r} (known: {', '.join(SETTINGS)})")
    players = tuple(_player(entry) for entry in _listed(settings, "players"))
    games = tuple(load_deck(str(spec)).spec for spec in _listed(settings, "games"))
    for what, names in (("player", [player.name for player in players]), ("game", games)):
        repeated = next((name for name in names if names.count(name) > 1), None)
        if repeated is not None:
            raise MoocowError(f"{what} {repeated!r} is listed twice")
    limits = settings.get("limits", Limits())
    if not isinstance(limits, Limits | Mapping):
        raise MoocowError(f"limits must be a table of KEY = VALUE, not {limits!r}")
    sandbox = sandbox_policy(settings.get("sandbox"))
    check_confinement(players, games, sandbox)
    tournament = Tournament(
        players=players,
        games=games,
        rounds=_positive(settings, "rounds", 10, MOST_ROUNDS),
        seed=checked_seed(_whole(settings, "seed", 0), "seed"),
        mercy=_positive(settings, "mercy", 20),
        limits=limits if isinstance(limits, Limits) else Limits.from_mapping(dict(limits)),
        sandbox=sandbox,
    )
    check_openings(tournament)
    return tournament


@dataclass(frozen=True)
class Setup:
    """A tournament as a command asks for it: what is played, and how it is run and recorded."""

    tournament: Tournament
    """What is played."""
    workers: int
    """Worker processes."""
    seed: Seed
    """The seed (also in ``tournament``) and where it came from."""
    key: bytes | None = field(default=None, repr=False)
    """The key that signs the results file, or ``None`` (kept out of the repr: it is never printed)."""
    scheduler: str | None = None
    """The Dask scheduler that plays the sessions (``None``: this machine)."""
    key_file: str | os.PathLike[str] | None = None
    """The file the key was read from, if any: the results file's chain records are kept beside it."""


def tournament_from(
    config: str | os.PathLike[str] | None = None,
    limits: Sequence[str] = (),
    key_file: str | os.PathLike[str] | None = None,
    seed_file: str | os.PathLike[str] | None = None,
    resuming: str | os.PathLike[str] | None = None,
    **options: Any,
) -> Setup:
    """The tournament, workers, seed and key of a TOML file with options laid over it (``None``: the file's).

    ``limits`` are ``KEY=VALUE`` texts laid over the file's ``[limits]`` table; the key comes from
    ``key_file``, the file's ``key_file`` or ``MOOCOW_RESULTS_KEY`` (``signing.choose_key``). The
    seed is ``seed``, ``seed_file``, ``MOOCOW_SEED`` or the file's (``seeds.choose_seed``), else the
    one recorded in the results file being resumed (``resuming``), else a fresh one.
    """
    settings = read_settings(config) if config is not None else {}
    secret_config = config if "seed" in settings or "key_file" in settings else None
    recorded, recorded_fingerprint = recorded_seed(resuming) if resuming is not None else (None, None)
    seed = choose_seed(
        options.pop("seed", None),
        seed_file,
        settings.pop("seed", None),
        None if recorded is None else Seed(recorded, Source.RESUMED),
    )
    if recorded_fingerprint is not None and seed.source is Source.FRESH:
        raise MoocowError(
            f"results file {str(resuming)!r} was played on a secret seed (fingerprint "
            f"{printable(str(recorded_fingerprint))[:20]}), which it does not hold: give it again to "
            f"resume (--seed-file, {SEED_VARIABLE} or the tournament file)"
        )
    settings.update({key: value for key, value in options.items() if value not in (None, [], ())})
    file_key = settings.get("key_file")
    if file_key is not None and (not isinstance(file_key, str) or not file_key.strip()):
        raise MoocowError(f"key_file must be the path of a key file, not {file_key!r}")
    hidden = (config, key_file, file_key, seed_file)
    check_one_name(*hidden)
    settings["sandbox"] = sandbox_policy(settings.get("sandbox")).hiding(*hidden)
    settings["seed"] = seed.value
    settings["limits"] = Limits.from_options(limits, settings.get("limits"))
    key = choose_key(key_file, settings.pop("key_file", None))
    workers = _positive(settings, "workers", 1)
    settings.pop("workers", None)
    scheduler = settings.pop("scheduler", None)
    if scheduler is not None and (not isinstance(scheduler, str) or not scheduler.strip()):
        raise MoocowError(f"scheduler must be a Dask address, e.g. tcp://HOST:8786, not {scheduler!r}")
    tournament = build_tournament(settings)
    secret = seed.secret
    if recorded is not None or recorded_fingerprint is not None:  # a resumed file keeps its form
        secret = recorded_fingerprint is not None
    tournament = replace(tournament, secret_seed=secret)
    read_key = key_file if key_file is not None else file_key
    check_private(
        [(secret_config, "tournament file"), (seed_file, "seed file"), (read_key, "key file")],
        tournament.players,
        tournament.sandbox,
    )
    return Setup(tournament, workers, seed, key, scheduler, read_key if key is not None else None)


def check_openings(tournament: Tournament) -> None:
    """Deal every entry once and check each strategy's fixed first guess in every game dealt."""
    strategies = [load_strategy(p.source) for p in tournament.players if p.kind is PlayerKind.STRATEGY]
    if not strategies:  # nothing to check: every round would be dealt only to check nothing
        return
    for game in tournament.games:
        deals = load_deck(game).deal(tournament.seed, tournament.rounds)
        for played in {id(deal.game): deal.game for deal in deals}.values():  # a deck's games are shared
            for strategy in strategies:
                check_opening(strategy, played)


def read_settings(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The settings in a TOML tournament file; unreadable, not UTF-8 or not TOML is one line."""
    shown = str(path)
    try:
        with open_regular(path, "tournament file") as file:
            settings = tomllib.load(file)
    except OSError as error:
        raise MoocowError(f"cannot read tournament file {shown!r}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise MoocowError(f"tournament file {shown!r} is not UTF-8 text (TOML must be)") from None
    except tomllib.TOMLDecodeError as error:
        raise MoocowError(f"tournament file {shown!r}: {error}") from None
    if "limits" in settings and not isinstance(settings["limits"], dict):
        raise MoocowError(
            f"tournament file {shown!r}: limits must be a table ([limits]), not {settings['limits']!r}"
        )
    return settings


LOST_FIELDS = ("player", "game", "round", "secret", "failure", "reason")
"""What ``TournamentResult.to_dict`` tells of each lost round (the results file has the rest)."""


@dataclass(frozen=True)
class TournamentResult:
    """Every round of a tournament, in tournament order, and the leaderboards made from them."""

    tournament: Tournament
    """What was played."""
    results: tuple[RoundResult, ...]
    """Every round: player, then entry, then round number."""
    played: int
    """Rounds played in this run (the others came from a resumed results file)."""
    cluster: str | None = None
    """Where it was played, if on a Dask cluster (``dask_cluster.where``)."""
    identities: Mapping[str, Identity] = field(default_factory=dict)
    """Who each player said it was (``student_id()``, ``author()``), where it said."""

    def standings(self, game: str | None = None) -> list[Standing]:
        """The leaderboard of one entry, or over all entries."""
        return standings(self.results, game)

    def identity(self, player: str) -> Identity:
        """Who ``player`` said it was (empty where it did not say)."""
        return self.identities.get(player, Identity())

    def _row(self, standing: Standing) -> dict[str, Any]:
        """A leaderboard row as JSON, with who its player said it was."""
        who = self.identity(standing.player)
        return {**standing.to_dict(), "student_id": who.student_id, "author": who.author}

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the rules (a secret seed by its fingerprint alone), how many rounds,
        the leaderboard over all games and of each game (each best first, with each player's
        student id and author), and every lost round with its reason."""
        chosen = self.tournament
        return {
            "seed": None if chosen.secret_seed else chosen.seed,
            "seed_fingerprint": fingerprint(chosen.seed),
            "mercy": chosen.mercy,
            "rounds_per_game": chosen.rounds,
            "games": list(chosen.games),
            "rounds": len(self.results),
            "played": self.played,
            "cluster": self.cluster,
            "standings": [self._row(row) for row in self.standings()],
            "by_game": {game: [self._row(row) for row in self.standings(game)] for game in chosen.games},
            "lost": [
                {key: value for key, value in result.to_dict().items() if key in LOST_FIELDS}
                for result in self.results
                if result.failure is not None
            ],
        }

    def summary(self) -> str:
        """What the leaderboard counts: a resumed run says which rounds came from its results file
        (a finished one said "0 rounds played" under a leaderboard of 400)."""
        chosen, total, resumed = self.tournament, len(self.results), len(self.results) - self.played
        rules = f"{chosen.shown_seed}, mercy {chosen.mercy}."
        if not resumed:
            return f"{total} rounds played, {rules}"
        if not self.played:
            return f"All {total} rounds were already played (read from the results file), {rules}"
        return f"{self.played} rounds played, {rules} {resumed} more were read from the results file."


class Progress(Protocol):
    """What a progress display is told while a tournament runs."""

    def begin(self, total: int, done: int) -> None:
        """``total`` rounds in the tournament, ``done`` of them already in the results file."""

    def advance(self, result: RoundResult) -> None:
        """One more round finished."""


def run_tournament(
    tournament: Tournament,
    results: str | os.PathLike[str] | None = None,
    resume: bool = False,
    workers: int = 1,
    progress: Progress | None = None,
    key: bytes | None = None,
    scheduler: str | None = None,
    key_file: str | os.PathLike[str] | None = None,
) -> TournamentResult:
    """Play the tournament (the unfinished rounds of ``results`` when resuming), appending each round.

    With a ``key`` the lines written are a signed chain, its head recorded beside ``key_file`` (or in
    the user's state folder), and a resumed file must verify line by line and reach that head. With
    a ``scheduler`` the sessions are played on that Dask cluster (``runner.cluster``), ``workers``
    unused; the results are the same.
    """
    if resume and results is None:
        raise MoocowError("--resume needs the results file to finish (--results PATH)")
    if workers < 1:
        raise MoocowError(f"workers must be at least 1, not {workers}")
    if scheduler is not None:
        tournament = tournament.on_cluster()  # before the header, which records the level
    if results is not None:
        check_one_name(results)
        if os.path.isfile(results) and os.path.getsize(results):  # a new one is made private
            check_private([(results, "results file")], tournament.players, tournament.sandbox)
        tournament = replace(tournament, sandbox=tournament.sandbox.hiding(results))
    log = None
    if results is not None:
        log = ResultsFile(
            results, tournament.describe(), resume, key, tournament.referee(), key_file, tournament.seed
        )
    collected = {result.key: result for result in (log.finished if log else [])}
    identities = dict(log.identities) if log else {}
    resumed = len(collected)

    def emit(result: RoundResult) -> None:
        collected[result.key] = result
        if result.identity is not None:
            identities.setdefault(result.player, result.identity)
        if log is not None:
            log.append(result)
        if progress is not None:
            progress.advance(result)

    if scheduler is None and _engine_compiles(tournament):
        from moocow.engine.opening import warm_up_relabellings
        from moocow.engine.warmup import compile_if_cold

        compile_if_cold()  # before any worker: a first compile is no strategy's time (sessions load)
        for deck in map(load_deck, tournament.games):  # built here once, not in each worker at once
            if isinstance(deck, GameDeck):
                warm_up_relabellings(deck.game)
    if progress is not None:
        progress.begin(len(tournament.players) * len(tournament.games) * tournament.rounds, resumed)
    cluster = None
    try:
        if scheduler is not None:
            from moocow.runner.cluster import run_sessions_on  # Dask is imported only when asked for

            cluster = run_sessions_on(scheduler, tournament.plans(collected), emit)
        else:
            run_sessions(tournament.plans(collected), workers, emit)
    finally:
        if log is not None:
            log.close(len(collected))
    ordered = tuple(sorted(collected.values(), key=tournament.order))
    return TournamentResult(tournament, ordered, len(ordered) - resumed, cluster, identities)


def _engine_compiles(tournament: Tournament) -> bool:
    """Whether one of the engine's strategies plays a game large enough for the compiled engine:
    then this process compiles it, if it must, and says so, before the workers start."""
    decks = [load_deck(spec) for spec in tournament.games]
    players = tournament.players
    return any(compiled_engine_game(player, deck) is not None for player in players for deck in decks)


def _player(entry: Any) -> PlayerSpec:
    if isinstance(entry, str):
        return parse_player(entry)
    if isinstance(entry, Mapping) and set(entry) <= {"name", "player"} and "player" in entry:
        player, name = entry["player"], entry.get("name")
        for key, value in (("player", player), ("name", name)):
            if (value is not None or key == "player") and not (isinstance(value, str) and value.strip()):
                raise MoocowError(f"a player's {key} must be non-empty text, not {value!r}")
        return parse_player(player, name)
    raise MoocowError(f"a player is a string or {{name = ..., player = ...}}, not {entry!r}")


def _listed(settings: Mapping[str, Any], key: str) -> Sequence[Any]:
    value = settings.get(key) or []
    if isinstance(value, str | bytes) or not isinstance(value, Sequence) or not value:
        raise MoocowError(f"a tournament needs a list of {key}")
    return value


def _whole(settings: Mapping[str, Any], key: str, default: int) -> int:
    value = settings.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MoocowError(f"{key} must be a whole number, not {value!r}")
    return value


def _positive(settings: Mapping[str, Any], key: str, default: int, most: int | None = None) -> int:
    value = _whole(settings, key, default)
    if value < 1:
        raise MoocowError(f"{key} must be at least 1, not {value}")
    if most is not None and value > most:
        raise MoocowError(f"{key} must be at most {most:,}, not {value:,}")
    return value
