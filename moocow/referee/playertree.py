"""The strategy tree of a player outside the engine: play it against every secret, merge the games.

A player has a tree only if it decides by the history alone: after the same guesses and answers
it must play the same next guess, whichever secret is behind them. Every round is refereed as in
a tournament (the player's own process, the limits, the guess rule), in the game's order of
secrets; a round lost, or two different guesses after one history, is a one-line error that
names the secrets involved. The tree then saves, prints, exports and plays like any other.
"""

from __future__ import annotations

from collections.abc import Callable

from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.engine.position import wins
from moocow.engine.tree import Node
from moocow.referee.bacrunner import MERCY
from moocow.referee.decks import Deal
from moocow.referee.players import PlayerSpec
from moocow.referee.referee import play_round
from moocow.referee.seats import check_confinement, open_seat
from moocow.sandbox.limits import Limits
from moocow.sandbox.sandbox import SandboxPolicy, sandbox_policy

RoundDone = Callable[[int, int], None]
"""Called after each round with (rounds played, rounds in all)."""


def player_tree(
    game: Game,
    player: PlayerSpec,
    limits: Limits | None = None,
    mercy: int = MERCY,
    progress: RoundDone | None = None,
    sandbox: SandboxPolicy | None = None,
) -> Node:
    """The tree of ``player`` over every secret of ``game``, from one refereed round per secret."""
    merged = _Merge(game, player.name)
    check_confinement([player], [game.spec], sandbox_policy(sandbox))
    seat = open_seat(player, game.spec, limits or Limits(), sandbox, rounds=len(game.secrets))
    try:
        for secret in range(len(game.secrets)):
            deal = Deal(game, secret)
            outcome = play_round(seat, deal, mercy)
            if not outcome.solved:
                lost = f"{player.name} lost the round with secret {deal.secret_text}"
                raise MoocowError(f"{lost}: {outcome.reason}")
            merged.add(deal, outcome.guesses)
            if progress is not None:
                progress(secret + 1, len(game.secrets))
    finally:
        seat.close()
    assert merged.root is not None
    return merged.root


class _Merge:
    """A tree grown one game at a time; each node remembers the first secret that reached it."""

    def __init__(self, game: Game, player: str) -> None:
        self.game = game
        self.player = player
        self.root: Node | None = None
        self._first_secret: dict[int, str] = {}

    def add(self, deal: Deal, guesses: tuple[str, ...]) -> None:
        """Follow one solved game down the tree, adding the nodes it reaches first."""
        game = self.game
        parent: Node | None = None
        answer = 0
        node = self.root
        history: list[str] = []
        for text in guesses:
            guess = game.guess_index(text)
            if node is None:
                node = Node(guess, 0)
                self._first_secret[id(node)] = deal.secret_text
                if parent is None:
                    self.root = node
                else:
                    parent.children[answer] = node
            elif node.guess != guess:
                raise MoocowError(self._undecided(history, node, text, deal.secret_text))
            node.size += 1
            answer = game.score(guess, deal.secret)
            if wins(game, answer):
                return
            history.append(f"{text} {game.format_feedback(answer)}")
            parent, node = node, node.children.get(answer)

    def _undecided(self, history: list[str], node: Node, text: str, secret: str) -> str:
        """Why the player has no tree: two guesses after one history."""
        after = f"after {', '.join(history)}" if history else "as its first guess"
        earlier = self.game.format_code(self.game.guesses[node.guess])
        first = self._first_secret[id(node)]
        return (
            f"{self.player} does not decide by the history alone: {after} it guessed {earlier} "
            f"with secret {first} and {text} with secret {secret}"
        )
