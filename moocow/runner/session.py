"""One player's rounds in one tournament entry, in round order, in one seat.

A session is the unit of work a worker takes: its plan is plain data (it crosses to worker
processes), and every round it finishes is handed to ``emit`` at once. Secrets are dealt for all
of the entry's rounds, so round ``k`` has the same secret whichever rounds are left to play.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from moocow.engine.game import Game
from moocow.referee import protocol
from moocow.referee.decks import Deal, Deck, GameDeck, load_deck
from moocow.referee.players import PlayerKind, PlayerSpec
from moocow.referee.referee import Outcome, play_round
from moocow.referee.seats import open_seat
from moocow.runner.results import RoundResult
from moocow.sandbox.limits import Limits
from moocow.sandbox.sandbox import SandboxPolicy
from moocow.sandbox.stderr_tail import NOTHING_KEPT, RoundStderr
from moocow.sandbox.stopping import SessionStopped, Stopped, never

Emit = Callable[[RoundResult], None]

WARM_UP_PAIRS = 1 << 20
"""A game of this many (secret, guess) pairs or more is one where the engine's strategies are
likely to take the compiled engine in a session (``engine.table.COMPILED_CELLS``)."""


@dataclass(frozen=True)
class SessionPlan:
    """Which rounds of one entry one player still has to play, and under which rules."""

    player: PlayerSpec
    """The player."""
    deck: str
    """The entry's canonical spec."""
    seed: int
    """Seed of the secrets."""
    rounds: int
    """Rounds in the entry (all of them are dealt)."""
    mercy: int
    """Most guesses per round."""
    limits: Limits
    """Limits for players outside the engine."""
    to_play: tuple[int, ...]
    """The round numbers to play, ascending."""
    sandbox: SandboxPolicy = field(default_factory=SandboxPolicy)
    """How players outside the engine are confined."""
    keep_stderr: bool = False
    """Keep the last lines the player writes to stderr in each round (``grade``, which shows them);
    a tournament shows none, and would hold them for every round of every player."""


def play_session(plan: SessionPlan, emit: Emit, stopped: Stopped = never) -> protocol.Identity:
    """Play the plan's rounds, emitting each result as it is known; returns who the player said it was.

    ``stopped`` is asked before each round and while the player is waited for: once the run has
    stopped, ``SessionStopped`` ends the session, its player killed."""
    deck = load_deck(plan.deck)
    deals = deck.deal(plan.seed, plan.rounds)
    compiled = compiled_engine_game(plan.player, deck)
    if compiled is not None:
        from moocow.engine.opening import warm_up_relabellings
        from moocow.engine.warmup import warm_up

        warm_up()  # before the first round: loading (or compiling) the kernels is no guess's time
        warm_up_relabellings(compiled)
    seat = open_seat(plan.player, deck.spec, plan.limits, plan.sandbox, len(plan.to_play), stopped)
    spec = deck.spec  # formatted once, not each round
    answered = plan.player.kind is not PlayerKind.STRATEGY  # an engine strategy's identity is made up
    try:
        for number in plan.to_play:
            if stopped():
                raise SessionStopped("the run stopped between two rounds")
            outcome = play_round(seat, deals[number], plan.mercy, plan.keep_stderr)
            result = round_result(plan.player.name, spec, number, deals[number], outcome)
            emit(replace(result, identity=seat.identity) if answered and _named(seat.identity) else result)
    finally:
        seat.close()
    return seat.identity


def _named(identity: protocol.Identity) -> bool:
    """Whether a player said who it is (a student id or an author)."""
    return bool(identity.student_id or identity.author)


def compiled_engine_game(player: PlayerSpec, deck: Deck) -> Game | None:
    """The deck's game if ``player`` is one of the engine's strategies on a game large enough for
    the compiled engine, whose kernels it then loads, or compiles on a fresh install, in a guess."""
    if player.kind is not PlayerKind.STRATEGY or not isinstance(deck, GameDeck):
        return None
    game = deck.game
    return game if len(game.secrets) * len(game.guesses) >= WARM_UP_PAIRS else None


def round_result(player: str, deck: str, number: int, deal: Deal, outcome: Outcome) -> RoundResult:
    """The record of a round. A solved round's secret is its last guess, which ``play_round`` found
    equal to the secret's text: formatting the secret again was a large share of the round's record
    (``bench/tournament.py`` measures the bookkeeping)."""
    return RoundResult(
        player=player,
        game=deck,
        round=number,
        secret=outcome.guesses[-1] if outcome.solved else deal.secret_text,
        guesses=outcome.guesses,
        solved=outcome.solved,
        score=outcome.score,
        failure=None if outcome.failure is None else str(outcome.failure),
        reason=outcome.reason,
        seconds=round(outcome.seconds, 6),
        stderr=outcome.stderr,
    )


def round_row(result: RoundResult) -> dict[str, Any]:
    """A round as it comes back from a worker: its row in the results file, the last lines the
    player wrote to stderr, which the file leaves out and ``grade`` shows, and who the player said
    it was, which the file records once."""
    who = result.identity
    named = {} if who is None else {"identity": [who.student_id, who.author]}
    kept = {"stderr": result.stderr.to_dict()} if result.stderr else {}
    return {**result.to_dict(), **kept, **named}


def round_from_row(row: dict[str, Any]) -> RoundResult:
    """The round ``round_row`` sent (``TypeError``, ``KeyError`` or ``ValueError`` if it is not one)."""
    data = dict(row)
    kept = data.pop("stderr", None)
    stderr = NOTHING_KEPT if kept is None else RoundStderr.from_dict(kept)
    who = data.pop("identity", None)
    if who is not None and not (
        isinstance(who, list | tuple) and len(who) == 2 and all(isinstance(part, str) for part in who)
    ):  # a list, or a tuple where Dask's queue carried it
        raise TypeError(f"a round's identity is a student id and an author, not {who!r:.80}")
    identity = None if who is None else protocol.Identity(*who)
    return replace(RoundResult.from_dict(data), stderr=stderr, identity=identity)
