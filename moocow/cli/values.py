"""Command-line values of plain types (text, numbers, flags, paths) read without pydantic.

typer 0.29 reads every value through a pydantic ``TypeAdapter`` built per parameter: importing
pydantic and building the adapters took more of a ``moocow evaluate`` (Knuth on Mastermind) than the
evaluation (``bench/process.py`` times whole commands). Every moocow parameter is a ``str``,
``int``, ``bool``, ``Path`` or a list of one of them, with no parser, so this module reads those
itself and leaves anything else to typer. It uses typer's private coercion contract; with a typer
without it, ``install`` does nothing and typer reads every value.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_args, get_origin

try:
    from typer._click.exceptions import BadParameter
    from typer._coercion import RuntimeParam
    from typer._param_types import coerce_cli_path
except ImportError:  # pragma: no cover - another typer: it reads values itself
    RuntimeParam = None  # type: ignore[assignment,misc]  # no such class there: values read as typer does


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not text")
    return value


def _number(kind: type) -> Callable[[Any], Any]:
    word = "integer" if kind is int else "number"

    def read(value: Any) -> Any:
        if isinstance(value, str):
            try:
                return kind(value)
            except ValueError:
                pass
        elif isinstance(value, int | float) and not isinstance(value, bool) and kind(value) == value:
            return kind(value)  # a default
        raise ValueError(f"{value!r} is not a valid {word}")

    return read


TRUE_WORDS = frozenset({"1", "true", "t", "yes", "y", "on"})
FALSE_WORDS = frozenset({"0", "false", "f", "no", "n", "off"})


def _yes_or_no(value: Any) -> bool:
    """A flag's value is a bool already; a word (from the environment) is read as click reads it."""
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word in TRUE_WORDS or word in FALSE_WORDS:
        return word in TRUE_WORDS
    raise ValueError(f"{value!r} is not a valid boolean")


READERS: dict[type, Callable[[Any], Any]] = {
    str: _text,
    int: _number(int),
    float: _number(float),
    bool: _yes_or_no,
}
"""How a plain value is read from the command line; ``Path`` is read by typer's own path checks."""


def plain_reader(annotation: Any, parameter_info: Any) -> Callable[[Any, Any, Any], Any] | None:
    """A reader ``(value, param, ctx)`` for a parameter typer would hand to pydantic, if plain."""
    if getattr(parameter_info, "parser", None) is not None or getattr(parameter_info, "click_type", None):
        return None
    if annotation is Path and parameter_info.path_type is None:
        return lambda value, param, ctx: coerce_cli_path(
            Path(value) if isinstance(value, str) else value,
            parameter_info,
            path_type=Path,
            param=param,
            ctx=ctx,
        )
    read = READERS.get(annotation)
    if read is None:
        return None
    if annotation in (int, float):
        read = _bounded(read, parameter_info.min, parameter_info.max, bool(parameter_info.clamp))
    return lambda value, param, ctx: _or_bad_parameter(read, value, param, ctx)


def _bounded(read: Callable[[Any], Any], least: Any, most: Any, clamp: bool) -> Callable[[Any], Any]:
    """``read``, then kept within ``least`` and ``most`` (moved there if ``clamp``, else refused)."""
    if least is None and most is None:
        return read
    limits = [f"at least {least}"] * (least is not None) + [f"at most {most}"] * (most is not None)
    where = " and ".join(limits)

    def read_within(value: Any) -> Any:
        number = read(value)
        low, high = least is not None and number < least, most is not None and number > most
        if clamp and (low or high):
            return type(number)(least if low else most)
        if low or high:
            raise ValueError(f"{number} is out of range ({where})")
        return number

    return read_within


def _or_bad_parameter(read: Callable[[Any], Any], value: Any, param: Any, ctx: Any) -> Any:
    try:
        return read(value)
    except ValueError as error:
        raise BadParameter(f"{error}.", ctx=ctx, param=param) from None


if RuntimeParam is not None:

    @dataclass(frozen=True)
    class PlainRuntimeParam(RuntimeParam):
        """typer's coercion contract for a plain value, or a list of them."""

        reader: Callable[[Any, Any, Any], Any]
        many: bool

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            if self.many:
                return [self.reader(item, param, ctx) for item in value]
            return self.reader(value, param, ctx)


def install(param: Any) -> None:
    """Let ``param`` read its values here if they are plain."""
    descriptor = getattr(param, "type_descriptor", None)
    if RuntimeParam is None or descriptor is None or getattr(param, "_runtime_param", 0) is not None:
        return
    if descriptor.file_annotation is not None:
        return
    annotation, many = descriptor.annotation, get_origin(descriptor.annotation) is list
    if many:
        inside = get_args(descriptor.annotation)
        if len(inside) != 1:
            return
        annotation = inside[0]
    reader = plain_reader(annotation, descriptor.parameter_info)
    if reader is not None:
        param._runtime_param = PlainRuntimeParam(
            parameter_info=descriptor.parameter_info,
            annotation=descriptor.annotation,
            reader=reader,
            many=many,
        )
