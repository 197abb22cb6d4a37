"""Grading one player as the course runner does, with its log, and Gradescope's ``results.json``.

By default the player plays the course's deck (``words_alpha.txt``, shipped, lengths 5 to 15, seed 888,
20 rounds, mercy 20), so the log and the total are the ones ``bacrunner.py`` prints for a
well-behaved player. Unlike ``bacrunner.py`` the player runs in its own process under limits,
and a round it forfeits is logged with the guesses it made and scored at the mercy limit.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from moocow.engine.wording import plural, printable
from moocow.referee import bacrunner, protocol
from moocow.runner import signing
from moocow.runner.leaderboard import Standing, standings
from moocow.runner.results import RoundResult
from moocow.runner.seeds import fingerprint
from moocow.runner.session import play_session
from moocow.runner.shown import PLAIN, TEXT, bounded, cut, shown_each
from moocow.runner.tournament import build_tournament
from moocow.sandbox.limits import Limits
from moocow.sandbox.sandbox import SandboxPolicy


@dataclass(frozen=True)
class Grade:
    """One player's graded rounds."""

    player: str
    """The player as named."""
    game: str
    """The deck played."""
    seed: int
    """Seed of the secrets."""
    identity: protocol.Identity
    """Who the player says it is (student id and author)."""
    rounds: tuple[RoundResult, ...] = field(repr=False)
    """Every round, in order."""
    referee: dict[str, Any] = field(default_factory=dict, repr=False)
    """What protected the run: the sandbox and the limits in force (``Tournament.referee``)."""
    cluster: str | None = None
    """Where it was played, if on a Dask cluster (``dask_cluster.where``)."""
    secret_seed: bool = False
    """Whether the seed is secret (``Seed.secret``): the log's first line then holds its fingerprint."""

    @property
    def seed_line(self) -> str:
        """The course log's first line: the seed, or a secret seed's fingerprint in its place."""
        shown = f"fingerprint:{fingerprint(self.seed)}" if self.secret_seed else self.seed
        return bacrunner.header_line(shown)

    @property
    def standing(self) -> Standing:
        """Total, worst, failed rounds, time per guess."""
        return standings(self.rounds)[0]

    @property
    def total(self) -> int:
        """The golf score: guesses over all rounds, lost rounds at the mercy limit."""
        return sum(result.score for result in self.rounds)

    def log_lines(self) -> list[str]:
        """The course runner's output: the header, ``[secret]: guesses``, then ``total id author``."""
        return [
            self.seed_line,
            *(bacrunner.round_line(result.secret, result.guesses) for result in self.rounds),
            bacrunner.total_line(self.total, self.identity.student_id, self.identity.author),
        ]

    def failures(self, stderr: bool = False, said: bool = True) -> list[str]:
        """One line per lost round: its number, secret, and why (``said``: with the player's own line
        that ends a crash's reason, which a graded round's log leaves out). With ``stderr``, every
        round the player wrote to stderr in is there too, solved or lost, each followed by its last
        lines (``RoundStderr.shown``: escaped, cut, the count of those left out)."""
        lines = []
        for result in self.rounds:
            printed = result.stderr.shown() if stderr else []
            if printed or not result.solved:
                lines += [told(result, said), *printed]
        return lines

    def printed(self) -> list[str]:
        """Each round the player wrote to stderr in: how it ended, then its last lines."""
        return [
            line
            for result in self.rounds
            if result.stderr.lines
            for line in (told(result), *result.stderr.shown())
        ]

    def written_log(self, header: str | None = None, said: bool = True) -> str:
        """The log, then the lost rounds, as written to be read later (``results.json``): each guess and
        other player text cut (``shown``), so an honest player's log is the course's line for line;
        ``header`` replaces the course's first line (which names the seed, or a secret one's fingerprint);
        ``said``: as in ``failures``."""
        identity = self.identity
        return "\n".join(
            [
                self.seed_line if header is None else header,
                *(bacrunner.round_line(result.secret, shown_each(result.guesses)) for result in self.rounds),
                bacrunner.total_line(self.total, cut(identity.student_id, 100), cut(identity.author, 100)),
                *map(cut, self.failures(said=said)),
            ]
        )

    def gradescope(self, key: bytes | None = None) -> dict[str, Any]:
        """Gradescope's ``results.json``: a test per round (a point if solved), the log, a leaderboard.

        Plain text throughout, each guess and other player text cut, the file bounded (``shown``): an
        honest player's log is the course's, line for line. Each test is named by its secret: for a
        deck kept secret across resubmissions, build the autograder with ``moocow gradescope build``.

        ``extra_data.referee`` records the sandbox and limits in force. With a ``key``,
        ``extra_data.hmac`` signs everything else (``signing.signature`` of the file without it), so
        an edited file can be told from the one graded.
        """
        tests = [
            {
                "name": f"round {result.round + 1}: {result.secret}",
                "score": 1 if result.solved else 0,
                "max_score": 1,
                "output": " ".join(shown_each(result.guesses))
                + ("" if result.solved else f"\n{cut(result.reason or '')}"),
                "output_format": TEXT,
            }
            for result in self.rounds
        ]
        results: dict[str, Any] = {
            "output": self.written_log(),
            **PLAIN,
            "execution_time": round(sum(result.seconds for result in self.rounds)),
            "tests": tests,
            "leaderboard": [
                {"name": "Total guesses", "value": self.total, "order": "asc"},
                {"name": "Failed rounds", "value": self.standing.failed, "order": "asc"},
            ],
            "extra_data": {"referee": self.referee},
        }
        bounded(results)
        if key is not None:
            results["extra_data"][signing.FIELD] = signing.signature(results, key)
        return results


def told(result: RoundResult, said: bool = True) -> str:
    """``round 2 [secret]: solved in 4 guesses``, or how it was lost (``said``: see ``failures``)."""
    if result.solved:
        how = f"solved in {result.score} {plural(result.score, 'guess')}"
    else:
        own = result.stderr.said
        reason = result.reason or ""
        how = f"{result.failure}: {reason if said or not own else reason.removesuffix(f': {own}')}"
    return printable(f"round {result.round + 1} [{result.secret}]: {how}")


def grade(
    player: str,
    game: str | None = None,
    words: str | None = None,
    minlen: int = 5,
    maxlen: int = 15,
    seed: int = bacrunner.SEED,
    rounds: int = bacrunner.ROUNDS,
    mercy: int = bacrunner.MERCY,
    limits: Limits | None = None,
    sandbox: SandboxPolicy | None = None,
    scheduler: str | None = None,
    secret_seed: bool = False,
) -> Grade:
    """Grade ``player`` on the course's deck of ``words`` (a file; by default the course's own
    ``words_alpha.txt``, shipped with moocow), or on ``game``, rounds in order, one process
    (on a worker of the Dask cluster behind ``scheduler``, if given: files named as here).
    ``secret_seed``: the log names the seed by its fingerprint alone."""
    deck = game or bacrunner.WordSource(words, minlen, maxlen).spec
    settings = {"players": [player], "games": [deck], "rounds": rounds, "seed": seed, "mercy": mercy}
    policy = sandbox or SandboxPolicy()
    tournament = build_tournament({**settings, "limits": limits or Limits(), "sandbox": policy})
    if scheduler is not None:
        tournament = tournament.on_cluster()
    (plan,) = tournament.plans()
    plan = replace(plan, keep_stderr=True)  # what it printed, for its log (Gradescope: practice only)
    results: list[RoundResult] = []
    cluster = None
    if scheduler is not None:
        from moocow.runner.cluster import play_session_on  # Dask is imported only when asked for

        identity, results, cluster = play_session_on(scheduler, plan)
    else:
        identity = play_session(plan, results.append)
    return Grade(
        player, plan.deck, seed, identity, tuple(results), tournament.referee(), cluster, secret_seed
    )
