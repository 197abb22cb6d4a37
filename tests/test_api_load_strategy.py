"""``moocow.load_strategy``: the registry's signature, and a value given twice must agree."""

from __future__ import annotations

import inspect

import pytest

import moocow
from moocow.engine.errors import MoocowError
from moocow.plugins import strategy_registry


def test_the_api_and_the_registry_load_a_strategy_with_one_signature() -> None:
    """``first`` is a keyword override like any other, not a second positional parameter."""
    assert inspect.signature(moocow.load_strategy) == inspect.signature(strategy_registry.load_strategy)
    ours, theirs = (
        moocow.load_strategy("minmax", first="1122"),
        strategy_registry.load_strategy("minmax", first="1122"),
    )
    assert ours.spec == theirs.spec == "minmax:first=1122"


@pytest.mark.parametrize("spec", ["minmax:first=1122", "minmax:candidates_only=true,first=1122"])
def test_an_override_may_restate_the_specs_value_or_be_none(spec: str) -> None:
    """The same value twice (spelt another way) is one value; ``None`` is no override."""
    assert moocow.load_strategy(spec, first=" 1122").values["first"].strip() == "1122"
    assert moocow.load_strategy(spec, first=None).values["first"] == "1122"
    assert moocow.load_strategy("minmax:candidates_only=true", candidates_only=True).values["candidates_only"]


def test_an_override_that_contradicts_the_spec_is_refused() -> None:
    """In a spec or in a built strategy, a value the override contradicts is one line naming both."""
    with pytest.raises(
        MoocowError, match="two values of first: minmax:first=1122 and --first 3456; give one"
    ):
        moocow.load_strategy("minmax:first=1122", first="3456")
    built = strategy_registry.load_strategy("minmax:first=1122")
    with pytest.raises(MoocowError, match="two values of first"):
        moocow.load_strategy(built, first="3456")
    with pytest.raises(MoocowError, match=r"two values of candidates_only: .* --candidates-only False"):
        moocow.load_strategy("minmax:candidates_only=yes", candidates_only=False)


def test_an_override_sets_what_a_built_strategy_left_at_its_default() -> None:
    """A built strategy no longer says which values it was given: those at their default are free."""
    built = strategy_registry.load_strategy("minmax")
    assert (
        moocow.load_strategy(built, first="1122", candidates_only=True).spec
        == "minmax:first=1122,candidates_only=true"
    )
