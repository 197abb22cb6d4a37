"""Every command on a tiny instance of a game, run in process as a person types it (typer's
``CliRunner``), each answer checked against the others: ``evaluate``'s total is the sum of
``solve``'s lengths over every secret, ``assist`` suggests what ``solve`` played, ``optimal`` finds
no more guesses than ``evaluate``, ``tournament`` plays what ``solve`` did."""

from __future__ import annotations

import json
import os
import tempfile
import traceback
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from moocow.engine.errors import MoocowError
from moocow.engine.game import Game
from moocow.engine.wording import plural

TINY_SECRETS = 300
"""The most secrets a game whose commands are checked may have: ``solve`` runs on each."""
OPTIMAL_SECRETS = 100
"""The most secrets a game may have for ``optimal`` to be checked (seconds, not hours)."""
OPTIMAL_VALUES = 256
"""``optimal`` takes games of at most this many feedback values (``optimal.prove.EXACT_VALUES``)."""
ROUNDS = 4
"""Rounds of the tournament checked."""


def check_commands(
    spec: str,
    plugin: str | os.PathLike[str] | None = None,
    strategy: str = "minmax",
    seed: int = 1,
) -> None:
    """Run ``games``, ``evaluate``, ``solve`` on every secret, ``assist`` with the feedback typed
    from a ``solve``, ``optimal`` (a game of at most ``OPTIMAL_SECRETS`` secrets, 256 feedback
    values and no rule on guesses) and ``tournament`` on the game ``spec`` names; each must exit 0
    and agree with the others. ``plugin`` is a ``--plugin`` file, given to every command."""
    from moocow.plugins import load_game, load_plugin_file

    try:
        if plugin is not None:
            load_plugin_file(plugin, strict=True)
        game = load_game(spec)
    except MoocowError as error:
        raise AssertionError(f"{spec}: moocow refuses the game: {error}") from None
    if len(game.secrets) > TINY_SECRETS:
        raise AssertionError(
            f"{game.spec} has {len(game.secrets):,} secrets; the commands are checked on a tiny "
            f"instance, of at most {TINY_SECRETS}: give a smaller spec, or register a smaller game "
            "(moocow.testing.registered)"
        )
    moocow = _command_line(plugin)
    listed = json.loads(moocow("games", "--json"))
    info = next((info for info in listed if info["name"] == game.name), None)
    if info is None or info["problem"] is not None:
        raise AssertionError(
            f"moocow games: {game.name} is {'not listed' if info is None else info['problem']}"
        )

    evaluation = json.loads(moocow("evaluate", game.spec, "--strategy", strategy, "--json"))
    histogram = evaluation["histogram"]
    if evaluation["secrets"] != len(game.secrets) or sum(histogram) != len(game.secrets):
        raise AssertionError(
            f"moocow evaluate {game.spec}: {evaluation['secrets']} secrets, {sum(histogram)} in its "
            f"histogram; the game has {len(game.secrets)}"
        )
    if sum(guesses * count for guesses, count in enumerate(histogram, 1)) != evaluation["total"]:
        raise AssertionError(
            f"moocow evaluate {game.spec}: its histogram does not add up to {evaluation['total']}"
        )

    played = {
        secret: _solve(moocow, game, secret, strategy) for secret in map(game.format_code, game.secrets)
    }
    lengths = [len(guesses) for guesses in played.values()]
    if sum(lengths) != evaluation["total"]:
        raise AssertionError(
            f"{game.spec} with {strategy}: evaluate's total is {evaluation['total']}, but solve takes "
            f"{sum(lengths)} guesses over every secret"
        )
    _check_assist(moocow, game, strategy, max(played.items(), key=lambda item: len(item[1])))
    if (
        len(game.secrets) <= OPTIMAL_SECRETS
        and game.feedback_model.size <= OPTIMAL_VALUES
        and game.guess_rule is None
    ):
        best = json.loads(moocow("optimal", game.spec, "--workers", "1", "--json"))
        if (
            not best["proven"]
            or best["total"] > evaluation["total"]
            or sum(best["histogram"]) != len(game.secrets)
        ):
            raise AssertionError(
                f"moocow optimal {game.spec}: total {best['total']} (proven: {best['proven']}, histogram "
                f"{best['histogram']}) against {strategy}'s {evaluation['total']}"
            )
    _check_tournament(moocow, game, strategy, seed, played)


def _solve(moocow: Callable[..., str], game: Game, secret: str, strategy: str) -> list[str]:
    """``solve``'s guesses for ``secret``, each step's feedback checked against the game's own."""
    found = json.loads(moocow("solve", game.spec, "--secret", secret, "--strategy", strategy, "--json"))
    secret_code = game.parse_code(secret)[None]
    win = game.format_feedback(game.win)
    for number, step in enumerate(found["steps"], 1):
        value = int(game.feedback(game.parse_code(step["guess"])[None], secret_code)[0, 0])
        last = number == len(found["steps"])
        if step["feedback"] != game.format_feedback(value) or (step["feedback"] == win) != last:
            raise AssertionError(
                f"moocow solve {game.spec} --secret {secret}: guess {number}, {step['guess']}, shows "
                f"{step['feedback']}; the game scores it {game.format_feedback(value)}, and only the last "
                f"guess may show the win ({win})"
            )
    return [step["guess"] for step in found["steps"]]


def _check_assist(
    moocow: Callable[..., str], game: Game, strategy: str, longest: tuple[str, list[str]]
) -> None:
    """The assistant, told the feedback of each guess ``solve`` played, suggests those guesses
    and ends solved in as many."""
    secret, guesses = longest
    code = game.parse_code(secret)[None]
    values = [int(game.feedback(game.parse_code(guess)[None], code)[0, 0]) for guess in guesses]
    typed = "".join(
        f"{guess} {game.format_feedback(value)}\n" for guess, value in zip(guesses, values, strict=True)
    )
    printed = moocow("assist", game.spec, "--strategy", strategy, typed=typed)
    suggested = [
        line.split(":", 1)[1].split()[0] for line in printed.splitlines() if line.startswith("Suggested")
    ]
    solved = f"Solved in {len(guesses)} {plural(len(guesses), 'guess')}."
    if suggested[:1] != guesses[:1] or solved not in printed:
        raise AssertionError(
            f"moocow assist {game.spec}, typed the feedback of secret {secret}: solve played "
            f"{' '.join(guesses)}, the assistant suggested {' '.join(suggested)} and said:\n{printed}"
        )


def _check_tournament(
    moocow: Callable[..., str], game: Game, strategy: str, seed: int, played: dict[str, list[str]]
) -> None:
    """A seeded tournament of ``strategy``: every round solved, with the guesses ``solve`` played,
    and the standings' total their sum."""
    with tempfile.TemporaryDirectory(prefix="moocow-testing-") as folder:
        results = Path(folder) / "results.jsonl"
        arguments = (
            "tournament",
            "-p",
            strategy,
            "-g",
            game.spec,
            "-r",
            str(ROUNDS),
            "--results",
            str(results),
        )
        standings = json.loads(moocow(*arguments, "--json", environment={"MOOCOW_SEED": str(seed)}))
        rounds = [json.loads(line) for line in results.read_text().splitlines()[1:]]
    where = f"moocow tournament -p {strategy} -g {game.spec} (seed {seed})"
    if len(rounds) != ROUNDS or standings["played"] != ROUNDS:
        raise AssertionError(
            f"{where}: {standings['played']} rounds played, {len(rounds)} kept, not {ROUNDS}"
        )
    for round_ in rounds:
        if not round_["solved"] or round_["guesses"] != played.get(round_["secret"]):
            raise AssertionError(
                f"{where}: round {round_['round']}, secret {round_['secret']}, played "
                f"{' '.join(round_['guesses'])} (solved: {round_['solved']}); solve played "
                f"{' '.join(played.get(round_['secret'], []))}"
            )
    total = standings["standings"][0]["total"]
    if total != sum(round_["score"] for round_ in rounds):
        raise AssertionError(f"{where}: the standings' total {total} is not the sum of its rounds' scores")


def _command_line(plugin: str | os.PathLike[str] | None) -> Callable[..., str]:
    """``moocow ...`` in process; what it printed, or an ``AssertionError`` with all of it."""
    from typer.testing import CliRunner

    from moocow.cli import app

    before = [] if plugin is None else ["--plugin", str(plugin)]

    def moocow(*arguments: str, typed: str | None = None, environment: dict[str, str] | None = None) -> str:
        result = CliRunner().invoke(app, [*before, *arguments], input=typed, env=environment)
        if result.exit_code != 0:
            trace = "".join(traceback.format_exception(*result.exc_info)) if result.exc_info else ""
            shown = " ".join([*before, *arguments])
            raise AssertionError(f"`moocow {shown}` exited {result.exit_code}:\n{result.output}{trace}")
        return result.stdout

    return moocow


@contextmanager
def registered(*games: type[Game]) -> Iterator[None]:
    """The game classes registered in this process's plugins while the block runs, as a plugin's
    ``register_games`` would: a test's small variant of a game (a word list cut short) is then
    a spec every command knows."""
    from moocow.plugins import get_plugin_manager, hookimpl

    def register_games(register: Callable[[type[Game]], None]) -> None:
        for game in games:
            register(game)

    plugin: Any = types.SimpleNamespace(register_games=hookimpl(register_games))
    manager = get_plugin_manager()
    name = f"moocow.testing:{','.join(game.name for game in games)}"
    manager.register(plugin, name)
    try:
        yield
    finally:
        manager.unregister(plugin)
