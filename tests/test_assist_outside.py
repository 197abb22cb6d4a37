"""At a real table a word outside the game's list gets played: the assistant records it, if told
to, as a guess outside the list. Its feedback is the game's feedback function on its code, so it
narrows the candidates exactly; no guess index names it, so nothing that reasons from the guesses
played (symmetries, a fixed opening, a saved tree) may take the history for all there was."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from moocow.cli import app
from moocow.engine.errors import MoocowError
from moocow.play.assistant import Assistant, OutsideGuess
from moocow.plugins import game_classes, load_game, load_plugin_file
from moocow.plugins.strategy_registry import load_strategy

EXAMPLES = Path(__file__).parents[1] / "examples"


def bulls_and_cows(guess: str, secret: str) -> tuple[int, int]:
    bulls = sum(g == s for g, s in zip(guess, secret, strict=True))
    return bulls, sum(g in secret for g in guess) - bulls


def test_an_outside_word_narrows_the_candidates_by_its_feedback() -> None:
    game = load_game("words")
    assistant = Assistant(game, load_strategy("minmax"))
    with pytest.raises(OutsideGuess) as refused:
        assistant.record("salet", "1B1C")
    assistant.record_outside(refused.value.code, "1B1C")
    words = [game.format_code(code) for code in game.secrets]
    expected = [word for word in words if bulls_and_cows("salet", word) == (1, 1)]
    assert assistant.possible_codes(10_000) == expected
    assert assistant.history() == [("salet", "1B1C")] and assistant.entries == 1
    assert assistant.suggestion()  # a guess of the list, scored on what remains


def test_an_outside_word_cannot_be_the_secret() -> None:
    game = load_game("words")
    assistant = Assistant(game, load_strategy("minmax"))
    with pytest.raises(MoocowError, match="it is not in the game's list, so it is not the secret"):
        assistant.record_outside(game.parse_code("salet"), "5B")
    assert assistant.entries == 0


def test_malformed_text_is_not_offered() -> None:
    assistant = Assistant(load_game("words"), load_strategy("minmax"))
    for text in ("sallt", "sal", "s4let"):
        with pytest.raises(MoocowError) as refused:
            assistant.record(text, "1B")
        assert not isinstance(refused.value, OutsideGuess)


@pytest.fixture(scope="module")
def distinct_bagels():
    """Bagels whose guesses are its secrets: ``112`` is well formed but outside. One with its
    symmetries and a twin claiming none, which scans every guess."""
    load_plugin_file(EXAMPLES / "bagels.py")
    bagels = game_classes()["bagels"]

    class Distinct(bagels):  # type: ignore[misc, valid-type]
        name = "distinct_bagels"

        def build_guesses(self):
            return self.secrets

    class Plain(Distinct):
        name = "plain_bagels"
        symmetries = frozenset()

    return Distinct(), Plain()


@pytest.mark.parametrize("before", [None, "345 0F1P"])
@pytest.mark.parametrize("strategy", ["minmax", "expected", "minmax:first=012", "parts:fewest_moves=false"])
@pytest.mark.parametrize("feedback", ["0F0P", "1F0P", "0F2P", "1F1P"])
def test_after_an_outside_guess_a_symmetric_game_suggests_what_a_full_scan_does(
    distinct_bagels, strategy: str, feedback: str, before: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Symmetries fix the guesses played; a guess no index names fixes nothing, so they are off
    (engaged here at any size, as on a large game)."""
    from moocow.engine import opening

    monkeypatch.setattr(opening, "SYMMETRY_CELLS", 0)
    chosen = []
    for game in distinct_bagels:
        assistant = Assistant(game, load_strategy(strategy))
        if before is not None:
            assistant.record(*before.split())
        with pytest.raises(OutsideGuess) as refused:
            assistant.record("112", feedback)
        assistant.record_outside(refused.value.code, feedback)
        chosen.append((assistant.suggestion(), assistant.remaining))
    assert chosen[0] == chosen[1]
    assert not (strategy.endswith("012") and chosen[0][0] == "012" and chosen[0][1] < 720)


def test_a_saved_tree_says_it_does_not_cover_an_outside_guess(tmp_path: Path) -> None:
    saved = tmp_path / "w.json"
    CliRunner().invoke(app, ["tree", "words", "--strategy", "first", "--save", str(saved)])
    result = CliRunner().invoke(
        app, ["assist", "words", "--strategy", f"tree:{saved}"], input="salet 1B1C\ny\n"
    )
    assert "No suggestion: the tree" in result.stdout and "not one outside them" in result.stdout


def test_the_assistant_offers_to_record_an_outside_word() -> None:
    typed = "salet 1B1C\ny\nhistory\nsalet 1B1C\nno\nundo\n"
    result = CliRunner().invoke(app, ["assist", "words"], input=typed)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "'salet' is not in the game's word list" in out
    assert "Record it anyway, as a guess outside the list? [y/N] " in out
    assert "1. salet 1B1C" in out
    assert "Nothing recorded." in out
    assert "Took back the last entry." in out and "1,682 words remain." in out
    assert np.sum([line.startswith("guess 2 and score>") for line in out.splitlines()]) >= 2
