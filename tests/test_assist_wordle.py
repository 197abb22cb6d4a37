"""Wordle in the terminal: ``moocow assist`` and ``moocow play`` read marks in every typed form,
show them as coloured tiles on a colour terminal and as letters elsewhere, refuse a guess that
breaks hard mode in one line saying why, and ``play`` ends with its review."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from moocow import api
from moocow.cli import app
from moocow.cli.interactive import assist
from moocow.cli.terminal import MARK_STYLES, TERMINAL_VARIABLES, out
from moocow.engine.feedback import _MARK_OF
from moocow.play import openings
from moocow.play.opponent import deal_secret

OFFICIAL = "wordle:list=official"
ESCAPE = "\x1b["


def run(*arguments: str, typed: str, **environment: str) -> str:
    """The command's output for the lines typed; the colour variables as given, else unset, read
    by a console made afresh (the process keeps the one it made first)."""
    unset: dict[str, str | None] = {name: None for name in ("NO_COLOR", *TERMINAL_VARIABLES)}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(out, "_console", None)
        result = CliRunner().invoke(app, list(arguments), input=typed, env={**unset, **environment})
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("marks", ["BBYGB", "bbygb", "--Yg-", "..y G.", "00120", "b,b,y,g,b"])
def test_every_typed_form_of_marks_records_the_same_entry(marks: str) -> None:
    """G/Y/B in either case, - or . for grey, 2/1/0, spaces or commas between: the same marks."""
    output = run("assist", OFFICIAL, typed=f"salet {marks}\nhistory\nquit\n")
    expected = api.assistant(OFFICIAL)
    expected.record("salet", "BBYGB")
    assert f"{expected.remaining:,} words remain." in output and "1. salet BBYGB\n" in output


def test_help_names_every_spelling_of_a_mark_the_reader_takes() -> None:
    """``help`` named ``G/Y/B (also -, 2 1 0)`` only, but ``.``, ``x``, commas and the shared
    squares work too: each spelling it names is read as that mark, and every spelling read is named."""
    output = run("assist", OFFICIAL, typed="help\nquit\n")
    line = next(line for line in output.splitlines() if line.startswith("Marks: "))
    model = api.load_game("wordle").feedback_model
    named = re.findall(r"([GYB]) (?:green|yellow|grey) \(or ([^)]*)\)", line)
    spellings = {typed: letter for letter, others in named for typed in [letter, *others.split()]}
    assert {typed: model.format(model.parse(typed * 5)) for typed in spellings} == {
        typed: letter * 5 for typed, letter in spellings.items()
    }
    assert set(spellings) == set(_MARK_OF), line
    assert "commas" in line and model.parse("G, Y, B, B, B") == model.parse("GYBBB")


def test_off_a_terminal_marks_are_letters_without_colour() -> None:
    """Piped output has no escape codes: the history and play's answers read as letters."""
    output = run("assist", OFFICIAL, typed="salet BBYGB\nhistory\nquit\n")
    assert ESCAPE not in output and "1. salet BBYGB" in output
    game = api.load_game("wordle")
    played = run("play", "wordle", "--seed", "3", typed="salet\nhelp\nquit\n")
    assert "Marks: one mark per place: G green (or g 2 " in played and "e.g. GYBBB." in played
    secret = game.secrets[deal_secret(game, 3)]
    value = int(game.feedback(game.guesses[game.guess_index("salet") :][:1], secret[None, :])[0, 0])
    assert f"guess 1>   {game.format_feedback(value)}\n" in played and ESCAPE not in played


def test_on_a_colour_terminal_marks_are_tiles_and_no_color_turns_them_off() -> None:
    """With a terminal (FORCE_COLOR) each letter is a coloured tile; NO_COLOR gives letters."""
    coloured = run("assist", OFFICIAL, typed="salet BBYGB\nquit\n", FORCE_COLOR="1")
    plain_text = re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", coloured)
    assert ESCAPE in coloured and " S   A   L   E   T " in plain_text
    assert "\x1b[1;30;43m L " in coloured and "\x1b[1;37;42m E " in coloured  # yellow L, green E
    none = run("assist", OFFICIAL, typed="salet BBYGB\nhistory\nquit\n", FORCE_COLOR="1", NO_COLOR="1")
    assert "\x1b[1;37;42m" not in none and "1. salet BBYGB" in none


def test_the_tiles_are_rich_text_in_the_mark_colours() -> None:
    """``assist`` with ``colour`` hands ``say`` a rich Text whose letters carry each mark's style."""
    lines: list[object] = []
    typed = iter(["salet BBYGB", "quit"])
    assist(api.assistant(OFFICIAL), lambda prompt: next(typed), lines.append, colour=True)
    tiles = next(line for line in lines if not isinstance(line, str))
    styles = [str(span.style) for span in tiles.spans]  # type: ignore[attr-defined]
    assert styles == [MARK_STYLES[mark] for mark in (0, 0, 1, 2, 0)]


def test_hard_mode_refuses_a_guess_in_one_line_saying_why() -> None:
    """The assistant and play alike: the guess is not recorded, the reason is the rule's."""
    hard = f"{OFFICIAL},hard=true"
    output = run("assist", hard, typed="salet BBYGB\ncrane BBBBB\nhistory\nquit\n")
    assert (
        "error: crane is not allowed in hard mode: letter 4 must be E (salet was green there); "
        "nothing recorded" in output
    )
    assert "2. crane" not in output
    game = api.load_game(hard)
    seed = next(seed for seed in range(50) if "e" in game.format_code(game.secrets[deal_secret(game, seed)]))
    played = run("play", hard, "--seed", str(seed), typed="salet\nbumpy\nhistory\nquit\n")
    refusal = "error: bumpy is not allowed in hard mode: it must hold E at least once (as salet revealed)"
    assert refusal in played
    assert "2. bumpy" not in played


def test_a_game_against_the_computer_ends_with_its_review() -> None:
    """Won or given up, each guess is listed with what it left and the engine's choice."""
    game = api.load_game(OFFICIAL)
    secret = game.format_code(game.secrets[deal_secret(game, 4)])
    output = run("play", OFFICIAL, "--seed", "4", typed=f"salet\n{secret}\n")
    review = output.split("Solved in 2 guesses.\n")[1]
    assert review.startswith("Review: each guess, what it left, and what minmax would have played there.")
    assert "  1. salet " in review and "minmax: arise" in review and f"  2. {secret} GGGGG: 1 left" in review
    given_up = run("play", OFFICIAL, "--seed", "4", typed="salet\nquit\n")
    assert f"The secret was {secret}.\nReview:" in given_up


def test_the_first_suggestion_is_kept_for_the_next_session(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The opening of a game and strategy is decided once per process (the web page makes an
    assistant per request), and one slow to find once per cache: a second assistant, in this
    process or in a later one, does not ask its strategy; another budget does."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(openings, "_kept", type(openings._kept)())
    monkeypatch.setattr(openings, "SLOW", 0.0)
    first = api.assistant(OFFICIAL, "entropy")
    suggested = first.suggestion()
    for forget in (False, True):
        if forget:  # a new process: only the file is left
            monkeypatch.setattr(openings, "_kept", type(openings._kept)())
        again = api.assistant(OFFICIAL, "entropy")
        monkeypatch.setattr(again.strategy, "decide", lambda position: pytest.fail("decided again"))
        assert again.suggestion() == suggested and again.suggestion_note() is None
    assert len(json.loads((tmp_path / "moocow" / "openings.json").read_text())) == 1
    quick = api.assistant(OFFICIAL, "entropy", budget=0.01)
    assert "quick suggestion: " in (quick.suggestion_note() or "")  # and says it was cut short


def test_a_damaged_cache_is_an_empty_one(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A file that is not the cache's JSON is read as no opening, and written over."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(openings, "_kept", type(openings._kept)())
    monkeypatch.setattr(openings, "SLOW", 0.0)
    (tmp_path / "moocow").mkdir()
    (tmp_path / "moocow" / "openings.json").write_text("[1, 2")
    assert api.assistant("bottles:n=5").suggestion() == "ABCDE"
    assert len(json.loads((tmp_path / "moocow" / "openings.json").read_text())) == 1
