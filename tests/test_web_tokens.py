"""The play token's tag alone: every byte it covers, changed, is refused by the tag, where no other
check (the range of the index, the token's length, its life) could refuse it."""

from __future__ import annotations

import pytest

from moocow.engine.errors import MoocowError
from moocow.web import tokens

KEY = b"k" * 32
SPEC = "mastermind"
EVERY_INDEX = 1 << (8 * tokens.SIZE)
"""A count of secrets that puts any hidden index in range, so the range check refuses nothing."""
START = 1_800_000_000


def token_bytes(secret: int = 7) -> bytearray:
    return bytearray(tokens.decoded(tokens.seal(KEY, SPEC, secret, START)) or b"")


def test_a_sound_token_opens() -> None:
    assert tokens.unseal(KEY, SPEC, tokens.encoded(bytes(token_bytes())), EVERY_INDEX, START) == 7


@pytest.mark.parametrize(
    "at",
    [
        *range(0, tokens.NONCE, 5),  # the nonce: another pad, another index
        tokens.NONCE + tokens.ISSUED - 1,  # the start: a game made a second younger
        *range(tokens.NONCE + tokens.ISSUED, tokens.NONCE + tokens.ISSUED + tokens.SIZE),  # the index
        -1,  # the tag itself
    ],
)
def test_a_byte_changed_anywhere_is_refused_by_the_tag(at: int) -> None:
    raw = token_bytes()
    raw[at] ^= 1
    changed = tokens.encoded(bytes(raw))
    with pytest.raises(MoocowError, match=r"^this game's token was not made by this server"):
        tokens.unseal(KEY, SPEC, changed, EVERY_INDEX, START + 1)


def test_a_token_is_refused_for_another_game_and_under_another_key() -> None:
    sound = tokens.encoded(bytes(token_bytes()))
    for key, spec in [(KEY, "mastermind:pegs=4,colors=6 "), (b"j" * 32, SPEC)]:
        with pytest.raises(MoocowError, match=r"^this game's token was not made by this server"):
            tokens.unseal(key, spec, sound, EVERY_INDEX, START)
