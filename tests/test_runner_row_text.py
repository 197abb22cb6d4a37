"""A round's row written without its dict (``RoundResult.row_text``) is the dict's JSON, byte for byte."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from moocow.runner import chain
from moocow.runner.results import RoundResult

texts = st.text(max_size=40)
rounds = st.builds(
    RoundResult,
    player=texts,
    game=st.one_of(texts, st.just("bacrunner:minlen=2,maxlen=3")),
    round=st.integers(min_value=0, max_value=10**9),
    secret=texts,
    guesses=st.lists(st.text(max_size=300), max_size=4).map(tuple),
    solved=st.booleans(),
    score=st.integers(min_value=0, max_value=1000),
    failure=st.one_of(st.none(), texts),
    reason=st.one_of(st.none(), st.text(max_size=600)),
    seconds=st.floats(allow_nan=True, allow_infinity=True),
)


@settings(max_examples=60, deadline=None)
@given(rounds)
def test_row_text_is_the_rows_json(result: RoundResult) -> None:
    text = result.row_text()
    if text is None:  # left to the dict: a course round, or a float JSON writes as a word
        assert result.game.startswith("bacrunner:") or not math.isfinite(result.seconds)
        return
    assert text == chain.LINE.encode(result.to_row())
    signed = chain.signed_object(text, chain.Signer(b"key"), "f" * 64, 7, "0123456789abcdef")
    assert signed == chain.signed_line(result.to_row(), b"key", "f" * 64, 7, "0123456789abcdef")
