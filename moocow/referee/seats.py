"""A player at the table: told a round has begun and the feedback to its last guess, it names a guess.

The referee treats every player alike through ``Seat``. An engine strategy sits in the runner's
process and is trusted. Everyone else sits in a ``ProgramSeat``: a process of its own that is
told the game and the feedback, never the secret, and whose every answer is checked against the
limits and the guess rule (in a session of the course deck, the course's exception to it). The
feedback goes in the protocol version the process said it speaks (counts, or the game's text),
and a process that speaks only counts is refused a deck of marks at its handshake. A foul ends
the process; the next round starts a fresh one, and a player that cannot get through its setup
is disqualified for the rest of the session.
"""

from __future__ import annotations

import functools
import os
import shutil
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from pathlib import Path

from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.engine.position import Position
from moocow.engine.strategies import Strategy, check_opening
from moocow.plugins import local_plugin_files
from moocow.plugins.strategy_registry import is_builtin, load_strategy
from moocow.referee import protocol
from moocow.referee.adapter import PLUGIN_FILES_VARIABLE
from moocow.referee.bacrunner import is_course_deck
from moocow.referee.decks import load_deck
from moocow.referee.players import PlayerKind, PlayerSpec, own_files
from moocow.referee.rules import Guess, read_course_guess, read_guess
from moocow.referee.specfiles import renamed_files, spec_files
from moocow.sandbox.fouls import Disqualified, Failure, Foul
from moocow.sandbox.limits import Allowance, Limits, tighter
from moocow.sandbox.mounts import check_readable
from moocow.sandbox.process import PlayerProcess
from moocow.sandbox.sandbox import (
    PACKAGE,
    PACKAGE_AS_IMPORTED,
    Confinement,
    Launch,
    SandboxPolicy,
    running_as_root,
)
from moocow.sandbox.stderr_tail import NOTHING_KEPT, RoundStderr
from moocow.sandbox.stopping import Stopped, never
from moocow.sandbox.unreached import unreached
from moocow.wordlists.files import word_file_text


class Seat(ABC):
    """One player for one session (one tournament entry): rounds in order, one guess at a time."""

    identity = protocol.Identity()
    """Who the player says it is (known after its first round has started): what its first process
    said, since one restarted after a lost round may say what it learnt in the rounds before."""

    @abstractmethod
    def start_round(self, game: Game) -> None:
        """A new round of ``game`` begins; raises ``Foul`` if the player cannot take part."""

    @abstractmethod
    def guess(self, feedback: int | None) -> Guess:
        """The next guess, given the feedback to the last guess (``None`` first); may raise ``Foul``."""

    @abstractmethod
    def close(self) -> None:
        """The session is over: release what the seat holds."""

    @abstractmethod
    def forfeit(self) -> None:
        """The referee refused the last guess (a rule the seat does not check): end what a foul ends."""

    def round_stderr(self) -> RoundStderr:
        """The last lines the player wrote to stderr in this round (none for the engine's players)."""
        return NOTHING_KEPT


class EngineSeat(Seat):
    """A strategy, built-in or a plugin's: follows the position and asks the strategy (decisions
    are cached). A plugin's strategy that fails (its ``choose`` raised, or answered no guess)
    loses the round with the reason, as a program that crashed does; a built-in's failure is
    moocow's, and stops the run."""

    def __init__(self, strategy: Strategy) -> None:
        self.strategy = strategy
        self._builtin = is_builtin(strategy)
        self.identity = protocol.Identity(strategy.spec, "moocow")
        self._checked: set[str] = set()
        self._position: Position | None = None
        self._last = -1

    def start_round(self, game: Game) -> None:
        if game.spec not in self._checked:
            check_opening(self.strategy, game)
            self._checked.add(game.spec)
        self._position = Position.start(game)

    def guess(self, feedback: int | None) -> Guess:
        assert self._position is not None, "start_round comes first"
        if feedback is not None:
            self._position = self._position.after(self._last, feedback)
        try:
            self._last = self.strategy.decide(self._position)
        except MoocowError as error:
            if self._builtin:
                raise
            raise Foul(Failure.CRASH, str(error)) from None
        return Guess.of(self._position.game, self._last)

    def close(self) -> None:
        """Nothing to release: decisions stay cached in the strategy for the next session."""

    def forfeit(self) -> None:
        """Nothing ends: the next round starts from a fresh position."""


class ProgramSeat(Seat):
    """A player process: started on demand, refereed line by line, replaced after a foul."""

    def __init__(
        self,
        player: PlayerSpec,
        deck: str,
        limits: Limits,
        sandbox: SandboxPolicy,
        rounds: int = 1,
        stopped: Stopped = never,
    ) -> None:
        self.deck = deck
        self.limits = limits
        self._stopped = stopped
        plugins = tuple(local_plugin_files())
        self.launch = Launch(
            command=player.command,
            limits=limits,
            sandbox=sandbox,
            files=(*player.files, *(own_files(Path(path)) for path in plugins)),
            copies=deck_files(deck),
            read_copy=word_file_text,
            environment=((PLUGIN_FILES_VARIABLE, os.pathsep.join(plugins)),),
            cpu_budget=limits.setup_seconds + limits.round_cpu * rounds,
        )
        self._course = is_course_deck(deck)
        self._kind = load_deck(deck).feedback_kind
        self._process: PlayerProcess | None = None
        self._version = protocol.VERSION
        """The protocol version the running process speaks (each process says its own)."""
        self._greetings = 0
        """Processes that have greeted the runner; the first one's greeting says who the player is."""
        self._disqualified: Disqualified | None = None
        self._game: Game | None = None
        self._round_start = ""
        self._round_seconds = 0.0
        self._round_cpu_start: float | None = None
        self._stderr_from = 0
        """The lines the process had ended on stderr when the round began (0 in a new process's
        first round: what the player printed as it started, at import, is that round's)."""
        self._lost_stderr: RoundStderr | None = None
        """What a process ended by a foul wrote to stderr in the round, taken before it went."""

    def start_round(self, game: Game) -> None:
        self._lost_stderr = None
        fresh = self._process is None
        process = self._ready()
        self._stderr_from = 0 if fresh else process.stderr_mark()
        refusal = protocol.too_old(self._version, game.feedback_model.kind, game.spec)
        if refusal is not None:  # a deck's games share its kind: the handshake refused this already
            self._drop()
            raise Foul(Failure.PROTOCOL, refusal)
        self._game, self._round_seconds = game, 0.0
        self._round_cpu_start = process.cpu_seconds()
        self._round_start = round_message(game)

    def guess(self, feedback: int | None) -> Guess:
        assert self._game is not None, "start_round comes first"
        if feedback is None:
            line = self._exchange(self._round_start)
        else:
            line = self._exchange(feedback_message(self._game, feedback, self._version))
        try:
            return read_course_guess(line) if self._course else read_guess(self._game, line)
        except Foul:
            self._drop()
            raise

    def close(self) -> None:
        if self._process is not None:
            self._process.close(goodbye=protocol.QUIT)
            self._process = None

    def forfeit(self) -> None:
        self._drop()

    def round_stderr(self) -> RoundStderr:
        if self._lost_stderr is not None or self._process is None:
            return self._lost_stderr or NOTHING_KEPT
        return self._process.stderr_since(self._stderr_from)

    @property
    def process(self) -> PlayerProcess | None:
        """The player's running process, if any (to measure it: ``bench``)."""
        return self._process

    # ------------------------------------------------------------------ the process
    def _ready(self) -> PlayerProcess:
        """The running process, started and greeted if need be; a failed setup disqualifies."""
        if self._disqualified is not None:
            raise self._disqualified
        if self._process is None:
            try:
                self._process = self._started()
            except Foul as foul:
                self._disqualified = Disqualified(
                    unreached(foul, self.launch.command, self.launch.sandbox.confinement())
                )
                raise self._disqualified from None
        return self._process

    def _started(self) -> PlayerProcess:
        """A new process that has answered the handshake within the setup time."""
        process = PlayerProcess(self.launch, self._stopped)
        setup = Allowance(self.limits.setup_seconds, f"{self.limits.setup_seconds:g} s of setup")
        try:
            least = protocol.least_version(self._kind)
            process.send(protocol.hello(as_told(self.deck), least), setup)
            greeted = protocol.read_reply_hello(process.receive(setup))
            refusal = protocol.too_old(greeted.version, self._kind, self.deck)
            if refusal is not None:
                raise protocol.ProtocolError(refusal)
            if self._greetings == 0:  # who it is, at its first start: restarted, it may know secrets
                self.identity = greeted.identity
            self._greetings += 1
            self._version = greeted.version
        except protocol.ProtocolError as error:
            self._lost_stderr = process.stderr_since(0)
            process.close()
            raise Foul(Failure.PROTOCOL, str(error)) from None
        except Foul:
            self._lost_stderr = process.stderr_since(0)
            process.close()
            raise
        except BaseException:  # the run stopped, or the runner failed: the process goes with it
            process.close()
            raise
        return process

    def _exchange(self, message: str) -> str:
        """Send ``message`` and read the answer within this guess's allowance. The round's clock
        counts the wait, not the time the runner spent measuring the player."""
        process = self._process
        assert process is not None
        allowance = self._allowance()
        if allowance.seconds <= 0:  # the round's time is spent, though every answer came at once
            self._drop()
            raise Foul(Failure.TIMEOUT, f"no answer within {allowance.seconds_rule}")
        started, measured = time.perf_counter(), process.measuring_seconds
        try:
            process.send(message, allowance)
            return process.receive(allowance)
        except Foul:
            self._drop()
            raise
        finally:
            measuring = process.measuring_seconds - measured
            self._round_seconds += time.perf_counter() - started - measuring

    def _allowance(self) -> Allowance:
        """The per-guess limits, or what is left of the round's when that is less."""
        limits = self.limits
        seconds, seconds_rule = tighter(
            limits.guess_seconds, f"{limits.guess_seconds:g} s per guess",
            limits.round_seconds - self._round_seconds, f"{limits.round_seconds:g} s per round",
        )  # fmt: skip
        assert self._process is not None
        used = self._process.cpu_seconds()  # the reading that ended the last answer
        if used is None or self._round_cpu_start is None:
            return Allowance(seconds, seconds_rule)
        cpu, cpu_rule = tighter(
            limits.guess_cpu, f"{limits.guess_cpu:g} s of CPU per guess",
            limits.round_cpu - (used - self._round_cpu_start), f"{limits.round_cpu:g} s of CPU per round",
        )  # fmt: skip
        return Allowance(seconds, seconds_rule, cpu, cpu_rule)

    def _drop(self) -> None:
        """After a foul: end the process, keeping what it wrote to stderr in the round; the next
        round starts a fresh one."""
        if self._process is not None:
            self._lost_stderr = self._process.stderr_since(self._stderr_from)
            self._process.close()
            self._process = None


def open_seat(
    player: PlayerSpec,
    deck: str,
    limits: Limits,
    sandbox: SandboxPolicy | None = None,
    rounds: int = 1,
    stopped: Stopped = never,
) -> Seat:
    """The seat for ``player`` in a session of ``rounds`` rounds of ``deck`` (``stopped``: see
    ``session.play_session``; an engine strategy is asked only between rounds)."""
    if player.kind is PlayerKind.STRATEGY:
        return EngineSeat(load_strategy(player.source))
    return ProgramSeat(player, deck, limits, sandbox or SandboxPolicy(), rounds, stopped)


def round_message(game: Game) -> str:
    """The message that starts a round of ``game``, its word files named from the folder the runner
    is in now (the same spec loads the same game in any folder of one process)."""
    return _round_message(game, os.getcwd())


@functools.lru_cache(maxsize=256)
def _round_message(game: Game, folder: str) -> str:
    """Once per game and folder: its spec is written afresh."""
    return protocol.start_round(game.code_length, as_told(game.spec))


@functools.lru_cache(maxsize=4096)
def feedback_message(game: Game, value: int, version: int = protocol.VERSION) -> str:
    """The message carrying feedback ``value`` of ``game`` in protocol ``version`` (once per value):
    its counts in version 1, its text in version 2."""
    if version == protocol.COUNTS:
        return protocol.feedback(game.feedback_model.parts(value))
    return protocol.feedback_text(game.format_feedback(value))


def deck_files(deck: str) -> tuple[str, ...]:
    """The data a deck names (its word files), which a player is shown read-only to read the same words."""
    return tuple(str(Path(named).absolute()) for named in spec_files(deck))


def check_confinement(players: Sequence[PlayerSpec], games: Sequence[str], sandbox: SandboxPolicy) -> None:
    """Before round one: players outside the engine can be confined here, and their user id can read them."""
    outside = [player for player in players if player.kind is not PlayerKind.STRATEGY]
    level = sandbox.confinement() if outside else Confinement.NONE
    if level is Confinement.NONE or not running_as_root():
        return
    along = level is Confinement.USER  # no bind makes a way in: the whole path must be open
    for player in outside:
        program = shutil.which(player.command[0])
        # run by the name it is given (a venv's bin/python), read where its links lead: both must open
        spellings = (
            [program, os.path.realpath(program), str(PACKAGE_AS_IMPORTED), str(PACKAGE)]
            if along and program
            else []
        )
        programs = list(dict.fromkeys(spellings))
        check_readable([*player.files, *programs], f"player {player.name!r}", along)
    for game in games if along else ():  # in namespaces a player reads a copy the runner made
        check_readable(deck_files(game), f"game {game!r}", along)


def as_told(spec: str) -> str:
    """A deck or game spec as a player is told it: its word files named absolutely, so that the
    player reads the files it is shown wherever it starts (at the ``user`` level, in its home). The
    results keep the canonical spec."""
    if all(Path(named).is_absolute() for named in spec_files(spec)):
        return spec
    return renamed_files(spec, lambda named: str(Path(named).absolute()))
