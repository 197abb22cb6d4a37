"""Big games answer at once: openings by symmetry, suggestions within a budget, costs said up front, bars."""

from __future__ import annotations

import io
import time
from typing import Any

import numpy as np
import pytest
from rich.console import Console
from typer.testing import CliRunner

from moocow import api
from moocow.cli import app
from moocow.cli.search_progress import SearchProgress, describe_bounds
from moocow.cli.terminal import Output, ProgressBars
from moocow.engine import evaluation, partitions, strategies
from moocow.engine.evaluation import estimate, evaluate
from moocow.engine.opening import opening_guesses
from moocow.engine.position import Position
from moocow.engine.progress import reporting, task
from moocow.engine.table import FeedbackTable
from moocow.plugins import load_game
from moocow.plugins.bottles import Bottles
from moocow.plugins.mastermind import Mastermind
from moocow.plugins.strategy_registry import load_strategy


@pytest.fixture
def no_full_scoring(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scoring every guess against every code of a big game, or building its table, raises."""
    real = partitions.partition_sizes

    def bounded(table: FeedbackTable, candidates: np.ndarray, guesses: np.ndarray | None = None) -> Any:
        width = table.guess_count if guesses is None else len(guesses)
        if len(candidates) * width > 10**9:
            raise AssertionError(f"scored {len(candidates)} x {width}")
        return real(table, candidates, guesses)

    def refuse(self: FeedbackTable) -> np.ndarray:
        raise AssertionError("the whole table was built")

    monkeypatch.setattr(strategies, "partition_sizes", bounded)
    monkeypatch.setattr(FeedbackTable, "_compute_all", refuse)


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("mastermind", ["1111", "1112", "1122", "1123", "1234"]),
        ("bottles:n=9", ["ABCDEFGHI"]),
        ("digits:length=10", ["0123456789"]),
        ("mastermind:pegs=3,colors=2", ["111", "112"]),
    ],
)
def test_openings_are_one_guess_per_class(spec: str, expected: list[str]) -> None:
    """The opening guesses are the least code of each class alike by relabelling, and only those."""
    game = load_game(spec)
    chosen = opening_guesses(game)
    assert chosen is not None
    assert [game.format_code(game.guesses[index]) for index in chosen] == expected


def test_words_have_no_opening_shortcut() -> None:
    """A game without symmetry scores every opening guess."""
    assert opening_guesses(load_game("words")) is None


@pytest.mark.parametrize("spec", ["mastermind:pegs=3,colors=4", "digits:length=3,symbols=5", "bottles:n=5"])
@pytest.mark.parametrize("name", ["minmax", "expected", "entropy", "parts", "minmax:candidates_only=true"])
def test_the_symmetric_opening_is_the_full_scans_choice(spec: str, name: str) -> None:
    """Scoring one guess per class picks the very guess that scoring every guess picks."""
    game = load_game(spec)
    start = Position.start(game)
    strategy = load_strategy(name)
    sizes = partitions.partition_sizes(start.table, start.candidates)
    scores = type(strategy).score(sizes)
    full_scan = int(np.flatnonzero(scores == scores.min()).min())
    assert strategy.decide(start) == full_scan


def test_bottles_n9_opens_without_scoring_or_a_table(no_full_scoring: None) -> None:
    """The first suggestion on 9 bottles comes from symmetry: no scoring of all guesses, no table."""
    assistant = api.assistant("bottles:n=9")
    assert assistant.suggestion() == "ABCDEFGHI"
    assert assistant.suggestion_note() is None
    assert not FeedbackTable.for_game(assistant.game).built


def test_assist_bottles_n9_prompts_and_quits(no_full_scoring: None) -> None:
    """`moocow assist bottles:n=9` greets, suggests, prompts and takes `quit`, exit 0."""
    result = CliRunner().invoke(app, ["assist", "bottles:n=9"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert "Suggested first guess: ABCDEFGHI" in result.stdout
    assert "guess 1 and score>" in result.stdout


def test_play_prompts_before_any_table(no_full_scoring: None) -> None:
    """`moocow play bottles:n=10` prompts, answers a guess and gives up on `quit`, with no table built."""
    result = CliRunner().invoke(app, ["play", "bottles:n=10", "--seed", "1"], input="ABCDEFGHIJ\nquit\n")
    assert result.exit_code == 0, result.output
    assert "guess 2>" in result.stdout and "The secret was" in result.stdout


def test_over_budget_the_suggestion_is_quick_and_says_so() -> None:
    """With a tiny budget a decision scores candidates only and its note says so; without, none."""
    game = load_game("mastermind")
    position = Position.start(game).after(game.guess_index("1122"), game.parse_feedback("0 0"))
    quick = load_strategy("minmax")
    quick.budget = 1e-9
    guess = quick.decide(position)
    note = quick.note(position)
    assert note is not None and "quick suggestion:" in str(note) and "the full minmax would take" in str(note)
    assert (position.candidate_guesses == guess).any()
    exact = load_strategy("minmax")
    exact.decide(position)
    assert exact.note(position) is None


def test_over_budget_choices_are_deterministic() -> None:
    """The same position gets the same quick suggestion, from a fresh strategy too."""
    game = load_game("digits")
    position = Position.start(game).after(game.guess_index("0123"), game.parse_feedback("0 1"))
    chosen = set()
    for _ in range(3):
        strategy = load_strategy("minmax")
        strategy.budget = 1e-9
        chosen.add((strategy.decide(position), str(strategy.note(position))))
    assert len(chosen) == 1
    assert "of the" in next(iter(chosen))[1]  # even the candidates did not fit: a seeded sample


def test_assist_marks_a_quick_suggestion() -> None:
    """The assistant prints the quick-suggestion note next to a suggestion cut to the budget."""
    from moocow.cli.interactive import assist

    lines: list[str] = []
    typed = iter(["1122 0 0", "quit"])
    assist(api.assistant("mastermind", budget=1e-9), lambda prompt: next(typed), lines.append)
    assert any(line.startswith("Suggested next guess:") and "(quick suggestion:" in line for line in lines)


def test_solve_lists_quick_guesses() -> None:
    """`solve` marks guesses cut to the budget and says why below the table; totals need no budget."""
    playout = api.solve("mastermind", "6543", budget=1e-9)
    assert any(step.note for step in playout.steps)
    assert all(step.note is None for step in api.solve("mastermind", "6543").steps)


def never(*args: object, **kwargs: object) -> None:
    raise AssertionError("the evaluation ran")


@pytest.mark.parametrize("command", ["evaluate", "tree"])
def test_evaluate_and_tree_say_up_front_that_they_will_take_days(
    monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """`evaluate bottles:n=10` says how long and why on stderr before it starts (the run itself
    stopped); so does `tree`, which once grew to 3 GB with nothing printed."""
    monkeypatch.setattr(api, "evaluate", never)
    monkeypatch.setattr(evaluation, "evaluate_with_tree", never)
    result = CliRunner().invoke(app, [command, "bottles:n=10"])
    assert isinstance(result.exception, AssertionError)
    assert "note: this evaluation will take about" in result.stderr
    assert "days" in result.stderr and "3,628,800 secrets x 3,628,800 guesses" in result.stderr


def test_a_small_evaluation_says_nothing_up_front() -> None:
    """A run of a second prints no cost note."""
    result = CliRunner().invoke(app, ["evaluate", "mastermind:pegs=3,colors=4"])
    assert result.exit_code == 0 and "note:" not in result.stderr


def test_estimates_order_games_by_size() -> None:
    """The model puts 10 bottles above 9 above 7, and exact totals are unchanged by it."""
    seconds = [estimate(Bottles(n=n), load_strategy("minmax")).seconds for n in (7, 9, 10)]
    assert seconds == sorted(seconds) and seconds[0] < 60 < 3600 < seconds[2]
    assert evaluate(Bottles(n=5), load_strategy("minmax")).total > 0


class Recorder:
    """A reporter that keeps every call."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, object]] = []

    def begin(self, what: str, total: float, unit: str) -> object:
        self.calls.append(("begin", what))
        return what

    def update(self, handle: object, done: float) -> None:
        self.calls.append(("update", done))

    def end(self, handle: object) -> None:
        self.calls.append(("end", handle))


def test_table_building_and_evaluation_report_progress() -> None:
    """Building the table and evaluating report tasks that end with every row and every secret done."""
    recorder = Recorder()
    with reporting(recorder):
        evaluate(Mastermind(pegs=3, colors=4), load_strategy("minmax"))
    begun = [what for kind, what in recorder.calls if kind == "begin"]
    assert begun == ["evaluating", "building the feedback table"]
    updates = [done for kind, done in recorder.calls if kind == "update"]
    assert 64 in updates and recorder.calls[-1] == ("end", "evaluating")


def test_bars_appear_only_after_a_while_and_only_while_work_runs() -> None:
    """A task shows no bar before ``show_after`` seconds; once shown, the display stops when it ends."""
    console = Console(file=io.StringIO(), force_terminal=True)
    bars = ProgressBars(console, show_after=3600)
    with reporting(bars), task("quick", 10) as advance:
        advance(5)
        assert not bars._progress.live.is_started
    eager = ProgressBars(console, show_after=0)
    with reporting(eager), task("slow", 10) as advance:
        advance(5)
        assert eager._progress.live.is_started
    assert not eager._progress.live.is_started


def test_the_search_shows_bounds_not_a_percentage(monkeypatch: pytest.MonkeyPatch) -> None:
    """The exact search's line shows the best total, the proven bound and the gap (as a share of
    the best, said so), no share done; off a terminal, as a line whenever it changed (at most
    every ``LOG_SECONDS``, here 0)."""
    from moocow.cli import search_progress

    quiet = io.StringIO()
    with SearchProgress(Output(console=Console(file=quiet))) as progress:
        progress(0.5, 100, 90)
    assert quiet.getvalue() == ""  # a search of seconds adds nothing to piped output
    monkeypatch.setattr(search_progress, "LOG_SECONDS", 0.0)
    monkeypatch.setattr(search_progress, "FIRST_LOG_SECONDS", 0.0)
    shown = describe_bounds(33555, 31466)
    assert shown == "searching: best 33,555, proven at least 31,466, gap 2,089 (6.2% of best)"
    log = io.StringIO()
    progress = SearchProgress(Output(console=Console(file=log)))
    with progress:
        progress(0.5, 100, 90)
        progress(0.6, 100, 90)
        progress(0.7, 98, 92)
    assert "% of best" in progress.shown and "50" not in progress.shown
    lines = log.getvalue().splitlines()
    assert lines == [
        "after 0 s, searching: best 100, proven at least 90, gap 10 (10.0% of best)",
        "after 0 s, searching: best 98, proven at least 92, gap 6 (6.1% of best)",
    ]


def test_a_pinned_line_draws_no_bar() -> None:
    """The exact search's line has no total: its bar was drawn full from the start, which read as
    finished. A task with a total still has its bar."""
    bars = ProgressBars(Console(file=io.StringIO(), width=120, force_terminal=True), show_after=0)
    pinned = bars.pin("searching: best 5,696, proven at least 5,134, gap 562 (9.9% of best)")
    counted = bars.begin("building the feedback table", 10, "rows")
    bars.update(counted, 5)
    drawn = Console(file=io.StringIO(), width=120, color_system=None)
    drawn.print(bars._progress.make_tasks_table(bars._progress.tasks))
    bars.unpin(pinned)
    bars.end(counted)
    searching, building = drawn.file.getvalue().splitlines()
    assert "━" not in searching and "━" in building


def test_off_a_terminal_a_batch_log_gets_a_first_line_and_then_more(monkeypatch: pytest.MonkeyPatch) -> None:
    """``moocow optimal GAME 2>log`` wrote nothing for minutes: its first line was due a minute
    after the start, and only from the search's own progress calls, which do not come while it
    waits on its workers. A thread writes it soon after the start, then one at least every
    ``QUIET_LOG_SECONDS`` even if nothing changed, with no progress call at all."""
    from moocow.cli import search_progress

    monkeypatch.setattr(search_progress, "FIRST_LOG_SECONDS", 0.0)
    monkeypatch.setattr(search_progress, "QUIET_LOG_SECONDS", 0.0)
    monkeypatch.setattr(search_progress, "TICK_SECONDS", 0.01)
    log = io.StringIO()
    with SearchProgress(Output(console=Console(file=log))):
        deadline = time.monotonic() + 60
        while len(log.getvalue().splitlines()) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
    lines = log.getvalue().splitlines()
    assert len(lines) >= 2 and all(line == "after 0 s, searching" for line in lines[:2])
