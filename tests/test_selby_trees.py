"""Trees in Alex Selby's text format: written by ``--save FILE.tree``, read by ``tree:FILE`` (told
from JSON by content), his published SALET trees evaluated, damaged files refused in one line, and
the tree commands on Wordle."""

from __future__ import annotations

import os
import subprocess
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from typer.testing import Result

from moocow.engine.errors import MoocowError
from moocow.engine.evaluation import evaluate, evaluate_with_tree
from moocow.engine.tree import Node
from moocow.plugins import load_game
from moocow.plugins.bottles import Bottles
from moocow.plugins.mastermind import Mastermind
from moocow.plugins.strategy_registry import load_strategy
from moocow.trees.files import load_tree, parse_tree_document, save_tree, tree_stats, walk
from moocow.trees.selby import read_selby_text, selby_text
from tests.test_cli_input import one_line_error, run

WORDS = [
    "adore",
    "alive",
    "apple",
    "beach",
    "blame",
    "brick",
    "cabin",
    "chess",
    "cigar",
    "crane",
    "dance",
    "eagle",
    "fable",
    "flame",
    "giant",
    "grape",
    "heart",
    "house",
    "knife",
    "lemon",
    "metal",
    "night",
    "ocean",
    "piano",
    "quiet",
    "rebut",
    "river",
    "shard",
    "sissy",
    "stone",
    "table",
    "tiger",
    "unzip",
    "vivid",
    "whale",
    "wrung",
    "yield",
    "zesty",
]
"""A small answer list (common English words, not the newspaper's list)."""
SELBY = Path(os.environ.get("SELBY_WORDLE", "/work/.mirror/alex1770+wordle/repo"))
"""A clone of github.com/alex1770/wordle (a work tree or a bare one), if there is one: his trees
carry the newspaper's list and are never copied into this repository."""


def total_of(result: Result) -> str:
    """The total ``moocow evaluate`` prints, e.g. ``7,920``."""
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()[1].split()[1]


@pytest.fixture
def small(tmp_path: Path) -> str:
    """The spec of a small Wordle whose guesses are its answers and a few more words."""
    answers, guesses = tmp_path / "answers.txt", tmp_path / "guesses.txt"
    answers.write_text("\n".join(WORDS) + "\n")
    guesses.write_text("raise\nslate\ncourt\n")
    return f"wordle:answers={answers},guesses={guesses}"


def test_a_small_wordles_tree_saved_as_tree_reads_back_the_same(small: str, tmp_path: Path) -> None:
    """``tree --save x.tree`` writes Selby's lines; ``tree:x.tree`` plays them to the same total."""
    path = tmp_path / "x.tree"
    built = run("tree", small, "--strategy", "minmax", "--first", "slate", "--save", str(path))
    assert built.exit_code == 0, built.output
    lines = path.read_text().splitlines()
    assert len(lines) == len(WORDS)
    assert lines[0].startswith("slate ") and lines[1].startswith(" " * len("slate "))
    assert all(line.split()[-1][:5] == "GGGGG" for line in lines)
    direct = run("evaluate", small, "--strategy", "minmax", "--first", "slate")
    assert total_of(run("evaluate", small, "--strategy", f"tree:{path}")) == total_of(direct)
    again = tmp_path / "again.tree"
    game = load_game(small)
    save_tree(again, game, load_tree(path, game).root, "")
    assert again.read_text() == path.read_text()


def test_a_json_tree_with_any_name_is_read_as_json(small: str, tmp_path: Path) -> None:
    """The format is told by the content: JSON saved under a name ending in .tree still reads."""
    game = load_game(small)
    evaluation, root = evaluate_with_tree(game, load_strategy("entropy"))
    json_path, text_path = tmp_path / "t.json", tmp_path / "t.txt"
    save_tree(json_path, game, root, "entropy")
    text_path.write_text(selby_text(game, root))
    named_tree = tmp_path / "json.tree"
    named_tree.write_bytes(json_path.read_bytes())
    for path in (json_path, text_path, named_tree):
        assert evaluate(game, load_strategy(f"tree:{path}")).total == evaluation.total


@pytest.mark.parametrize(
    ("game", "first_line"),
    [
        (Mastermind(), "1122 0B0W1 3345 0B0W2 6666 4B0W3"),
        (Bottles(n=4), "ABCD 01 ACDB 02 BDAC 13 CDBA 14 DABC 45"),
    ],
    ids=["mastermind", "bottles"],
)
def test_every_game_writes_its_own_answers_in_the_format(game, first_line: str) -> None:
    """Counts games write their answers' text with the guess number glued on: an answer ending in
    a digit (the bottles' ``0``) reads back, since the number is the one expected."""
    evaluation, root = evaluate_with_tree(game, load_strategy("minmax"))
    text = selby_text(game, root)
    assert text.splitlines()[0] == first_line
    assert tree_stats(read_selby_text(text, game, "t.tree")).total == evaluation.total


def test_a_game_whose_text_has_spaces_cannot_be_written(monkeypatch: pytest.MonkeyPatch) -> None:
    """An answer of two words would not read back: writing refuses it and names JSON instead."""
    game = Bottles(n=3)
    _, root = evaluate_with_tree(game, load_strategy("minmax"))
    monkeypatch.setattr(Bottles, "format_feedback", lambda self, value: f"{value} right")
    with pytest.raises(MoocowError, match="needs one word each; save the tree as JSON"):
        selby_text(game, root)


def scored(game, guess: str, answer: str) -> str:
    """The marks ``guess`` scores against ``answer``, as text."""
    secret = [game.format_code(code) for code in game.secrets].index(answer)
    table = game.feedback(game.guesses[[game.guess_index(guess)]], game.secrets[[secret]])
    return game.format_feedback(int(table[0, 0]))


def _damaged(small: str, tmp_path: Path) -> tuple[list[str], object]:
    """A small Wordle's tree in Selby's lines, each line written out in full, and the game."""
    game = load_game(small)
    _, root = evaluate_with_tree(game, load_strategy("minmax:first=slate"))
    lines, above = [], ""
    for line in selby_text(game, root).splitlines():
        indent = len(line) - len(line.lstrip())
        above = above[:indent] + line[indent:]
        lines.append(above)
    return lines, game


DAMAGES = {
    "no number": (lambda lines, game: [lines[0].rsplit(" ", 1)[0] + " GGGGG", *lines[1:]], "line 1: "),
    "no answer": (
        lambda lines, game: [lines[0] + " crane", *lines[1:]],
        "line 1: the guess 'crane' has no answer",
    ),
    "not a guess": (lambda lines, game: ["zzzzz" + lines[0][5:], *lines[1:]], "line 1: 'zzzzz' is not"),
    "marks wrong": (
        lambda lines, game: [lines[0].replace(lines[0].split()[1], "YYYYY1", 1), *lines[1:]],
        "line 1: slate against",
    ),
    "no win": (
        lambda lines, game: [" ".join(lines[0].split()[:2]), *lines[1:]],
        "line 1: it ends without a win",
    ),
    "win goes on": (lambda lines, game: [*lines, "slate GGGGG1 crane BBBBB2"], "guess 1 wins, yet the line"),
    "a secret twice": (lambda lines, game: [*lines, lines[0]], "already ends line 1"),
    "missing": (lambda lines, game: lines[:-1], "does not cover every secret"),
    "disagree": (
        lambda lines, game: [*lines[:-1], f"raise {scored(game, 'raise', 'zesty')}1 zesty GGGGG2"],
        "guess 1 is raise where line 1, after the same answers, played slate",
    ),
    "impossible": (lambda lines, game: ["IMPOSSIBLE"], "line 1: the solver found no tree"),
    "empty": (lambda lines, game: ["", "  "], "holds no tree"),
}


@pytest.mark.parametrize("damage", DAMAGES, ids=list(DAMAGES))
def test_a_damaged_tree_is_one_line_naming_the_line(damage: str, small: str, tmp_path: Path) -> None:
    """A line that does not parse, a word not in the list, marks the guess does not score, two
    lines that disagree on a shared start, a secret missing or twice: one line, exit 2."""
    lines, game = _damaged(small, tmp_path)
    change, fragment = DAMAGES[damage]
    path = tmp_path / "damaged.tree"
    path.write_text("\n".join(change(lines, game)) + "\n")
    one_line_error(run("evaluate", small, "--strategy", f"tree:{path}"), fragment)


def test_a_hollow_line_out_of_step_with_the_line_above_is_refused(small: str, tmp_path: Path) -> None:
    """Leading spaces that end inside a word of the line above name the line."""
    game = load_game(small)
    _, root = evaluate_with_tree(game, load_strategy("minmax:first=slate"))
    lines = selby_text(game, root).splitlines()
    path = tmp_path / "shifted.tree"
    path.write_text("\n".join([lines[0], " " + lines[1], *lines[2:]]) + "\n")
    one_line_error(run("evaluate", small, "--strategy", f"tree:{path}"), "line 2: its")


def test_a_tree_breaking_hard_mode_is_refused_in_either_format(small: str, tmp_path: Path) -> None:
    """In hard mode a guess must keep every letter revealed: COURT after SLATE's yellow A, L, T and
    green E breaks it, in Selby's lines and in JSON alike; a tree built in hard mode reads back."""
    hard = load_game(small + ",hard=true")
    first, second = scored(hard, "slate", "table"), scored(hard, "court", "table")
    text = tmp_path / "breach.tree"
    text.write_text(f"slate {first}1 court {second}2 table GGGGG3\n")
    one_line_error(
        run("evaluate", hard.spec, "--strategy", f"tree:{text}"), "line 1: court is not allowed in hard mode"
    )
    court = Node(
        hard.guess_index("court"), 1, {hard.parse_feedback(second): Node(hard.guess_index("table"), 1)}
    )
    document = tmp_path / "breach.json"
    save_tree(
        document, hard, Node(hard.guess_index("slate"), 1, {hard.parse_feedback(first): court}), "by hand"
    )
    one_line_error(
        run("evaluate", hard.spec, "--strategy", f"tree:{document}"), "court is not allowed in hard mode"
    )
    hard_tree = tmp_path / "hard.tree"
    assert run("tree", hard.spec, "--first", "slate", "--save", str(hard_tree)).exit_code == 0
    direct = run("evaluate", hard.spec, "--first", "slate")
    assert total_of(run("evaluate", hard.spec, "--strategy", f"tree:{hard_tree}")) == total_of(direct)


def test_a_json_node_winning_with_a_guess_that_is_no_secret_is_refused(small: str, tmp_path: Path) -> None:
    """Sizes that say a node's guess wins, where that guess is not an answer, are caught on loading."""
    game = load_game(small)
    _, root = evaluate_with_tree(game, load_strategy("minmax:first=slate"))
    path = tmp_path / "t.json"
    save_tree(path, game, root, "minmax")
    text = path.read_text()
    assert '"size": 38' in text
    path.write_text(text.replace('"size": 38', '"size": 39', 1).replace('"secrets": 38', '"secrets": 39'))
    one_line_error(run("evaluate", small, "--strategy", f"tree:{path}"), "slate wins here by its size")


def test_tree_svg_on_wordle_colours_each_mark(small: str, tmp_path: Path) -> None:
    """``tree --svg`` on Wordle: one text per node, each answer's five marks in their colours."""
    game = load_game(small)
    svg = tmp_path / "t.svg"
    result = run(
        "tree", small, "--first", "slate", "--svg", str(svg), "--show", "1", "--dot", str(tmp_path / "t.dot")
    )
    assert result.exit_code == 0, result.output
    drawing = ElementTree.parse(svg).getroot()
    texts = drawing.findall("{http://www.w3.org/2000/svg}g/{http://www.w3.org/2000/svg}text")
    root = evaluate_with_tree(game, load_strategy("minmax:first=slate"))[1]
    assert len(texts) == len(list(walk(root)))
    marks = texts[1].findall("{http://www.w3.org/2000/svg}tspan")[:5]
    assert [tile.text for tile in marks] == list(game.format_feedback(min(root.children)))
    assert {tile.get("fill") for tile in marks} <= {"#787c7e", "#c9b458", "#6aaa64"}


def test_official_salet_tree_saved_and_read_back(tmp_path: Path) -> None:
    """minmax's SALET tree on the newspaper's lists, saved as x.tree and played back: 8,158."""
    path = tmp_path / "x.tree"
    built = run(
        "tree", "wordle:list=official", "--strategy", "minmax", "--first", "salet", "--save", str(path)
    )
    assert built.exit_code == 0, built.output
    assert "8158 guesses in total" in built.stdout
    assert total_of(run("evaluate", "wordle:list=official", "--strategy", f"tree:{path}")) == "8,158"


@pytest.mark.parametrize(
    ("name", "spec", "total"),
    [
        ("salet.easy.origwords.tree", "wordle:list=official", "7,920"),
        ("salet.hard.origwordlist.tree", "wordle:list=official,hard=true", "8,122"),
    ],
)
def test_selbys_published_salet_trees(name: str, spec: str, total: str, tmp_path: Path) -> None:
    """His published trees give his totals, and moocow writes them back byte for byte."""
    text = _selbys_file(name)
    path = tmp_path / name
    path.write_bytes(text)
    assert total_of(run("evaluate", spec, "--strategy", f"tree:{path}")) == total
    game = load_game(spec)
    again = tmp_path / "again.tree"
    save_tree(again, game, load_tree(path, game).root, "")
    assert again.read_bytes() == text


def _selbys_file(name: str) -> bytes:
    """One of his files from the clone, or the test skipped saying where it looked."""
    if (SELBY / name).is_file():
        return (SELBY / name).read_bytes()
    try:
        command = ["git", "-C", str(SELBY), "show", f"HEAD:{name}"]
        return subprocess.run(command, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip(f"no clone of alex1770/wordle at {SELBY} (set SELBY_WORDLE) to read {name} from")


def test_where_only_json_is_read_a_selby_tree_is_named_as_such() -> None:
    """The web page reads JSON documents (they name their game); Selby's lines are told apart there."""
    with pytest.raises(MoocowError, match="not JSON: it looks like a tree in Selby's text format"):
        parse_tree_document(b"salet BBBBB1 courd BBBBB2 nymph BBBBY3 whiff GGGGG4\n", "x.tree")
    with pytest.raises(MoocowError, match="is not JSON: Expecting"):
        parse_tree_document(b"{", "x.json")


def test_his_full_style_reads_as_the_hollow_one(small: str, tmp_path: Path) -> None:
    """``wordle.cpp -S f`` repeats the shared start on every line: the same tree."""
    lines, game = _damaged(small, tmp_path)
    full = tmp_path / "full.tree"
    full.write_text("\n".join(lines) + "\n")
    assert lines[1].startswith("slate ")
    assert selby_text(game, load_tree(full, game).root) == selby_text(
        game, evaluate_with_tree(game, load_strategy("minmax:first=slate"))[1]
    )


def test_first_goes_with_a_strategy_only(small: str) -> None:
    """``tree --first`` fixes a strategy's opening; a saved tree or a player keeps its own."""
    one_line_error(run("tree", small, "--strategy", "tree:x.tree", "--first", "slate"), "drop --first")
    player = str(Path(__file__).with_name("players") / "first_candidate.py")
    one_line_error(run("tree", small, "--player", player, "--first", "slate"), "--first goes with a strategy")
