"""Rummy Cards (seed 004): melds, rules, the exact meld finder, self-play and balance. This package holds only
its plugin record."""

from generator.contract.plugin import GamePlugin

GAME = GamePlugin(
    id="rummy_cards",
    name="Rummy Cards",
    compile_seconds=15,  # bench/bench_compile.py: the compile's wall time, 2 cores
    ruleset="1.2.0",
    package=__name__,
    spec=".spec:RummyCardsGame",
    print_data=".figures:print_data",
    tunables=".tunables:TUNABLES",
    new_game=".turns:new_game",
    slots=".layout:SLOTS",
)

__all__ = ["GAME"]
