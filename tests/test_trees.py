"""Strategy trees: the JSON file round trip, playing from a saved tree, the text and DOT forms."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from moocow.cli.optimal import optimal
from moocow.cli.runner import grade
from moocow.cli.tree import tree
from moocow.engine.errors import MoocowError
from moocow.engine.evaluation import evaluate, evaluate_with_tree
from moocow.engine.position import Position
from moocow.engine.solve import solve
from moocow.engine.strategies import Strategy
from moocow.engine.tree import Node
from moocow.play.assistant import Assistant
from moocow.plugins.bottles import Bottles
from moocow.plugins.digits import Digits
from moocow.plugins.mastermind import Mastermind
from moocow.plugins.strategy_registry import load_strategy
from moocow.referee import seats
from moocow.referee.players import PlayerKind, parse_player
from moocow.referee.playertree import player_tree
from moocow.runner.tournament import build_tournament, run_tournament
from moocow.sandbox.fouls import Failure, Foul
from moocow.sandbox.limits import Limits
from moocow.sandbox.sandbox import Launch
from moocow.trees.files import format_tree, load_tree, save_tree, tree_stats, tree_to_dot, walk

CASES = [
    (Mastermind(), "minmax:first=1122"),
    (Mastermind(pegs=3, colors=4), "entropy:candidates_only=true"),
    (Digits(length=3, symbols=6), "random:seed=4"),
    (Bottles(n=5), "expected:fewest_moves=true"),
    (Bottles(n=4), "first"),
]


def _same_tree(left: Node, right: Node) -> bool:
    if (left.guess, left.size, sorted(left.children)) != (right.guess, right.size, sorted(right.children)):
        return False
    return all(_same_tree(child, right.children[value]) for value, child in left.children.items())


@pytest.mark.parametrize(("game", "spec"), CASES, ids=lambda case: str(case))
def test_evaluation_from_a_saved_tree_equals_the_strategy(game, spec: str, tmp_path: Path) -> None:
    """Saving a strategy's tree and playing it back gives the very same evaluation."""
    strategy = load_strategy(spec)
    direct, root = evaluate_with_tree(game, strategy)
    path = tmp_path / "tree.json"
    save_tree(path, game, root, strategy.spec)
    replayed = evaluate(game, load_strategy(f"tree:{path}"))
    assert replayed.total == direct.total
    assert (replayed.worst, replayed.histogram) == (direct.worst, direct.histogram)
    assert _same_tree(load_tree(path, game).root, root)


@pytest.mark.parametrize(("game", "spec"), CASES, ids=lambda case: str(case))
def test_small_parts_settled_without_a_position_change_nothing(game, spec: str) -> None:
    """Evaluation settles parts of one or two candidates without a position for a strategy that
    decides as ``Strategy.decide`` does (``Strategy.choose_from_pair``); one that overrides
    ``decide`` is asked at every position. Both give the same tree, its answers in ascending
    order at every node."""
    strategy = load_strategy(spec)

    class AskedEverywhere(type(strategy)):  # type: ignore[misc]
        def decide(self, position: Position) -> int:
            return super().decide(position)

    asked = AskedEverywhere(**strategy.values)
    assert (strategy.defined_by["decide"], asked.defined_by["decide"]) == (Strategy, AskedEverywhere)
    direct, root = evaluate_with_tree(game, strategy)
    every, asked_root = evaluate_with_tree(game, asked)
    assert (direct.total, direct.histogram) == (every.total, every.histogram)
    assert _same_tree(root, asked_root)
    assert all(list(node.children) == sorted(node.children) for node in _nodes(root))


def _nodes(root: Node) -> list[Node]:
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(node.children.values())
    return found


def test_tree_statistics_match_the_evaluation() -> None:
    """Total, worst and histogram read off the nodes equal what evaluation counts per secret."""
    game = Mastermind()
    evaluation, root = evaluate_with_tree(game, load_strategy("minmax:first=1122"))
    stats = tree_stats(root)
    assert (stats.total, stats.worst, stats.histogram) == (5801, 5, evaluation.histogram)


def test_the_file_is_written_in_the_games_notation(tmp_path: Path) -> None:
    """Codes and answers appear as people type them, with the documented fields."""
    game = Mastermind()
    _, root = evaluate_with_tree(game, load_strategy("minmax:first=1122"))
    path = tmp_path / "knuth.json"
    save_tree(path, game, root, "minmax:first=1122")
    document = json.loads(path.read_text())
    assert document["format"] == "moocow-tree" and document["version"] == 1
    assert (document["game"], document["total"], document["worst"], document["secrets"]) == (
        "mastermind",
        5801,
        5,
        1296,
    )
    assert document["root"]["guess"] == "1122"
    assert document["root"]["children"]["0B0W"]["size"] == 256


def test_both_spec_forms_name_the_same_tree(tmp_path: Path) -> None:
    """``tree:PATH`` and ``tree:path=PATH`` load the same strategy; a bare ``tree`` is refused."""
    bare, keyed = load_strategy(f"tree:{tmp_path}/x.json"), load_strategy(f"tree:path={tmp_path}/x.json")
    assert bare.values == keyed.values
    with pytest.raises(MoocowError, match="which tree file"):
        load_strategy("tree")
    with pytest.raises(MoocowError, match="first guess"):
        load_strategy(f"tree:path={tmp_path}/x.json", first="1122")


def test_a_tree_for_another_game_or_an_edited_one_is_refused(tmp_path: Path) -> None:
    """Loading checks the game and the redundant statistics."""
    game = Bottles(n=4)
    _, root = evaluate_with_tree(game, load_strategy("minmax"))
    path = tmp_path / "b4.json"
    save_tree(path, game, root, "minmax")
    with pytest.raises(MoocowError, match="not for bottles:n=5"):
        load_tree(path, Bottles(n=5))
    document = json.loads(path.read_text())
    document["total"] += 1
    path.write_text(json.dumps(document))
    with pytest.raises(MoocowError, match="its nodes give"):
        load_tree(path, game)
    path.write_text("{")
    with pytest.raises(MoocowError, match="not JSON"):
        load_tree(path, game)


def test_solve_and_assist_play_from_a_tree(tmp_path: Path) -> None:
    """A saved tree plays in ``solve``; ``assist`` suggests from it and refuses to leave it."""
    game = Mastermind()
    _, root = evaluate_with_tree(game, load_strategy("minmax:first=1122"))
    path = tmp_path / "knuth.json"
    save_tree(path, game, root, "minmax")
    strategy = load_strategy(f"tree:{path}")
    secret = 700
    from_tree = [step.guess for step in solve(game, strategy, secret)]
    assert from_tree == [step.guess for step in solve(game, load_strategy("minmax:first=1122"), secret)]
    assistant = Assistant(game, strategy)
    assert assistant.suggestion() == "1122"
    assistant.record("1234", "0 0")
    with pytest.raises(MoocowError, match="does not cover 1234"):
        assistant.suggestion()
    assert strategy.decide(Position.start(game)) == root.guess


def test_text_and_dot_forms() -> None:
    """The text form has one line per node shown; DOT has one box per node and one edge per child."""
    game = Bottles(n=3)
    _, root = evaluate_with_tree(game, load_strategy("minmax"))
    nodes = list(walk(root))
    text = format_tree(game, root)
    assert len(text.splitlines()) == len(nodes)
    assert text.splitlines()[0] == "ABC (6)"
    assert format_tree(game, root, max_depth=1) == "ABC (6)"
    dot = tree_to_dot(game, root)
    assert dot.startswith('digraph "strategy" {') and dot.rstrip().endswith("}")
    assert dot.count("[label=") == 2 * len(nodes) - 1
    assert dot.count(" -> ") == len(nodes) - 1


def _app() -> typer.Typer:
    app = typer.Typer()
    app.command()(optimal)
    app.command()(tree)
    return app


def test_tree_command_saves_prints_and_exports(tmp_path: Path) -> None:
    """``moocow tree`` writes a file that ``tree:PATH`` replays, and DOT on request."""
    runner = CliRunner()
    path = tmp_path / "b4.json"
    result = runner.invoke(_app(), ["tree", "bottles:n=4", "-s", "expected", "--save", str(path)])
    assert result.exit_code == 0, result.output
    replay = runner.invoke(_app(), ["tree", "bottles:n=4", "-s", f"tree:{path}", "--dot", "-"])
    assert replay.exit_code == 0
    assert replay.stdout.startswith("digraph")
    built, replayed = result.stdout.splitlines()[0], replay.stderr.splitlines()[0]
    assert built.rsplit(": ", 1)[-1] == replayed.rsplit(": ", 1)[-1] == "86 guesses in total, worst 5"


def test_commands_turn_bad_input_into_one_line(tmp_path: Path) -> None:
    """A missing tree file or an unknown game: one line on stderr, exit status 2."""
    runner = CliRunner()
    result = runner.invoke(_app(), ["tree", "bottles:n=4", "-s", f"tree:{tmp_path}/missing.json"])
    assert result.exit_code == 2
    assert "cannot read tree" in result.stderr
    assert runner.invoke(_app(), ["optimal", "nosuchgame"]).exit_code == 2


def test_a_saved_tree_plays_in_the_runner_as_tree_path(tmp_path: Path) -> None:
    """``tree:PATH`` is a runner player: a tournament and ``moocow grade`` play it as the strategy saved."""
    path = tmp_path / "b4.json"
    saved = CliRunner().invoke(_app(), ["tree", "bottles:n=4", "-s", "expected", "--save", str(path)])
    assert saved.exit_code == 0, saved.output
    player = f"tree:{path}"
    assert parse_player(player).kind is PlayerKind.STRATEGY
    chosen = build_tournament({"players": [player, "expected"], "games": ["bottles:n=4"], "rounds": 6})
    results = run_tournament(chosen).results
    assert all(result.solved for result in results)
    by_player = [
        [result.guesses for result in results if result.player == name] for name in (player, "expected")
    ]
    assert by_player[0] == by_player[1]
    grading = typer.Typer()
    grading.command()(grade)
    logs = [
        CliRunner().invoke(grading, [name, "--game", "bottles:n=4", "--rounds", "6"])
        for name in (player, "expected")
    ]
    assert [log.exit_code for log in logs] == [0, 0], logs[0].output
    from_tree, direct = (log.stdout.splitlines() for log in logs)
    assert from_tree[:-1] == direct[:-1] and from_tree[-1].split()[0] == direct[-1].split()[0]


PLAYERS = Path(__file__).with_name("players")

FICKLE_PLAYER = '''
"""Plays the first code that fits, but opens with another code every other round."""
from moocow import load_game

_rounds = []


def next_guess(game, history):
    played = load_game(game)
    if not history:
        _rounds.append(None)
        return played.format_code(played.secrets[len(_rounds) % 2])
    candidates = played.secrets
    for guess, counts in history:
        code = played.guesses[played.guess_index(guess)][None, :]
        value = played.feedback_model.encode(tuple(counts))
        candidates = candidates[played.feedback(code, candidates)[0] == value]
    return played.format_code(candidates[0])
'''


def test_a_players_tree_is_the_tree_of_the_strategy_it_plays(tmp_path: Path) -> None:
    """A module player refereed against every secret gives the tree of the strategy it follows."""
    game = Mastermind(pegs=3, colors=4)
    player = str(PLAYERS / "first_candidate.py")
    root = player_tree(game, parse_player(player))
    assert _same_tree(root, evaluate_with_tree(game, load_strategy("first"))[1])
    path = tmp_path / "player.json"
    result = CliRunner().invoke(_app(), ["tree", game.spec, "--player", player, "--save", str(path)])
    assert result.exit_code == 0, result.output
    assert evaluate(game, load_strategy(f"tree:{path}")).total == tree_stats(root).total == 250


def test_a_player_that_does_not_decide_by_the_history_has_no_tree(tmp_path: Path) -> None:
    """Two openings in two rounds: no tree, and the error names both guesses and both secrets."""
    fickle = tmp_path / "fickle.py"
    fickle.write_text(FICKLE_PLAYER)
    with pytest.raises(MoocowError, match=r"as its first guess it guessed 112 with secret 111 and 111 with"):
        player_tree(Mastermind(pegs=3, colors=4), parse_player(str(fickle)))


def test_a_player_that_loses_a_round_or_a_second_source_is_one_line() -> None:
    """A crashing player, or both --strategy and --player: one line on stderr, exit status 2."""
    runner = CliRunner()
    game = "mastermind:pegs=3,colors=4"
    crash = runner.invoke(_app(), ["tree", game, "--player", str(PLAYERS / "crash.py")])
    assert crash.exit_code == 2
    assert crash.stderr.startswith("error: ") and "lost the round with secret 112: exited" in crash.stderr
    assert len(crash.stderr.strip().splitlines()) == 1
    both = runner.invoke(_app(), ["tree", "bottles:n=3", "-s", "minmax", "-p", "minmax"])
    assert both.exit_code == 2 and "not both" in both.stderr


def test_a_player_tree_allows_its_one_process_the_cpu_of_every_round(monkeypatch: pytest.MonkeyPatch) -> None:
    """One process plays every secret, so the kernel's CPU backstop covers all of them, not one round."""
    launches: list[Launch] = []

    def recorded(launch: Launch, stopped: object = None) -> None:
        launches.append(launch)
        raise Foul(Failure.CRASH, "not started: recorded")

    monkeypatch.setattr(seats, "PlayerProcess", recorded)
    game = Mastermind(pegs=2, colors=3)
    with pytest.raises(MoocowError, match="recorded"):
        player_tree(game, parse_player("sh -c cat"), limits=Limits(setup_seconds=1, round_cpu=2))
    assert launches[0].cpu_budget == 1 + 2 * len(game.secrets)
