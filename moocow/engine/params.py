"""Typed parameters and the one spec syntax shared by games and strategies.

A spec is ``name`` or ``name:key=value,key=value``: ``bottles:n=7``,
``mastermind:pegs=5,colors=8``, ``minmax:candidates_only=true``; a name may let one parameter
go without its key (``tree:PATH``). The same text works on the command line, in TOML files and
from Python, so a result can always be reproduced from its spec.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from moocow.engine.errors import MoocowError

_KEYED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\s*=")
"""The start of ``key=value`` items, which a bare value may not look like."""
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


@dataclass(frozen=True)
class Param:
    """One named, typed parameter with a default, as shown by ``moocow games``."""

    name: str
    """The key used in specs, e.g. ``pegs``."""
    type: type
    """``int``, ``float``, ``bool`` or ``str``; values from text are converted to it."""
    default: Any
    """The value used when the spec leaves the parameter out (``None``: optional)."""
    help: str
    """One line for people."""
    minimum: float | None = None
    """Smallest accepted value for numbers."""
    maximum: float | None = None
    """Largest accepted value for numbers."""
    choices: tuple[str, ...] | None = None
    """Accepted values for strings."""

    @property
    def free_text(self) -> bool:
        """A string of no fixed choices, so it may name a file (``words:file=PATH``): a web page may
        not set it, and a game is kept by the file's absolute path, not by the text."""
        return self.type is str and self.choices is None

    def convert(self, value: Any, owner: str) -> Any:
        """Turn ``value`` (text or already typed) into this parameter's type, or explain why not."""
        where = f"{owner}: parameter {self.name}"
        if value is None:
            return None
        converted: Any
        if self.type is bool:
            converted = _to_bool(value, where)
        elif self.type in (int, float):
            converted = _to_number(value, self.type, where)
            if self.minimum is not None and converted < self.minimum:
                raise MoocowError(f"{where} must be at least {_plain(self.minimum)}, not {value}")
            if self.maximum is not None and converted > self.maximum:
                raise MoocowError(f"{where} must be at most {_plain(self.maximum)}, not {value}")
        else:
            converted = str(value)
        if self.choices is not None and converted not in self.choices:
            raise MoocowError(f"{where} must be one of {', '.join(self.choices)}, not {value!r}")
        return converted


def _plain(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else str(number)


def _to_bool(value: Any, where: str) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise MoocowError(f"{where} must be true or false, not {value!r}")


def _to_number(value: Any, kind: type, where: str) -> int | float:
    """A finite number, from text written in ASCII digits only (Python's ``int`` would also read
    ``1_0`` as 10 and Arabic-Indic digits, a silent misreading of a typo)."""
    noun = "a whole number" if kind is int else "a finite number"
    if isinstance(value, bool) or (isinstance(value, str) and (not value.isascii() or "_" in value)):
        raise MoocowError(f"{where} must be {noun}, not {value!r}")
    try:
        if kind is int and isinstance(value, float) and not value.is_integer():
            raise ValueError
        converted: int | float = kind(value)
    except (TypeError, ValueError, OverflowError):
        raise MoocowError(f"{where} must be {noun}, not {value!r}") from None
    if not math.isfinite(converted):
        raise MoocowError(f"{where} must be {noun}, not {value!r}")
    return converted


def parse_spec(spec: str, bare: Mapping[str, str] | None = None) -> tuple[str, dict[str, str]]:
    """Split ``name:key=value,...`` into the name and its raw (text) arguments.

    ``bare`` maps a name to the parameter its spec may give without the key, so with
    ``{"tree": "path"}`` the spec ``tree:x.json`` reads as ``tree:path=x.json``. The bare value is
    everything after the first colon, ``:``, ``,`` and ``=`` included (``tree:/tmp/a:b,c.json``),
    unless it begins ``word=`` (then it is ``key=value`` items: ``./a=b.json`` keeps such a path
    bare). In the keyed form, text after a comma that holds no ``=`` continues the bare parameter's
    value, so ``tree:path=/tmp/a,b.json``, the canonical spec, reads back too.
    """
    name, _, rest = spec.strip().partition(":")
    name, rest = name.strip(), rest.strip()
    if not name:
        raise MoocowError(f"empty name in spec {spec!r}")
    bare_key = (bare or {}).get(name)
    if bare_key is not None and rest and not _KEYED.match(rest):
        return name, {bare_key: rest}
    arguments: dict[str, str] = {}
    last = None
    for part in rest.split(","):
        item = part.strip()
        key, equals, value = item.partition("=")
        key = key.strip()
        if not equals and last is not None and last == bare_key:
            arguments[last] = (arguments[last] + "," + part).strip()
            continue
        if not item:
            continue
        if not equals or not key:
            raise MoocowError(f"malformed parameter {item!r} in {spec!r}: expected key=value")
        if key in arguments:
            raise MoocowError(f"parameter {key} given twice in {spec!r}")
        arguments[key], last = value.strip(), key
    return name, arguments


def bind(owner: str, params: Sequence[Param], arguments: Mapping[str, Any]) -> dict[str, Any]:
    """Check ``arguments`` against ``params`` and fill in defaults; unknown keys are errors."""
    known = {param.name: param for param in params}
    unknown = sorted(set(arguments) - set(known))
    if unknown:
        accepted = ", ".join(known) or "none"
        raise MoocowError(f"{owner}: unknown parameter {unknown[0]} (accepted: {accepted})")
    return {
        name: param.convert(arguments[name], owner) if name in arguments else param.default
        for name, param in known.items()
    }


def format_spec(name: str, values: Mapping[str, Any], params: Sequence[Param]) -> str:
    """The canonical spec of a configured object: only the values that differ from defaults."""
    parts = [
        f"{param.name}={_format_value(values[param.name])}"
        for param in params
        if values.get(param.name) != param.default
    ]
    return f"{name}:{','.join(parts)}" if parts else name


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def format_defaults(defaults: Mapping[str, Any]) -> str:
    """Parameters with their defaults as a spec writes them (``candidates_only=false``); one with
    no default is named alone (``first``), not shown as Python's ``None``."""
    return ", ".join(
        name if value is None else f"{name}={_format_value(value)}" for name, value in defaults.items()
    )
