"""The hallway's frame: the `pnpkit` app, its help in one style, the `command` decorator that runs every
command the same way, and the errors that show themselves.

Every option is checked by its type or a callback as it is parsed (generator.cli.options): a bad option is a
usage error (exit 2, a message naming the option, the value given and what is allowed), before anything runs.
A command's body raises; `run_command` turns what it raised into a `Failure` that shows itself: KitError ->
`error: ...` and exit 1 (an OptionError: 2), Ctrl-C -> 130, SIGTERM -> 143."""

from __future__ import annotations

import functools
import gc
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

import typer
from typer.core import TyperCommand, TyperGroup

try:  # newer typer carries its own copy of click
    from typer._click.exceptions import ClickException
except ImportError:  # pragma: no cover - older typer runs on click itself
    from click.exceptions import ClickException  # type: ignore[assignment]

from generator.cli.output import clean
from generator.errors import KitError, OptionError
from generator.interrupts import Terminated, install_for_process, signals_recorded
from generator.process import collect_seldom

BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS")
"""The variables that size numpy's BLAS thread pool (OpenBLAS, MKL, OpenMP builds): 1 unless set."""

_TYPE_LABEL = re.compile(r" <([^<>]*)>$")
"""The Python type typer prints after a parameter's name in --help (`<int>`, `<list[Path]>`,
`<a4|letter|a3>`)."""


class _HelpInOneStyle:
    """--help described as every other option is: lower case, no full stop (click's own reads "Show this
    message and exit.")."""

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None:
            option.help = "show this message and exit"
        return option


class _Command(_HelpInOneStyle, TyperCommand):
    """A command whose --help names values as a user types them: `--seed SEED`, `--paper [a4|letter|a3]`,
    `KIT`; never a Python type."""

    def format_options(self, ctx: Any, formatter: Any) -> None:
        args, opts = [], []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            name, text = record
            if param.param_type_name == "argument":
                args.append((_TYPE_LABEL.sub("", name), text))
                continue
            label = _TYPE_LABEL.search(name)
            if label:
                shown = (
                    f"[{label[1]}]" if "|" in label[1] else param.metavar or (param.name or "value").upper()
                )
                name = f"{name[: label.start()]} {shown}"
            opts.append((name, text))
        if args:
            with formatter.section("Arguments"):
                formatter.write_dl(args)
        if opts:
            with formatter.section("Options"):
                formatter.write_dl(opts)


class Group(_HelpInOneStyle, TyperGroup):
    """The `pnpkit` group: each command's one-line summary in full, and every error in one style
    (`error: ...`, as the commands' own messages), click's usage errors included."""

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        rows = []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, cmd.short_help or cmd.get_short_help_str(limit=10_000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        def run(standalone: bool) -> Any:
            return super(Group, self).main(
                args, prog_name, complete_var, standalone, windows_expand_args, **extra
            )

        if not standalone_mode:
            return run(False)
        try:
            code = run(False)
        except ClickException as e:
            import io

            shown = io.StringIO()
            e.show(file=shown)
            text = re.sub(r"(?m)^Error: ", "error: ", shown.getvalue(), count=1)
            text = _with_value_given(text, e, sys.argv[1:] if args is None else list(args))
            sys.stderr.write(
                text.replace(": Value error, ", ": ")
            )  # pydantic's wording inside typer's choices
            sys.exit(e.exit_code)
        except typer.Abort:
            sys.stderr.write("aborted\n")
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


_NOT_A_NUMBER = {
    "Input should be a valid integer, unable to parse string as an integer": "expected a whole number",
    "Input should be a valid number, unable to parse string as a number": "expected a number",
}
"""pydantic's wording of a number option typer could not parse, and pnpkit's (which names the value)."""


def _with_value_given(text: str, e: ClickException, args: Sequence[str]) -> str:
    """A usage error's text with pydantic's 'Input should be a valid integer ...' (which never says what was
    typed) as pnpkit words it: `expected a whole number; got 'two'`, the value taken from the command line."""
    for theirs, ours in _NOT_A_NUMBER.items():
        if theirs not in text:
            continue
        opts = list(getattr(getattr(e, "param", None), "opts", None) or [])
        given = [
            arg[len(opt) + 1 :] if arg.startswith(opt + "=") else args[i + 1]
            for i, arg in enumerate(args)
            for opt in opts
            if arg.startswith(opt + "=") or (arg == opt and i + 1 < len(args))
        ]
        if not given:
            return text.replace(theirs, ours)
        value = given[-1] if len(given[-1]) <= 40 else given[-1][:40] + "..."
        return text.replace(theirs, f"{ours}; got {value!r}")  # repr: a control character shows as \x1b
    return text


app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    cls=Group,
    help="pnpkit: print-and-play kits from layout specs, proven legal and balanced by seeded self-play.",
)


class Failure(Exception):
    """The end of a command that shows itself: a line on stderr in the one style and an exit code (1: bad
    input, 2: usage, 130: Ctrl-C, 143: SIGTERM; a check's 1 or 3 with no line)."""

    def __init__(self, text: str | None, code: int) -> None:
        super().__init__(text)
        self.text, self.code = text, code

    @classmethod
    def error(cls, message: str, code: int = 1) -> Failure:
        """`error: MESSAGE` (cleaned for a terminal), exit `code`."""
        return cls(f"error: {clean(message)}", code)

    @classmethod
    def of(cls, e: BaseException) -> Failure:
        """What a command raised, as the failure the user sees."""
        if isinstance(e, Failure):
            return e
        if isinstance(e, KeyboardInterrupt):
            return cls("interrupted", 130)
        if isinstance(e, Terminated):
            return cls("terminated", 143)
        return cls.error(str(e), 2 if isinstance(e, OptionError) else 1)

    def show(self) -> None:
        """Write the line (if any) to stderr."""
        if self.text:
            sys.stderr.write(f"{self.text}\n")


def fail(message: str) -> NoReturn:
    """End the command: `error: MESSAGE`, exit 1."""
    raise Failure.error(message)


def run_command(fn: Callable[[], None], *, safe_points: bool = False) -> None:
    """Run a command's body: whatever it raises shows itself (`Failure.of`) and ends the process with its
    code. Interrupts raise inside the command, so its cleanup (the build's staging folder) runs first: at
    once, or, for a command with `safe_points` (the build), at its next one -- a signal is recorded, never
    lost (generator.interrupts)."""
    try:
        with signals_recorded(safe_points=safe_points):
            fn()
    except (KitError, Failure, KeyboardInterrupt, Terminated) as e:
        failure = Failure.of(e)
        failure.show()
        raise typer.Exit(failure.code) from None


def command(
    name: str | None = None, *, summary: str, safe_points: bool = False, group: typer.Typer | None = None
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A command of the app (or of `group`), run by `run_command`, with its one-line summary for the command
    list of `pnpkit --help` (or the group's; at most 64 characters, so it reads on one line at 80 columns)."""

    def register(body: Callable[..., None]) -> Callable[..., None]:
        @functools.wraps(body)
        def run(*args: Any, **kwargs: Any) -> None:
            run_command(lambda: body(*args, **kwargs), safe_points=safe_points)

        return (group or app).command(name, cls=_Command, short_help=summary)(run)

    return register


def _print_version(value: bool) -> None:
    if value:
        from generator import __version__

        sys.stdout.write(f"pnpkit {__version__}\n")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_print_version, is_eager=True, help="print pnpkit's version and exit"
    ),
) -> None:
    """pnpkit: print-and-play kits from layout specs, proven legal and balanced by seeded self-play."""


def main() -> None:
    """Console-script entry point."""
    os.environ.setdefault("PYTHONHASHSEED", "0")
    # pydantic looks for plugins (observability hooks) by scanning every installed distribution's entry points
    # when the first model is built: ~30 ms a command, for hooks pnpkit's spec models do not use. A user who
    # wants them sets the variable (to anything, e.g. an empty string) and keeps them.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    # numpy's BLAS starts a thread per core when it is imported, and they spin: 0.16 CPU-s of every command
    # that loads numpy, for matrix products pnpkit does not make (its arrays are small; the self-play runs in
    # worker processes). A user who wants BLAS threads sets the variable.
    for var in BLAS_THREADS:
        os.environ.setdefault(var, "1")
    collect_seldom()  # Python's cycle collector walked numba's objects again and again: 0.2 CPU-s a check
    install_for_process()  # (again: `python -m generator` installs it before importing this module)
    import generator.cli  # noqa: F401  (registers every command)

    try:
        app(prog_name="pnpkit")  # `python -m generator` is the same command: its usage lines say pnpkit
    finally:
        gc.freeze()  # the interpreter's last collection, at exit, need not walk everything the command left
