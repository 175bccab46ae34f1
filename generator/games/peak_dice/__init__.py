"""Peak Dice: a roll-and-write whose rows rise to a peak line and fall after it (rules in rules.py). This
package holds only its plugin record."""

from generator.contract.plugin import GamePlugin

GAME = GamePlugin(
    id="peak_dice",
    name="Peak Dice",
    compile_seconds=10,  # bench/bench_compile.py: the compile's wall time, 2 cores
    ruleset="1.1",
    package=__name__,
    spec=".spec:PeakDiceGame",
    print_data=".figures:print_data",
    tunables=".tunables:TUNABLES",
    slots=".layout:SLOTS",
)

__all__ = ["GAME"]
