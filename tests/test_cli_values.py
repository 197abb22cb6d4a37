"""Plain command-line values are read without pydantic, exactly as typer's own reading reads them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import typer
from typer._click.exceptions import BadParameter
from typer._coercion import build_runtime_param

from moocow.cli import app
from moocow.cli import values as cli_values

SAMPLES: dict[str, list[Any]] = {
    "str": ["mastermind", "", " spaced ", "bottles:n=5", "ünïcode"],
    "int": ["12", "0", "-3", " 7 ", "+4", "1_000", "x", "1.5", "", "0x1f", 5],
    "bool": [True, False, "yes", "0", "off", "maybe"],
    "Path": ["a/b.json", ".", "", "/no/such/file", str(Path(__file__))],
}


def every_parameter() -> list[tuple[str, Any]]:
    """Every parameter of every moocow command, by command and option name."""
    root = typer.main.get_command(app)
    context = typer.Context(root)
    names = root.list_commands(context)  # type: ignore[attr-defined]
    assert {"evaluate", "tournament", "grade", "optimal", "tree"} <= set(names)  # lazy ones too
    found = [(f"moocow {param.name}", param) for param in root.params]
    for name in names:
        command = root.get_command(context, name)  # type: ignore[attr-defined]
        found += [(f"moocow {name} {param.name}", param) for param in command.params]
    return found


def read(runtime: Any, param: Any, value: Any) -> tuple[str, Any]:
    """What reading ``value`` gives: the value, or the fact it was refused."""
    try:
        return "value", runtime.coerce(value, param=param, ctx=None)
    except BadParameter:
        return "refused", None


@pytest.mark.parametrize(("where", "param"), every_parameter(), ids=lambda item: str(item).split()[-1])
def test_plain_values_read_as_typer_reads_them(where: str, param: Any) -> None:
    """Every parameter moocow has is plain, and reads each sample as typer's pydantic path does."""
    descriptor = param.type_descriptor
    param._runtime_param = None
    cli_values.install(param)
    ours = param._runtime_param
    assert isinstance(ours, cli_values.PlainRuntimeParam), f"{where} is read by pydantic"
    theirs = build_runtime_param(descriptor)
    annotation = descriptor.annotation
    kind = getattr(annotation, "__name__", "")
    if kind == "list":
        kind = annotation.__args__[0].__name__
        samples = [[value] for value in SAMPLES[kind]] + [["1", "2"], []]
    else:
        samples = SAMPLES[kind]
    for value in samples:
        assert read(ours, param, value) == read(theirs, param, value), (where, value)


def test_a_bad_number_names_the_value() -> None:
    """A number that does not read is refused in words that quote it (pydantic's did not)."""
    param = next(param for where, param in every_parameter() if where == "moocow play seed")
    param._runtime_param = None
    cli_values.install(param)
    with pytest.raises(BadParameter, match=r"'1\.5' is not a valid integer"):
        param._runtime_param.coerce("1.5", param=param, ctx=None)
