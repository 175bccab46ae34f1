"""The hallway: parses arguments, calls the rooms, turns what they raise into a message and an exit code.

`base` (the app, its frame, the `command` decorator, errors that show themselves), `options` (the shared
options and their checks, a command's `Run`), `output` (what commands print), and the commands by what they
do: `make` (build, export, validate, i18n extract), `kits` (new, serve, list, schema), `play` (check, tune,
warmup, cache). The rooms are imported inside the commands, so `pnpkit --help` and `validate` load no
self-play kernels (numba), rasteriser or statistics."""

from __future__ import annotations

# the commands are listed by `pnpkit --help` in the order they are registered: make, kits, play
from generator.cli import make

# isort: split
from generator.cli import kits

# isort: split
from generator.cli import play

# isort: split
from generator.cli.base import Failure, app, main, run_command
from generator.cli.kits import serve
from generator.cli.make import _warm_in_background
from generator.cli.play import _compile_first, _compiling

__all__ = [
    "Failure",
    "_compile_first",
    "_compiling",
    "_warm_in_background",
    "app",
    "kits",
    "main",
    "make",
    "play",
    "run_command",
    "serve",
]
