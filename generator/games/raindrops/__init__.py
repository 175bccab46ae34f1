"""Raindrops: tile collection and pattern building (2-4 players): components, memory cards and their proofs,
reference rules, policies, the compiled full-game kernel and balance. This package holds only its plugin
record."""

from generator.contract.plugin import GamePlugin

GAME = GamePlugin(
    id="raindrops",
    name="Raindrops",
    compile_seconds=15,  # bench/bench_compile.py: the compile's wall time, 2 cores
    ruleset="0.3.0",
    package=__name__,
    spec=".spec:RaindropsGame",
    print_data=".figures:print_data",
    refit=".refit:refit_edit",
    tunables=".tunables:TUNABLES",
    slots=".layout:SLOTS",
)

__all__ = ["GAME"]
