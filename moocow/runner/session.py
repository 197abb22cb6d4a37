"""One player's rounds in one tournament entry, in round order, in one seat.

A session is the unit of work a worker takes: its plan is plain data (it crosses to worker
processes), and every round it finishes is handed to ``emit`` at once. Secrets are dealt for all
of the entry's rounds, so round ``k`` has the same secret whichever rounds are left to play.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from moocow.runner import protocol
from moocow.runner.decks import Deal, Deck, GameDeck, load_deck
from moocow.runner.limits import Limits
from moocow.runner.players import PlayerKind, PlayerSpec
from moocow.runner.referee import Outcome, play_round
from moocow.runner.results import RoundResult
from moocow.runner.sandbox import SandboxPolicy
from moocow.runner.seats import open_seat
from moocow.runner.stopping import SessionStopped, Stopped, never

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


def play_session(plan: SessionPlan, emit: Emit, stopped: Stopped = never) -> protocol.Identity:
    """Play the plan's rounds, emitting each result as it is known; returns who the player said it was.

    ``stopped`` is asked before each round and while the player is waited for: once the run has
    stopped, ``SessionStopped`` ends the session, its player killed."""
    deck = load_deck(plan.deck)
    deals = deck.deal(plan.seed, plan.rounds)
    if uses_compiled_engine(plan.player, deck):
        from moocow.engine.opening import warm_up_relabellings
        from moocow.engine.warmup import warm_up

        warm_up()  # before the first round: loading (or compiling) the kernels is no guess's time
        warm_up_relabellings(deck.game)
    seat = open_seat(plan.player, deck.spec, plan.limits, plan.sandbox, len(plan.to_play), stopped)
    spec = deck.spec  # formatted once, not each round
    try:
        for number in plan.to_play:
            if stopped():
                raise SessionStopped("the run stopped between two rounds")
            outcome = play_round(seat, deals[number], plan.mercy)
            emit(round_result(plan.player.name, spec, number, deals[number], outcome))
    finally:
        seat.close()
    return seat.identity


def uses_compiled_engine(player: PlayerSpec, deck: Deck) -> bool:
    """Whether ``player`` is one of the engine's strategies on a game large enough for the
    compiled engine, whose kernels it then loads, or compiles on a fresh install, in a guess."""
    if player.kind is not PlayerKind.STRATEGY or not isinstance(deck, GameDeck):
        return False
    return len(deck.game.secrets) * len(deck.game.guesses) >= WARM_UP_PAIRS


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
    """A round as it comes back from a worker: its row in the results file, and the last lines the
    player wrote to stderr, which the file leaves out and ``grade`` shows."""
    return {**result.to_dict(), "stderr": list(result.stderr)}


def round_from_row(row: dict[str, Any]) -> RoundResult:
    """The round ``round_row`` sent (``TypeError``, ``KeyError`` or ``ValueError`` if it is not one)."""
    data = dict(row)
    lines = data.pop("stderr", [])
    if not isinstance(lines, list | tuple) or not all(isinstance(line, str) for line in lines):
        raise TypeError(f"a round's stderr is a list of lines, not {lines!r:.80}")
    return replace(RoundResult.from_dict(data), stderr=tuple(lines))
