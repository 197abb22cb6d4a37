"""The runner's parts on their own: protocol lines, the guess rule, limits, adapters, leaderboard, players."""

from __future__ import annotations

import sys
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from moocow.engine.errors import MoocowError
from moocow.plugins import load_game
from moocow.referee import protocol
from moocow.referee.adapter import CoursePlayer, MoocowPlayer
from moocow.referee.players import PlayerKind, parse_player
from moocow.referee.rules import Guess, read_course_guess, read_guess
from moocow.referee.seats import feedback_message
from moocow.runner.leaderboard import standings
from moocow.runner.results import RoundResult
from moocow.sandbox.fouls import Failure, Foul
from moocow.sandbox.limits import Limits


def test_handshake_lines_round_trip() -> None:
    """The runner's hello names the least version and the deck; the player's answer names its version
    and the player, author with spaces."""
    assert protocol.hello("words:length=5,file=/a b/w.txt") == "moocow 1 words:length=5,file=/a b/w.txt"
    assert protocol.read_hello(protocol.hello("words:length=5,file=/a b/w.txt")) == protocol.Hello(
        1, "words:length=5,file=/a b/w.txt"
    )
    assert protocol.read_hello(protocol.hello("wordle", 2)) == protocol.Hello(2, "wordle")
    identity = protocol.Identity("501234567", "Ada King Lovelace")
    assert protocol.read_reply_hello(protocol.reply_hello(identity)) == protocol.Greeting(identity, 1)
    assert protocol.read_reply_hello(protocol.reply_hello(identity, 2)) == protocol.Greeting(identity, 2)
    assert protocol.read_reply_hello("moocow 1") == protocol.Greeting(protocol.Identity(), 1)
    nameless = protocol.reply_hello(protocol.Identity("", " Ada  King "))
    assert protocol.read_reply_hello(nameless).identity == protocol.Identity("-", "Ada King")


@pytest.mark.parametrize(
    ("line", "message"),
    [("hello", "answered the handshake with 'hello'"), ("moocow 3 x", "speaks protocol version '3'")],
)
def test_wrong_handshake_answers_are_refused(line: str, message: str) -> None:
    """Anything but `moocow 1 ...` or `moocow 2 ...` is a protocol error that says what came instead."""
    with pytest.raises(protocol.ProtocolError, match=message):
        protocol.read_reply_hello(line)


@given(st.integers(1, 15), st.lists(st.integers(0, 15), min_size=1, max_size=3))
def test_round_messages_round_trip(length: int, counts: list[int]) -> None:
    """What the runner writes, a player reads back unchanged."""
    start = protocol.read_message(protocol.start_round(length, "mastermind:pegs=4"))
    assert (start.kind, start.length, start.spec) == ("game", length, "mastermind:pegs=4")
    assert protocol.read_message(protocol.feedback(counts)).counts == tuple(counts)
    assert protocol.read_message(protocol.QUIT).kind == "quit"


def test_version_2_carries_the_feedback_as_the_game_writes_it() -> None:
    """Marks and counts alike travel as their text, which the game reads back; version 1 keeps counts."""
    for spec, text in (("wordle:length=5", "GYBBB"), ("words:length=4", "1B2C"), ("bottles:n=4", "3")):
        game = load_game(spec)
        value = game.parse_feedback(text)
        line = feedback_message(game, value, protocol.TEXT)
        assert line == f"feedback {text}"
        assert game.parse_feedback(protocol.read_message(line, protocol.TEXT).text) == value
    words = load_game("words:length=4")
    assert feedback_message(words, words.parse_feedback("1B2C")) == "feedback 1 2"


def test_a_version_1_player_may_not_be_sent_marks() -> None:
    """Counts go to either version; marks only to version 2, and the refusal says so in one line."""
    assert protocol.too_old(1, "counts", "mastermind") is None
    assert protocol.too_old(2, "counts", "mastermind") is None
    assert protocol.too_old(2, "marks", "wordle") is None
    refusal = protocol.too_old(1, "marks", "wordle")
    assert refusal is not None and "\n" not in refusal
    assert "wordle gives marks: the player must speak version 2" in refusal


def test_unknown_runner_message_is_a_protocol_error() -> None:
    with pytest.raises(protocol.ProtocolError):
        protocol.read_message("feedback one two")


@pytest.mark.parametrize("line", ["ABCD", "ABCD\r", "  ABCD \t"])
def test_guess_rule_forgives_surrounding_whitespace(line: str) -> None:
    game = load_game("bottles:n=4")
    assert read_guess(game, line) == Guess("ABCD", game.guess_index("ABCD"))


def test_a_guess_met_before_is_read_by_one_lookup(monkeypatch: pytest.MonkeyPatch) -> None:
    """The game reads a text once; after that the rule looks it up (a player's every answer)."""
    game = load_game("mastermind:pegs=3,colors=4")
    first = read_guess(game, "123")
    parsed: list[str] = []
    parse = game.parse_code
    monkeypatch.setattr(game, "parse_code", lambda text: parsed.append(text) or parse(text))
    assert read_guess(game, " 123\r") is first == Guess("123", game.guess_index("123"))
    assert parsed == ["123"]  # guess_index above; the rule read nothing
    with pytest.raises(Foul):  # a text that is not a guess is read, and refused, every time
        read_guess(game, "999")
    assert parsed == ["123", "999"]


def test_feedback_from_the_table_is_the_games() -> None:
    """The referee's feedback is a lookup in the game's table where it is small, a pair scored
    where it is not; both are the game's own feedback."""
    from moocow.engine.table import FeedbackTable

    for spec in ("mastermind:pegs=3,colors=3", "bottles:n=5"):
        game = load_game(spec)
        table = FeedbackTable.for_game(game)
        expected = game.feedback(game.guesses, game.secrets)
        assert all(
            game.score(guess, secret) == expected[guess, secret]
            for guess in range(len(game.guesses))
            for secret in range(0, len(game.secrets), 7)
        )
        assert table.built
    big = load_game("mastermind:pegs=5,colors=8")  # 2^30 pairs: no table is built for one lookup
    FeedbackTable.for_game(big)
    value = big.score(5, 77)
    assert value == big.feedback(big.guesses[5:6], big.secrets[77:78])[0, 0]
    assert not FeedbackTable.for_game(big).built


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("abcd", "'abcd' is not written as bottles:n=4 writes it: 'ABCD'"),
        ("A B C D", "'A B C D' is not written as bottles:n=4 writes it: 'ABCD'"),
        ("AABC", "'AABC' is not a guess of bottles:n=4"),
        ("", "'' is not a guess of bottles:n=4"),
        ("x" * 100, f"'{'x' * 37}...' is not a guess of bottles:n=4"),
    ],
)
def test_guess_rule_refuses_near_misses_and_garbage(line: str, reason: str) -> None:
    """Other case, inner spaces, impossible codes and chatter are all invalid, with the reason given."""
    with pytest.raises(Foul) as caught:
        read_guess(load_game("bottles:n=4"), line)
    assert (caught.value.kind, caught.value.reason) == (Failure.INVALID, reason)


@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("eeeee", "eeeee"),
        (" aeiou\r", "aeiou"),
        ("HUNTS", "HUNTS"),
        ("hu nts", "hu nts"),
        ("", ""),
        ("ü" * 20, "ü" * 20),
    ],
)
def test_course_rule_takes_any_printable_line_as_sent(line: str, text: str) -> None:
    """In a course round any text is a guess, as in bacrunner.py: only surrounding whitespace goes."""
    assert read_course_guess(line) == Guess(text)


@pytest.mark.parametrize("line", ["\x1b[31mhunts", "hu\tnts", "hunts\u2028x", "\x00"])
def test_course_rule_refuses_what_a_one_line_log_cannot_show(line: str) -> None:
    with pytest.raises(Foul) as caught:
        read_course_guess(line)
    assert caught.value.kind is Failure.INVALID
    assert caught.value.reason == f"{line!r} is not a line of printable text"


def test_limits_from_options_over_a_table() -> None:
    limits = Limits.from_options(["guess_seconds=0.5", "memory_mb=100"], {"guess_cpu": 2, "memory_mb": 50})
    assert (limits.guess_seconds, limits.guess_cpu, limits.memory_mb) == (0.5, 2, 100)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["speed=3"], "expected KEY=VALUE"),
        (["memory_mb=lots"], "not a whole number"),
        (["memory_mb=1.5"], "not a whole number"),
        (["guess_seconds=lots"], "'lots' is not a number"),
        (["guess_seconds=0"], "positive"),
        (["round_seconds=nan"], "round_seconds must be between 0 and 10,000,000, not nan"),
        (["guess_seconds=inf"], "guess_seconds must be between 0 and 10,000,000, not inf"),
        (["round_cpu=-nan"], "between 0 and"),
        (["processes=99999999999999999999999"], "processes must be between 0 and 4,194,304"),
        (["memory_mb=99999999999999999999"], "memory_mb must be between 0 and 2,147,483,647"),
    ],
)
def test_bad_limits_are_one_line_errors(options: list[str], message: str) -> None:
    """A NaN once switched every timeout off; numbers past the kernel's rlimits were charged to
    the player as a crash at setup."""
    with pytest.raises(MoocowError, match=message):
        Limits.from_options(options)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"memory_mb": float("inf")}, "memory_mb must be a whole number, not inf"),
        ({"processes": 1e300}, "processes must be a whole number"),
        ({"line_bytes": 0.5}, "line_bytes must be a whole number"),
        ({"output_mb": True}, "output_mb must be a whole number, not True"),
        ({"guess_seconds": "3"}, "guess_seconds must be a number, not '3'"),
        ({"round_seconds": float("nan")}, "round_seconds must be between"),
    ],
)
def test_bad_limits_in_a_table_are_one_line_errors(table: dict[str, Any], message: str) -> None:
    with pytest.raises(MoocowError, match=message):
        Limits.from_mapping(table)


def course_module(log: list[Any]) -> SimpleNamespace:
    """A stand-in course module that records what it is called with."""

    def guess(n: int, guesses_so_far: list[Any]) -> str:
        log.append((n, guesses_so_far, list(guesses_so_far)))
        return "alpha"

    return SimpleNamespace(
        initialize_wordlist=log.append, guess=guess, student_id=lambda: 42, author=lambda: " Ada\n King "
    )


def test_course_adapter_keeps_the_course_calling_convention() -> None:
    """One list per round, appended to, of (guess, bulls, cows) tuples; identity as one line of text."""
    log: list[Any] = []
    player = CoursePlayer(course_module(log))
    assert player.setup("bottles:n=3") == protocol.Identity("42", "Ada King")
    assert log.pop(0) == ["ABC", "ACB", "BAC", "BCA", "CAB", "CBA"]
    player.first_guess("words:length=5", 5)
    player.next_guess((1, 2))
    (n, first_list, first_seen), (_, second_list, second_seen) = log
    assert n == 5 and first_list is second_list
    assert (first_seen, second_seen) == ([], [("alpha", 1, 2)])


def test_adapters_pass_feedback_that_is_not_counts_as_its_text() -> None:
    """Wordle's marks reach a module as the text the game writes: ``(guess, "GYBBB")`` in both interfaces."""
    calls: list[Any] = []
    module = SimpleNamespace(next_guess=lambda game, history: calls.append(list(history)) or "crane")
    player = MoocowPlayer(module)
    player.first_guess("wordle", 5)
    player.next_guess("GYBBB")
    assert calls[-1] == [("crane", "GYBBB")]
    log: list[Any] = []
    course = CoursePlayer(course_module(log))
    course.first_guess("wordle", 5)
    course.next_guess("BBGGY")
    assert log[-1][2] == [("alpha", "BBGGY")]


def test_moocow_adapter_passes_the_game_and_a_history_of_counts() -> None:
    calls: list[Any] = []
    module = SimpleNamespace(next_guess=lambda game, history: calls.append((game, history)) or "123")
    player = MoocowPlayer(module)
    assert player.setup("mastermind") == protocol.Identity()
    player.first_guess("mastermind:pegs=3", 3)
    player.next_guess((0, 1))
    assert calls == [("mastermind:pegs=3", []), ("mastermind:pegs=3", [("123", (0, 1))])]


@pytest.mark.parametrize(("answer", "error"), [(123, TypeError), ("12\n3", ValueError)])
def test_adapter_refuses_answers_that_are_not_one_line_of_text(answer: object, error: type) -> None:
    player = MoocowPlayer(SimpleNamespace(next_guess=lambda game, history: answer))
    with pytest.raises(error):
        player.first_guess("mastermind", 4)


def result(player: str, score: int, solved: bool = True, guesses: int = 1) -> RoundResult:
    """A made-up round: ``guesses`` guesses taking 0.1 s in all."""
    failure = None if solved else "timeout"
    return RoundResult(player, "g", 0, "s", ("x",) * guesses, solved, score, failure, None, 0.1)


def test_leaderboard_ranks_as_in_golf() -> None:
    """Lowest total first, then fewer failed rounds, then name; averages, worst and time per guess."""
    rows = standings(
        [
            result("b", 3, guesses=3),
            result("b", 20, solved=False),
            result("a", 5, guesses=5),
            result("a", 18, guesses=18),
            result("c", 10, guesses=10),
            result("c", 13, guesses=13),
        ]
    )
    assert [(row.player, row.total, row.failed, row.worst) for row in rows] == [
        ("a", 23, 0, 18), ("c", 23, 0, 13), ("b", 23, 1, 20)
    ]  # fmt: skip
    assert rows[0].average == 11.5
    assert rows[0].seconds_per_guess == pytest.approx(0.2 / 23)


def test_round_results_round_trip_through_json() -> None:
    original = result("a", 4, guesses=4)
    assert RoundResult.from_dict(original.to_dict()) == original
    assert "seconds" not in original.without_timing()


def test_players_are_recognised_by_their_form(tmp_path: Any) -> None:
    """A strategy spec, a .py file, or a command line; paths become absolute."""
    module = tmp_path / "bot.py"
    module.write_text("def next_guess(game, history):\n    return ''\n")
    assert parse_player("entropy:first=1122").kind is PlayerKind.STRATEGY
    found = parse_player(str(module), name="bot")
    assert (found.kind, found.name, found.command[-1]) == (PlayerKind.MODULE, "bot", str(module))
    program = parse_player(f"{sys.executable} -c pass")
    assert program.kind is PlayerKind.PROGRAM and program.command == (sys.executable, "-c", "pass")
