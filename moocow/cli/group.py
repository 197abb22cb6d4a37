"""How the ``moocow`` command line behaves as a whole, whatever the command.

- A usage error (an unknown option, a missing argument, ``--seed x``) is one line on stderr
  starting ``error:`` and exit status 2, like every other mistake (``terminal.one_line_errors``),
  not typer's boxed panel.
- ``moocow`` alone prints the help, with status 0.
- Ctrl-C ends on a fresh line with status 130, never with a traceback; a command that stops
  cleanly on it (a prompt, a tournament, ``optimal``) first says what it kept, and exits 130 too.
- Metavars read as words: ``--seed N``, ``--save FILE``, ``--strategy SPEC``, ``GAME``; a flag
  shows none. An option that sets ``metavar=`` keeps it; the rest get a word from their type.
- Commands named in ``MoocowGroup.lazy_commands`` are made only when used or listed, so their
  modules load only then; help, order and "did you mean" are those of the others. One may be a
  group of its own (a ``typer.Typer``).

The app is made with a subclass of ``MoocowGroup`` (naming its lazy commands) and its commands
with ``cls=MoocowCommand``.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar, get_args, get_origin

import typer
import typer.main
from typer.core import TyperArgument, TyperCommand, TyperGroup

from moocow.cli import values as cli_values
from moocow.cli.terminal import err
from moocow.engine.wording import printable

try:  # typer from 0.20 on carries its own click
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover - older typer depends on click
    from click import exceptions as click_errors  # type: ignore[no-redef]  # the same module, by its old home

INTERRUPTED = 130
"""Exit status after Ctrl-C, as shells report it."""


class WordArgument(TyperArgument):
    """An argument shown by its name alone (``GAME``), not as ``{game}`` with a ``<str>`` beside it."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def _usage_display_name(self) -> str:
        return self.display_name_raw if self.required else f"[{self.display_name_raw}]"


class WordsMixin:
    """Give every parameter a metavar that reads as a word before help or usage shows it, and
    let plain values be read without pydantic (``cli_values``)."""

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)  # type: ignore[misc]  # a mixin: click's command has it
        for param in params:
            if param.metavar is None:
                param.metavar = metavar_word(param)
            cli_values.install(param)
            if type(param) is TyperArgument and hasattr(TyperArgument, "_usage_display_name"):
                param.__class__ = WordArgument
        return params


class MoocowCommand(WordsMixin, TyperCommand):
    """A command whose parameters read as words."""


class MoocowGroup(WordsMixin, TyperGroup):
    """The ``moocow`` group: usage errors, interrupts and a bare ``moocow`` handled once for all."""

    lazy_commands: ClassVar[dict[str, str]] = {}
    """Commands made only when named (or listed by help), each ``"module:function"``: a plain
    function with typer annotations. Their modules stay unloaded for the other commands."""

    def list_commands(self, ctx: Any) -> list[str]:
        eager = [name for name in super().list_commands(ctx) if name not in self.lazy_commands]
        return [*eager, *self.lazy_commands]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        target = self.lazy_commands.get(cmd_name)
        if target is not None and cmd_name not in self.commands:
            self.commands[cmd_name] = lazy_command(target)
        return summarised(super().get_command(ctx, cmd_name))

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """As typer resolves it; a name it does not know is looked up again with every command
        made, so that its "did you mean" suggestions cover the lazy ones too."""
        try:
            return super().resolve_command(ctx, args)
        except click_errors.UsageError:
            if all(name in self.commands for name in self.lazy_commands):
                raise
            for name in self.lazy_commands:
                self.get_command(ctx, name)
            return super().resolve_command(ctx, args)

    def main(  # type: ignore[override]  # click types main with overloads on standalone_mode
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            status = super().main(args, prog_name, complete_var, False, **extra)
        except click_errors.NoArgsIsHelpError as error:
            print(error.ctx.get_help() if error.ctx is not None else "", end="")
            status = 0
        except click_errors.ClickException as error:
            err.line(f"error: {usage_message(error)}")
            status = 2
        except typer.Abort:  # end of input inside click itself
            status = INTERRUPTED
        if status == INTERRUPTED:  # typer turns Ctrl-C into this status, as a command stopped by it does
            err.line()
        sys.exit(status if isinstance(status, int) else 0)


def summarised(command: Any) -> Any:
    """``command`` with its summary in the list of commands on one line: that list shows a
    command's first paragraph, and typer's rich help keeps the line breaks of a docstring there
    (it joins them in the command's own help, and in the list only outside rich markup mode), so
    a docstring of several lines showed its breaks in ``moocow --help`` (verify's three)."""
    if command is not None and command.short_help is None and command.help:
        first = inspect.cleandoc(command.help).partition("\f")[0].split("\n\n")[0]
        command.short_help = " ".join(first.split())
    return command


def lazy_command(target: str) -> Any:
    """The command of ``"module:function"``, made as typer makes the group's own; a ``typer.Typer``
    there is a group of subcommands (``moocow gradescope build``)."""
    module, _, name = target.partition(":")
    found = getattr(importlib.import_module(module), name)
    if isinstance(found, typer.Typer):
        return typer.main.get_group(found)
    alone = typer.Typer(add_completion=False)
    alone.command(cls=MoocowCommand)(found)
    return typer.main.get_command(alone)


def usage_message(error: Any) -> str:
    """Click's message on one line, lower case first, pointing at the command's help, or, for an
    option of ``moocow`` itself given after the command, at where it goes."""
    message = " ".join(error.format_message().split()).rstrip(".")
    message = message[:1].lower() + message[1:]
    context = getattr(error, "ctx", None)
    where = f"; see '{context.command_path} --help'" if context is not None else ""
    main = _main_option(error)
    if main is not None and context is not None:
        name = error.option_name
        usage = name if main.is_flag else f"{name} {main.metavar or 'VALUE'} {context.info_name} ..."
        where = f"; {name} is an option of moocow itself and goes before the command: moocow {usage}"
    return printable(message + where)


def _main_option(error: Any) -> Any:
    """The option of ``moocow`` itself (the group above the command) that a command was given, if any."""
    context = getattr(error, "ctx", None)
    name = getattr(error, "option_name", None)
    parent = getattr(context, "parent", None)
    if not isinstance(error, click_errors.NoSuchOption) or parent is None or not name:
        return None
    return next((param for param in parent.command.params if name in getattr(param, "opts", ())), None)


def metavar_word(param: Any) -> str:
    """``N`` for numbers, ``FILE`` for paths, the option's name for text; nothing for a flag."""
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return ""
    annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    if get_origin(annotation) is list:
        annotation = get_args(annotation)[0]
    type_name = getattr(getattr(param, "type", None), "name", "")
    if annotation in (int, float) or type_name in ("integer", "float"):
        return "N"
    if (isinstance(annotation, type) and issubclass(annotation, Path)) or type_name in ("path", "file"):
        return "FILE"
    longest = max(getattr(param, "opts", None) or [param.name or "value"], key=len)
    return longest.lstrip("-").replace("-", "_").upper()
